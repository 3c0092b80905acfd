"""The stand-in ``dotenv`` module: ``load_dotenv(...)`` returns True and reads nothing.

The run's environment comes from ``[standins] env`` instead (workspace.py).
"""

import types

NAME = "dotenv"


def load_dotenv(dotenv_path=None, stream=None, verbose=False, override=False,
                interpolate=True, encoding="utf-8"):
    return True


def dotenv_values(dotenv_path=None, stream=None, verbose=False, interpolate=True,
                  encoding="utf-8"):
    return {}


def find_dotenv(filename=".env", raise_error_if_not_found=False, usecwd=False):
    return ""


def build(_context):
    module = types.ModuleType(NAME, "Stand-in for python-dotenv (loopstep): reads nothing.")
    for function in (load_dotenv, dotenv_values, find_dotenv):
        setattr(module, function.__name__, function)
    return {NAME: module}

"""Stand-ins for what a whole published agent file needs: the SDK clients, dotenv,
subprocess, a working folder, the environment and the terminal's input (the lesson's
``[standins]`` table, spec.py), and the isolation of every run (isolation.py).

``Run(standins, output, shown)`` is one run: entered, it saves the interpreter's state,
makes the run's folder the current directory, sets the environment and plants the
stand-in modules in ``sys.modules``; left (however the program ended), it puts
everything back and removes the folder. Stdlib only: the same code runs in CPython
and in Pyodide. See docs/authoring.md, "A published agent file, whole".
"""

import builtins
import os
import sys

from . import anthropic, dotenv, isolation, openai, process, terminal
from .sdk import Ids
from .spec import MODULES, Standins, standins_from_toml
from .workspace import SHOWN, Workspace

__all__ = ["MODULES", "Run", "SHOWN", "Standins", "standins_from_toml"]

_BUILDERS = {"anthropic": anthropic.build, "openai": openai.build, "dotenv": dotenv.build,
             "subprocess": process.build}
_MODEL_CODES = {"anthropic": anthropic.MODEL_CODES, "openai": openai.MODEL_CODES}


class Run:
    """The context of one run: the program's namespace, its stand-ins and isolation."""

    def __init__(self, standins, output, shown=None, folder_name=SHOWN):
        self.standins = standins
        self.output = output
        self.shown = shown        # the run's values.Folder: how the trace shows its folder
        self.namespace = {"__name__": "__main__", "__builtins__": builtins}
        self.model = standins.model if standins else None
        self.shell = standins.shell if standins else None
        self.ids = Ids()
        self.fork = None          # a Fork (runtime/questions/forks.py) whose model call the clients answer
        self.answers = None       # a recording.Replay (or live sender) answering every model call
        self.inputs = None        # the answers of input() for this run instead of [standins] input
        self.on_command = None    # called when a command runs here (the trace marks its tool)
        self.folder_name = folder_name   # how the trace shows the run's folder
        self.folder = None
        self._saved = None
        self._workspace = None

    def model_codes(self):
        """{code object: shown name} of the stand-in clients' model calls."""
        found = {}
        for name in self.standins.modules if self.standins else ():
            found.update(_MODEL_CODES.get(name, {}))
        return found

    def stdin(self, answers=None):
        """The program's stdin: this run's own answers (``inputs``: a recording's or
        ``record --input``'s), else ``answers`` (the run's ``input``: the preset's, the
        block's or the lesson's; runtime/catalog/lessons.py ``Lesson.answers``), or empty."""
        if self.inputs is not None:
            return terminal.stdin(self.inputs, self.output)
        return terminal.stdin(answers, self.output)

    def __enter__(self):
        self._saved = isolation.snapshot()
        try:
            if self.standins is not None:
                self._workspace = Workspace(self.standins.files, self.shown, self.folder_name)
                self.folder = self._workspace.path
                self._workspace.enter()
                os.environ.update(dict(self.standins.env))
                for name in self.standins.modules:
                    sys.modules.update(_BUILDERS[name](self))
        except BaseException:
            self._leave()
            raise
        return self

    def __exit__(self, *exc):
        self._leave()
        return False

    def _leave(self):
        try:
            self._saved.restore()
        finally:
            if self._workspace is not None:
                self._workspace.remove()

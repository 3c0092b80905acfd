"""The ``[standins]`` table of ``lesson.toml``: what a whole published agent file needs.

    [standins]
    modules = ["anthropic", "dotenv", "subprocess"]   # any of MODULES
    model = "reply"          # setup function answering every model request
    shell = "run_command"    # setup function for commands the stand-in shell lacks
    env = { MODEL_ID = "claude-sonnet-4-5" }
    files = { "requirements.txt" = "pytest>=8.0\\n" }
    input = ["y", "n"]

Every key is optional. Its types are checked by runtime/catalog/schema.py; then, at
start-up (``standins_from_toml``), the modules must be known ones, the names of
``model`` and ``shell`` must be top-level functions of the setup file (read with
``ast``, nothing runs), ``files`` paths relative without ``..``. See
docs/authoring.md, "A published agent file, whole".
"""

import ast
from dataclasses import dataclass
from pathlib import PurePosixPath

MODULES = ("anthropic", "openai", "dotenv", "subprocess")
MODEL_MODULES = ("anthropic", "openai")
# The recorder's modules a stand-in imports only when a run plants it, as paths under
# runtime/ (a folder ends with "/"): the page's memory snapshot leaves them out, and the
# bundle of a lesson whose [standins] has the module carries their files (web/bundles.py).
LAZY_MODULES = {"subprocess": ("standins/shell.py", "standins/python_command.py",
                               "standins/sh/")}


@dataclass(frozen=True)
class Standins:
    modules: tuple = ()
    model: str | None = None          # name of the setup's reply function
    shell: str | None = None          # name of the setup's command function
    env: tuple = ()                   # ((name, value), …)
    files: tuple = ()                 # ((relative path, text), …)
    input: tuple | None = None        # the answers of input(), in order


def _top_functions(text, path, error):
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as failure:
        raise error(path, f"syntax error on line {failure.lineno}: {failure.msg}") from None
    return {node.name for node in tree.body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}


def _file_path(path, here, error):
    parts = PurePosixPath(path).parts
    if not path or path.startswith(("/", "\\")) or "\\" in path or ".." in parts \
            or ":" in parts[0] or path.endswith("/"):
        raise error(here, f"files: path {path!r} must be relative, without '..'")
    return path


def standins_from_toml(raw, where, setup_text, setup_path, error):
    """The Standins of a ``[standins]`` table (None when absent), already checked
    against the schema (runtime/catalog/schema.py): here only what the types cannot say.

    ``where``: the lesson.toml's name for messages; ``setup_text``/``setup_path``: the
    setup file whose top-level functions ``model`` and ``shell`` must name;
    ``error(where, reason)`` builds the exception (catalog.LessonError).
    """
    if raw is None:
        return None
    here = f"{where} [standins]"
    modules = raw.get("modules", [])
    for name in modules:
        if name not in MODULES:
            raise error(here, f"unknown module {name!r} (known: {', '.join(MODULES)})")
    defined = None
    names = {}
    for key in ("model", "shell"):
        name = raw.get(key)
        if name is None:
            continue
        if defined is None:
            defined = _top_functions(setup_text, setup_path, error)
        if name not in defined:
            raise error(here, f"{key}: the setup {setup_path} defines no top-level "
                              f"function {name!r}")
        names[key] = name
    model_modules = [m for m in modules if m in MODEL_MODULES]
    if model_modules and "model" not in names:
        raise error(here, f"module {model_modules[0]!r} needs model = \"<setup function>\"")
    if "model" in names and not model_modules:
        raise error(here, "model needs the module 'anthropic' or 'openai'")
    if "shell" in names and "subprocess" not in modules:
        raise error(here, "shell needs the module 'subprocess'")
    files = tuple(raw.get("files", {}).items())
    for path, _ in files:
        _file_path(path, here, error)
    answers = raw.get("input")
    return Standins(tuple(dict.fromkeys(modules)), names.get("model"), names.get("shell"),
                    tuple(raw.get("env", {}).items()), files,
                    None if answers is None else tuple(answers))

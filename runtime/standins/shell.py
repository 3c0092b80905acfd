"""The stand-in shell: bash's syntax and the coreutils agents use, run against the
run's folder, never a process.

Syntax (sh/parse.py, sh/expand.py, sh/run.py): pipelines, ``&&``/``||``/``;``/newlines,
``!``, redirections (``<``, ``>``, ``>>``, ``2>``, ``2>&1``, ``&>``, ``<<<``,
``/dev/null``), ``NAME=value``, ``$NAME``/``${NAME:-x}``, ``$?``, ``$((…))``, ``$(…)``
and backquotes, braces, quoting, globs expanded against the folder, here-documents,
``( … )``, ``{ …; }``, ``(( … ))``, ``[[ … ]]``, ``if``, ``for``, ``while``/``until``,
``case``, functions, and the builtins of sh/builtins.py (``cd``, ``export``, ``local``,
``return``, ``read``, ``set -euo pipefail``, ``source``, ``trap … EXIT``, …).
Commands (sh/table.py): ``ls find cat mkdir touch cp mv rm basename dirname head tail
wc sort uniq cut tr nl seq grep egrep fgrep sed awk echo printf test [ [[ true false
xargs diff tee paste timeout realpath md5sum sha1sum sha256sum bash sh which command
type pwd env printenv sleep stat readlink chmod ln tac rev comm fold column expr`` and
``./script`` (its execute bit set), with GNU's formats and messages (``LC_ALL=C``), and
``python``/``python3`` (``-c CODE``, ``FILE``, ``-m MODULE``: run in-process and
isolated, python_command.py). Paths outside the run's folder do not exist. A line with
any other command, or syntax the shell lacks (arrays, ``&``, ``<(…)``), goes whole to
the setup's ``shell`` function when there is one; otherwise an unknown command exits 127 with
``bash: line 1: NAME: command not found``, a syntax error exits 2 with bash's message
and syntax the shell lacks exits 2 with ``sh: unsupported syntax: …`` on stderr.
"""

import os
import re

from . import python_command
from .sh import expand
from .sh.parse import Compound, Unsupported, parse
from .sh.run import Run
from .sh.table import BUILTINS, COMMANDS

NOT_FOUND = 127


class Shell:
    """Runs command lines in ``root`` (the run's folder); ``handler``: the setup's shell
    function or None."""

    NOT_FOUND = NOT_FOUND   # the code of a command the shell does not have

    def __init__(self, root, handler=None):
        self.root = os.path.realpath(root)
        self.handler = handler

    # -- paths -----------------------------------------------------------------------
    def path(self, name, cwd):
        """The real path of ``name`` seen from ``cwd``, or None outside the folder."""
        full = os.path.realpath(os.path.join(cwd, name))
        if full == self.root or full.startswith(self.root + os.sep):
            return full
        return None

    def directory(self, cwd):
        """``cwd`` (relative to the current directory) if it is a folder of the run's."""
        full = self.path(cwd if cwd is not None else os.getcwd(), os.getcwd())
        return full if full is not None and os.path.isdir(full) else None

    # -- lines -----------------------------------------------------------------------
    def known(self, line, cwd=None):
        """Whether every command of ``line`` is one of ours and its syntax is supported
        (a ``python -m`` of a module that is not there is not ours)."""
        return self.known_line(line, cwd if cwd is not None else os.getcwd())

    @staticmethod
    def known_line(line, folder):
        try:
            chain = parse(line)
        except Unsupported:
            return False
        defined = set(_functions(chain))
        return all(Shell._known(command, folder, defined) for command in _commands(chain))

    @staticmethod
    def _known(command, folder, defined=()):
        name = _literal(command.words[0])
        if name is None or name in defined:
            return True
        if name not in COMMANDS and name not in BUILTINS:
            return False
        if name in ("bash", "sh") and len(command.words) > 2 and command.words[1] == "-c":
            inner = _literal(command.words[2])
            return inner is None or Shell.known_line(inner, folder)
        return name not in python_command.NAMES or python_command.available(
            [_literal(w) or w for w in command.words[1:]], folder)

    def run_line(self, line, cwd, stdin=""):
        """(exit code, stdout, stderr) of a command line."""
        variables = {"HOME": self.root, "PATH": "/usr/local/bin:/usr/bin:/bin"}
        return Run(self, cwd, variables).line(line, stdin)

    def run_argv(self, argv, cwd, stdin=""):
        command = COMMANDS.get(argv[0])
        if command is None and "/" in argv[0]:
            return self.run_file(argv, cwd, stdin)
        if command is None:
            if argv[0] == "pwd":
                return 0, cwd + "\n", ""
            return NOT_FOUND, "", f"bash: line 1: {argv[0]}: command not found\n"
        try:
            return command(self, argv[1:], cwd, stdin)
        except OSError as error:
            return 1, "", f"{argv[0]}: {error.strerror or error}\n"
        except re.error as error:
            return 2, "", f"{argv[0]}: invalid regular expression: {error}\n"
        except Exception as error:   # noqa: BLE001 (arguments a command does not expect)
            return 2, "", f"{argv[0]}: {error}\n"

    def run_file(self, argv, cwd, stdin):
        """``./script ARGS``: a file of the folder with its execute bit, run by its ``#!``
        line's interpreter (python or the stand-in shell)."""
        full = self.path(argv[0], cwd)
        if full is None or not os.path.exists(full):
            return NOT_FOUND, "", f"bash: line 1: {argv[0]}: No such file or directory\n"
        if os.path.isdir(full):
            return 126, "", f"bash: line 1: {argv[0]}: Is a directory\n"
        if not os.access(full, os.X_OK):
            return 126, "", f"bash: line 1: {argv[0]}: Permission denied\n"
        with open(full, encoding="utf-8", errors="replace") as handle:
            first = handle.readline()
        if first.startswith("#!") and "python" in first:
            return python_command.run(self, argv, cwd, stdin)
        return COMMANDS["bash"](self, argv, cwd, stdin)


def _commands(chain):
    """The simple commands (with words) of a parsed list, inside compounds too."""
    for _, _, pipeline in chain:
        for command in pipeline:
            if isinstance(command, Compound):
                for part in ("body", "test", "other"):
                    yield from _commands(getattr(command, part, None) or [])
                for test, body in getattr(command, "branches", []):
                    yield from _commands(test)
                    yield from _commands(body)
                for _, body in getattr(command, "arms", []):
                    yield from _commands(body)
            elif command.words:
                yield command


def _functions(chain):
    """The names of the functions a parsed list defines."""
    for _, _, pipeline in chain:
        for command in pipeline:
            if isinstance(command, Compound):
                if command.kind == "function":
                    yield command.name
                for part in ("body", "test", "other"):
                    yield from _functions(getattr(command, part, None) or [])


def _literal(word):
    """The text of a word with no expansion in it (quotes removed), else None."""
    if any(c in word for c in "$`*?[~"):
        return None
    return expand.one(word, None)

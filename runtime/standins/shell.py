"""The stand-in shell: a few commands run against the run's folder, never a process.

Commands: ``cat``, ``ls [-a]``, ``pwd``, ``echo [-n]``, ``head [-n N|-N]``,
``wc [-l|-w|-c]``, ``grep [-i] [-v] [-n] [-c] [-r] PATTERN`` (a Python regular
expression), and ``python``/``python3`` (``-c CODE``, ``FILE``, ``-m MODULE``: run
in-process and isolated, python_command.py). A line is split with ``shlex`` (quotes as in sh); it may chain commands
with ``|``, ``&&``, ``||`` and ``;`` and end a command with ``> FILE`` or ``>> FILE``.
No variables, globbing or substitutions. Paths outside the run's folder do not exist.
A line with any other command, or other syntax, goes whole to the setup's ``shell``
function when there is one; otherwise an unknown command exits 127 with
``NAME: command not found`` on stderr.
"""

import os
import re
import shlex

from . import python_command

_OPERATORS = ("|", "&&", "||", ";")
_REDIRECTS = (">", ">>")
NOT_FOUND = 127


class _Unsupported(Exception):
    pass


def tokens(line):
    """Words and operators of a command line; _Unsupported for other syntax."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        found = list(lexer)
    except ValueError as error:          # an unclosed quote
        raise _Unsupported(str(error)) from None
    for token in found:
        if token and set(token) <= set("();<>|&") and token not in _OPERATORS + _REDIRECTS:
            raise _Unsupported(token)
    return found


def parse(line):
    """[(operator before, [[argv, redirect], …] pipeline), …]."""
    chain, pipeline, argv, before = [], [], [], None
    words = iter(tokens(line))
    redirect = None
    for token in words:
        if token in _REDIRECTS:
            target = next(words, None)
            if target is None or target in _OPERATORS + _REDIRECTS:
                raise _Unsupported(token)
            redirect = (token, target)
        elif token in _OPERATORS:
            if not argv:
                raise _Unsupported(token)
            pipeline.append((argv, redirect))
            argv, redirect = [], None
            if token != "|":
                chain.append((before, pipeline))
                pipeline, before = [], token
        else:
            argv.append(token)
    if argv:
        pipeline.append((argv, redirect))
    elif pipeline or before is not None:
        raise _Unsupported("an operator at the end")
    if pipeline:
        chain.append((before, pipeline))
    return chain


class Shell:
    """Runs command lines in ``root`` (the run's folder); ``handler``: the setup's shell
    function or None."""

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

    def read(self, name, cwd, command):
        full = self.path(name, cwd)
        if full is None or not os.path.exists(full):
            raise OSError(f"{command}: {name}: No such file or directory")
        if os.path.isdir(full):
            raise OSError(f"{command}: {name}: Is a directory")
        with open(full, encoding="utf-8", errors="replace", newline="") as handle:
            return handle.read()

    # -- lines -----------------------------------------------------------------------
    def known(self, line, cwd=None):
        """Whether every command of ``line`` is one of ours and its syntax is supported
        (a ``python -m`` of a module that is not there is not ours)."""
        try:
            chain = parse(line)
        except _Unsupported:
            return False
        folder = cwd if cwd is not None else os.getcwd()
        return all(argv[0] in COMMANDS and (argv[0] not in python_command.NAMES
                                           or python_command.available(argv[1:], folder))
                   for _, pipeline in chain for argv, _ in pipeline)

    def run_line(self, line, cwd, stdin=""):
        """(exit code, stdout, stderr) of a command line."""
        try:
            chain = parse(line)
        except _Unsupported as error:
            return 2, "", f"sh: unsupported syntax: {error}\n"
        code, out, err = 0, [], []
        for before, pipeline in chain:
            if (before == "&&" and code != 0) or (before == "||" and code == 0):
                continue
            data = stdin
            for argv, redirect in pipeline:
                code, data, error = self.run_argv(argv, cwd, data)
                err.append(error)
                if redirect is not None:
                    code, data, error = self._redirect(redirect, data, cwd, code)
                    err.append(error)
            out.append(data)
        return code, "".join(out), "".join(err)

    def _redirect(self, redirect, data, cwd, code):
        kind, name = redirect
        full = self.path(name, cwd)
        if full is None or not os.path.isdir(os.path.dirname(full)):
            return 1, "", f"sh: {name}: No such file or directory\n"
        with open(full, "a" if kind == ">>" else "w", encoding="utf-8", newline="") as handle:
            handle.write(data)
        return code, "", ""

    def run_argv(self, argv, cwd, stdin=""):
        command = COMMANDS.get(argv[0])
        if command is None:
            return NOT_FOUND, "", f"{argv[0]}: command not found\n"
        try:
            return command(self, argv[1:], cwd, stdin)
        except OSError as error:
            return 1, "", f"{error}\n"


# -- the commands: (shell, args, cwd, stdin) -> (code, stdout, stderr) --------------------
def _flags(args, allowed):
    flags, rest = set(), []
    for arg in args:
        if arg.startswith("-") and len(arg) > 1 and not rest:
            flags.update(arg[1:])
        else:
            rest.append(arg)
    unknown = flags - set(allowed)
    if unknown:
        raise OSError(f"invalid option -- '{sorted(unknown)[0]}'")
    return flags, rest


def _inputs(shell, names, cwd, stdin, command):
    """[(name, text)] of the files named, or of stdin when none; errors collected."""
    if not names:
        return [(None, stdin)], "", 0
    found, errors = [], []
    for name in names:
        try:
            found.append((name, shell.read(name, cwd, command)))
        except OSError as error:
            errors.append(f"{error}\n")
    return found, "".join(errors), 1 if errors else 0


def _cat(shell, args, cwd, stdin):
    found, err, code = _inputs(shell, args, cwd, stdin, "cat")
    return code, "".join(text for _, text in found), err


def _pwd(shell, args, cwd, stdin):
    return 0, cwd + "\n", ""


def _echo(shell, args, cwd, stdin):
    if args[:1] == ["-n"]:
        return 0, " ".join(args[1:]), ""
    return 0, " ".join(args) + "\n", ""


def _ls(shell, args, cwd, stdin):
    flags, names = _flags(args, "a1")
    out, err, code = [], [], 0
    for name in names or ["."]:
        full = shell.path(name, cwd)
        if full is None or not os.path.exists(full):
            err.append(f"ls: cannot access '{name}': No such file or directory\n")
            code = 2
            continue
        if not os.path.isdir(full):
            out.append(f"{name}\n")
            continue
        entries = sorted(e for e in os.listdir(full) if "a" in flags or not e.startswith("."))
        if "a" in flags:
            entries = [".", ".."] + entries
        header = f"{name}:\n" if len(names) > 1 else ""
        out.append(header + "".join(f"{e}\n" for e in entries) + ("\n" if header else ""))
    return code, "".join(out).rstrip("\n") + "\n" if out else "", "".join(err)


def _head(shell, args, cwd, stdin):
    count, names = 10, []
    items = iter(args)
    for arg in items:
        if arg == "-n":
            count = int(next(items, "10"))
        elif re.fullmatch(r"-n?\d+", arg):
            count = int(arg.lstrip("-n"))
        else:
            names.append(arg)
    found, err, code = _inputs(shell, names, cwd, stdin, "head")
    out = []
    for index, (name, text) in enumerate(found):
        if len(found) > 1:
            out.append(("\n" if index else "") + f"==> {name} <==\n")
        out.append("".join(text.splitlines(True)[:count]))
    return code, "".join(out), err


def _wc(shell, args, cwd, stdin):
    flags, names = _flags(args, "lwc")
    found, err, code = _inputs(shell, names, cwd, stdin, "wc")
    shown = [k for k in "lwc" if k in flags] or ["l", "w", "c"]
    rows = []
    for name, text in found:
        counts = {"l": text.count("\n"), "w": len(text.split()),
                  "c": len(text.encode("utf-8"))}
        rows.append(([counts[k] for k in shown], name))
    if len(rows) > 1:
        rows.append(([sum(r[0][i] for r in rows) for i in range(len(shown))], "total"))
    width = max(len(str(n)) for numbers, _ in rows for n in numbers) if rows else 1
    if len(rows) == 1 and len(shown) == 1:
        width = 1
    out = "".join(" ".join(f"{n:>{width}}" for n in numbers)
                  + (f" {name}" if name else "") + "\n" for numbers, name in rows)
    return code, out, err


def _grep(shell, args, cwd, stdin):
    flags, rest = _flags(args, "ivncrl")
    if not rest:
        return 2, "", "Usage: grep [OPTION]... PATTERNS [FILE]...\n"
    pattern = re.compile(rest[0], re.IGNORECASE if "i" in flags else 0)
    names = rest[1:]
    if "r" in flags:
        names = _walk(shell, names or ["."], cwd)
    found, err, code = _inputs(shell, names, cwd, stdin, "grep")
    prefix = len(names) > 1 or "r" in flags
    out, matched = [], False
    for name, text in found:
        hits = [(number, line) for number, line in enumerate(text.splitlines(), 1)
                if bool(pattern.search(line)) != ("v" in flags)]
        matched = matched or bool(hits)
        lead = f"{name}:" if prefix and name else ""
        if "l" in flags:
            out.extend(f"{name}\n" for _ in hits[:1])
        elif "c" in flags:
            out.append(f"{lead}{len(hits)}\n")
        else:
            out.extend(f"{lead}{f'{n}:' if 'n' in flags else ''}{line}\n" for n, line in hits)
    return (code or 2) if err else (0 if matched else 1), "".join(out), err


def _walk(shell, names, cwd):
    files = []
    for name in names:
        full = shell.path(name, cwd)
        if full is None or not os.path.isdir(full):
            files.append(name)
            continue
        for folder, dirs, found in os.walk(full):
            dirs.sort()
            rel = os.path.relpath(folder, cwd)
            for file in sorted(found):
                files.append(os.path.normpath(os.path.join(rel, file)))
    return files


COMMANDS = {"cat": _cat, "ls": _ls, "pwd": _pwd, "echo": _echo, "head": _head,
            "wc": _wc, "grep": _grep, "python": python_command.run,
            "python3": python_command.run}

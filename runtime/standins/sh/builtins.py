"""The builtins that change the running shell itself (run.py's ``Run``): ``cd``,
``export``/``readonly``/``local``, ``unset``, ``exit``, ``return``, ``:``, ``set``
(``-e``, ``-u``, ``-o pipefail``, ``--``), ``shift``, ``break``/``continue``, ``read``,
``pwd``, ``source``/``.``, ``trap … EXIT``, and calls of the line's shell functions
(``$1``…, ``$@``, ``local`` names restored when the function returns)."""

import os
import re

NAMES = ("cd", "export", "readonly", "local", "declare", "typeset", "unset", "exit", "return",
         ":", "pwd", "read", "break", "continue", "set", "shift", "source", ".", "trap")
DEPTH = 40   # nested function calls before the call fails (never a Python recursion error)


class Jump(Exception):
    """Leaving lists early; ``out``: the stdout made on the way."""

    def __init__(self, code=0):
        super().__init__(code)
        self.code, self.out = code, ""


class ExitLine(Jump):
    """``exit`` (or an error that ends a non-interactive shell, ``set -u``)."""


class LoopControl(Jump):
    """``break`` (code 1) or ``continue`` (code 0) in a loop."""


class Return(Jump):
    """``return`` from a function or a sourced file."""


class Unbound(ExitLine):
    """``$NAME`` of an unset variable under ``set -u``: the line ends with status 127."""

    def __init__(self, name):
        super().__init__(127)
        self.message = f"bash: line 1: {name}: unbound variable\n"


def builtin(run, argv, stdin):
    """(code, stdout, stderr) of a builtin, or None when ``argv`` names none."""
    name, args = argv[0], argv[1:]
    if name in run.functions:
        return call(run, run.functions[name], args, stdin)
    if name not in NAMES:
        return None
    if name == "cd":
        return _cd(run, args)
    if name == "local" and not run.frames:
        return 1, "", "bash: line 1: local: can only be used in a function\n"
    if name in ("export", "readonly", "local", "declare", "typeset"):
        if name in ("declare", "typeset"):
            name = "export" if any("x" in a for a in args if a.startswith("-")) else "local"
        for item in (a for a in args if not a.startswith("-")):
            key, found, value = item.partition("=")
            if name == "local" and run.frames and key not in run.frames[-1]:
                run.frames[-1][key] = run.vars.get(key)
            if name == "export":
                run.exported.add(key)
            if found:
                run.vars[key] = value
        return 0, "", ""
    if name == "unset":
        for item in args:
            run.vars.pop(item, None)
        return 0, "", ""
    if name in ("exit", "return"):
        if name == "return" and not run.frames:
            return 2, "", ("bash: line 1: return: can only `return' from a function or "
                           "sourced script\n")
        code = int(args[0]) & 0xFF if args and args[0].lstrip("-").isdigit() else run.status
        raise (ExitLine if name == "exit" else Return)(code)
    if name in (":", "trap"):
        if name == "trap" and len(args) >= 2 and {"EXIT", "0"} & set(args[1:]):
            run.on_exit = args[0]
        return 0, "", ""
    if name == "set":
        return _set(run, args)
    if name == "shift":
        count = int(args[0]) if args else 1
        if count > len(run.args):
            return 1, "", ""
        run.args = run.args[count:]
        return 0, "", ""
    if name in ("break", "continue"):
        if not run.loops:
            return 0, "", (f"bash: line 1: {name}: only meaningful in a `for', "
                           "`while', or `until' loop\n")
        raise LoopControl(int(name == "break"))
    if name == "read":
        return _read_line(run, args, stdin)
    if name == "pwd":
        return 0, run.cwd + "\n", ""
    return _source(run, name, args, stdin)


def call(run, body, args, stdin):
    """Run a function's body with ``args`` as ``$1``…; its ``local`` names restored after."""
    from .run import shared
    if len(run.frames) >= DEPTH:
        return 1, "", f"bash: line 1: maximum function nesting level exceeded ({DEPTH})\n"
    saved_args, saved_err = run.args, run.err
    run.args, run.err = list(args), []
    run.frames.append({})
    try:
        out = run.list(body, shared(stdin))
        code = run.status
    except Return as done:
        out, code = done.out, done.code
    except Jump:
        saved_err.append("".join(run.err))
        run.err = saved_err
        raise
    finally:
        for key, value in run.frames.pop().items():
            if value is None:
                run.vars.pop(key, None)
            else:
                run.vars[key] = value
        run.args = saved_args
    err, run.err = "".join(run.err), saved_err
    return code, out, err


def _set(run, args):
    index = 0
    while index < len(args):
        flag = args[index]
        index += 1
        if flag == "--" or not flag.startswith(("-", "+")):
            run.args = args[index:] if flag == "--" else args[index - 1:]
            return 0, "", ""
        on = flag.startswith("-")
        if flag.endswith("o") and flag[1:] and index < len(args):   # -o NAME, -euo NAME
            option = args[index]
            index += 1
            if option in ("pipefail", "errexit", "nounset"):
                setattr(run, {"errexit": "errexit", "nounset": "nounset"}.get(
                    option, "pipefail"), on)
            flag = flag[:-1]
        if "e" in flag[1:]:
            run.errexit = on
        if "u" in flag[1:]:
            run.nounset = on
    return 0, "", ""


def _source(run, name, args, stdin):
    """``source FILE`` / ``. FILE``: the file's lines run in this shell."""
    from .parse import Unsupported, parse
    if not args:
        return 2, "", (f"bash: line 1: {name}: filename argument required\n"
                       f"{name}: usage: {name} filename [arguments]\n")
    full = run.shell.path(args[0], run.cwd)
    if full is None or not os.path.isfile(full):
        return 1, "", f"bash: line 1: {args[0]}: No such file or directory\n"
    with open(full, encoding="utf-8", errors="replace") as handle:
        text = handle.read()
    try:
        chain = parse(text)
    except Unsupported as error:
        return 2, "", f"bash: {args[0]}: {error}\n"
    saved = run.args
    if args[1:]:
        run.args = args[1:]
    run.frames.append({})
    try:
        out = run.list(chain, stdin)
        code = run.status
    except Return as done:
        out, code = done.out, done.code
    finally:
        run.frames.pop()   # a sourced file's ``local`` names stay, as in bash at its top
        run.args = saved
    return code, out, ""


def _read_line(run, args, stdin):
    """``read [-r] [NAME …]``: the next line of the input into the names."""
    from .run import Input
    names = [a for a in args if not a.startswith("-")] or ["REPLY"]
    text = stdin.rest if isinstance(stdin, Input) else stdin
    if not text:
        for name in names:
            run.vars[name] = ""
        return 1, "", ""
    line, newline, rest = text.partition("\n")
    if isinstance(stdin, Input):
        stdin.rest = rest
    separator = run.vars.get("IFS", " \t\n")
    if separator.strip(" \t\n"):
        words = [w.strip(" \t") for w in re.split(
            "[" + re.escape(separator.strip(" \t\n")) + "]", line,
            maxsplit=len(names) - 1)]
    else:
        words = line.split(None, len(names) - 1) if len(names) > 1 else [line.strip()]
    for index, name in enumerate(names):
        run.vars[name] = words[index] if index < len(words) else ""
    return 0, "", ""


def _cd(run, args):
    target = args[0] if args else run.vars.get("HOME", run.shell.root)
    if target == "-":
        target = run.vars.get("OLDPWD", run.cwd)
    full = run.shell.path(target, run.cwd)
    if full is None or not os.path.exists(full):
        return 1, "", f"bash: line 1: cd: {target}: No such file or directory\n"
    if not os.path.isdir(full):
        return 1, "", f"bash: line 1: cd: {target}: Not a directory\n"
    run.vars["OLDPWD"], run.cwd = run.cwd, full
    run.vars["PWD"] = full
    return 0, "", ""

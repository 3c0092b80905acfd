"""Commands about commands: ``bash``/``sh`` (``-c LINE`` or a script of the folder, run
by a new stand-in shell with the exported variables), ``which``, ``command`` (``-v``),
``type`` (``-t``), ``env``/``printenv`` (the stand-in shell's exported variables, never
the machine's) and ``sleep`` (which returns at once; in a run with threads it takes its
virtual time, so the other threads run meanwhile: world/schedule.py). The stand-in world's
commands live in ``/usr/bin``."""

import re

from ...world import schedule

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}

BIN = "/usr/bin/"


def _tables():
    from .table import BUILTINS, COMMANDS   # the table imports this module
    return COMMANDS, BUILTINS


def bash(shell, args, cwd, stdin, name="bash"):
    from .run import Run
    items = [a for a in args if a not in ("-e", "-x", "-u", "-l", "--login", "-i")]
    if items[:1] == ["-c"]:
        if len(items) < 2:
            return 2, "", "bash: -c: option requires an argument\n"
        line, positional = items[1], items[3:]
        name = items[2] if len(items) > 2 else name
    elif items:
        full = shell.path(items[0], cwd)
        try:
            with open(full, encoding="utf-8") as handle:
                line = handle.read()
        except (OSError, TypeError):
            return 127, "", f"bash: {items[0]}: No such file or directory\n"
        positional, name = items[1:], items[0]
    else:
        line, positional = stdin, []
    run = Run(shell, cwd, environment(shell))
    run.args, run.zero = positional, name
    return run.line(line, "" if items else stdin)


def environment(shell):
    """The variables a child process of the running shell sees."""
    return dict(getattr(shell, "environ", None) or
                {"HOME": shell.root, "PATH": "/usr/local/bin:/usr/bin:/bin"})


def env(shell, args, cwd, stdin):
    variables, items = environment(shell), list(args)
    if items[:1] in (["-i"], ["--ignore-environment"]):
        variables, items = {}, items[1:]
    while items and re.match(r"[A-Za-z_][A-Za-z_0-9]*=", items[0]):
        name, _, value = items.pop(0).partition("=")
        variables[name] = value
    if not items:
        return 0, "".join(f"{k}={v}\n" for k, v in variables.items()), ""
    saved, shell.environ = getattr(shell, "environ", None), variables
    try:
        code, out, err = shell.run_argv(items, cwd, stdin)
    finally:
        shell.environ = saved
    if code == 127 and err.startswith("bash: line 1:"):
        return 127, out, f"env: '{items[0]}': No such file or directory\n"
    return code, out, err


def printenv(shell, args, cwd, stdin):
    variables = environment(shell)
    if not args:
        return 0, "".join(f"{k}={v}\n" for k, v in variables.items()), ""
    found = [variables[a] for a in args if a in variables]
    return int(len(found) != len(args)), "".join(f"{v}\n" for v in found), ""


def sleep(shell, args, cwd, stdin):
    if not args:
        return 1, "", "sleep: missing operand\nTry 'sleep --help' for more information.\n"
    for arg in args:
        if not re.fullmatch(r"(\d+\.?\d*|\.\d+)[smhd]?", arg):
            return 1, "", (f"sleep: invalid time interval '{arg}'\n"
                           "Try 'sleep --help' for more information.\n")
    schedule.idle(sum(float(a.rstrip("smhd")) * _UNITS.get(a[-1], 1) for a in args))
    return 0, "", ""


def which(shell, args, cwd, stdin):
    commands, _ = _tables()
    names = [a for a in args if not a.startswith("-")]
    found = [BIN + n for n in names if n in commands]
    return (0 if names and len(found) == len(names) else 1), "".join(f"{p}\n" for p in found), ""


def command(shell, args, cwd, stdin):
    commands, builtins = _tables()
    if args[:1] in (["-v"], ["-V"]):
        out = []
        for name in args[1:]:
            if name in builtins:
                out.append(name if args[0] == "-v" else f"{name} is a shell builtin")
            elif name in commands:
                out.append(BIN + name if args[0] == "-v" else f"{name} is {BIN}{name}")
        return (0 if len(out) == len(args) - 1 and out else 1), "".join(f"{o}\n" for o in out), ""
    if not args:
        return 0, "", ""
    return shell.run_argv(args, cwd, stdin)


def type_(shell, args, cwd, stdin):
    commands, builtins = _tables()
    out, err = [], []
    short = args[:1] == ["-t"]
    for name in args[1:] if short else args:
        if name in builtins or name in ("command", "type"):
            out.append("builtin\n" if short else f"{name} is a shell builtin\n")
        elif name in commands:
            out.append("file\n" if short else f"{name} is {BIN}{name}\n")
        elif short:
            err.append("")
        else:
            err.append(f"bash: line 1: type: {name}: not found\n")
    return int(bool(err)), "".join(out), "".join(err)

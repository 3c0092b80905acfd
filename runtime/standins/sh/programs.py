"""Commands about commands: ``bash``/``sh`` (``-c LINE`` or a script of the folder, run
by a new stand-in shell), ``which``, ``command`` (``-v``) and ``type``. The stand-in
world's commands live in ``/usr/bin``."""

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
    run = Run(shell, cwd, {"HOME": shell.root, "PATH": "/usr/local/bin:/usr/bin:/bin"})
    run.args, run.zero = positional, name
    return run.line(line, "" if items else stdin)


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
    for name in args:
        if name in builtins or name in ("command", "type"):
            out.append(f"{name} is a shell builtin\n")
        elif name in commands:
            out.append(f"{name} is {BIN}{name}\n")
        else:
            err.append(f"bash: line 1: type: {name}: not found\n")
    return int(bool(err)), "".join(out), "".join(err)

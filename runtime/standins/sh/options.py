"""What the commands share: GNU-style options and reading their input files."""

import os


class Usage(Exception):
    """A command's wrong use: (exit code, stderr text)."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code, self.message = code, message


def guarded(function):
    """A command ``(shell, args, cwd, stdin) -> (code, stdout, stderr)`` whose Usage error
    is its answer: the code, nothing on stdout, the message on stderr."""
    def command(shell, args, cwd, stdin):
        try:
            return function(shell, args, cwd, stdin)
        except Usage as usage:
            return usage.code, "", usage.message
    command.__name__ = function.__name__
    return command


def options(command, args, flags, valued="", longs=None):
    """(set of flags, {option: value}, operands) of GNU-style arguments: short flags
    may be combined (``-rn``), ``valued`` ones take a value (``-n 5``/``-n5``), ``--``
    ends the options, ``longs`` maps ``--name`` (or ``--name=``) to a short flag."""
    found, values, rest = set(), {}, []
    items = list(args)
    index = 0
    while index < len(items):
        arg = items[index]
        index += 1
        if arg == "--":
            rest.extend(items[index:])
            break
        if arg.startswith("--") and longs is not None:
            name, eq, value = arg.partition("=")
            key = longs.get(name + ("=" if eq or name + "=" in longs else ""))
            if key is None:
                raise Usage(2 if command in ("ls", "grep", "sort", "diff") else 1,
                            f"{command}: unrecognized option '{arg}'\n"
                            f"Try '{command} --help' for more information.\n")
            if name + "=" in longs:
                if not eq:
                    value, index = items[index] if index < len(items) else "", index + 1
                values.setdefault(key, []).append(value)
            else:
                found.add(key)
            continue
        if not arg.startswith("-") or arg == "-":
            rest.append(arg)
            continue
        position = 1
        while position < len(arg):
            flag = arg[position]
            if flag in valued:
                value = arg[position + 1:]
                if not value:
                    if index >= len(items):
                        raise Usage(1, f"{command}: option requires an argument -- '{flag}'\n"
                                       f"Try '{command} --help' for more information.\n")
                    value, index = items[index], index + 1
                values.setdefault(flag, []).append(value)
                break
            if flag not in flags:
                raise Usage(2 if command in ("ls", "grep", "sort", "diff") else 1,
                            f"{command}: invalid option -- '{flag}'\n"
                            f"Try '{command} --help' for more information.\n")
            found.add(flag)
            position += 1
    return found, values, rest


def read(shell, name, cwd):
    """The text of a file of the run's folder; OSError with the reason otherwise."""
    full = shell.path(name, cwd)
    if full is None or not os.path.exists(full):
        raise FileNotFoundError("No such file or directory")
    if os.path.isdir(full):
        raise IsADirectoryError("Is a directory")
    with open(full, encoding="utf-8", errors="replace", newline="") as handle:
        return handle.read()


def inputs(shell, names, cwd, stdin, error):
    """([(name, text)], stderr, code) of the files named, or of stdin for none or ``-``;
    ``error(name, reason)`` writes a failure as the command does."""
    if not names:
        return [("-", stdin)], "", 0
    found, errors = [], []
    for name in names:
        if name == "-":
            found.append((name, stdin))
            continue
        try:
            found.append((name, read(shell, name, cwd)))
        except OSError as failure:
            errors.append(error(name, failure.args[-1] if failure.args else str(failure)))
    return found, "".join(errors), 1 if errors else 0


def lines(text):
    """The lines of a text without their newlines (a last line without one counts)."""
    return text.split("\n")[:-1] if text.endswith("\n") else (text.split("\n") if text else [])


def join(rows):
    return "".join(f"{row}\n" for row in rows)

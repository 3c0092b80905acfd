"""Commands about files rather than their text: ``stat`` (``-c``/``--format``,
``--printf``), ``readlink`` (``-f``, ``-e``, ``-m``), ``chmod`` (octal and ``ugoa+-=rwx``
modes, ``-R``) and ``ln`` (``-s``, ``-f``), with GNU's messages."""

import os
import re
import stat as modes

from .misc import _escapes
from .options import Usage, options, guarded

_KINDS = ((modes.S_ISLNK, "symbolic link"), (modes.S_ISDIR, "directory"),
          (modes.S_ISREG, "regular file"), (modes.S_ISFIFO, "fifo"))


def _missing(command):
    return Usage(1, f"{command}: missing operand\nTry '{command} --help' for more information.\n")


def _field(letter, name, facts):
    if letter == "n":
        return name
    if letter == "s":
        return str(facts.st_size)
    if letter == "F":
        kind = next((k for test, k in _KINDS if test(facts.st_mode)), "weird file")
        return "regular empty file" if kind == "regular file" and not facts.st_size else kind
    if letter == "a":
        return f"{modes.S_IMODE(facts.st_mode):o}"
    if letter == "A":
        return modes.filemode(facts.st_mode)
    if letter == "h":
        return str(facts.st_nlink)
    if letter in "UG":
        return "user"
    if letter == "Y":
        return str(int(facts.st_mtime))
    if letter == "%":
        return "%"
    return "?"


@guarded
def stat(shell, args, cwd, stdin):
    flags, values, names = options("stat", args, "L", valued="c",
                                   longs={"--format=": "c", "--printf=": "p",
                                          "--dereference": "L"})
    if not names:
        raise _missing("stat")
    template = (values.get("c", [None])[-1], values.get("p", [None])[-1])
    out, err = [], []
    for name in names:
        full = shell.path(name, cwd)
        if full is None or not os.path.lexists(full):
            err.append(f"stat: cannot statx '{name}': No such file or directory\n")
            continue
        facts = os.stat(full) if "L" in flags else os.lstat(full)
        if template[0] is None and template[1] is None:
            out.append(f"  File: {name}\n  Size: {facts.st_size}\t"
                       f"{_field('F', name, facts)}\nAccess: ({_field('a', name, facts):0>4}/"
                       f"{_field('A', name, facts)})\n")
            continue
        text = template[0] if template[1] is None else template[1]
        if template[1] is not None:
            text = _escapes(text)[0]
        shown = re.sub(r"%(.)", lambda m, n=name, f=facts: _field(m[1], n, f), text)
        out.append(shown + ("\n" if template[1] is None else ""))
    return int(bool(err)), "".join(out), "".join(err)


@guarded
def readlink(shell, args, cwd, stdin):
    flags, _, names = options("readlink", args, "femnqsvz",
                              longs={"--canonicalize": "f", "--canonicalize-existing": "e",
                                     "--canonicalize-missing": "m", "--no-newline": "n"})
    if not names:
        raise _missing("readlink")
    out, code = [], 0
    for name in names:
        full = shell.path(name, cwd)
        if flags & set("fem"):
            parent = shell.path(os.path.dirname(name) or ".", cwd)
            fine = full is not None and (os.path.exists(full) if "e" in flags else
                                         "m" in flags or (parent and os.path.isdir(parent)))
            if fine:
                out.append(full)
            else:
                code = 1
            continue
        plain = os.path.join(cwd, name)
        if full is not None and os.path.islink(plain):
            out.append(os.readlink(plain))
        else:
            code = 1
    end = "" if "n" in flags and len(out) == 1 else "\n"
    return code, "".join(f"{o}{end}" for o in out), ""


def _mode(spec, current, folder):
    if re.fullmatch(r"[0-7]{1,4}", spec):
        return int(spec, 8)
    for clause in spec.split(","):
        found = re.fullmatch(r"([ugoa]*)([-+=])([rwxX]*)", clause)
        if not found:
            raise Usage(1, f"chmod: invalid mode: '{spec}'\n"
                           "Try 'chmod --help' for more information.\n")
        who, operator, what = found.groups()
        who = who.replace("a", "ugo") or "ugo"
        bits = 0
        for person in who:
            shift = {"u": 6, "g": 3, "o": 0}[person]
            for right in what:
                if right == "X" and not (folder or current & 0o111):
                    continue
                bits |= {"r": 4, "w": 2, "x": 1, "X": 1}[right] << shift
        if not found.group(1):
            bits &= ~0o022   # without u, g, o or a the umask (022) applies
        if operator == "+":
            current |= bits
        elif operator == "-":
            current &= ~bits
        else:
            mask = sum(0o7 << {"u": 6, "g": 3, "o": 0}[p] for p in set(who))
            current = (current & ~mask) | bits
    return current


def chmod(shell, args, cwd, stdin):
    recursive = "-R" in args
    items = [a for a in args if a not in ("-R", "-v", "-f", "--")]
    if len(items) < 2:
        after = f" after '{items[0]}'" if items else ""
        return 1, "", (f"chmod: missing operand{after}\n"
                       "Try 'chmod --help' for more information.\n")
    spec, names = items[0], items[1:]
    err = []
    try:
        for name in names:
            full = shell.path(name, cwd)
            if full is None or not os.path.exists(full):
                err.append(f"chmod: cannot access '{name}': No such file or directory\n")
                continue
            paths = [full]
            if recursive and os.path.isdir(full):
                for top, dirs, files in os.walk(full):
                    paths += [os.path.join(top, n) for n in sorted(dirs) + sorted(files)]
            for path in paths:
                current = modes.S_IMODE(os.stat(path).st_mode)
                os.chmod(path, _mode(spec, current, os.path.isdir(path)))
    except Usage as usage:
        return usage.code, "", usage.message
    return int(bool(err)), "", "".join(err)


@guarded
def ln(shell, args, cwd, stdin):
    flags, _, names = options("ln", args, "sfnrv", longs={"--symbolic": "s", "--force": "f"})
    if not names:
        raise _missing("ln")
    if len(names) == 1:
        names.append(os.path.basename(names[0].rstrip("/")))
    target, link = names[0], names[-1]
    full = shell.path(link, cwd)
    if full is not None and os.path.isdir(full) and not os.path.islink(full):
        full = os.path.join(full, os.path.basename(target.rstrip("/")))
    kind = "symbolic link" if "s" in flags else "hard link"
    if full is None:
        return 1, "", f"ln: failed to create {kind} '{link}': Permission denied\n"
    if os.path.lexists(full):
        if "f" not in flags:
            return 1, "", f"ln: failed to create {kind} '{link}': File exists\n"
        os.remove(full)
    if "s" in flags:
        os.symlink(target, full)
        return 0, "", ""
    source = shell.path(target, cwd)
    if source is None or not os.path.exists(source):
        return 1, "", f"ln: failed to access '{target}': No such file or directory\n"
    os.link(source, full)
    return 0, "", ""

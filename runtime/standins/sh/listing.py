"""``ls`` and ``find`` over the run's folder, in GNU's formats (``LC_ALL=C`` order).

``ls -l`` shows the stand-in world's fixed owner and group (``user``), the file's
mode as a umask of 022 leaves it (the run's folder itself ``drwxr-xr-x``, in CPython
and in Pyodide alike), size and modification time, directories 4096 bytes and 4 blocks
(as on ext4).
"""

import fnmatch
import os
import stat
import time

from .options import Usage, join, options

OWNER = "user"
_LS_LONGS = {"--all": "a", "--almost-all": "A", "--recursive": "R", "--reverse": "r",
             "--human-readable": "h", "--classify": "F", "--directory": "d"}


def _inside(full, root):
    full = os.path.realpath(full)
    return full == root or full.startswith(root + os.sep)


def _blocks(full):
    if os.path.isdir(full):
        return 4
    return (os.path.getsize(full) + 4095) // 4096 * 4


def human(size):
    """A size as ``ls -h`` shows it: ``45``, ``4.0K``, ``12K``, ``1.5M`` (rounded up)."""
    if size < 1024:
        return str(size)
    for unit in "KMGT":
        size /= 1024
        if size < 10:
            tenths = -(-int(size * 10 * 1000) // 1000) / 10
            if tenths < 10:
                return f"{tenths:.1f}{unit}"
        if size < 1024 or unit == "T":
            return f"{-(-int(size * 1000) // 1000)}{unit}"
    return str(size)


def _long_rows(entries, root, readable=False):
    """The ``-l`` rows of [(shown name, real path)], columns aligned as GNU does; the
    folder's own parent (outside the stand-in world) shows as the folder does."""
    rows = []
    for name, full in entries:
        if not _inside(full, root):
            full = root
        info = os.lstat(full)
        links = 1
        if stat.S_ISDIR(info.st_mode):
            links = 2 + sum(os.path.isdir(os.path.join(full, e)) for e in os.listdir(full))
        size = 4096 if stat.S_ISDIR(info.st_mode) else info.st_size
        size = human(size) if readable else size
        moment = time.localtime(info.st_mtime)
        recent = abs(time.time() - info.st_mtime) < 182 * 86400
        when = time.strftime("%b %e %H:%M" if recent else "%b %e  %Y", moment)
        mode = stat.S_IFDIR | 0o755 if full == root else info.st_mode & ~0o022
        rows.append([stat.filemode(mode), str(links), OWNER, OWNER, str(size), when, name])
    widths = [max((len(r[i]) for r in rows), default=0) for i in range(5)]
    return [f"{r[0]} {r[1]:>{widths[1]}} {r[2]:<{widths[2]}} {r[3]:<{widths[3]}} "
            f"{r[4]:>{widths[4]}} {r[5]} {r[6]}" for r in rows]


def _children(full, flags):
    names = [e for e in os.listdir(full) if flags & set("aA") or not e.startswith(".")]
    names.sort(key=lambda n: n.encode())
    if "a" in flags:
        names = [".", ".."] + names
    return names


def _order(entries, flags):
    entries.sort(key=lambda e: e[0].encode())
    if "t" in flags:
        entries.sort(key=lambda e: -os.lstat(e[1]).st_mtime_ns)
    elif "S" in flags:
        entries.sort(key=lambda e: -os.lstat(e[1]).st_size if os.path.isfile(e[1]) else -4096)
    if "r" in flags:
        entries.reverse()
    return entries


def _decorate(name, full, flags):
    if "F" in flags and os.path.isdir(full):
        return name + "/"
    return name


def ls(shell, args, cwd, stdin):
    try:
        flags, _, names = options("ls", args, "alAR1hdFtrSp", longs=_LS_LONGS)
    except Usage as usage:
        return usage.code, "", usage.message
    if "p" in flags:
        flags.add("F")
    shown = [c for a in args if a.startswith("-") and not a.startswith("--") for c in a
             if c in "aA"]
    if shown and shown[-1] == "A":   # the last of -a and -A counts
        flags.discard("a")
    err, code, files, folders = [], 0, [], []
    for name in names or ["."]:
        full = shell.path(name, cwd)
        if full is None or not os.path.lexists(full):
            err.append(f"ls: cannot access '{name}': No such file or directory\n")
            code = 2
        elif os.path.isdir(full) and "d" not in flags:
            folders.append((name, full))
        else:
            files.append((name, full))
    blocks = []
    if files:
        blocks.append(_entries(_order(files, flags), flags, shell.root))
    show_headers = len(names) > 1 or "R" in flags or (files and folders)
    queue = sorted(folders, key=lambda e: e[0].encode())
    while queue:
        name, full = queue.pop(0)
        children = [(c, os.path.join(full, c)) for c in _children(full, flags)]
        children = _order(children, flags)
        body = _entries(children, flags, shell.root, total=True)
        blocks.append((f"{name}:\n" if show_headers else "") + body)
        if "R" in flags:
            inner = [(os.path.join(name, c) if name != "/" else "/" + c, f)
                     for c, f in children if c not in (".", "..") and os.path.isdir(f)
                     and not os.path.islink(f)]
            queue = inner + queue
    return code, "\n".join(blocks), "".join(err)


def _entries(entries, flags, root, total=False):
    shown = [(_decorate(n, f, flags), f) for n, f in entries]
    if "l" not in flags:
        return join(n for n, _ in shown)
    blocks = sum(_blocks(f if _inside(f, root) else root) for _, f in entries)
    readable = "h" in flags
    head = f"total {human(blocks * 1024) if readable else blocks}\n" if total else ""
    return head + join(_long_rows(shown, root, readable))


# -- find ------------------------------------------------------------------------------
def find(shell, args, cwd, stdin):
    starts = []
    while args and not args[0].startswith(("-", "(", "!")):
        starts.append(args.pop(0))
    args, actions = _actions(args)
    try:
        test, depth = _expression(list(args), lambda name: shell.path(name, cwd))
    except Usage as usage:
        return usage.code, "", usage.message
    low, high = depth
    out, err, code = [], [], 0
    for start in starts or ["."]:
        full = shell.path(start, cwd)
        if full is None or not os.path.lexists(full):
            err.append(f"find: '{start}': No such file or directory\n")
            code = 1
            continue
        for shown, real, level in _walk(start, full, high):
            if level >= low and test(shown, real):
                out.append(shown)
    ending = "\0" if "-print0" in args else "\n"
    if "-delete" in args:
        for shown in reversed(out):
            real = shell.path(shown, cwd)
            if real is None or real == shell.root:
                continue
            if os.path.isdir(real):
                os.rmdir(real)
            else:
                os.remove(real)
        return code, "", "".join(err)
    if actions:
        return _exec(shell, actions, out, cwd, code, err)
    return code, "".join(f"{path}{ending}" for path in out), "".join(err)


def _exec(shell, actions, found, cwd, code, err):
    """Run ``-exec COMMAND {} ;`` for each path found, or once with all for ``{} +``."""
    out = []
    for argv, together in actions:
        batches = [found] if together else [[path] for path in found]
        for batch in batches if found else []:
            line = [p for part in argv for p in (batch if part == "{}" else [part])]
            status, data, error = shell.run_argv(line, cwd, "")
            out.append(data)
            err.append(error)
            code = code or (1 if status and together else 0)
    return code, "".join(out), "".join(err)


def _actions(args):
    """(the expression without its ``-exec``s, [(argv, together)])."""
    rest, actions, index = [], [], 0
    while index < len(args):
        if args[index] in ("-exec", "-execdir"):
            end = index + 1
            while end < len(args) and args[end] not in (";", "+"):
                end += 1
            actions.append((args[index + 1:end], end < len(args) and args[end] == "+"))
            index = end + 1
            continue
        rest.append(args[index])
        index += 1
    return rest, actions


def _walk(shown, full, high, level=0):
    yield shown, full, level
    if os.path.isdir(full) and not os.path.islink(full) and (high is None or level < high):
        for entry in sorted(os.listdir(full), key=str.encode):
            inner = shown.rstrip("/") + "/" + entry if shown != "/" else "/" + entry
            yield from _walk(inner, os.path.join(full, entry), high, level + 1)


def _size_test(text):
    """``-size [+-]N[cwbkMG]``: the size rounded up to the unit, compared with N."""
    units = {"c": 1, "w": 2, "b": 512, "k": 1024, "M": 1024 ** 2, "G": 1024 ** 3}
    sign = text[:1] if text[:1] in "+-" else ""
    body = text[len(sign):]
    unit = units.get(body[-1:], None)
    count = int(body[:-1] if unit else body)
    unit = unit or 512

    def test(shown, real):
        if os.path.isdir(real):
            size = 4096
        else:
            size = os.path.getsize(real)
        rounded = -(-size // unit)
        return rounded > count if sign == "+" else rounded < count if sign == "-" else \
            rounded == count
    return test


def _expression(args, resolve):
    """(test(shown, real), (mindepth, maxdepth)) of find's expression; ``resolve``: the
    real path of a name (for ``-newer``)."""
    depth = [0, None]
    position = [0]

    def take():
        if position[0] >= len(args):
            raise Usage(1, f"find: missing argument to `{args[position[0] - 1]}'\n")
        position[0] += 1
        return args[position[0] - 1]

    def primary():
        token = take()
        if token in ("!", "-not"):
            inner = primary()
            return lambda s, r: not inner(s, r)
        if token == "(":
            inner = alternation()
            take()
            return inner
        if token in ("-name", "-iname"):
            pattern = take()
            fold = token == "-iname"
            return lambda s, r: fnmatch.fnmatchcase(
                os.path.basename(s.rstrip("/")).lower() if fold else os.path.basename(
                    s.rstrip("/")) or s, pattern.lower() if fold else pattern)
        if token in ("-path", "-wholename"):
            pattern = take()
            return lambda s, r: fnmatch.fnmatchcase(s, pattern)
        if token == "-type":
            kind = take()
            checks = {"f": os.path.isfile, "d": os.path.isdir, "l": os.path.islink}
            return lambda s, r: checks.get(kind, lambda _: False)(r) and (
                kind == "l" or not os.path.islink(r))
        if token in ("-maxdepth", "-mindepth"):
            depth[token == "-maxdepth"] = int(take())
            return lambda s, r: True
        if token == "-size":
            return _size_test(take())
        if token == "-newer":
            name = take()
            other = resolve(name)
            if other is None or not os.path.exists(other):
                raise Usage(1, f"find: '{name}': No such file or directory\n")
            moment = os.stat(other).st_mtime_ns
            return lambda s, r: os.stat(r).st_mtime_ns > moment
        if token == "-empty":
            return lambda s, r: (not os.listdir(r)) if os.path.isdir(r) else \
                os.path.getsize(r) == 0
        if token in ("-print", "-print0", "-true", "-delete"):
            return lambda s, r: True
        if token == "-false":
            return lambda s, r: False
        raise Usage(1, f"find: unknown predicate `{token}'\n")

    def conjunction():
        tests = [primary()]
        while position[0] < len(args) and args[position[0]] not in ("-o", "-or", ")"):
            if args[position[0]] in ("-a", "-and"):
                position[0] += 1
            tests.append(primary())
        return lambda s, r: all(t(s, r) for t in tests)

    def alternation():
        tests = [conjunction()]
        while position[0] < len(args) and args[position[0]] in ("-o", "-or"):
            position[0] += 1
            tests.append(conjunction())
        return lambda s, r: any(t(s, r) for t in tests)

    test = alternation() if args else (lambda s, r: True)
    return test, tuple(depth)

"""Commands that read or change the run's files: ``cat``, ``mkdir``, ``touch``, ``cp``,
``mv``, ``rm``, ``basename``, ``dirname``, with GNU's messages."""

import os
import shutil

from .options import Usage, inputs, options, guarded


@guarded
def cat(shell, args, cwd, stdin):
    flags, _, names = options("cat", args, "nAETsuv")
    found, err, code = inputs(shell, names, cwd, stdin, lambda n, r: f"cat: {n}: {r}\n")
    text = "".join(t for _, t in found)
    if flags & set("AET"):
        text = text.replace("\t", "^I") if flags & set("AT") else text
        text = text.replace("\n", "$\n") if flags & set("AE") else text
    if "n" in flags:
        rows = text.split("\n")
        tail = rows.pop() if rows else ""
        text = "".join(f"{i:>6}\t{row}\n" for i, row in enumerate(rows, 1))
        text += f"{len(rows) + 1:>6}\t{tail}" if tail else ""
    return code, text, err


@guarded
def mkdir(shell, args, cwd, stdin):
    flags, _, names = options("mkdir", args, "pv", valued="m")
    if not names:
        raise Usage(1, "mkdir: missing operand\nTry 'mkdir --help' for more information.\n")
    err = []
    for name in names:
        full = shell.path(name, cwd)
        if full is None:
            err.append(f"mkdir: cannot create directory '{name}': Permission denied\n")
        elif "p" in flags:
            blocked = _file_on_the_way(shell, name, cwd)
            if blocked:
                err.append(f"mkdir: cannot create directory '{blocked}': Not a directory\n")
            elif os.path.exists(full) and not os.path.isdir(full):
                err.append(f"mkdir: cannot create directory '{name}': File exists\n")
            else:
                os.makedirs(full, exist_ok=True)
        elif os.path.lexists(full):
            err.append(f"mkdir: cannot create directory '{name}': File exists\n")
        elif not os.path.isdir(os.path.dirname(full)):
            err.append(f"mkdir: cannot create directory '{name}': No such file or directory\n")
        else:
            os.mkdir(full)
    return int(bool(err)), "", "".join(err)


def _file_on_the_way(shell, name, cwd):
    """The first leading part of ``name`` that is a file (``mkdir -p a.txt/b``), or None."""
    parts = name.rstrip("/").split("/")[:-1]
    for index in range(1, len(parts) + 1):
        prefix = "/".join(parts[:index])
        full = shell.path(prefix, cwd) if prefix else None
        if full is not None and os.path.isfile(full):
            return prefix
    return None


@guarded
def touch(shell, args, cwd, stdin):
    _, _, names = options("touch", args, "acm")
    if not names:
        raise Usage(1, "touch: missing file operand\nTry 'touch --help' for more information.\n")
    err = []
    for name in names:
        full = shell.path(name, cwd)
        if full is None or not os.path.isdir(os.path.dirname(full)):
            err.append(f"touch: cannot touch '{name}': No such file or directory\n")
            continue
        if not os.path.isdir(full):
            with open(full, "a", encoding="utf-8"):
                pass
        os.utime(full)
    return int(bool(err)), "", "".join(err)


def _target(shell, names, cwd, command):
    if len(names) < 2:
        what = "missing file operand" if not names else \
            f"missing destination file operand after '{names[0]}'"
        raise Usage(1, f"{command}: {what}\nTry '{command} --help' for more information.\n")
    *sources, target = names
    full = shell.path(target, cwd)
    into = full is not None and os.path.isdir(full)
    if len(sources) > 1 and not into:
        raise Usage(1, f"{command}: target '{target}' is not a directory\n")
    return sources, target, full, into


@guarded
def cp(shell, args, cwd, stdin):
    flags, _, names = options("cp", args, "rRafpvnu")
    sources, target, full, into = _target(shell, names, cwd, "cp")
    err = []
    for source in sources:
        origin = shell.path(source, cwd)
        if origin is None or not os.path.lexists(origin):
            err.append(f"cp: cannot stat '{source}': No such file or directory\n")
            continue
        destination = os.path.join(full, os.path.basename(origin)) if into else full
        if destination is None:
            err.append(f"cp: cannot create regular file '{target}': Permission denied\n")
        elif os.path.isdir(origin) and os.path.isfile(destination):
            err.append(f"cp: cannot overwrite non-directory '{target}' with directory "
                       f"'{source}'\n")
        elif os.path.isdir(origin):
            if not flags & set("rRa"):
                err.append(f"cp: -r not specified; omitting directory '{source}'\n")
            else:
                shutil.copytree(origin, destination, dirs_exist_ok=True)
        elif not os.path.isdir(os.path.dirname(destination)):
            err.append(f"cp: cannot create regular file '{target}': No such file or directory\n")
        else:
            shutil.copyfile(origin, destination)
    return int(bool(err)), "", "".join(err)


@guarded
def mv(shell, args, cwd, stdin):
    _, _, names = options("mv", args, "fvnu")
    sources, target, full, into = _target(shell, names, cwd, "mv")
    err = []
    for source in sources:
        origin = shell.path(source, cwd)
        if origin is None or not os.path.lexists(origin):
            err.append(f"mv: cannot stat '{source}': No such file or directory\n")
            continue
        destination = os.path.join(full, os.path.basename(origin)) if into else full
        if destination is None or not os.path.isdir(os.path.dirname(destination)):
            err.append(f"mv: cannot move '{source}' to '{target}': No such file or directory\n")
        elif os.path.isdir(origin) and os.path.isfile(destination):
            err.append(f"mv: cannot overwrite non-directory '{target}' with directory "
                       f"'{source}'\n")
        else:
            os.replace(origin, destination)
    return int(bool(err)), "", "".join(err)


@guarded
def rm(shell, args, cwd, stdin):
    flags, _, names = options("rm", args, "rRfvdi", longs={"--recursive": "r", "--force": "f"})
    if not names and "f" not in flags:
        raise Usage(1, "rm: missing operand\nTry 'rm --help' for more information.\n")
    err = []
    for name in names:
        full = shell.path(name, cwd)
        if full is None or not os.path.lexists(full):
            if "f" not in flags:
                err.append(f"rm: cannot remove '{name}': No such file or directory\n")
        elif os.path.isdir(full) and not os.path.islink(full):
            if not flags & set("rR"):
                err.append(f"rm: cannot remove '{name}': Is a directory\n")
            elif full == shell.root:
                err.append("rm: refusing to remove '.' or '..' directory: skipping "
                           f"'{name}'\n")
            else:
                shutil.rmtree(full)
        else:
            os.remove(full)
    return int(bool(err)), "", "".join(err)


@guarded
def basename(shell, args, cwd, stdin):
    flags, values, names = options("basename", args, "az", valued="s")
    if not names:
        raise Usage(1, "basename: missing operand\nTry 'basename --help' for more "
                       "information.\n")
    suffix = values.get("s", [None])[0]
    if suffix is None and len(names) == 2 and "a" not in flags:
        names, suffix = names[:1], names[1]
    out = []
    for name in names:
        base = name.rstrip("/").rsplit("/", 1)[-1] or ("/" if name else "")
        if suffix and base.endswith(suffix) and base != suffix:
            base = base[:-len(suffix)]
        out.append(base + "\n")
    return 0, "".join(out), ""


@guarded
def dirname(shell, args, cwd, stdin):
    _, _, names = options("dirname", args, "z")
    if not names:
        raise Usage(1, "dirname: missing operand\nTry 'dirname --help' for more "
                       "information.\n")
    out = []
    for name in names:
        stripped = name.rstrip("/")
        head = stripped.rsplit("/", 1)[0] if "/" in stripped else "."
        out.append((head.rstrip("/") or "/") + "\n" if stripped else "/\n")
    return 0, "".join(out), ""

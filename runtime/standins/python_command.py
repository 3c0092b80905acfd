"""``python`` and ``python3`` in the stand-in shell: ``-c CODE``, ``FILE [ARGS]`` and
``-m MODULE [ARGS]`` run in-process, in the same Python, isolated from the program
that called the shell.

Each command gets a fresh ``__main__`` namespace; its folder comes first on
``sys.path`` as in CPython (the command's directory for ``-c`` and ``-m``, the
script's for ``FILE``); ``sys.argv`` is ``['-c', …]``, ``[FILE, …]`` or the module's
path; the modules it imports are removed from ``sys.modules`` afterwards, and
``sys.path``, ``sys.argv``, the current directory and the standard streams are put
back. Its stdout and stderr are the command's, stdin the command's input.
``SystemExit(n)`` ends it with exit code n (a text: printed on stderr, code 1); an
uncaught exception with code 1 and the traceback (its own frames only) on stderr.
No bytecode is written (as ``python -B``), so the run's folder holds only what the
program wrote. The recorder does not step into it: for the program that called the
shell it is one untraced step (docs/authoring.md, "The shell's python").
"""

import builtins
import importlib
import importlib.machinery
import importlib.util
import io
import os
import runpy
import sys
import traceback

NAMES = ("python", "python3")
_OWN_FILES = frozenset({__file__, runpy.__file__})
USAGE = "usage: python [-c cmd | -m mod | file] [arg] ...\n"


def _program_frames(tb):
    """The traceback's frames of the program itself: ours and runpy's are left out."""
    frames = [f for f in traceback.extract_tb(tb)
              if f.filename not in _OWN_FILES and not f.filename.startswith("<frozen ")]
    return traceback.StackSummary.from_list(frames).format()


def _split(args):
    """(kind, target, argv) of the arguments; kind None with a message when invalid."""
    items = list(args)
    while items and items[0] in ("-B", "-u", "-I", "-E", "-s", "-S"):   # accepted, no effect
        items.pop(0)
    if not items:
        return None, "python: no interactive session in this shell\n", None
    head = items[0]
    if head == "-c":
        if len(items) < 2:
            return None, "Argument expected for the -c option\n" + USAGE, None
        return "code", items[1], ["-c", *items[2:]]
    if head == "-m":
        if len(items) < 2:
            return None, "Argument expected for the -m option\n" + USAGE, None
        return "module", items[1], [items[1], *items[2:]]
    if head.startswith("-") and head != "-":
        return None, f"Unknown option: {head}\n" + USAGE, None
    return "file", head, list(items)


def run(shell, args, cwd, stdin):
    """(code, stdout, stderr) of one ``python`` command run in ``cwd``."""
    kind, target, argv = _split(args)
    if kind is None:
        return 2, "", target
    if kind == "file":
        full = shell.path(target, cwd)
        if full is None or not os.path.isfile(full):
            return 2, "", (f"python: can't open file '{os.path.join(cwd, target)}': "
                           "[Errno 2] No such file or directory\n")
        with open(full, encoding="utf-8") as handle:
            source = handle.read()
        first = os.path.dirname(full)
    else:
        first = cwd
    out, err = io.StringIO(), io.StringIO()
    saved = (dict(sys.modules), list(sys.path), list(sys.argv), os.getcwd(),
             sys.stdout, sys.stderr, sys.stdin, sys.dont_write_bytecode)
    code = 0
    try:
        os.chdir(cwd)
        sys.path.insert(0, first)
        sys.argv[:] = argv
        sys.stdout, sys.stderr, sys.stdin = out, err, io.StringIO(stdin)
        sys.dont_write_bytecode = True
        _forget_listings()   # see files the program wrote a moment ago
        try:
            if kind == "module" and not _findable(target, first):
                err.write(f"python: No module named {target}\n")
                code = 1
            elif kind == "module":
                runpy.run_module(target, run_name="__main__", alter_sys=True)
            else:
                name = "<string>" if kind == "code" else full
                namespace = {"__name__": "__main__", "__builtins__": builtins}
                if kind == "file":
                    namespace["__file__"] = full
                exec(compile(target if kind == "code" else source, name, "exec"), namespace)
        except SystemExit as exc:
            code = _exit_code(exc.code, err)
        except Exception as exc:   # noqa: BLE001 (the command's own uncaught exception)
            _write_traceback(exc, err)
            code = 1
        finally:
            sys.stdout.flush()
    finally:
        modules, path, old_argv, old_cwd, stdout, stderr, stdin_, bytecode = saved
        for name in [n for n in sys.modules if n not in modules]:
            del sys.modules[name]
        for name, module in modules.items():
            if sys.modules.get(name) is not module:
                sys.modules[name] = module
        sys.path[:] = path
        sys.argv[:] = old_argv
        os.chdir(old_cwd)
        sys.stdout, sys.stderr, sys.stdin = stdout, stderr, stdin_
        sys.dont_write_bytecode = bytecode
    return code, out.getvalue(), err.getvalue()


def _forget_listings():
    """Make the folders' finders list them again. Only the ``FileFinder``s: not
    ``importlib.invalidate_caches``, which in 3.14 imports ``importlib.metadata`` (left
    half-imported by a command's isolated ``sys.modules``), nor a zip importer's, which
    reads its archive again (the page's standard library zip is gone once loaded)."""
    for finder in list(sys.path_importer_cache.values()):
        if isinstance(finder, importlib.machinery.FileFinder):
            finder.invalidate_caches()


def _findable(module, folder):
    """Whether ``module`` is in the standard library or in ``folder``: never a package
    installed beside loopstep, so CPython and the page's Python find the same ones."""
    top = module.split(".")[0]
    try:
        if top not in sys.stdlib_module_names and \
                importlib.machinery.PathFinder.find_spec(top, [folder]) is None:
            return False
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def available(args, cwd):
    """Whether a ``python`` command can run here: not a ``-m`` of a module that is
    not there (such a line goes to the setup's ``shell`` function when it has one)."""
    kind, target, _ = _split(args)
    if kind != "module":
        return True
    saved, modules = list(sys.path), set(sys.modules)
    try:
        sys.path.insert(0, cwd)
        _forget_listings()
        return _findable(target, cwd)
    finally:
        sys.path[:] = saved
        for name in [n for n in sys.modules if n not in modules]:
            del sys.modules[name]


def _exit_code(value, err):
    if value is None:
        return 0
    if isinstance(value, int):
        return value & 0xFF
    err.write(f"{value}\n")
    return 1


def _write_traceback(exc, err):
    err.write("Traceback (most recent call last):\n")
    err.write("".join(_program_frames(exc.__traceback__)))
    err.write("".join(traceback.format_exception_only(type(exc), exc)))

"""The half of the boot build that runs inside the vendored Pyodide (scripts/build_boot.mjs).

``collect`` records every block of every lesson under every preset and returns
the standard-library modules that were imported; ``build_zip`` writes a trimmed
standard-library zip of precompiled ``.pyc`` files (unchecked hash-based, so no
timestamps) with sorted entries and fixed metadata, compiled by this interpreter.
"""

import importlib.util
import json
import sys
import zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

STDLIB_ZIP = f"/lib/python{sys.version_info.major}{sys.version_info.minor}.zip"
PREFIX = STDLIB_ZIP + "/"
FIXED_TIME = (1980, 1, 1, 0, 0, 0)

# Beyond what the lessons import today: modules lesson code commonly reaches for
# (a top-level name keeps its whole package). Anything else still imports on the
# fast path: boot.js fetches the stock zip the first time a module is missing.
MARGIN = (
    "abc argparse ast base64 bisect collections contextlib copy csv dataclasses datetime "
    "_pydatetime difflib enum fnmatch fractions functools glob graphlib hashlib heapq "
    "inspect io json keyword linecache numbers operator os pathlib pprint queue random re "
    "reprlib shlex statistics string struct textwrap tokenize token tomllib traceback "
    "types typing uuid warnings weakref "
    "encodings.ascii encodings.latin_1 encodings.utf_8_sig encodings.utf_16 "
    "encodings.utf_32 encodings.unicode_escape encodings.raw_unicode_escape"
).split()
# Packages kept whole when anything of them is used (others keep only what was used).
WHOLE = ("collections", "json", "pathlib", "re", "tomllib", "importlib", "_pyodide", "pyodide")


def _zip_member(module):
    """The member of the stdlib zip a module was imported from, or None."""
    spec = getattr(module, "__spec__", None)
    origin = getattr(spec, "origin", None) or getattr(module, "__file__", None)
    if isinstance(origin, str) and origin.startswith(PREFIX):
        return origin[len(PREFIX):]
    return None


def collect(runtime_parent, root_groups, max_steps):
    """Record every lesson block x preset; return {"members", "modules", "runs"}.

    ``root_groups``: JSON list of lists of lessons roots (each list used together).
    A lesson that does not load is reported in ``runs`` and skipped.
    """
    if runtime_parent not in sys.path:
        sys.path.insert(0, runtime_parent)
    from pathlib import Path
    from runtime.catalog.lessons import load_lesson
    from runtime.recorder import record

    runs = []
    for roots in json.loads(root_groups):
        ids = sorted({p.parent.name for root in roots for p in Path(root).glob("*/lesson.toml")})
        for lesson_id in ids:
            try:
                lesson = load_lesson(lesson_id, roots)
            except Exception as error:
                runs.append([lesson_id, None, None, f"not loaded: {error}"])
                continue
            for block in lesson.blocks:
                for preset in block.presets:
                    trace = record(lesson_id, block.id, preset, roots=roots,
                                   max_steps=max_steps)
                    runs.append([lesson_id, block.id, preset, trace["status"]])
    members = sorted({m for m in map(_zip_member, list(sys.modules.values())) if m})
    internal = ("runtime", "__main__")
    modules = sorted(name for name, module in list(sys.modules.items())
                     if module is not None and name.split(".")[0] not in internal
                     and (_zip_member(module) or name in sys.builtin_module_names))
    return json.dumps({"members": members, "modules": modules, "runs": runs})


def _module_name(member):
    """``json/__init__.py`` -> ``json``; ``encodings/utf_8.py`` -> ``encodings.utf_8``."""
    name = member.removesuffix(".py").replace("/", ".")
    return name.removesuffix(".__init__")


def _wanted(member, used, keep_whole):
    name = _module_name(member)
    top = name.split(".")[0]
    if member in used or top in keep_whole:
        return True
    # a margin name keeps that module, or that package whole
    return any(name == m or name.startswith(m + ".") for m in MARGIN)


def build_zip(members_json, out_path):
    """Write the trimmed .pyc zip to ``out_path``; return its manifest as JSON."""
    used = set(json.loads(members_json))
    stock = zipfile.ZipFile(STDLIB_ZIP)
    names = [info.filename for info in stock.infolist() if not info.is_dir()]
    used_tops = {_module_name(m).split(".")[0] for m in used}
    keep_whole = {t for t in WHOLE if t in used_tops}
    chosen = sorted(n for n in names if _wanted(n, used, keep_whole))
    entries = {}
    for name in chosen:
        data = stock.read(name)
        if name.endswith(".py"):
            code = compile(data, PREFIX + name, "exec", dont_inherit=True, optimize=0)
            data = bytes(_code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False))
            name += "c"
        entries[name] = data
    with zipfile.ZipFile(out_path, "w", zipfile.ZIP_STORED) as out:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, FIXED_TIME)
            info.compress_type = zipfile.ZIP_STORED
            info.create_system = 3
            info.external_attr = 0o100644 << 16
            out.writestr(info, entries[name])
    kept = {_module_name(n) for n in chosen if n.endswith(".py")}
    lazy = sorted({_module_name(n) for n in names if n.endswith(".py")} - kept)
    return json.dumps({"files": len(entries), "lazy": lazy})


def preload_runtime(folder, module):
    """Import the recorder from ``folder`` (for the memory snapshot); return the names of
    its modules as JSON. The import system forgets what it saw in ``folder``: the files
    are not part of the snapshot, the worker writes them again after the restore."""
    sys.path.insert(0, folder)
    importlib.import_module(module)
    for path in [p for p in sys.path_importer_cache if p == folder or p.startswith(folder + "/")]:
        del sys.path_importer_cache[path]
    package = module.split(".")[0]
    return json.dumps(sorted(n for n in sys.modules if n.split(".")[0] == package))


def preimport(modules_json):
    """Import the modules the recorder and lessons use (for the memory snapshot)."""
    failed = []
    for name in json.loads(modules_json):
        try:
            importlib.import_module(name)
        except Exception as error:  # a module that only works on another platform
            failed.append(f"{name}: {type(error).__name__}")
    return json.dumps(failed)

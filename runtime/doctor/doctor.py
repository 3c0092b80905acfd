"""The doctor's runs and its report (see __init__.py)."""

import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from ..world import hashing
from . import node
from .compare import describe, first_difference

# the sources of difference the doctor changes one at a time, and what each means
SOURCES = {
    "clock": "the clock (time.time, datetime.now, …): virtual here, started at the "
             "lesson's instant",
    "ids": "ids (uuid.uuid1, uuid.uuid4): drawn from the run's seed",
    "randomness": "randomness (random, os.urandom, secrets): from the run's seed",
    "hash order": "the order of a set of strings (the string-hash seed): the CLI's is fixed, "
                  "the page's Python orders such a set its own way",
    "environment": "the environment (os.environ beyond the lesson's [standins] env)",
}
# variables kept as they are when the environment is changed: Python and loopstep need them
_KEPT = ("PATH", "PYTHONPATH", "PYTHONHASHSEED", "PYTHONHOME", "VIRTUAL_ENV", "SYSTEMROOT",
         "TMPDIR", "TEMP", "TMP")
TIMEOUT = 300


class DoctorError(RuntimeError):
    """A run of the doctor that did not end with a trace."""


def _probe(job, env, cwd):
    done = subprocess.run([sys.executable, "-m", "loopstep.runtime.doctor.probe"],
                          input=json.dumps(job), capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=TIMEOUT)
    if done.returncode != 0:
        raise DoctorError(done.stderr.strip().splitlines()[-1] if done.stderr.strip()
                          else f"exit code {done.returncode}")
    return json.loads(done.stdout)


def _environments(seed):
    base = dict(os.environ, PYTHONHASHSEED=str(seed))
    base.pop("LOOPSTEP_HASH_SEED_RESTARTED", None)
    changed = {name: value if name in _KEPT or name.startswith(("LOOPSTEP_", "LD_"))
               else value + "-doctor" for name, value in base.items()}
    changed["LOOPSTEP_DOCTOR"] = "changed"   # one more variable than the run had
    hashed = dict(base, PYTHONHASHSEED=str(seed + 1))
    return base, changed, hashed


def diagnose(lesson, block, scenario, roots=None, *, pyodide=None, workers=None):
    """Run the doctor on ``block`` of ``lesson`` (a catalog Lesson) under ``scenario``;
    return the report's dict: ``twice`` (None or the first difference), ``sources``
    ({name: None, "pinned" or a difference}), ``files`` (real files the program read),
    ``page`` (None, a difference, or a reason it was not checked) and ``python``.

    ``pyodide``: also record in the page's Python under Node (None: when node is there)."""
    seed = hashing.needed(lesson.world)
    pinned = lesson.world is not None and lesson.world.hash_seed is not None
    rows = dict(row for row in lesson.block(block).rows if row is not None)
    job = {"lesson": lesson.id, "block": block, "scenario": scenario,
           "roots": [os.path.abspath(r) for r in roots] if roots else None}   # runs elsewhere
    base, changed, hashed = _environments(seed)
    runs = {"first": (None, base), "second": (None, base), "clock": ("clock", base),
            "ids": ("ids", base), "randomness": ("randomness", base),
            "environment": (None, changed)}
    if not pinned:
        runs["hash order"] = (None, hashed)
    with tempfile.TemporaryDirectory(prefix="loopstep-doctor-") as cwd, \
            ThreadPoolExecutor(workers or min(4, os.cpu_count() or 1)) as pool:
        futures = {name: pool.submit(_probe, dict(job, change=change), env, cwd)
                   for name, (change, env) in runs.items()}
        done = {name: future.result() for name, future in futures.items()}
    first = done["first"]["trace"]
    twice = first_difference(first, done["second"]["trace"], rows)
    sources = {}
    for name in SOURCES:
        if name not in done:
            sources[name] = "pinned"
            continue
        sources[name] = first_difference(first, done[name]["trace"], rows)
    report = {"lesson": lesson.id, "block": block, "scenario": scenario,
              "python": first["python"], "hash_seed": seed, "twice": twice,
              "sources": sources, "files": done["first"]["files"],
              "real": list(lesson.world.real) if lesson.world is not None else []}
    if twice is not None:
        report["twice_source"] = _source_of(twice, sources, report)
    if pyodide is False:
        report["page"] = "not asked"
    else:
        report["page"], report["page_python"] = node.compare(lesson, block, scenario, first,
                                                             rows)
    return report


def _source_of(difference, sources, report):
    """The source that makes two runs of the same world differ, where one is known."""
    for name, found in sources.items():
        if isinstance(found, dict) and (found["step"], found["what"]) == \
                (difference["step"], difference["what"]):
            real = {"clock": "clock", "randomness": "random", "ids": "random"}.get(name)
            return name + (" (the real one: [world] real)" if real in report["real"] else "")
    if report["files"]:
        return "a real file"
    return "unknown: something outside the run's world"


def text(report):
    """The report as lines for a terminal."""
    lines = [f"loopstep doctor {report['lesson']}/{report['block']} · {report['scenario']} · "
             f"Python {report['python']} · string-hash seed {report['hash_seed']}"]
    if report["twice"] is None:
        lines.append("twice: identical (two runs, each in a fresh process)")
    else:
        lines.append(f"twice: DIFFERENT — {report['twice_source']} — "
                     f"{describe(report['twice'])}")
    for name, found in report["sources"].items():
        if found == "pinned":
            lines.append(f"{name}: pinned by the lesson ([world] hash_seed)")
        elif found is None:
            lines.append(f"{name}: the run does not depend on it")
        else:
            note = "" if name != "hash order" else \
                " — the page's Python may print another order than the CLI"
            lines.append(f"{name}: the run depends on it — {describe(found)}{note}")
    if report["files"]:
        for found in report["files"]:
            lines.append(f"real file: {found['path']} (read at {found['file']}:"
                         f"{found['line']} in {found['function']}): not in the run's folder, "
                         "another machine has another")
    else:
        lines.append("real files: none outside the run's folder")
    page = report["page"]
    if page is None:
        lines.append("page's Python: the same run" + (
            "" if (report.get("page_python") or "").split(".")[:2] == report["python"].split(".")[:2]
            else f" (Python {report['page_python']}: output, result and model calls; "
                 "its steps may differ by version)"))
    elif isinstance(page, str):
        lines.append(f"page's Python: not checked ({page})")
    else:
        lines.append(f"page's Python: DIFFERENT — {describe(page)}" + (
            " (the page's Python has none of the real files above)" if report["files"] else ""))
    return lines


def reproducible(report):
    """Whether every run of the same world gave the same trace (the CLI's exit code)."""
    return report["twice"] is None and not isinstance(report["page"], dict)

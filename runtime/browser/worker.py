"""What the page's worker (web/static/js/worker.js) asks of Python, once the recorder's
files are written under its folder: record a block (its model calls answered by a
recording file the reader loaded, when given: ``recording_problem`` checks that file
first), the recording file of a preset (to download it), and name the precompiled modules
that were not compiled from the sources beside them. The build's shipped traces
(scripts/build_shipped_traces.mjs) and the Node tests record through the same ``record``."""
import contextlib
import json
import sys

from .. import recorder
from ..catalog.lessons import load_lesson
from ..recording import format as recording_format
from ..recording.replay import answerable

# Python frames allowed: deeper recursion raises RecursionError instead of overflowing the
# browser's stack (fatal in Pyodide). Measured in Chromium's worker: recursion through a
# builtin (map) overflows past ~500 frames, plain recursion past ~3,000; the recorder's own
# frames need a margin on top.
RECURSION_LIMIT = 400


def python_version():
    return sys.version.split()[0]


def threads_wanted():
    """Whether the last run stopped at a thread it could not start for want of a stack that
    can suspend (runtime/world/stacks.py); the worker then records it again, called with
    ``callPromising``. Asked once: the answer is reset."""
    from ..world import schedule
    wanted, schedule.wanted[0] = schedule.wanted[0], False
    return wanted


def recording_problem(text, where, lesson, block, roots):
    """Why the recording file ``where`` (its text) cannot answer ``lesson/block``'s runs,
    in one line (``FILE: JSON PATH: reason``, or the two blocks), or "" when it can."""
    try:
        recording = recording_format.loads(text, where)
        recording_format.check_made_for(recording, lesson, block, where)
        if not answerable(load_lesson(lesson, list(roots))):
            raise recording_format.RecordingError(
                f"{where}: {lesson}/{block} makes no model call a recording can answer")
    except recording_format.RecordingError as error:
        return str(error)
    return ""


def preset_recording(lesson, scenario, roots):
    """The text of the recording file of preset ``scenario`` ("" when it has none)."""
    spec = load_lesson(lesson, list(roots))
    path = spec.preset(scenario).recording
    return spec.read(path) if path else ""


def record(lesson, block, scenario, roots, max_steps, setup=None, questions=None, fork=None,
           recording=None, tolerant=False, schedule=None, first_steps=0, partial=None):
    """A block's packed trace (JSON text). ``questions``, ``fork`` and ``recording`` (a
    file's text, checked by ``recording_problem``) come as JSON text; ``max_steps`` 0 is the
    recorder's default; ``tolerant``: a replay goes on past a difference; ``schedule``: the
    schedule's text form (world/choices.py, the URL's ``sched=``; None: the preset's).

    ``first_steps`` and ``partial``: the run's first steps come first (docs/recordings.md,
    "A long run streams"): the run is recorded up to ``first_steps`` steps, and when it
    had more, that trace (the same steps as the whole run's first ones: one run, one
    trace) is handed to ``partial`` before the whole run is recorded and returned."""
    threads_wanted()   # asked of this run only
    cap = int(max_steps) if max_steps else recorder.DEFAULT_MAX_STEPS
    kwargs = {"roots": list(roots), "max_steps": cap}
    if setup is not None:
        kwargs["setup"] = setup
    if questions:
        kwargs["questions"] = _loads(questions, "questions")
    if fork:
        kwargs["fork"] = _loads(fork, "fork")
    if recording:
        kwargs["recording"] = json.loads(recording)
    if tolerant:
        kwargs["tolerant"] = True
    if schedule is not None:
        kwargs["schedule"] = str(schedule)
    with _recursion_limit():
        if partial is not None and 0 < int(first_steps) < cap:
            header, first = recorder.record_parts(lesson, block, scenario,
                                                  **dict(kwargs, max_steps=int(first_steps)))
            from ..world import schedule as threads
            if threads.wanted[0] or (header.get("limit") or {}).get("kind") != "steps":
                return first   # the whole run, or one the worker records again with threads
            partial(first)
        return recorder.record_packed(lesson, block, scenario, **kwargs)


@contextlib.contextmanager
def _recursion_limit():
    """The page's recursion limit for a run (lesson code may have raised it), the one
    before given back after it (a CPython process calling this keeps its own)."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(RECURSION_LIMIT)
    try:
        yield
    finally:
        sys.setrecursionlimit(before)


def _loads(text, what):
    """JSON a link may have brought, refused before parsing when nested past the
    recordings' depth cap (a parser's recursion would break the worker first)."""
    deep = recording_format.too_deep(text)
    if deep is not None:
        raise ValueError(f"{what}: nested too deeply at {deep} (more than "
                         f"{recording_format.MAX_DEPTH} levels of arrays and objects)")
    return json.loads(text)


def record_live(lesson, block, scenario, roots, max_steps, options, send, report):
    """A live run (runtime/live): ``options`` JSON text {provider, baseUrl, model, key,
    timeoutMs, input?}; ``send`` the worker's request function, ``report`` hears of each
    call. JSON text {recording, status, error}."""
    from ..live import browser
    with _recursion_limit():
        return browser.run(lesson, block, scenario, list(roots), json.loads(options), send,
                           report, int(max_steps or 0))


def stale(compiled):
    """The precompiled modules (paths of ``.pyc`` files) that were not compiled from the
    source beside them, or have none (a module renamed or removed since, which Python never
    imports): their sources' paths."""
    import _imp
    import importlib.util
    import os
    key = int.from_bytes(importlib.util.MAGIC_NUMBER, "little")
    found = []
    for path in compiled:
        source = importlib.util.source_from_cache(path)
        if not os.path.exists(source):
            found.append(source)
            continue
        with open(path, "rb") as pyc, open(source, "rb") as text:
            if pyc.read(16)[8:] != _imp.source_hash(key, text.read()):
                found.append(source)
    return found

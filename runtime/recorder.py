"""Record a block of a lesson: run its programs and return the trace (format 1).

See docs/design.md, "How a block runs" and "Trace format". This is the one entry
point shared by the CPython tests, the CLI and the browser worker (Pyodide).
"""

import ast
import dataclasses
import linecache
import sys
import types

from .trace import backends, wire
from .catalog import custom
from . import standins
from .agent.capture import DEFAULT_MAX_MODEL_CALLS, Capture
from .questions.forks import Fork, ForkError
from .agent.spec import AgentSpec
from .questions.questions import Questions
from .trace.backends import StopRecording
from .catalog.lessons import LessonError, load_lesson
from .trace.output import Output, traceback_text
from .trace.columns import Columns
from .trace.steps import TraceBuilder
from .trace.targets import ranges as _ranges, targets
from .trace.values import Folder, presented
from .workspace import Watcher
from .recording import calibrate, format as recording_format
from .recording.replay import Divergence, NoAnswer, Replay, answerable
from .recording.tools import RecordedTools
from .run_request import DEFAULT_MAX_STEPS, RunRequest
from .world import Tape, World, choices, hashing, schedule

__all__ = ["DEFAULT_MAX_STEPS", "MAX_OUTPUT_CHARS", "Output", "RunRequest", "record",
           "record_packed", "record_request", "targets"]

FORMAT = 1
# The output cap of every recording: a run whose output passes this many characters stops
# there with its partial run, its output kept up to the cap (status step_limit, limit kind
# "output"). About 1 MB of text, which the page shows and steps through without a long task.
MAX_OUTPUT_CHARS = 1_000_000
_UNTIMED = "_untimed"   # a header's note of a replay that may need its clock from its requests
_NOT_RUN = types.SimpleNamespace(result=None, error=None, stacks=[])  # a program that never ran


def _run(codes, builder, backend, program_files, namespace, capture=None, fork=None,
         recorded=None):
    """Execute the program codes in ``namespace``; return (status, message, traceback,
    the exception that escaped or None). ``fork``: a Fork (forks.py) answering one call;
    ``recorded``: a recording's tool outputs (recording/tools.py) answering tool calls."""
    try:
        backend.start()
        try:
            if capture is not None and capture.model:   # stand-in clients: from the start
                capture.early = (namespace, lambda found: backend.watch(found, capture))
                backend.watch(set(capture.model), capture)
            for code in codes[:-1]:
                exec(code, namespace)
            if capture is not None:   # the declared agent calls, observed from the entry on
                capture.early = None
                watched = capture.resolve(namespace)
                if recorded is not None:
                    watched = recorded.install(namespace, capture)
                    capture.refresh = (namespace, lambda found: backend.watch(found, capture))
                if fork is not None:
                    watched = fork.install(capture, namespace)
                backend.watch(watched, capture)
            elif recorded is not None:
                recorded.install(namespace)
            exec(codes[-1], namespace)
            schedule.program_ended()   # the threads that are not daemons run on
        finally:
            backend.stop()
            if fork is not None:
                fork.uninstall()
            if recorded is not None:
                recorded.uninstall()
    except StopRecording:
        pass
    except (Divergence, NoAnswer, choices.Unfollowable) as stop:   # a replay that cannot go
        return "error", str(stop), "", None       # on (recording/replay.py), a schedule
    except (KeyboardInterrupt, LessonError, ForkError):   # LessonError: a declared callable
        raise                                             # is missing; ForkError: see forks.py
    except SystemExit as exc:   # sys.exit(): the program ends as in CPython, no traceback
        if not builder.stopped:
            code = exc.code
            shown = "" if code is None or isinstance(code, int) else f"{code}\n"
            if code in (None, 0):   # a successful exit is no error of the displayed function
                builder.error = None
                return "finished", None, shown, None
            return "finished", f"SystemExit: {code}", shown, None
    except BaseException as exc:
        if not builder.stopped:
            builder.escaped(exc)
            message = presented(f"{type(exc).__name__}: {exc}", builder.folder)
            return "exception", message, traceback_text(exc, program_files), exc
    if builder.internal_error:
        raise RuntimeError("recorder failure:\n" + builder.internal_error)
    if builder.stopped:
        return "step_limit", builder.message, "", None
    return "finished", None, "", None


def record(lesson, block, scenario, **options):
    """Run ``block`` of ``lesson`` under preset ``scenario``; return the trace dict.
    ``options``: the keywords of ``RunRequest.of`` (run_request.py: roots, max_steps,
    backend, setup, questions, agent, fork, recording, live, inputs, tolerant, world,
    schedule)."""
    return record_request(RunRequest.of(lesson, block, scenario, **options))


def record_request(request):
    """The trace dict of the run ``request`` (a RunRequest) describes."""
    header, cols = _record(request)
    header["steps"] = wire.steps(cols)
    return header


def record_packed(lesson, block, scenario, **options):
    """``record`` in the packed form (docs/design.md, "Packed trace"), as compact JSON text."""
    return record_parts(lesson, block, scenario, **options)[1]


def record_parts(lesson, block, scenario, **options):
    """``record_packed``'s text, after the trace's header (the dict form without steps)."""
    header, cols = _record(RunRequest.of(lesson, block, scenario, **options))
    return header, wire.dumps(wire.packed(header, cols))


def _output_full(builder):
    """The output passed its cap: the run stops here (once; a run already stopped by
    another cap keeps that one)."""
    if builder.stopped:
        raise StopRecording()
    builder.cap_reached("output", MAX_OUTPUT_CHARS, (
        f"stopped: the output passed {MAX_OUTPUT_CHARS:,} characters, the output limit"))


def _replayed(spec, block, scenario, recording):
    """The recording answering this run's model calls (given, or the preset's), or None."""
    if recording is not None:
        recording = recording_format.check_made_for(recording_format.check(recording),
                                                    spec.id, block)
    elif scenario != custom.CUSTOM and spec.preset(scenario).recording is not None:
        path = spec.preset(scenario).recording
        recording = recording_format.loads(spec.read(path), path)
    if recording is not None and not answerable(spec):
        raise recording_format.RecordingError(
            f"lesson {spec.id} makes no model call through a stand-in client "
            "([standins] modules anthropic or openai): a recording cannot answer")
    return recording


def _record(request):
    """Run the block; return the trace header (the dict form without steps) and the columns.
    A replay of a recording without clock readings that stops where a request shows a time
    the run read runs again with that reading given back as the recorded time
    (recording/calibrate.py; so does one showing the start of a uuid4 the run drew, or a
    stand-in command's output, where the recorded request has another); the trace's
    ``replay.clock_fixes`` counts them."""
    header, cols = _record_once(request)
    fixes = 0
    while _UNTIMED in header and fixes < calibrate.MAX_FIXES:
        tape, recording = header.pop(_UNTIMED)
        before, found = recording.get("world") or {}, header["replay"]["divergence"]
        given = {"ids": before.get("ids", []), "outputs": before.get("outputs", [])}
        fix = calibrate.clock_fix(found, tape["clock"])
        if fix is None:   # else an id the run drew, else a command's output
            ids = calibrate.id_fix(found, tape["drawn_ids"], given["ids"])
            outputs = None if ids else calibrate.output_fix(found, tape["outputs"],
                                                            given["outputs"])
            if ids is None and outputs is None:
                break
            given.update({k: v for k, v in (("ids", ids), ("outputs", outputs)) if v})
        fixes += 1
        recording = dict(recording, world=dict(given, seed=tape["seed"],
                                               clock=fix or (before or tape)["clock"]))
        request = dataclasses.replace(request, answers=dataclasses.replace(
            request.answers, recording=recording))
        header, cols = _record_once(request, untimed=True)
    header.pop(_UNTIMED, None)
    if fixes:
        header["replay"]["clock_fixes"] = fixes
    return header, cols


def _record_once(request, untimed=False):
    """One run of the block (``untimed``: its recording's clock readings are the
    calibration's, not recorded ones)."""
    block, scenario, setup, backend = (request.block, request.scenario, request.setup,
                                       request.backend)
    max_steps, questions = request.max_steps, request.questions
    recording, live, inputs, tolerant = (request.answers.recording, request.answers.live,
                                         request.answers.inputs, request.answers.tolerant)
    if not isinstance(max_steps, int) or max_steps < 1:
        raise ValueError("max_steps must be a positive integer")
    fork = None if request.answers.fork is None else Fork.parse(request.answers.fork)
    spec = load_lesson(request.lesson, request.roots)
    world_spec = request.world if request.world is not None else spec.world
    hashing.check(spec.id, world_spec)
    shown = spec.block(block)
    recording = _replayed(spec, block, scenario, recording) if live is None else None
    programs = custom.programs(spec, block, scenario, setup)
    try:
        codes = custom.compile_all(programs)
    except SyntaxError as exc:
        setup_error = custom.syntax_error(exc, spec.setup)
        if setup_error is None:
            raise
        name = backend or backends.available()[0]
        return _header(spec, block, scenario, name, ("exception", f"{type(exc).__name__}: {exc.msg}",
                       custom.syntax_error_text(exc)), _NOT_RUN, setup_error), Columns()
    source_index = 1 + spec.modules.index(shown.source)
    source_text = programs[source_index].text
    ranges = _ranges(ast.parse(source_text, shown.source), shown.parts)
    main_codes, traced = targets(codes[source_index], shown.parts)
    program_files = {p.path for p in programs}
    # the run, built from its parts; `folder` is how every part shows the run's folder
    folder = Folder()
    output = Output(folder, MAX_OUTPUT_CHARS)
    asked = Questions(questions, shown.line_count, output, folder) if questions else None
    builder = TraceBuilder(first_line=shown.first_line, ranges=ranges,
                           main_codes=main_codes, root_codes=codes,
                           program_files=program_files, output=output,
                           max_steps=max_steps, folder=folder)
    if asked is not None and asked.active:
        builder.questions = asked
    output.on_cap = lambda: _output_full(builder)
    engine = backends.make(backend, traced, builder, program_files)
    if tolerant and recording is None:
        raise ValueError("--tolerant: this run answers from no recording")
    replay = Replay(recording, lambda text: presented(text, folder), tolerant=tolerant) \
        if recording else None
    answers = replay or live
    recorded = RecordedTools(replay, spec.agent.tools) \
        if replay is not None and recording.get("imported_from") and spec.agent else None
    run = standins.Run(spec.standins, output, folder, recording["cwd"] if recording else
                       standins.SHOWN)
    run.answers = answers
    if recording is not None and "input" in recording:
        inputs = recording["input"]
    if inputs is not None:
        run.inputs = tuple(inputs)
    plan = choices.Plan(choices.parse(
        request.schedule if request.schedule is not None or scenario == custom.CUSTOM
        else spec.preset(scenario).schedule))
    world = World(world_spec, Tape(recording.get("world") if recording is not None else None),
                  plan)
    world.schedule.attach(builder)   # each step says which thread ran it
    stand_in_calls = run.model_codes()
    capture = Capture(spec.id, spec.agent or AgentSpec((), ()), builder,
                      strict=scenario != custom.CUSTOM, stand_ins=stand_in_calls,
                      max_model_calls=spec.max_model_calls or DEFAULT_MAX_MODEL_CALLS) \
        if request.agent and (spec.agent or stand_in_calls) else None
    if fork is not None:
        if capture is None:
            raise ForkError(f"block {block!r} makes no model call and no tool call to fork")
        fork.capture, fork.keep = capture, set(stand_in_calls)
        capture.fork = fork
        run.fork = fork if fork.kind == "model" else None
    if capture is not None:
        capture.recorded = recorded
        if replay is not None:
            replay.on_hold = capture.in_flight.hold
        if live is not None:
            live.depth = capture.last_depth
        if answers is not None:   # a tool that runs here answers with the stand-in's output
            run.on_command = capture.stand_in_ran

    saved_lines = {p.path: linecache.cache.get(p.path) for p in programs}
    for p in programs:
        linecache.cache[p.path] = (len(p.text), None, p.text.splitlines(True), p.path)
    saved_io = sys.stdout, sys.stderr, sys.stdin
    sys.stdout = sys.stderr = output
    try:
        # the stand-ins (sys.modules, os.environ, cwd, builtins, sys.path put back), the world
        with run, world:
            sys.stdin = run.stdin(spec.answers(block, scenario))
            if answers is not None:
                answers.real = run.folder
                answers.text = folder.text   # how the run shows its folder
            watcher = None if run.folder is None else Watcher(
                run.folder, builder, capture.depth_at if capture is not None else None, folder)
            if watcher is not None:
                watcher.start()
            try:
                status, message, tb_text, escaped = _run(codes, builder, engine, program_files,
                                                         run.namespace, capture, fork, recorded)
            finally:
                if watcher is not None:
                    watcher.stop()
            output.on_cap = output.cap = None   # the traceback of what escaped is kept whole
            if tb_text:
                output.write(tb_text)
            setup_error = escaped and custom.runtime_error(escaped, spec.setup, program_files,
                                                           folder)
    finally:
        sys.stdout, sys.stderr, sys.stdin = saved_io
        for path, entry in saved_lines.items():
            if entry is None:
                linecache.cache.pop(path, None)
            else:
                linecache.cache[path] = entry

    header = _header(spec, block, scenario, engine.name, (status, message, output.getvalue()),
                     builder, setup_error)
    if asked is not None:
        header["probes"] = asked.result()
    if world.schedule.summary():   # threads, asyncio tasks (in the thread column too)
        header["threads"] = world.schedule.summary()
        header["thread_states"] = world.schedule.scheduler.changes(builder.cols)
    if world.schedule.scheduler.started or plan.choices:   # which schedule ran, its points
        header["schedule"] = plan.header(world.schedule.scheduler)
    for call, path in (replay.differs.items() if replay is not None and capture else ()):
        if call <= len(capture.calls):
            capture.calls[call - 1]["differs"] = path   # a tolerant replay's difference
    captured = capture.result([t["name"] for t in header.get("threads") or ()]) \
        if capture is not None else None
    if captured is not None:
        header["agent"] = captured
    if fork is not None:
        header["fork"] = fork.to_dict()
    if watcher is not None:
        header["workspace"] = watcher.result()
    if capture is not None and capture.spec.gate is not None:
        header["gate"] = capture.decisions
    if live is not None and hasattr(live, "recording"):
        live.recording["world"] = world.tape.to_dict()   # what a replay gives back
    if replay is not None:
        header["replay"] = replay.summary()
        header["replay"]["tool_outputs"] = recorded.answered if recorded is not None else 0
        if header["replay"]["divergence"] and (untimed or "world" not in recording):
            header[_UNTIMED] = (dict(world.tape.to_dict(), drawn_ids=world.tape.drawn_ids,
                                     outputs=world.tape.outputs),
                                recording)   # for _record's calibration
    return header, builder.cols


def _header(spec, block, scenario, backend_name, outcome, builder, setup_error):
    """The trace header; ``outcome`` is (status, message, stdout)."""
    status, message, stdout = outcome
    info = sys.version_info
    header = {
        "format": FORMAT,
        "lesson": spec.id, "block": block, "scenario": scenario,
        "python": f"{info.major}.{info.minor}.{info.micro}",
        "backend": backend_name,
        "first_line": spec.block(block).first_line,
        "status": status,
        "message": message,
        "stdout": stdout,
        "result": builder.result,
        "error": builder.error,
        "stacks": builder.stacks,
    }
    if setup_error:
        header["setup_error"] = setup_error
    if getattr(builder, "limit", None):
        header["limit"] = builder.limit   # the cap that ended the run (status step_limit)
    return header

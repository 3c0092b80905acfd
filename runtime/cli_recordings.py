"""The commands of recordings (docs/recordings.md), beside ``loopstep trace``:

- ``loopstep record LESSON/BLOCK --scenario PRESET --provider anthropic|openai
  [--base-url URL] [--model NAME] [--input TEXT]… -o FILE``: the block run in this Python
  with the stand-in client sending real requests (``--input``: the answers of ``input()``,
  kept in the recording); the run's model calls written to FILE;
- ``loopstep import learn-claude-code TRACE.json [--cwd PATH] -o FILE``;
- ``loopstep import recording OLD.json -o FILE``: a recording of an older version written
  in the current one (version 3: each message stored once);
- ``loopstep check [--lessons DIR]``: every recording preset replayed; a stale one named.

Exit codes: 0 done, 2 a clear error (bad file, provider error: one line, nothing
written), 3 a recording that no longer replays (``check``), 130 interrupted.
"""

import os
import sys
import tempfile
from pathlib import Path

from .catalog.lessons import LessonError, load_lesson, load_lessons
from .recorder import record
from .recording import format as recording_format
from .recording import learn_claude_code
from .recording.live import KEY_ENV, Live, add_tool_executions
from .standins import SHOWN

EXIT_STALE = 3
OLD_RECORDING = "recording"


def add_parsers(commands):
    rec = commands.add_parser("record", help="record a block's run against a real model",
                              description="Run LESSON/BLOCK in this Python with its stand-in "
                                          "SDK client sending real requests (the key from "
                                          "ANTHROPIC_API_KEY or OPENAI_API_KEY) and write the "
                                          "run's model calls to FILE (docs/recordings.md).")
    rec.add_argument("target", metavar="LESSON/BLOCK")
    rec.add_argument("--scenario", required=True, metavar="PRESET")
    rec.add_argument("--provider", required=True, choices=sorted(KEY_ENV))
    rec.add_argument("--base-url", metavar="URL", help="the provider's endpoint (a proxy, a "
                                                       "compatible provider)")
    rec.add_argument("--model", metavar="NAME", help="the model sent on the wire instead of "
                                                     "the program's")
    rec.add_argument("--input", action="append", metavar="TEXT", dest="inputs",
                     help="an answer of the program's input() (repeat for each, in order; "
                          "instead of the lesson's [standins] input)")
    rec.add_argument("-o", "--output", required=True, type=Path, metavar="FILE")
    rec.add_argument("--lessons", action="append", metavar="DIR")
    imp = commands.add_parser("import", help="make a recording from another tool's trace")
    imp.add_argument("source", choices=[learn_claude_code.SOURCE, OLD_RECORDING],
                     help=f"{OLD_RECORDING}: a loopstep recording of an older version")
    imp.add_argument("trace", type=Path, metavar="TRACE.json")
    imp.add_argument("--cwd", default=SHOWN, metavar="PATH",
                     help="the working folder the recorded run had (such a trace does not "
                          f"store it; default {SHOWN})")
    imp.add_argument("-o", "--output", required=True, type=Path, metavar="FILE")
    check = commands.add_parser("check", help="replay every recording preset; name stale ones")
    check.add_argument("--lessons", action="append", metavar="DIR")


def replay_line(replay):
    """The summary line of a replayed run."""
    source = f", imported from {replay['imported_from']}" if replay.get("imported_from") else ""
    line = (f"replay: {min(replay['made'], replay['calls'])} of {replay['calls']} recorded "
            f"model calls ({replay['provider']}, {replay['model']}{source})")
    tools = replay.get("tool_outputs")
    if tools:
        line += f", {tools} tool output{'s' if tools != 1 else ''} from the recording"
    return line + (f"; {replay['note']}" if replay.get("note") else "")


def tolerant_line(trace):
    """The line saying a run was replayed tolerantly, and which calls differ."""
    agent = trace.get("agent") or {}
    calls = [f"model call {k} ({call['differs']})" for k, call in enumerate(agent.get("calls", []), 1)
             if call.get("differs")]
    calls += [f"tool call {k} ({tool['differs']})" for k, tool in enumerate(agent.get("tools", []), 1)
              if tool.get("differs")]
    if not calls:
        return "replayed tolerantly: no call differs from the recording"
    many = "s differ" if len(calls) != 1 else " differs"
    return f"replayed tolerantly: {len(calls)} call{many} from the recording: " + ", ".join(calls)


def write_atomically(path, text):
    """``text`` at ``path`` whole or not at all (a temporary file renamed)."""
    path = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or ".")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _fail(command, reason, code=2):
    print(f"loopstep {command}: {reason}", file=sys.stderr)
    return code


def _record(args):
    lesson_id, _, block = args.target.partition("/")
    key = os.environ.get(KEY_ENV[args.provider])
    if not key:
        return _fail("record", f"{KEY_ENV[args.provider]} is not set")
    if args.output.exists() and args.output.is_dir():
        return _fail("record", f"{args.output} is a folder")
    err = sys.stderr   # the recorder captures sys.stderr while the program runs
    live = Live(args.provider, key, (lesson_id, block, args.scenario), args.base_url,
                args.model, progress=lambda line: print(line, file=err, flush=True))
    hidden = {name: os.environ.pop(name) for name in KEY_ENV.values() if name in os.environ}
    try:
        lesson = load_lesson(lesson_id, args.lessons)
        lesson.block(block)
        lesson.preset(args.scenario)
        trace = record(lesson_id, block, args.scenario, roots=args.lessons, live=live,
                       inputs=args.inputs)
    except KeyboardInterrupt:
        return _fail("record", "interrupted; nothing written", 130)
    except (LessonError, KeyError, ValueError, OSError) as error:
        return _fail("record", error)
    finally:
        os.environ.update(hidden)
    if live.failure:
        return _fail("record", live.failure)
    recording = live.recording
    recording["status"] = trace["status"]
    if args.inputs is not None:
        recording["input"] = list(args.inputs)
    add_tool_executions(recording)
    text = recording_format.dumps(recording_format.check(recording))
    if key in text:
        return _fail("record", "the run's requests hold the key; nothing written")
    try:
        write_atomically(args.output, text)
    except OSError as error:
        return _fail("record", error)
    print(f"wrote {len(recording['calls'])} model calls to {args.output} "
          f"(status {trace['status']})", file=sys.stderr)
    return 0


def _import(args):
    try:
        recording = recording_format.load(args.trace) if args.source == OLD_RECORDING \
            else learn_claude_code.load(args.trace, args.cwd)
        write_atomically(args.output, recording_format.dumps(recording))
    except (learn_claude_code.TraceError, recording_format.RecordingError, OSError) as error:
        return _fail("import", error)
    print(f"wrote {len(recording['calls'])} model calls to {args.output}", file=sys.stderr)
    return 0


def _check(args):
    try:
        lessons = load_lessons(args.lessons)
    except LessonError as error:
        return _fail("check", error)
    stale = checked = 0
    for lesson in lessons.values():
        for preset in lesson.presets:
            if preset.recording is None:
                continue
            for block in lesson.blocks:
                if preset.name not in block.presets:
                    continue
                checked += 1
                where = f"{preset.recording} ({lesson.id}/{block.id}, preset {preset.name})"
                try:
                    trace = record(lesson.id, block.id, preset.name, roots=args.lessons)
                except (LessonError, ValueError) as error:
                    stale += 1
                    print(f"stale: {where}: {error}")
                    continue
                replay = trace["replay"]
                if trace["status"] == "error":
                    stale += 1
                    print(f"stale: {where}: {trace['message']}")
                    if replay.get("divergence"):
                        print(f"  recorded: {replay['divergence']['recorded']}\n"
                              f"  sent:     {replay['divergence']['sent']}")
                elif replay.get("note"):
                    print(f"note: {where}: {replay['note']}")
    print(f"checked {checked} recorded runs: {stale} stale")
    return EXIT_STALE if stale else 0


def run(args):
    return {"record": _record, "import": _import, "check": _check}[args.command](args)

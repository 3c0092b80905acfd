"""``loopstep trace LESSON/BLOCK --scenario NAME``: print a recorded trace; the commands
of recordings (docs/recordings.md) are in cli_recordings.py.

Also runnable as ``python -m runtime.cli trace ...``.
"""

import argparse
import json
import sys
from pathlib import Path

from .catalog.lessons import CUSTOM, LessonError, load_lesson
from .trace.events import is_hit
from .recorder import DEFAULT_MAX_STEPS, record
from .recording.format import RecordingError, load as load_recording
from . import cli_recordings

EXIT_DIVERGED = 3   # a replay stopped: the program sent what the recording does not hold



_OPEN = {"dict": "{", "list": "[", "tuple": "(", "set": "{", "frozenset": "frozenset({"}
_CLOSE = {"dict": "}", "list": "]", "tuple": ")", "set": "}", "frozenset": "})"}
_EMPTY = {"set": "set()", "frozenset": "frozenset()"}


def render(value):
    """A VALUE as the page shows it (web/static/js/model/values.js ``text``; both are held to
    tests/fixtures/value_text.json). Iterative: nested lists are flattened."""
    parts = []
    todo = [value]
    while todo:
        item = todo.pop()
        if item is None:
            parts.append("None")
        elif isinstance(item, str):
            parts.append(item)
        elif isinstance(item, tuple):          # a literal piece of punctuation
            parts.append(item[0])
        elif item[0] == "str":                 # a cut string: 'abc' → 'abc…'
            text = item[1]
            parts.append(text[:-1] + "…" + text[-1] if len(text) >= 2 else text + "…")
        else:
            kind, size, items = item[0], item[1], item[2:]
            if size == 0 and kind in _EMPTY:
                parts.append(_EMPTY[kind])
                continue
            pieces = [(_OPEN[kind],)]
            for index, child in enumerate(items):
                if index:
                    pieces.append((", ",))
                if kind == "dict":
                    pieces += [child[0], (": ",), child[1]]
                else:
                    pieces.append(child)
            if len(items) < size:
                pieces.append((", …",) if items else ("…",))
            elif kind == "tuple" and size == 1:
                pieces.append((",",))
            pieces.append((_CLOSE[kind],))
            todo.extend(reversed(pieces))
    return "".join(parts)


def _print_step(index, step, lines, out, previous_out):
    span = f"{step['line']}" if step["end"] == step["line"] else f"{step['line']}-{step['end']}"
    code = lines.get(step["line"], "").strip()
    where = f"{step['fn']}#{step['frame']}"
    print(f"{index:>5} {step['event']:<9} L{span:<6} {'  ' * (step['depth'] - 1)}{where}: {code}")
    for name, value in step["set"].items():
        print(f"{'':>17}{name} = {render(value)}")
    for name in step.get("del", []):
        print(f"{'':>17}del {name}")
    if "ret" in step:
        print(f"{'':>17}-> {render(step['ret'])}")
    if "exc" in step:
        print(f"{'':>17}!! {step['exc']['type']}: {step['exc']['message']}")
    if step["out"] > previous_out:
        for text in _utf16_slice(out, previous_out, step["out"]).splitlines():
            print(f"{'':>17}> {text}")


def _utf16_slice(text, start, end):
    data = text.encode("utf-16-le")
    return data[2 * start:2 * end].decode("utf-16-le", errors="replace")


def _parser():
    parser = argparse.ArgumentParser(
        prog="loopstep", description="Record and print the trace of a lesson block.")
    commands = parser.add_subparsers(dest="command", required=True)
    trace = commands.add_parser(
        "trace", help="record LESSON/BLOCK under a scenario and print its steps",
        description="Record LESSON/BLOCK (BLOCK: the block's id, e.g. s06/run_subagent) in "
                    "this Python and print each step: index, event, line range (1 = the def "
                    "line of a `symbol` block; the file's lines in a `symbols` block), "
                    "function#frame, the code, changed locals and new output.")
    trace.add_argument("target", metavar="LESSON/BLOCK")
    trace.add_argument("--scenario", default="normal", help="preset name (default: normal)")
    trace.add_argument("--json", action="store_true", help="print the trace as JSON")
    trace.add_argument("--break", dest="breakpoint", type=int, metavar="N",
                       help="print only the steps that hit a breakpoint on line N as the page counts "
                            "them: line steps whose statement covers N (every hit, not only "
                            "the first); the summary is printed as usual")
    trace.add_argument("--max-steps", type=int, default=DEFAULT_MAX_STEPS, metavar="N",
                       help=f"step cap (default {DEFAULT_MAX_STEPS:,})")
    trace.add_argument("--lessons", action="append", metavar="DIR",
                       help="lessons root (repeatable; default: the bundled roots)")
    trace.add_argument("--setup", type=Path, metavar="FILE",
                       help="run with this setup text instead of a preset's (scenario custom)")
    trace.add_argument("--fork", metavar="CALL=FILE.json",
                       help="CALL (model:K or tool:K, the K-th model or tool call) answers "
                            "the JSON in FILE instead of running (runtime/questions/forks.py)")
    trace.add_argument("--recording", type=Path, metavar="FILE",
                       help="answer the model calls from this recording (docs/recordings.md); "
                            "a divergence exits 3")
    cli_recordings.add_parsers(commands)
    return parser


def _fork(text):
    """``{"call", "value"}`` of ``--fork model:K=FILE.json``."""
    call, sep, path = text.partition("=")
    if not sep or not path:
        raise ValueError(f"--fork {text!r}: expected model:K=FILE.json or tool:K=FILE.json")
    raw = Path(path).read_text(encoding="utf-8")
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as error:
        raise ValueError(f"--fork {path}: not JSON ({error})") from None
    return {"call": call, "value": value}


def main(argv=None):
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    if args.command != "trace":
        return cli_recordings.run(args)
    lesson_id, _, block = args.target.partition("/")
    try:
        lesson = load_lesson(lesson_id, args.lessons)
        shown = lesson.block(block)
        setup = None
        if args.setup is not None:
            setup = args.setup.read_text(encoding="utf-8")
            args.scenario = CUSTOM
        fork = None if args.fork is None else _fork(args.fork)
        recording = None if args.recording is None else load_recording(args.recording)
        trace = record(lesson_id, block, args.scenario, roots=args.lessons,
                       max_steps=args.max_steps, setup=setup, fork=fork, recording=recording)
    except RecordingError as error:
        print(f"loopstep trace: {error}", file=sys.stderr)
        return 2
    except (LessonError, KeyError, ValueError, OSError) as error:
        print(f"loopstep trace: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(trace, ensure_ascii=False))
        return 0
    lines = dict(row for row in shown.rows if row is not None)
    print(f"{trace['lesson']}/{trace['block']} · {args.scenario} · Python {trace['python']} "
          f"({trace['backend']}) · {len(trace['steps'])} steps")
    previous_out = 0
    for index, step in enumerate(trace["steps"]):
        hit = args.breakpoint is None or is_hit(step["event"], step["line"], step["end"],
                                                 args.breakpoint)
        if hit:
            _print_step(index, step, lines, trace["stdout"], previous_out)
            previous_out = step["out"]
    print(f"status: {trace['status']}" + (f" ({trace['message']})" if trace["message"] else ""))
    if trace["error"]:
        error = trace["error"]
        print(f"error: {error['type']}: {error['message']} (line {error['line']})")
    if trace.get("setup_error"):
        error = trace["setup_error"]
        print(f"setup error: {error['type']}: {error['message']} (setup line {error['line']})")
    if trace.get("fork"):
        fork = trace["fork"]
        print(f"fork: {fork['call']} " + ("answered" if fork["applied"] else "not reached"))
    if trace["result"] is not None:
        print(f"result: {render(trace['result'])}")
    replay = trace.get("replay")
    if replay:
        print(cli_recordings.replay_line(replay))
    print("stdout:")
    print(trace["stdout"], end="" if trace["stdout"].endswith("\n") else "\n")
    if replay and trace["status"] == "error":
        print(f"loopstep trace: {trace['message']}", file=sys.stderr)
        divergence = replay.get("divergence")
        if divergence:
            print(f"  recorded: {divergence['recorded']}\n  sent:     {divergence['sent']}",
                  file=sys.stderr)
        return EXIT_DIVERGED
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``loopstep trace LESSON/BLOCK --scenario NAME``: print a recorded trace; the commands
of recordings (docs/recordings.md) are in cli_recordings.py.

Also runnable as ``python -m loopstep.runtime.cli trace ...``.
"""

import argparse
import json
import sys
import threading
from pathlib import Path

from .catalog.lessons import CUSTOM, LessonError, lesson_ids, load_lesson
from .trace.events import is_hit
from .recorder import DEFAULT_MAX_STEPS, record
from .recording.format import RecordingError, load as load_recording
from . import cli_doctor, cli_recordings
from .world import hashing, real

EXIT_DIVERGED = 3   # a replay stopped (the program sent what the recording does not hold),
                    # or a schedule could not be followed (world/choices.py)



# What the readable form prints at most (a runaway loop's every step and all its output
# would flood the terminal); a note says what was left out. --json prints everything.
MAX_PRINTED_STEPS = 2_000
MAX_PRINTED_OUTPUT = 20_000    # characters of stdout
PROGRESS_EVERY = 1.0           # seconds between progress lines on stderr

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
                    "line of a function's `symbol` block; the file's lines in a method's "
                    "and a `symbols` block), "
                    "function#frame, the code, changed locals and new output.")
    trace.add_argument("target", metavar="LESSON/BLOCK")
    trace.add_argument("--scenario", help="preset name (default: the block's first preset, "
                                           "named on stderr)")
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
    trace.add_argument("--tolerant", action="store_true",
                       help="a replay goes on past a difference: each model call answered by "
                            "the recorded one at its place in its conversation, each "
                            "difference marked on its call")
    trace.add_argument("--schedule", action="append", metavar="switch:K=NAME",
                       help="repeatable: at the K-th switch point thread NAME runs next; "
                            "model:K=NAME: thread NAME finishes before model call K (the "
                            "run's threads; default: the preset's schedule, else first come "
                            "first served); a choice the run cannot follow exits 3")
    cli_recordings.add_parsers(commands)
    cli_doctor.add_parser(commands)
    return parser


def _fork(text):
    """``{"call", "value"}`` of ``--fork model:K=FILE.json``."""
    call, sep, path = text.partition("=")
    if not sep or not path:
        raise ValueError(f"--fork {text}: expected model:K=FILE.json or tool:K=FILE.json")
    raw = Path(path).read_text(encoding="utf-8")
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as error:
        raise ValueError(f"--fork {path}: not JSON ({error})") from None
    return {"call": call, "value": value}


def _message(error):
    """An error's text for the reader: no Python reprs (a KeyError's quotes, OSError's errno)."""
    if isinstance(error, KeyError) and error.args:
        return str(error.args[0])
    if isinstance(error, OSError) and error.strerror:
        return f"{error.filename}: {error.strerror}" if error.filename else error.strerror
    return str(error)


def _lesson(lesson_id, roots):
    """The lesson; KeyError listing the lessons, hinting ``--lessons`` when none was given."""
    try:
        return load_lesson(lesson_id, roots)
    except KeyError as error:
        hint = "" if roots else (" — a lesson of your own? add --lessons DIR, the folder "
                                 "holding the lesson's folder")
        raise KeyError(f"{error.args[0]}{hint}") from None


def _target(text, roots):
    """(lesson, block) of LESSON/BLOCK; KeyError listing the choices."""
    lesson_id, _, block_id = text.partition("/")
    if not lesson_id:
        raise KeyError(f"expected LESSON/BLOCK, e.g. s06/run_subagent; lessons: "
                       f"{', '.join(lesson_ids(roots)) or 'none'}")
    lesson = _lesson(lesson_id, roots)
    if not block_id:
        raise KeyError(f"expected LESSON/BLOCK: name a block of {lesson_id} "
                       f"({', '.join(block.id for block in lesson.blocks)})")
    return lesson, lesson.block(block_id)


def _scenario(lesson, shown, name):
    """The preset to run: ``name``, else the block's first (said on stderr)."""
    names = ", ".join(shown.presets)
    if name is None:
        print(f"loopstep trace: scenario {shown.presets[0]} (the block's first preset; "
              f"its presets: {names}; choose one with --scenario)", file=sys.stderr)
        return shown.presets[0]
    if name not in shown.presets:
        raise KeyError(f"block {lesson.id}/{shown.id} has no preset '{name}' (its presets: "
                       f"{names})")
    return name


def main(argv=None, *, own_process=None):
    """``own_process``: this process runs only this command (default: ``argv`` is None), so
    a recording may start it again with the lesson's string-hash seed (world/hashing.py)."""
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    if (argv is None if own_process is None else own_process) and \
            args.command in ("trace", "record", "check"):
        code = hashing.restart(hashing.needed(_world_of(args)))
        if code is not None:
            return code
    if args.command == "doctor":
        return cli_doctor.run(args)
    if args.command != "trace":
        return cli_recordings.run(args)
    try:
        lesson, shown = _target(args.target, args.lessons)
        lesson_id, block = lesson.id, shown.id
        setup = None
        if args.setup is not None:
            setup = args.setup.read_text(encoding="utf-8")
            args.scenario = CUSTOM
        else:
            args.scenario = _scenario(lesson, shown, args.scenario)
        fork = None if args.fork is None else _fork(args.fork)
        recording = None if args.recording is None else load_recording(args.recording)
        with Progress(f"{lesson_id}/{block}", sys.stderr, PROGRESS_EVERY):
            trace = record(lesson_id, block, args.scenario, roots=args.lessons,
                           max_steps=args.max_steps, setup=setup, fork=fork,
                           recording=recording, tolerant=args.tolerant,
                           schedule=args.schedule)
    except RecordingError as error:
        print(f"loopstep trace: {error}", file=sys.stderr)
        return 2
    except (LessonError, KeyError, ValueError, OSError) as error:
        print(f"loopstep trace: {_message(error)}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(trace, ensure_ascii=False))
        return 0
    lines = dict(row for row in shown.rows if row is not None)
    print(f"{trace['lesson']}/{trace['block']} · {args.scenario} · Python {trace['python']} "
          f"({trace['backend']}) · {len(trace['steps'])} steps"
          + (f" · schedule {trace['schedule']['text']}" if trace.get("schedule", {}).get("text")
             else ""))
    previous_out = 0
    printed = 0
    threads, thread = [("task " if t.get("task") else "thread ") + t["name"]
                       for t in trace.get("threads", ())], 0
    points = switch_points(trace)
    for index, step in enumerate(trace["steps"]):
        hit = args.breakpoint is None or is_hit(step["event"], step["line"], step["end"],
                                                 args.breakpoint)
        if hit:
            printed += 1
            if printed > MAX_PRINTED_STEPS:
                print(f"… {printed_note(trace['steps'], index, args.breakpoint)}")
                break
            point = points.get(index)
            if step.get("thread", 0) != thread or (point and point[1]):   # the running
                thread = step.get("thread", 0)         # thread changed, or could have
                print(f"{'':>5} ── {threads[thread]} ──{point[0] if point else ''}")
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
    if trace.get("schedule"):
        print(schedule_line(trace["schedule"]))
    if trace["result"] is not None:
        print(f"result: {render(trace['result'])}")
    replay = trace.get("replay")
    if replay:
        print(cli_recordings.replay_line(replay))
        if replay.get("tolerant"):
            print(cli_recordings.tolerant_line(trace))
    print("stdout:")
    stdout = trace["stdout"]
    if len(stdout) > MAX_PRINTED_OUTPUT:
        print(stdout[:MAX_PRINTED_OUTPUT])
        print(f"… {len(stdout) - MAX_PRINTED_OUTPUT:,} more characters of output not printed "
              "(--json prints the whole trace)")
    else:
        print(stdout, end="" if stdout.endswith("\n") else "\n")
    if trace.get("schedule", {}).get("error"):
        print(f"loopstep trace: {trace['message']}", file=sys.stderr)
        return EXIT_DIVERGED
    if replay and trace["status"] == "error":
        print(f"loopstep trace: {trace['message']}", file=sys.stderr)
        divergence = replay.get("divergence")
        if divergence:
            print(f"  recorded: {divergence['recorded']}\n  sent:     {divergence['sent']}",
                  file=sys.stderr)
        return EXIT_DIVERGED
    return 0


def _world_of(args):
    """The ``[world]`` of the lesson a command names (None: none, or it does not load:
    the command says why once it runs)."""
    target = getattr(args, "target", None)   # `check` replays every lesson: seed 0
    try:
        return load_lesson(target.partition("/")[0], args.lessons).world if target else None
    except (LessonError, KeyError, ValueError, OSError):
        return None


def switch_points(trace):
    """Step index → (`` switch K (runnable: …)``, whether another thread could have run):
    the switch point whose chosen thread runs from that step (the last before it)."""
    threads = [t["name"] for t in trace.get("threads", ())]
    found = {}
    for number, (step, _, runnable) in enumerate(trace.get("schedule", {}).get("points", ()), 1):
        found[step] = (f" switch {number} (runnable: {', '.join(threads[i] for i in runnable)})",
                       len(runnable) > 1)
    return found


def schedule_line(schedule):
    """The summary's line of the schedule that ran (world/choices.py)."""
    line = (f"schedule: {schedule['text'] or 'default (first come, first served)'} · "
            f"{len(schedule['points'])} switch points")
    if schedule.get("unreached"):
        line += f" · not reached: {', '.join(schedule['unreached'])}"
    if schedule.get("error"):
        line += f" · not followed: {schedule['error']}"
    return line


def printed_note(steps, index, line):
    """What the readable form leaves out after MAX_PRINTED_STEPS printed steps."""
    rest = len(steps) - index if line is None else sum(
        1 for step in steps[index:] if is_hit(step["event"], step["line"], step["end"], line))
    return (f"{rest:,} more steps not printed (the first {MAX_PRINTED_STEPS:,} are; "
            "--break N picks steps, --json prints the whole trace)")


class Progress:
    """While a recording takes more than a second, a line a second on ``stream`` (stderr)."""

    def __init__(self, what, stream, every):
        self.what, self.stream, self.every = what, stream, every
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._tell, daemon=True)

    def _tell(self):
        start = real.monotonic()   # the run's own clock is virtual (world/clock.py)
        while not self.done.wait(self.every):
            print(f"loopstep trace: recording {self.what}… {real.monotonic() - start:.0f} s",
                  file=self.stream, flush=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.done.set()
        self.thread.join()


if __name__ == "__main__":
    sys.exit(main())

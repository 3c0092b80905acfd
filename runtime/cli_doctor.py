"""``loopstep doctor LESSON/BLOCK``: what could make two runs of the block differ
(runtime/doctor/). Exit code 0 when every run of the same world gave the same trace (twice
in the CLI, and the page's Python where it was checked), 1 when not, 2 on bad input."""

import json
import sys

from .catalog.lessons import LessonError


def add_parser(commands):
    doctor = commands.add_parser(
        "doctor", help="name what could make two runs of a block differ",
        description="Run LESSON/BLOCK twice in fresh processes, then once with each source "
                    "of difference changed (the clock, ids, randomness, the string-hash seed, "
                    "the environment), and once in the page's Python (the vendored Pyodide "
                    "under Node, when node is on PATH); name what the run depends on, with "
                    "the step, line and values, and the real files it reads.")
    doctor.add_argument("target", metavar="LESSON/BLOCK")
    doctor.add_argument("--scenario", help="preset name (default: the block's first preset)")
    doctor.add_argument("--lessons", action="append", metavar="DIR",
                        help="lessons root (repeatable; default: the bundled roots)")
    doctor.add_argument("--no-page", action="store_true",
                        help="do not run the block in the page's Python")
    doctor.add_argument("--json", action="store_true", help="print the report as JSON")


def run(args):
    from . import cli
    from .doctor import diagnose
    from .doctor.doctor import DoctorError, reproducible, text
    try:
        lesson, shown = cli._target(args.target, args.lessons)
        scenario = cli._scenario(lesson, shown, args.scenario)
        report = diagnose(lesson, shown.id, scenario, args.lessons,
                          pyodide=False if args.no_page else None)
    except (LessonError, KeyError, ValueError, OSError, DoctorError) as error:
        print(f"loopstep doctor: {cli._message(error)}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        print("\n".join(text(report)))
    return 0 if reproducible(report) else 1

"""Event codes and the breakpoint rule: one definition per language, and they agree.

Python: runtime/trace/events.py; the page: web/static/js/model/events.js. ``loopstep trace
--break N`` prints exactly the steps the page's timeline marks as hits
(stepping.js ``hitIndices``) on a trace with yields, resumes and returns on the
breakpoint's line.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

from loopstep.runtime.trace import events
from loopstep.runtime.recorder import record_packed

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "oracle_lessons"


def node(script):
    assert shutil.which("node"), "node is required to check the page's event table"
    done = subprocess.run(["node", "--input-type=module", "-e", script], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_page_and_python_define_the_same_events():
    page = node('import * as e from "./web/static/js/model/events.js";'
                'console.log(JSON.stringify({events: e.EVENTS, codes: [e.CALL, e.LINE, e.RETURN, '
                'e.EXCEPTION], hits: e.HIT_EVENTS, '
                'hitCodes: e.EVENTS.map((_, code) => e.hitsEvent(code))}))')
    assert page["events"] == list(events.EVENTS)
    assert page["codes"] == [events.CALL, events.LINE, events.RETURN, events.EXCEPTION]
    assert page["codes"] == [events.EVENTS.index(name) for name in ("call", "line", "return", "exception")]
    assert page["hits"] == list(events.HIT_EVENTS)
    assert page["hitCodes"] == [name in events.HIT_EVENTS for name in events.EVENTS]


def test_the_page_names_every_cap_that_ends_a_run():
    """The caps (trace ``limit.kind``) are one table per language, and the page's status
    has its words for each, in both languages."""
    page = node('import * as e from "./web/static/js/model/events.js";'
                'import { CAP_KEYS } from "./web/static/js/page/block-status.js";'
                'console.log(JSON.stringify({limits: e.LIMITS, keys: CAP_KEYS}))')
    assert page["limits"] == list(events.LIMITS) == ["steps", "model_calls", "output"]
    assert sorted(page["keys"]) == sorted(events.LIMITS)
    messages = json.loads((ROOT / "web" / "messages.json").read_text("utf-8"))
    for lang in ("zh", "en"):
        for key in page["keys"].values():
            assert f"status_{key}" in messages[lang] and f"status_paused_{key}" in messages[lang]


def test_trace_break_prints_the_pages_hits(tmp_path):
    line = 7   # `yield turn`: line steps, and the yield's return and the resume's call steps
    packed = record_packed("gen", "spend", "normal", roots=[CORPUS])
    (tmp_path / "trace.json").write_text(packed, "utf-8")
    page = node('import { readFileSync } from "node:fs";'
                'import { fromPacked } from "./web/static/js/model/trace.js";'
                'import { hitIndices } from "./web/static/js/model/stepping.js";'
                f'const t = fromPacked(readFileSync({json.dumps(str(tmp_path / "trace.json"))}, "utf8"));'
                f'console.log(JSON.stringify({{hits: hitIndices(t, [{line}]), '
                f'events: [...Array(t.count).keys()].filter((i) => t.line(i) === {line})'
                '.map((i) => t.event(i))}))')
    assert {"line", "return", "call"} <= set(page["events"])
    done = subprocess.run([sys.executable, "-m", "loopstep.runtime.cli", "trace", "gen/spend",
                           "--lessons", str(CORPUS), "--break", str(line)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    printed = [int(row.split()[0]) for row in done.stdout.splitlines()
               if row[:5].strip().isdigit() and len(row.split()) > 1 and row.split()[1] in events.EVENTS]
    assert printed == page["hits"] and printed

"""A Chromium trace of one page load (CDP Tracing) and its busy time per thread and kind.

    recorder = start(context, page)   # before page.goto
    events = recorder.stop(path)      # writes the trace JSON (chrome://tracing, Perfetto)
    busy(events, ready_ms)            # {thread: {kind: ms}} from navigation start to ready
"""
from __future__ import annotations

import json
from pathlib import Path

CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "v8.execute",
              "disabled-by-default-v8.compile", "blink", "blink.user_timing", "loading",
              "toplevel", "v8.wasm", "disabled-by-default-v8.wasm.detailed"]

KINDS = {
    "html": ("ParseHTML",),
    "script": ("EvaluateScript", "v8.evaluateModule", "v8.compile", "v8.compileModule",
               "FunctionCall", "v8.run", "TimerFire", "FireAnimationFrame", "EventDispatch",
               "v8.callFunction", "RunMicrotasks", "V8.RunMicrotasks"),
    "style+layout": ("UpdateLayoutTree", "Layout", "RecalculateStyles", "ParseAuthorStyleSheet",
                     "ScheduleStyleRecalculation", "InvalidateLayout"),
    "paint": ("Paint", "PrePaint", "Layerize", "Commit", "UpdateLayer", "CompositeLayers",
              "PaintImage"),
    "wasm": ("wasm.SyncCompile", "wasm.AsyncCompile", "v8.wasm.streamFromResponseCallback",
             "v8.wasm.compiledModule", "v8.wasm.finishedStreaming", "wasm.CompileLazy"),
}
KIND_OF = {name: kind for kind, names in KINDS.items() for name in names}
TASKS = ("ThreadControllerImpl::RunTask", "RunTask")
THREADS = {"CrRendererMain": "page main thread", "DedicatedWorker thread": "Python worker"}


class Recorder:
    def __init__(self, session, page):
        self.session, self.page, self.stream = session, page, None
        session.on("Tracing.tracingComplete", lambda e: setattr(self, "stream", e["stream"]))
        session.send("Tracing.start", {"transferMode": "ReturnAsStream",
                                       "traceConfig": {"includedCategories": CATEGORIES}})

    def stop(self, path: Path | None = None) -> list[dict]:
        self.session.send("Tracing.end")
        while self.stream is None:
            self.page.wait_for_timeout(50)   # lets Playwright dispatch the CDP event
        chunks = []
        while True:
            part = self.session.send("IO.read", {"handle": self.stream, "size": 1 << 20})
            chunks.append(part["data"])
            if part.get("eof"):
                break
        self.session.send("IO.close", {"handle": self.stream})
        text = "".join(chunks)
        if path:
            path.write_text(text)
        data = json.loads(text)
        return data["traceEvents"] if isinstance(data, dict) else data


def start(context, page) -> Recorder:
    return Recorder(context.new_cdp_session(page), page)


def busy(events: list[dict], ready_ms: float) -> dict:
    """Milliseconds of work per thread and kind between navigation start and ready
    (outermost events only, so nested ones are not counted twice)."""
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    starts = [e["ts"] for e in events if e.get("name") == "navigationStart"]
    if not starts:
        return {}
    t0 = min(starts)
    t1 = t0 + ready_ms * 1000
    out: dict[str, dict[str, float]] = {}
    by_thread: dict[tuple, list[dict]] = {}
    for e in events:
        if e.get("ph") == "X" and "dur" in e and t0 <= e["ts"] <= t1:
            by_thread.setdefault((e["pid"], e["tid"]), []).append(e)
    for key, rows in by_thread.items():
        label = THREADS.get(names.get(key, ""))
        if not label:
            continue
        totals = out.setdefault(label, {})
        rows.sort(key=lambda e: (e["ts"], -e["dur"]))
        for field, wanted in (("tasks", lambda n: n in TASKS), ("kind", KIND_OF.get)):
            covered = 0
            for e in rows:
                kind = wanted(e["name"])
                if not kind or e["ts"] < covered:
                    continue
                covered = e["ts"] + e["dur"]
                name = "busy (all tasks)" if field == "tasks" else kind
                totals[name] = totals.get(name, 0) + min(e["dur"], (t1 - e["ts"])) / 1000
    return {thread: dict(sorted(kinds.items(), key=lambda kv: -kv[1]))
            for thread, kinds in out.items()}

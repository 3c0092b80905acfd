"""Debug from the shipped traces (web/shipped_traces.py) against a stock Pyodide boot.

Alternating in one run, per round: the s06 lesson page, from navigation start to the
frame painted after its cursor reached a breakpoint of `run_subagent` (Debug pressed from
the page itself as soon as the page is wired: the `loopstep:init` event), and, on the same
page, until its runtime is "ready"; then the bare stock Pyodide page until ready.
First visit: a fresh profile per load. Third visit: the third load of one profile.
The same again under CPU throttling ×4 and "fast 4G" (CDP Emulation.setCPUThrottlingRate,
Network.emulateNetworkConditions). Bytes: every shipped trace of the s06 page fetched
with the browser's Accept-Encoding (encoded body and headers).
"""
from __future__ import annotations

import time

import browser
import measures

LESSON = "s06"
BLOCK = "s06/run_subagent"
LINE = 15
CURSOR_GOAL = 0.15     # cursor painted ÷ stock boot
THROTTLED_GOAL_MS = 1500
READY_GOAL = 0.45      # the page's runtime ready ÷ stock boot, cold
BYTES_GOAL = 100_000
# Chrome DevTools' "Fast 4G" preset
FAST_4G = {"offline": False, "latency": 60 * 2.75,
           "downloadThroughput": 9_000_000 / 8 * 0.9, "uploadThroughput": 1_500_000 / 8 * 0.9}
CPU_RATE = 4

PROBE = """
window.__shipped = {pressed: null, cursor: null, trace: null, ready: null};
document.addEventListener("loopstep:init", () => {
  const root = document.querySelector('[data-loopstep-block="%(block)s"]');
  root.querySelector('button[data-gutter="%(line)d"]').click();
  const debug = root.querySelector('button[data-action="debug"]');
  const press = () => {
    if (debug.disabled || window.__shipped.pressed !== null) return;
    window.__shipped.pressed = performance.now();
    debug.click();
  };
  new MutationObserver(press).observe(debug, {attributes: true});
  press();
  const paused = () => {
    if (window.__shipped.trace !== null || root.dataset.state !== "paused") return;
    window.__shipped.trace = root.dataset.trace || "";
    requestAnimationFrame(() => setTimeout(() => { window.__shipped.cursor = performance.now(); }));
  };
  new MutationObserver(paused).observe(root, {attributes: true});
  paused();
});
document.addEventListener("DOMContentLoaded", () => {
  const runtime = document.querySelector('[data-role="runtime"]');
  const seen = () => {
    if (runtime.dataset.state === "ready" && window.__shipped.ready === null) {
      window.__shipped.ready = performance.now();
    }
  };
  new MutationObserver(seen).observe(runtime, {attributes: true});
  seen();
});
""" % {"block": BLOCK, "line": LINE}


def throttle(page, throttled: bool) -> None:
    if not throttled:
        return
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", FAST_4G)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_RATE})


def poll(page, expression: str, timeout_s: float = 300):
    deadline = time.monotonic() + timeout_s
    while not (value := page.evaluate(expression)):
        if time.monotonic() > deadline:
            raise TimeoutError(f"{page.url}: {expression} after {timeout_s} s")
        time.sleep(0.02)
    return value


def lesson_once(context, base: str, throttled: bool) -> dict:
    page = context.new_page()
    try:
        throttle(page, throttled)
        page.add_init_script(PROBE)
        page.goto(f"{base}/lessons/{LESSON}", wait_until="commit")
        poll(page, "window.__shipped && window.__shipped.cursor")
        poll(page, "window.__shipped.ready")
        return page.evaluate("window.__shipped")
    finally:
        page.close()


def stock_once(context, base: str, throttled: bool) -> float:
    page = context.new_page()
    try:
        throttle(page, throttled)
        page.goto(f"{base}/bench/stock.html", wait_until="commit")
        browser.wait_ready(page, 300_000)
        state = page.evaluate("({ready: bench.ready, error: bench.error})")
        if state["error"]:
            raise RuntimeError(state["error"])
        return state["ready"]
    finally:
        page.close()


def _visit(pw, base: str, visit: str, throttled: bool, which: str):
    """One measured load of `which` ("lesson"|"stock"): the first of a fresh profile, or
    the third of one (two unmeasured loads first)."""
    once = lesson_once if which == "lesson" else stock_once
    with browser.profile(pw) as context:
        if visit == "third":
            for _ in range(2):
                once(context, base, throttled)
        return once(context, base, throttled)


def trace_bytes(pw, base: str) -> dict:
    """Every shipped trace of the s06 page over the wire (brotli as the browser asks)."""
    with browser.profile(pw) as context:
        page = context.new_page()
        sizes = {}
        page.on("requestfinished", lambda r: "/traces/" in r.url and sizes.__setitem__(
            r.url, r.sizes()["responseBodySize"] + r.sizes()["responseHeadersSize"]))
        page.goto(f"{base}/lessons/{LESSON}")
        config = page.evaluate(
            "JSON.parse(document.getElementById('loopstep-runtime').textContent).traces")
        urls = [f"{config['url']}{block}/{preset}.json?v={config['version']}"
                for block, presets in config["runs"].items() for preset in presets]
        page.evaluate("(urls) => Promise.all(urls.map((u) => fetch(u).then((r) => r.text())))",
                      urls)
        deadline = time.monotonic() + 30
        while len(sizes) < len(urls) and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        page.close()
    return {"files": len(urls), "bytes": sum(sizes.values())}


def section(pw, base: str, rounds: int, throttled_rounds: int) -> dict:
    out = {}
    for throttled, n in ((False, rounds), (True, throttled_rounds)):
        for visit in ("first", "third"):
            rows = {"cursor": [], "ready": [], "stock": [], "trace": set()}
            for _ in range(n):
                lesson = _visit(pw, base, visit, throttled, "lesson")
                rows["cursor"].append(lesson["cursor"])
                rows["ready"].append(lesson["ready"])
                rows["trace"].add(lesson["trace"])
                rows["stock"].append(_visit(pw, base, visit, throttled, "stock"))
            key = f"{visit}{', throttled' if throttled else ''}"
            stock = measures.summary(rows["stock"])
            out[key] = {"cursor_ms": measures.summary(rows["cursor"]),
                        "ready_ms": measures.summary(rows["ready"]), "stock_ms": stock,
                        "trace": sorted(rows["trace"]),
                        "cursor_ratio": measures.summary(rows["cursor"])["median"] / stock["median"],
                        "ready_ratio": measures.summary(rows["ready"])["median"] / stock["median"]}
    out["bytes"] = trace_bytes(pw, base)
    return out


def _ms(s):
    return f"{s['median']:.0f} ms ({s['min']:.0f}–{s['max']:.0f})"


def _met(ok: bool) -> str:
    return "met" if ok else "**not met**"


def rows(result: dict | None) -> list[tuple[str, str, str, str]]:
    if not result:
        return []
    out = []
    for key, data in result.items():
        if key == "bytes":
            continue
        throttled = "throttled" in key
        label = f"Debug → cursor at a breakpoint, {key} visit (trace: " \
                f"{', '.join(data['trace'])}), vs stock boot {_ms(data['stock_ms'])}"
        value = f"{_ms(data['cursor_ms'])} = **{data['cursor_ratio']:.2f}×** stock"
        if throttled:
            ok = data["cursor_ms"]["median"] <= THROTTLED_GOAL_MS
            out.append((label, value, f"≤ {THROTTLED_GOAL_MS} ms", _met(ok)))
        else:
            out.append((label, value, f"≤ {CURSOR_GOAL}× stock",
                        _met(data["cursor_ratio"] <= CURSOR_GOAL)))
        ready = f"{_ms(data['ready_ms'])} = {data['ready_ratio']:.2f}× stock"
        if key == "first":
            out.append(("the same page's runtime ready, first visit", ready,
                        f"≤ {READY_GOAL}× stock", _met(data["ready_ratio"] <= READY_GOAL)))
        else:
            out.append((f"the same page's runtime ready, {key} visit", ready, "", ""))
    b = result["bytes"]
    out.append((f"shipped traces of the s06 page over the wire ({b['files']} files)",
                f"{b['bytes'] / 1000:.1f} KB", f"≤ {BYTES_GOAL // 1000} KB",
                _met(b["bytes"] <= BYTES_GOAL)))
    return out

"""Browser measurements for bench/run.py: boot A/B (cold, warm), bytes, long traces.

Pages (bench/pages/, served by bench/serve.py next to the real app):
  /bench/stock.html       a bare page whose module worker only boots the vendored Pyodide stock
  /bench/fast.html        a page whose worker boots via web/static/js/boot/boot.js and is ready
                          when runtime.recorder is imported (what the debugger needs)
  /bench/fast-hints.html  the same with <link rel=preload> hints in the document
"""
from __future__ import annotations

import os
import shutil
import tempfile
import time
from contextlib import contextmanager

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
READY = "() => !!window.bench && (window.bench.ready !== null || window.bench.error !== null)"


def chromium_path() -> str:
    return os.environ.get("LOOPSTEP_CHROMIUM") or "/usr/bin/chromium"


@contextmanager
def profile(playwright, user_data_dir: str | None = None):
    """A persistent browser context; a fresh temporary profile unless one is given."""
    own = user_data_dir is None
    folder = tempfile.mkdtemp(prefix="loopstep-bench-") if own else user_data_dir
    context = playwright.chromium.launch_persistent_context(
        folder, executable_path=chromium_path(), headless=True, args=ARGS)
    try:
        yield context
    finally:
        context.close()
        if own:
            shutil.rmtree(folder, ignore_errors=True)


def wait_ready(page, timeout_ms: int) -> None:
    """Poll with evaluate (CSP forbids the string eval that wait_for_function uses)."""
    deadline = time.monotonic() + timeout_ms / 1000
    while not page.evaluate(READY):
        if time.monotonic() > deadline:
            raise TimeoutError(f"{page.url}: not ready after {timeout_ms} ms")
        time.sleep(0.02)


def _runtime_bytes(entries: list[dict]) -> dict:
    total = sum(e.get("transferSize") or 0 for e in entries)
    runtime = sum(e.get("transferSize") or 0 for e in entries if "/vendor/" in e["name"])
    names = sorted({e["name"].rsplit("/", 1)[-1] for e in entries
                    if "/vendor/" in e["name"] and (e.get("transferSize") or 0) > 0})
    return {"total": total, "runtime": runtime, "runtime_fetched": names}


def boot_once(context, base: str, page_name: str, timeout_ms: int = 180_000) -> dict:
    """Load one bench page in a new tab; ms from navigation start to ready, and bytes."""
    page = context.new_page()
    try:
        page.goto(f"{base}/bench/{page_name}", wait_until="commit")
        wait_ready(page, timeout_ms)
        state = page.evaluate("({ready: bench.ready, error: bench.error, worker: bench.worker})")
        if state["error"]:
            raise RuntimeError(f"{page_name}: {state['error']}")
        entries = page.evaluate("bench.resources()")
        entries += page.evaluate("bench.ask({type: 'resources'}).then(r => r.entries)")
        return {"ms": state["ready"], "path": state["worker"]["path"],
                "fallbacks": state["worker"].get("fallbacks", []),
                "bytes": _runtime_bytes(entries)}
    finally:
        page.close()


LESSON_PAGE = "lesson"   # the real debugger page, /lessons/s06, until its runtime is ready
READY_PROBE = """
window.__loopstep_ready = null;
document.addEventListener("DOMContentLoaded", () => {
  const runtime = document.querySelector('[data-role="runtime"]');
  if (!runtime) return;
  const seen = () => {
    if (runtime.dataset.state === "ready" && window.__loopstep_ready === null) {
      window.__loopstep_ready = {ms: performance.now(), path: runtime.dataset.boot || ""};
    }
  };
  new MutationObserver(seen).observe(runtime, {attributes: true});
  seen();
});
"""


def lesson_boot_once(context, base: str, timeout_ms: int = 180_000) -> dict:
    """The lesson page from navigation to 'runtime ready'; bytes of every request asked
    for until then, the worker's included, from the network layer (encoded sizes): not
    what the worker asks for once ready (the trimmed zip it fetches for later, boot.js
    warmUp), which would be counted only when it happened to end before the query."""
    page = context.new_page()
    finished: list = []   # sizes asked for after ready: a query per request while the
    page.on("requestfinished", lambda r: finished.append(r))  # page boots costs its CPU
    try:
        page.add_init_script(READY_PROBE)
        page.goto(f"{base}/lessons/s06", wait_until="commit")
        deadline = time.monotonic() + timeout_ms / 1000
        while not page.evaluate("window.__loopstep_ready"):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{page.url}: not ready after {timeout_ms} ms")
            time.sleep(0.02)
        state = page.evaluate("window.__loopstep_ready")
        # the worker's last mark before it posts "ready" (copied onto the page's timeline),
        # as ms since the epoch: what it asks for after that is for later
        ready_at = page.evaluate("""() => performance.timeOrigin + Math.min(
            ...performance.getEntriesByName("loopstep:worker:recorder-imported").map((m) => m.startTime),
            performance.now())""")
        entries = [{"name": r.url, "transferSize": _encoded_size(r)} for r in list(finished)
                   if r.timing["startTime"] <= ready_at]
        return {"ms": state["ms"], "path": state["path"], "fallbacks": [],
                "bytes": _runtime_bytes(entries)}
    finally:
        page.close()


def _encoded_size(request) -> int:
    try:
        sizes = request.sizes()
    except Exception:  # a request served from the memory cache has no network sizes
        return 0
    return sizes.get("responseBodySize", 0) + sizes.get("responseHeadersSize", 0)


def load_once(context, base: str, name: str) -> dict:
    return lesson_boot_once(context, base) if name == LESSON_PAGE else boot_once(context, base, name)


def boot_ab(playwright, base: str, rounds: int, variants: tuple[str, ...], warm: bool) -> dict:
    """Alternate the variants `rounds` times, each load in a fresh profile; warm: a
    reader's second visit, the load after a first (unmeasured) one in the same browser."""
    samples = {name: [] for name in variants}
    for _ in range(rounds):
        for name in variants:
            with profile(playwright) as context:
                if warm:
                    load_once(context, base, name)
                samples[name].append(load_once(context, base, name))
    return samples


def long_trace(playwright, base: str, max_steps: int, rounds: int) -> dict:
    """Record the million-statement lesson in the bench worker; and run it untraced."""
    with profile(playwright) as context:
        page = context.new_page()
        page.goto(f"{base}/bench/fast.html", wait_until="commit")
        wait_ready(page, 180_000)
        python = page.evaluate("bench.worker.python")
        records, plain = [], []
        for _ in range(rounds):
            records.append(page.evaluate(
                f"bench.ask({{type: 'record', maxSteps: {max_steps}}})"))
            plain.append(page.evaluate("bench.ask({type: 'untraced'}).then(r => r.seconds)"))
        page.close()
    return {"python": python, "records": records, "untraced_s": plain}


def measure_ui(playwright, base: str, quick: bool, million_base: str | None = None) -> dict:
    """Debug → cursor on the s06 page, and step / slider latency on the million-step
    lesson (served by `million_base`, a server whose step cap lets it record a million
    steps), each timed in the page from the input event to the next painted frame."""
    clicks, jumps = (10, 40) if quick else (60, 300)
    with profile(playwright) as context:
        page = context.new_page()
        page.goto(f"{base}/lessons/s06")
        block = '[data-loopstep-block="s06/child_tools"]'
        page.locator(block).get_attribute("data-state")
        wait_state(page, block, "ready")
        page.click(f'{block} button[data-gutter="7"]')
        debug = page.evaluate(UI_PROBE, {"block": block, "kind": "debug", "n": clicks})
        page.goto(f"{million_base or base}/lessons/million")
        block = '[data-loopstep-block="million/count_up"]'
        wait_state(page, block, "ready")
        page.click(f'{block} button[data-gutter="6"]')
        started = time.monotonic()
        page.click(f'{block} button[data-action="debug"]')
        wait_state(page, block, "paused", timeout_s=300)
        record_s = time.monotonic() - started
        steps = int(page.locator(f'{block} input[data-role="timeline"]').get_attribute("max")) + 1
        jump = page.evaluate(UI_PROBE, {"block": block, "kind": "jump", "n": jumps})
        step = page.evaluate(UI_PROBE, {"block": block, "kind": "step", "n": jumps})
        page.close()
    return {"debug_to_cursor_ms": debug, "million": {"steps": steps, "record_s": record_s,
                                                     "jump_ms": jump, "step_ms": step}}


def wait_state(page, block: str, state: str, timeout_s: float = 180) -> None:
    deadline = time.monotonic() + timeout_s
    while page.locator(block).get_attribute("data-state") != state:
        if time.monotonic() > deadline:
            raise TimeoutError(f"{block} never reached {state}")
        time.sleep(0.02)


# Runs in the page (Playwright evaluates it through the devtools protocol, outside CSP):
# times each action from the input event to the frame after the cursor moved.
UI_PROBE = """
async ({block, kind, n}) => {
  const root = document.querySelector(block);
  const button = (name) => root.querySelector(`button[data-action="${name}"]`);
  const slider = root.querySelector('input[data-role="timeline"]');
  const painted = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const cursor = () => {
    const at = root.querySelector('[aria-current="step"]');
    return at ? at.dataset.line + ":" + slider.value : null;
  };
  const moved = async (before) => {
    for (let i = 0; i < 100000 && cursor() === before; i++) await new Promise(requestAnimationFrame);
  };
  const times = [];
  const handled = [];
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < n; i++) {
    if (kind === "debug" && !button("reset").disabled) { button("reset").click(); await painted(); }
    const before = cursor();
    const t0 = performance.now();
    if (kind === "debug") button("debug").click();
    else if (kind === "step") (i % 2 ? button("step-back") : button("step-over")).click();
    else {
      slider.value = String(Math.floor(random() * Number(slider.max)));
      slider.dispatchEvent(new Event("input", {bubbles: true}));
    }
    handled.push(performance.now() - t0);
    if (kind === "debug") await moved(before);
    await painted();
    times.push(performance.now() - t0);
  }
  const stats = (xs) => {
    xs.sort((a, b) => a - b);
    const at = (q) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))];
    return {n: xs.length, median: at(0.5), p95: at(0.95), max: xs[xs.length - 1]};
  };
  // `handled`: the input's handlers ran and the DOM shows the new step (all synchronous);
  // the median/p95 fields: until the frame after that was painted.
  return {...stats(times), handled: stats(handled)};
}
"""

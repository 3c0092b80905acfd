"""Browser measurements for bench/run.py: boot A/B (cold, warm), bytes, long traces.

Pages (bench/pages/, served by bench/serve.py next to the real app):
  /bench/stock.html       a bare page whose module worker only boots stock Pyodide 314.0.8
  /bench/fast.html        a page whose worker boots via web/static/js/boot.js and is ready
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


def boot_ab(playwright, base: str, rounds: int, variants: tuple[str, ...], warm: bool) -> dict:
    """Alternate the variants `rounds` times; cold: a fresh profile per load."""
    samples = {name: [] for name in variants}
    if warm:
        folder = tempfile.mkdtemp(prefix="loopstep-bench-warm-")
        try:
            with profile(playwright, folder) as context:
                for name in variants:           # first visits fill the cache, not measured
                    boot_once(context, base, name)
                    boot_once(context, base, name)
                for _ in range(rounds):
                    for name in variants:
                        samples[name].append(boot_once(context, base, name))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    else:
        for _ in range(rounds):
            for name in variants:
                with profile(playwright) as context:
                    samples[name].append(boot_once(context, base, name))
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


def measure_ui(playwright, base: str, quick: bool) -> dict:
    """Debug → cursor and step/slider latency on the real lesson page.

    HOOK for the finished page (contract: [data-loopstep-block], button[data-action=debug],
    [aria-current=step], input[data-role=timeline]). Returns {"status": "not measured"}
    until the page is wired to boot.js and raises its trace cap to 1,000,000 steps.
    A filled version should: open /lessons/million, wait for data-state=ready, then ≥50
    times click Debug and time until [aria-current=step] is painted (requestAnimationFrame
    after the mutation); then at 1M steps set the timeline to ≥200 random positions and
    press step-over/step-back, timing each until the next paint; report median and p95.
    """
    return {"status": "not measured", "reason": "lesson page not wired to boot.js yet"}

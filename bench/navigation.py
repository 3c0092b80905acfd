"""Navigation → paused at a breakpoint, as a reader gets there, against a stock Pyodide boot.

Two ways a reader gets there, driven from outside the page as a test or a person does:
*clicks*: open the lesson (navigation start), click the gutter of line 15 of
`s06/run_subagent` and then Debug as soon as Playwright finds each clickable (visible,
stable, enabled); *link*: open a link holding that paused position (the URL the clicks
leave, LINK). Until the frame painted after the block paused. Alternating per round with the bare stock
Pyodide page until its runtime is ready; first visit (a fresh profile) and third visit
(the third load of one profile); unthrottled and under CPU ×4 + "fast 4G" (the same
emulation as bench/shipped.py).

Beside them, the floors of the clicks path (unthrottled): the same two clicks on a page
holding only the two buttons (/bench/buttons.html: the driver's own time), and on the
lesson page without its runtime (`?runtime=lazy`: the page's own time, no worker booting
beside the clicks).
The report writes each floor as a fraction of the stock boot, and what the goal leaves the
lesson page beyond the driver's own time.

Per load, the phases on the page's own clock (ms since navigation start): the document's
last byte, the style sheets' and the page script's last bytes, first contentful paint, the
page wired (`loopstep:init`), the reader's two clicks, paused, the paused frame painted,
and when each pane of the block first had something painted. One more load per mode is
traced (CDP Tracing): the page main thread's busy time by kind of work until the paused
frame (bench/tracing.py).
"""
from __future__ import annotations

import browser
import measures
import shipped
import tracing

LESSON = "s06"
BLOCK = "s06/run_subagent"
LINE = 15
LINK = f"#b={BLOCK.split('/')[1]}&s=normal&bp={LINE}&step=6"   # the URL the clicks leave
GOAL = 0.15                # navigation → paused ÷ stock boot, first and third visit
THROTTLED_GOALS = {"first": 1500, "third": 1000}   # ms
PANES = ("variables", "stack", "output", "conversation", "timeline", "workspace", "boundary")

PROBE = """
(() => {
  const nav = window.__nav = {init: null, clicks: {}, paused: null, painted: null, panes: {}};
  document.addEventListener("loopstep:init", () => { nav.init ??= performance.now(); });
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button");
    if (!button) return;
    const name = button.dataset.gutter ? "gutter" : button.dataset.action;
    if (name) nav.clicks[name] ??= performance.now();
  }, true);
  // a pane has something to show: text, or (the timeline, an input) it is enabled
  const shown = (el) => el && !el.hidden && el.getClientRects().length > 0
    && (el.matches("input") ? !el.disabled : el.textContent.trim() !== "");
  document.addEventListener("DOMContentLoaded", () => {
    const root = document.querySelector('[data-loopstep-block="%(block)s"]');
    const panes = %(panes)s;
    const look = () => {
      if (nav.paused === null && root.dataset.state === "paused") {
        nav.paused = performance.now();
        requestAnimationFrame(() => setTimeout(() => { nav.painted = performance.now(); }));
      }
      if (nav.paused === null) return;
      for (const role of panes) {
        if (nav.panes[role] !== undefined) continue;
        if (!shown(root.querySelector(`[data-role="${role}"]`))) continue;
        nav.panes[role] = -1;
        requestAnimationFrame(() => setTimeout(() => { nav.panes[role] = performance.now(); }));
      }
    };
    new MutationObserver(look).observe(root, {attributes: true, childList: true, subtree: true});
    look();
  });
})();
""" % {"block": BLOCK, "panes": list(PANES)}

PHASES = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const resources = performance.getEntriesByType("resource");
  const last = (test) => Math.max(0, ...resources.filter((r) => test(r.name)).map((r) => r.responseEnd));
  const paint = performance.getEntriesByType("paint").find((p) => p.name === "first-contentful-paint");
  const script = document.querySelector('script[type="module"][src]').src;
  return {document: nav.responseEnd,
          // the page's sheet (the bundle's), not those its views load later
          styles: last((name) => name.includes("/bundle/") && name.endsWith(".css")),
          script: last((name) => name === script),
          fcp: paint ? paint.startTime : null,
          ...window.__nav};
}"""


def lesson_once(context, base: str, throttled: bool, mode: str, trace: bool = False) -> dict:
    """One load of the lesson page: `mode` "clicks" (the gutter, then Debug) or "link" (a
    link holding the paused position, LINK)."""
    page = context.new_page()
    recorder = None
    try:
        shipped.throttle(page, throttled)
        page.add_init_script(PROBE)
        recorder = tracing.start(context, page) if trace else None
        page.goto(f"{base}{FLOORS.get(mode, f'/lessons/{LESSON}')}{LINK if mode == 'link' else ''}",
                  wait_until="commit")
        if mode != "link":
            root = page.locator(f'[data-loopstep-block="{BLOCK}"]')
            root.locator(f'button[data-gutter="{LINE}"]').click(timeout=300_000)
            root.locator('button[data-action="debug"]').click(timeout=300_000)
        shipped.poll(page, "window.__nav.painted")
        phases = page.evaluate(PHASES)
        state = page.evaluate(f"""() => {{
          const root = document.querySelector('[data-loopstep-block="{BLOCK}"]');
          return {{line: root.querySelector('[aria-current="step"][data-line]')?.dataset.line ?? null,
                   trace: root.dataset.trace ?? null}};
        }}""")
        phases.update(state)
        if recorder:
            events = recorder.stop()
            recorder = None
            phases["busy"] = tracing.busy(events, phases["painted"]).get("page main thread", {})
        return phases
    finally:
        if recorder:
            recorder.stop()
        page.close()


def _visit(pw, base: str, visit: str, throttled: bool, which: str, trace: bool = False):
    """The measured load of `which` ("stock", "clicks" or "link"): the first of a fresh
    profile or the third of one (the two before it the same kind of load)."""
    with browser.profile(pw) as context:
        if which == "stock":
            for _ in range(2 if visit == "third" else 0):
                shipped.stock_once(context, base, throttled)
            return shipped.stock_once(context, base, throttled)
        for _ in range(2 if visit == "third" else 0):
            lesson_once(context, base, throttled, which)
        return lesson_once(context, base, throttled, which, trace)


KEYS = ("document", "styles", "script", "fcp", "init", "gutter", "debug", "paused", "painted")


def section(pw, base: str, rounds: int, throttled_rounds: int) -> dict:
    out = {}
    for throttled, n in ((False, rounds), (True, throttled_rounds)):
        for visit in ("first", "third"):
            measured = MODES + (() if throttled else tuple(FLOORS))
            loads = {mode: [] for mode in measured}
            stock = []
            for _ in range(n):
                for mode in measured:
                    loads[mode].append(_visit(pw, base, visit, throttled, mode))
                stock.append(_visit(pw, base, visit, throttled, "stock"))
            stock_ms = measures.summary(stock)
            for mode in MODES:
                traced = _visit(pw, base, visit, throttled, mode, trace=True)
                key = f"{mode}, {visit}{', throttled' if throttled else ''}"
                out[key] = _summary(loads[mode], stock_ms, traced)
            if not throttled:
                out[f"floors, {visit}"] = {mode: measures.summary([load["painted"] for load in loads[mode]])
                                          for mode in FLOORS}
    return out


MODES = ("clicks", "link")
# the clicks on less: the two buttons alone; the lesson page without its runtime
FLOORS = {"buttons only": "/bench/buttons.html", "no runtime": f"/lessons/{LESSON}?runtime=lazy"}


def _summary(loads: list[dict], stock_ms: dict, traced: dict) -> dict:
    phases = {}
    for key in KEYS:
        values = [(load["clicks"].get(key) if key in ("gutter", "debug") else load[key])
                  for load in loads]
        phases[key] = measures.summary(values)
    panes = {role: measures.summary([load["panes"].get(role) for load in loads]) for role in PANES}
    painted = measures.summary([load["painted"] for load in loads])
    return {"painted_ms": painted, "stock_ms": stock_ms,
            "ratio": painted["median"] / stock_ms["median"], "phases": phases,
            "panes": {r: s for r, s in panes.items() if s["n"]},
            "lines": sorted({str(load["line"]) for load in loads}),
            "busy": traced.get("busy", {})}


def _ms(s) -> str:
    return f"{s['median']:.0f} ms ({s['min']:.0f}–{s['max']:.0f})"


def _floor_rows(visit: str, floors: dict, clicks: dict | None) -> list[tuple[str, str, str, str]]:
    """The floors, each also as a fraction of the same rounds' stock boot; and what the goal
    leaves the lesson page once the driver's own time (the two buttons alone) is spent."""
    stock = clicks["stock_ms"]["median"] if clicks else None
    share = (lambda s: f" = {s['median'] / stock:.2f}×") if stock else (lambda s: "")
    out = [(f"the same clicks, {visit} visit, on less: a page holding only the two "
            "buttons; the lesson page without its runtime (`?runtime=lazy`)",
            "; ".join(f"{mode} {_ms(s)}{share(s)}" for mode, s in floors.items()), "", "")]
    buttons, bare = floors.get("buttons only"), floors.get("no runtime")
    if stock and buttons and bare:
        left = GOAL * stock - buttons["median"]
        out.append((f"what the goal leaves the lesson page, {visit} visit: {GOAL}× stock less the "
                    "two buttons alone; what the page without its runtime takes beyond them",
                    f"{left:.0f} ms; {bare['median'] - buttons['median']:.0f} ms", "", ""))
    return out


def rows(result: dict | None) -> list[tuple[str, str, str, str]]:
    if not result:
        return []
    out = []
    for key, data in result.items():
        if key.startswith("floors, "):
            visit = key.split(", ")[1]
            out.extend(_floor_rows(visit, data, result.get(f"clicks, {visit}")))
            continue
        throttled = "throttled" in key
        mode, visit = key.split(", ")[:2]
        how = "the reader's clicks" if mode == "clicks" else "a link to the paused line"
        label = (f"navigation → paused at a breakpoint, {how}, {key.split(', ', 1)[1]} visit "
                 f"(paused on line {', '.join(data['lines'])}), vs stock boot {_ms(data['stock_ms'])}")
        value = f"{_ms(data['painted_ms'])} = **{data['ratio']:.2f}×** stock"
        if throttled:
            goal = THROTTLED_GOALS[visit]
            ok = data["painted_ms"]["median"] <= goal
            out.append((label, value, f"≤ {goal} ms", "met" if ok else "**not met**"))
        else:
            ok = data["ratio"] <= GOAL
            out.append((label, value, f"≤ {GOAL}× stock", "met" if ok else "**not met**"))
        phases = data["phases"]
        parts = [f"{name} {phases[name]['median']:.0f}" for name in KEYS
                 if phases[name]["median"] is not None]
        out.append((f"the same, phases (median ms since navigation start), {key}",
                    "; ".join(parts), "", ""))
        panes = [f"{role} {s['median']:.0f}" for role, s in data["panes"].items()]
        if panes:
            out.append((f"the same, each pane first painted (median ms), {key}",
                        "; ".join(panes), "", ""))
        busy = data.get("busy") or {}
        if busy:
            out.append((f"the same, page main thread busy until painted (one traced load), {key}",
                        "; ".join(f"{k} {v:.0f} ms" for k, v in busy.items()), "", ""))
    return out

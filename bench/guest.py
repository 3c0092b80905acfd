"""A guest's run (docs/design.md, "Who runs what") beside a preset's run in the page's worker.

Alternating per round, each on the third visit of one profile (the runtime's files in the
HTTP cache), measured from the press to the block's `finished` (or `paused`: a link's code
runs as Debug):
- preset: the s06 page with a watch in its link (`w=task`: a run that asks a question is
  recorded by the page's own worker, not taken from the shipped traces), Run pressed once
  the runtime is ready;
- guest: the same page with the preset's own setup as the link's custom setup, `run-from-link`
  pressed once the runtime is ready: the guest runtime (a second Pyodide, in the sandboxed
  frame) boots first, then records; nothing of it was booted ahead.
"""
from __future__ import annotations

import base64
import zlib

import browser
import measures
from shipped import poll

LESSON = "s06"
BLOCK = "s06/run_subagent"

PROBE = """
window.__guest = {pressed: null, done: null};
document.addEventListener("loopstep:init", () => {
  const root = document.querySelector('[data-loopstep-block="%(block)s"]');
  new MutationObserver(() => {
    const state = root.dataset.state;
    if (window.__guest.pressed !== null && window.__guest.done === null
        && (state === "finished" || state === "paused" || state === "error")) {
      window.__guest.done = performance.now();
      window.__guest.state = state;
    }
  }).observe(root, {attributes: true});
});
""" % {"block": BLOCK}

PRESS = """(action) => {
  const root = document.querySelector('[data-loopstep-block="%(block)s"]');
  const button = root.querySelector(`button[data-action="${action}"]`);
  if (!button || button.disabled) return false;
  window.__guest = {pressed: performance.now(), done: null};
  button.click();
  return true;
}""" % {"block": BLOCK}

READY = ("document.querySelector('[data-role=\"runtime\"]')"
         "?.dataset.state === 'ready'")


def link_setup(text: str) -> str:
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = deflate.compress(text.encode("utf-8")) + deflate.flush()
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _run(page, action: str) -> float:
    poll(page, f"({PRESS})({action!r})")
    poll(page, "window.__guest.done !== null")
    state = page.evaluate("window.__guest")
    if state["state"] == "error":
        raise RuntimeError(f"{action}: {state['state']}")
    return state["done"] - state["pressed"]


def _once(context, url: str, measure: bool) -> dict | None:
    page = context.new_page()
    try:
        page.add_init_script(PROBE)
        page.goto(url)
        poll(page, READY)
        if not measure:
            return None
        if "custom=" not in url:
            return {"preset": _run(page, "run")}
        return {"guest": _run(page, "run-from-link")}
    finally:
        page.close()


def section(pw, base: str, rounds: int) -> dict:
    from loopstep.runtime.catalog.lessons import load_lesson

    setup = load_lesson(LESSON).setup_text("normal")  # as the setup editor starts it
    preset = f"{base}/lessons/{LESSON}#b=run_subagent&s=normal&w=task"
    guest = f"{base}/lessons/{LESSON}#b=run_subagent&s=custom&w=task&custom={link_setup(setup)}"
    rows = {"preset": [], "guest": []}
    for _ in range(rounds):
        for url in (preset, guest):
            with browser.profile(pw) as context:
                for _ in range(2):
                    _once(context, url, False)
                for key, value in _once(context, url, True).items():
                    rows[key].append(value)
    preset_ms, guest_ms = measures.summary(rows["preset"]), measures.summary(rows["guest"])
    return {"preset_ms": preset_ms, "guest_ms": guest_ms,
            "ratio": guest_ms["median"] / preset_ms["median"]}


def _ms(s):
    return f"{s['median']:.0f} ms ({s['min']:.0f}–{s['max']:.0f})"


def rows(result: dict | None) -> list[tuple[str, str, str, str]]:
    if not result:
        return []
    return [("a preset's run with a question, Run → finished (the page's worker, third visit)",
             _ms(result["preset_ms"]), "", ""),
            ("a link's custom setup, run-from-link → finished (the guest runtime booted "
             "first, third visit)", f"{_ms(result['guest_ms'])} = {result['ratio']:.1f}× the "
             "preset's", "", "")]

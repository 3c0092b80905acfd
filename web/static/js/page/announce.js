// Screen-reader announcements of the cursor: one polite live region per page says
// where the cursor settled ("Paused at line 15: outcome = run_loop(…)") once a burst
// of moves (a timeline drag, a held step key) has stopped, not on every frame.

import { SEL, EVENTS } from "../selectors.js";

export const SETTLE_MS = 400;
const CODE_CHARS = 40;

/** A line's code for speech: whitespace collapsed; a long line's first call has its
 * arguments elided ("outcome = run_loop(…)"), or the line is cut with "…". */
export function spokenCode(text) {
  const code = String(text ?? "").replace(/\s+/g, " ").trim();
  if (code.length <= CODE_CHARS) return code;
  const open = code.indexOf("(");
  if (open > 0 && open < CODE_CHARS) return `${code.slice(0, open + 1)}…)`;
  return `${code.slice(0, CODE_CHARS - 1)}…`;
}

export function installAnnouncer(doc, messages) {
  const region = doc.createElement("div");
  region.className = "visually-hidden";
  region.dataset.role = "announce";
  region.setAttribute("aria-live", "polite");
  region.setAttribute("aria-atomic", "true");
  (doc.querySelector(SEL.main) ?? doc.body).append(region);
  let timer = null;
  const say = (text) => {
    clearTimeout(timer);
    timer = setTimeout(() => { region.textContent = text; }, SETTLE_MS);
  };
  doc.addEventListener(EVENTS.pause, (event) => {
    const { line } = event.detail;
    const code = event.target.querySelector?.(SEL.lineN(line))?.textContent;
    say(messages.format("announce_paused", { line, code: spokenCode(code) }));
  });
  doc.addEventListener(EVENTS.finish, (event) => {
    say(event.target.querySelector?.(SEL.status)?.textContent ?? "");
  });
  return region;
}

// URL state: the active block, its scenario, breakpoints and step, in the hash.
//
//   #b=run_subagent&s=limit&bp=15,17&step=12
//   …&c15=max_calls%20%3D%3D%201&h11=2&l13=…&w=len(history)   (questions.js)
//   #b=run_subagent&bp=15&ev=tool%253Aread_file,model%253A2   (event breakpoints, event-stops.js)
//   #b=run_subagent&s=custom&custom=… (the reader's setup text, compressed: setup-url.js)
//   #b=run_subagent&fork=model%3A2~… (a fork: the call and its JSON, compressed: fork-url.js)
//
// parse/format are pure; the page writes with history.replaceState so stepping
// does not fill the history.

/** {block, scenario, breakpoints, events, step, custom, fork} from a hash (or query) string; null if empty. */
export function parse(fragment) {
  const params = new URLSearchParams(String(fragment ?? "").replace(/^[#?]/, ""));
  const block = params.get("b");
  if (!block) return null;
  const breakpoints = (params.get("bp") ?? "").split(",")
    .map((x) => Number(x)).filter((n) => Number.isInteger(n) && n > 0);
  const stepText = params.get("step");
  const step = stepText !== null && /^\d+$/.test(stepText) ? Number(stepText) : null;
  // each event breakpoint's "KIND:VALUE" is encoded on its own: a value may hold a comma
  const events = (params.get("ev") ?? "").split(",").filter(Boolean).map((x) => {
    try { return decodeURIComponent(x); } catch { return null; }
  }).filter((x) => x !== null);
  return { block, scenario: params.get("s"), breakpoints, events, step, custom: params.get("custom"),
    fork: params.get("fork") };
}

/** The hash for a block's state ("" when nothing is worth keeping). */
export function format({ block, scenario, breakpoints, events, step, questions, custom, fork }) {
  const parts = [`b=${encodeURIComponent(block)}`];
  if (scenario) parts.push(`s=${encodeURIComponent(scenario)}`);
  const bps = [...(breakpoints ?? [])].sort((a, b) => a - b);
  if (bps.length) parts.push(`bp=${bps.join(",")}`);
  if (events?.length) parts.push(`ev=${events.map((e) => encodeURIComponent(encodeURIComponent(e))).join(",")}`);
  if (step !== null && step !== undefined && step >= 0) parts.push(`step=${step}`);
  parts.push(...(questions ?? []));
  if (custom) parts.push(`custom=${encodeURIComponent(custom)}`);
  if (fork) parts.push(`fork=${encodeURIComponent(fork)}`);
  return `#${parts.join("&")}`;
}

/** The state of a block controller, for format(). */
export function stateOf(block) {
  return {
    block: block.name,
    scenario: block.scenario,
    breakpoints: block.breakpoints,
    events: block.events.keys,
    step: block.hasCursor ? block.index : null,
    questions: block.questions?.toParams(),
    custom: block.urlCustom,
    fork: block.urlFork,
  };
}

/** Replace the location's hash without a history entry. */
export function write(block) {
  const hash = block ? format(stateOf(block)) : "";
  if (hash === window.location.hash) return;
  const url = new URL(window.location.href);
  url.hash = hash;
  window.history.replaceState(window.history.state, "", url.href);
}

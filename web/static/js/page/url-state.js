// The URL's state: the one owner of the page's fragment and query. Every part is parsed
// and formatted here (pure, Node-tested: tests/js/url-state.test.mjs), and `PageUrl` is
// the one reader of `location` and the one writer of `history`/`location`; the page,
// the block and the views ask it, never the location themselves.
//
// The fragment holds one block's state (written with history.replaceState, so stepping
// does not fill the history):
//   #b=run_subagent&s=limit&bp=15,17&step=12
//   …&c15=max_calls%20%3D%3D%201&h11=2&l13=…&w=len(history)   (the reader's questions)
//   …&ev=tool%253Aread_file,model%253A2   (event breakpoints: each "KIND:VALUE" encoded on
//                                           its own, a value may hold a comma)
//   …&s=custom&custom=…   (the reader's setup text, deflate-raw then base64url: setup-url.js)
//   …&fork=model%3A2~…    (a fork: the call and its JSON, compressed as the setup is)
//   …&sched=switch%3A10%3DMainThread   (a schedule fork: the schedule's text form,
//                                       model/schedule.js; data, not code: restored at once)
// A link's custom setup and fork are code (or data) that would run: they never run on
// load, on a lesson page or in an embed. The block shows them and runs them on the
// reader's click (whatif/link-code.js); the rest of the link is restored at once, its
// step with the code.
// The query, on every copy of the page: `lang=zh|en` (the other language's copy),
// `scenario=NAME` (an embed's preset), `trace=live` (no shipped traces),
// `origin=` (an embed's host page).

import { cleanSpec, MAX_WATCHES } from "../model/questions.js";

const WRITE_DELAY_MS = 120;
const QUESTION_FIELDS = { c: "condition", h: "hits", l: "log" };

// The custom setup's and the fork's texts are compressed (setup-url.js) and a fork names
// its call (fork-url.js): both are loaded with the first custom setup or fork.
const setupCodec = () => import("../whatif/setup-url.js");
const forkModel = () => import("../model/fork-url.js");

// ---- the fragment -----------------------------------------------------------

/** {block, scenario, breakpoints, events, step, questions, custom, fork, sched} from a hash (or
 * query) string; null if it names no block. Bad entries are left out. */
export function parse(fragment) {
  const { params, watches } = fragmentParams(fragment);
  const block = params.get("b");
  if (!block) return null;
  const breakpoints = (params.get("bp") ?? "").split(",")
    .map((x) => Number(x)).filter((n) => Number.isInteger(n) && n > 0);
  const stepText = params.get("step");
  const step = stepText !== null && /^\d+$/.test(stepText) ? Number(stepText) : null;
  const events = (params.get("ev") ?? "").split(",").filter(Boolean).map((x) => {
    try { return decodeURIComponent(x); } catch { return null; }
  }).filter((x) => x !== null);
  return { block, scenario: params.get("s"), breakpoints, events, step,
    questions: parseQuestions(params, watches), custom: params.get("custom"), fork: params.get("fork"),
    sched: params.get("sched") };
}

/** The fragment's parameters but its watches (URLSearchParams), and the watches' texts
 * (`w=`, decoded as URLSearchParams decodes): a link of 70,000 watches is read in one
 * pass of plain string work, not through a URLSearchParams that holds them all. */
function fragmentParams(fragment) {
  const rest = [];
  const watches = [];
  for (const piece of String(fragment ?? "").replace(/^[#?]/, "").split("&")) {
    if (piece.startsWith("w=")) watches.push(formValue(piece.slice(2)));
    else rest.push(piece);
  }
  const params = new URLSearchParams(rest.join("&"));
  return { params, watches: [...watches, ...params.getAll("w")] };
}

function formValue(raw) {
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    return new URLSearchParams(`w=${raw}`).get("w"); // a bad escape: as URLSearchParams reads it
  }
}

/** The hash for a block's state ("#b=…"). `questions`: {specs: Map or [[line, spec]],
 * watches} (model/questions.js). */
export function format({ block, scenario, breakpoints, events, step, questions, custom, fork, sched }) {
  const parts = [`b=${encodeURIComponent(block)}`];
  if (scenario) parts.push(`s=${encodeURIComponent(scenario)}`);
  const bps = [...(breakpoints ?? [])].sort((a, b) => a - b);
  if (bps.length) parts.push(`bp=${bps.join(",")}`);
  if (events?.length) parts.push(`ev=${events.map((e) => encodeURIComponent(encodeURIComponent(e))).join(",")}`);
  if (step !== null && step !== undefined && step >= 0) parts.push(`step=${step}`);
  parts.push(...formatQuestions(questions));
  if (custom) parts.push(`custom=${encodeURIComponent(custom)}`);
  if (fork) parts.push(`fork=${encodeURIComponent(fork)}`);
  if (sched) parts.push(`sched=${encodeURIComponent(sched)}`);
  return `#${parts.join("&")}`;
}

/** The questions' parameters ("c15=…", "h11=…", "l13=…" by line, then "w=…" each). */
export function formatQuestions(questions) {
  const out = [];
  const specs = [...(questions?.specs ?? [])].sort((a, b) => a[0] - b[0]);
  for (const [line, spec] of specs) {
    for (const [short, field] of Object.entries(QUESTION_FIELDS)) {
      if (spec[field] !== undefined) out.push(`${short}${line}=${encodeURIComponent(spec[field])}`);
    }
  }
  for (const w of questions?.watches ?? []) out.push(`w=${encodeURIComponent(w)}`);
  return out;
}

/** {specs: [[line, spec]], watches} of URLSearchParams (the watches' texts, `watchTexts`,
 * may come apart): a breakpoint whose hit count is not a positive integer keeps no details;
 * watches are trimmed, empty and repeated ones left out, and so are the ones past
 * MAX_WATCHES, counted in `leftOut` (then present) as Questions.addWatch does. */
export function parseQuestions(params, watchTexts = params.getAll("w")) {
  const texts = new Map();
  for (const [name, value] of params) {
    const m = /^([chl])(\d+)$/.exec(name);
    if (!m) continue;
    const line = Number(m[2]);
    if (!texts.has(line)) texts.set(line, {});
    texts.get(line)[QUESTION_FIELDS[m[1]]] = value;
  }
  const specs = [];
  for (const [line, fields] of texts) {
    try {
      const spec = cleanSpec(fields);
      if (spec) specs.push([line, spec]);
    } catch {
      // a hit count that is not a positive integer: that breakpoint keeps no details
    }
  }
  const watches = [];
  const seen = new Set();
  let leftOut = 0;
  for (const w of watchTexts) {
    const text = w.trim();
    if (!text || seen.has(text)) continue;
    seen.add(text);
    if (watches.length < MAX_WATCHES) watches.push(text);
    else leftOut += 1;
  }
  return leftOut ? { specs, watches, leftOut } : { specs, watches };
}

/** The state of a block controller, for format(). A link's code not run yet
 * (`block.linkCode`, whatif/link-code.js) stays in it: the custom setup and the fork, and
 * the custom scenario the link selects (then no step: the preset's run is not the link's). */
export function stateOf(block) {
  const link = block.linkCode ?? null;
  return {
    block: block.name,
    scenario: link?.scenario ?? block.scenario,
    breakpoints: block.breakpoints,
    events: block.events.keys,
    step: block.hasCursor && !link?.scenario ? block.index : null,
    questions: block.questions,
    custom: block.urlCustom ?? link?.custom ?? null,
    fork: block.urlFork ?? link?.fork ?? null,
    sched: block.urlSchedule ?? null,
  };
}

/** What of a parsed link (parse) waits for the reader's click: {custom, fork, scenario}
 * (the encoded setup and fork; `scenario`: the custom scenario when the link selects it,
 * else null), or null when the link brings no code. `customScenario`: its name. */
export function linkCode(saved, customScenario) {
  if (!saved?.custom && !saved?.fork) return null;
  return { custom: saved.custom || null, fork: saved.fork || null,
    scenario: saved.scenario === customScenario ? customScenario : null };
}

/** The fragment's form of a custom setup text (`custom=`). */
export async function encodeCustom(text) {
  return (await setupCodec()).encodeSetup(text);
}

/** The setup text of a fragment's `custom=`; rejects with an Error when it is not one (or
 * is too long: setup-url.js). */
export async function decodeCustom(encoded) {
  return (await setupCodec()).decodeSetup(encoded);
}

/** The fragment's form of a fork (`fork=CALL~TEXT`). */
export async function encodeFork(call, text) {
  return `${call}~${await encodeCustom(text)}`;
}

/** {call, text} of a fragment's `fork=`; rejects with an Error when it is not one. */
export async function decodeFork(encoded) {
  const { parseCall } = await forkModel();
  const at = String(encoded).indexOf("~");
  const call = at < 0 ? "" : encoded.slice(0, at);
  if (!parseCall(call)) throw new Error("not model:K~… or tool:K~…");
  return { call, text: await decodeCustom(encoded.slice(at + 1)) };
}

// ---- the query ------------------------------------------------------------

/** {lang, scenario, live, origin} of a query string (null for a part not given). */
export function parseQuery(search) {
  const query = new URLSearchParams(String(search ?? "").replace(/^\?/, ""));
  return { lang: query.get("lang"), scenario: query.get("scenario"),
    live: query.get("trace") === "live", origin: query.get("origin") };
}

/** The other language's copy of the page at `href` when its `?lang=` asks for it (the
 * rest of the query and the fragment kept), else null. `config`: the page's {lang, langHref}. */
export function languageTarget(href, { lang, langHref }) {
  const here = new URL(href);
  const query = new URLSearchParams(here.search);
  const wanted = query.get("lang");
  if ((wanted !== "zh" && wanted !== "en") || wanted === lang || langHref === undefined) return null;
  query.delete("lang");
  const search = query.toString();
  const target = new URL(langHref || "./", href);
  target.search = search ? `?${search}` : "";
  target.hash = here.hash;
  return target.href;
}

// ---- the page's URL -------------------------------------------------------

/** The page's URL: read once at the start, then written by one block's state. */
export class PageUrl {
  constructor(win = globalThis.window, { delay = WRITE_DELAY_MS } = {}) {
    this.win = win;
    this.delay = delay;
    this.block = null;  // the block the URL is to follow
    this.timer = null;
    this.restoring = false;
  }

  /** The fragment's saved state (parse), or null. */
  saved() {
    return parse(this.win.location.hash);
  }

  /** The query's parts (parseQuery). */
  query() {
    return parseQuery(this.win.location.search);
  }

  /** Go to the other language's copy when the query asks for it; whether the page is
   * being replaced. */
  switchLanguage(config) {
    const target = languageTarget(this.win.location.href, config);
    if (target === null) return false;
    this.win.location.replace(target);
    return true;
  }

  /** The URL follows the last change after a short pause, not on every step: writing
   * history on each of a burst of steps costs frames. Not while the URL is restored. */
  follow(block) {
    if (this.restoring) return;
    this.block = block;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.write(this.block);
    }, this.delay);
  }

  /** Replace the location's hash with `block`'s state, without a history entry. */
  write(block) {
    const hash = block ? format(stateOf(block)) : "";
    const { location, history } = this.win;
    if (hash === location.hash) return;
    const url = new URL(location.href);
    url.hash = hash;
    history.replaceState(history.state, "", url.href);
  }

  /** Apply the fragment's block, scenario, breakpoints, questions and step to the block
   * it names, through the block's actions; `restored(block)` is called once they are
   * applied. A custom setup or fork of the link is decoded and shown, not run
   * (whatif/link-code.js): its step waits with it for the reader's click. */
  restore(blocks, restored = () => {}) {
    const saved = this.saved();
    const block = saved && blocks.find((b) => b.name === saved.block);
    if (!block) return;
    this.restoring = true;
    if (!linkCode(saved, block.config?.customScenario)) {
      this.restoreBlock(block, saved, restored);
      return;
    }
    // decoded asynchronously: the rest is restored after it; a part that cannot be read
    // is reported and left out, and a link left with no code restores as one without
    block.loadWhatIf().then((w) => w.readLink(saved)).then((offer) => {
      this.restoreBlock(block, offer ? { ...saved, step: null } : saved, restored);
      offer?.show();
    });
  }

  restoreBlock(block, saved, restored) {
    this.restoring = true;
    if (saved.scenario && saved.scenario !== block.scenario) block.setScenario(saved.scenario);
    block.setBreakpoints(saved.breakpoints);
    if (saved.events.length) block.setEvents(saved.events);
    block.restoreQuestions(saved.questions);
    this.restoring = false;
    restored(block);
    const started = saved.step !== null ? block.start("debug", { seek: saved.step }) : null;
    // a schedule fork is data (it only picks among the program's own threads): its run is
    // run and compared at once, after the block's own
    if (saved.sched) {
      Promise.resolve(started).then(() => block.loadWhatIf()).then((w) => w.restoreSchedule(saved.sched));
    }
  }
}

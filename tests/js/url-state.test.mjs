// The URL's state (page/url-state.js): every part of the fragment and the query parsed and
// formatted, round trips, links shared before keep opening the same state, and the one
// reader and writer of the page's location (PageUrl) on a stand-in window.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  parse, format, formatQuestions, parseQuestions, stateOf, encodeCustom, decodeCustom,
  encodeFork, decodeFork, parseQuery, languageTarget, PageUrl, linkCode,
} from "../../web/static/js/page/url-state.js";
import { Questions, cleanSpec } from "../../web/static/js/model/questions.js";

const NO_QUESTIONS = { specs: [], watches: [] };

test("block, scenario, breakpoints and step round trip", () => {
  const state = { block: "run_subagent", scenario: "limit", breakpoints: new Set([17, 15]), step: 12 };
  const hash = format(state);
  assert.equal(hash, "#b=run_subagent&s=limit&bp=15,17&step=12");
  assert.deepEqual(parse(hash), { block: "run_subagent", scenario: "limit", breakpoints: [15, 17], events: [],
    step: 12, questions: NO_QUESTIONS, custom: null, fork: null, sched: null });
  assert.equal(format({ block: "x", scenario: "normal", breakpoints: [], step: null }), "#b=x&s=normal");
  assert.equal(format({ block: "x", breakpoints: [], step: 0 }), "#b=x&step=0");
  assert.equal(parse("#b=x&step=0").step, 0);
  assert.equal(format({ block: "a b/c", breakpoints: [] }), "#b=a%20b%2Fc");
  assert.equal(parse(format({ block: "a b/c", breakpoints: [] })).block, "a b/c");
});

test("what names no block, or bad entries, are left out", () => {
  assert.equal(parse(""), null);
  assert.equal(parse(undefined), null);
  assert.equal(parse("#s=limit&bp=3"), null);
  assert.deepEqual(parse("?b=x&bp=a,3,-1&step=zz"), { block: "x", scenario: null, breakpoints: [3], events: [],
    step: null, questions: NO_QUESTIONS, custom: null, fork: null, sched: null });
  assert.equal(parse("#b=x&step=-2").step, null);
});

test("event breakpoints round trip, a value with a comma or colon included", () => {
  const events = ["tool:read_file", "model:2", "stop-reason:a,b", "error:"];
  const hash = format({ block: "x", breakpoints: [3], events, step: null });
  assert.equal(hash, "#b=x&bp=3&ev=tool%253Aread_file,model%253A2,stop-reason%253Aa%252Cb,error%253A");
  assert.deepEqual(parse(hash).events, events);
  assert.deepEqual(parse(hash).breakpoints, [3]);
  assert.deepEqual(parse("#b=x&ev=%25E0,model%253A1").events, ["model:1"]); // a bad escape is dropped
});

test("the reader's questions round trip, by line then the watches", () => {
  const questions = new Questions();
  questions.setSpec(15, cleanSpec({ condition: "max_calls == 1", hits: "2" }));
  questions.setSpec(13, cleanSpec({ log: "n={len(w)} & más" }));
  questions.addWatch("len(history)");
  questions.addWatch("a=b&c");
  const params = formatQuestions(questions);
  assert.deepEqual(params, ["l13=n%3D%7Blen(w)%7D%20%26%20m%C3%A1s", "c15=max_calls%20%3D%3D%201", "h15=2",
    "w=len(history)", "w=a%3Db%26c"]);
  const back = parseQuestions(new URLSearchParams(params.join("&")));
  assert.deepEqual(back, {
    specs: [[13, { log: "n={len(w)} & más" }], [15, { condition: "max_calls == 1", hits: 2 }]],
    watches: ["len(history)", "a=b&c"],
  });
  assert.deepEqual(formatQuestions(back), params);
  const again = new Questions();
  again.replace(back);
  assert.equal(again.key(new Set([13, 15])), questions.key(new Set([13, 15])));
  // a bad hit count drops that line's details; empty and repeated watches are left out
  assert.deepEqual(parseQuestions(new URLSearchParams("h4=-1&c5=x&w=a&w=&w=%20a%20")),
    { specs: [[5, { condition: "x" }]], watches: ["a"] });
  assert.deepEqual(formatQuestions(undefined), []);
});

test("a link shared before opens the same state", () => {
  const link = "#b=run_subagent&s=limit&bp=11,15&ev=tool%253Aread_file&step=7&c15=max_calls%20%3D%3D%201"
    + "&h11=2&w=len(history)";
  const saved = parse(link);
  assert.deepEqual(saved, {
    block: "run_subagent", scenario: "limit", breakpoints: [11, 15], events: ["tool:read_file"], step: 7,
    questions: { specs: [[15, { condition: "max_calls == 1" }], [11, { hits: 2 }]], watches: ["len(history)"] },
    custom: null, fork: null, sched: null,
  });
  // written again: the same state, the questions' details by line
  assert.equal(format(saved), "#b=run_subagent&s=limit&bp=11,15&ev=tool%253Aread_file&step=7&h11=2"
    + "&c15=max_calls%20%3D%3D%201&w=len(history)");
  assert.equal(format(parse(format(saved))), format(saved));
});

test("a block's state is formatted from its fields", () => {
  const questions = new Questions();
  questions.addWatch("x");
  const block = { name: "b1", scenario: "custom", breakpoints: new Set([4]), events: { keys: ["model:1"] },
    hasCursor: true, index: 3, questions, urlCustom: "abc", urlFork: "tool:1~xyz" };
  const hash = format(stateOf(block));
  assert.equal(hash, "#b=b1&s=custom&bp=4&ev=model%253A1&step=3&w=x&custom=abc&fork=tool%3A1~xyz");
  assert.equal(format(stateOf({ ...block, hasCursor: false, urlCustom: null, urlFork: null })),
    "#b=b1&s=custom&bp=4&ev=model%253A1&w=x");
});

test("a custom setup survives the fragment", async () => {
  const text = "QUESTION = '教学'\nmax_calls = 3 # & = ?\n";
  const encoded = await encodeCustom(text);
  assert.match(encoded, /^[A-Za-z0-9_-]+$/);
  const hash = format({ block: "x", scenario: "custom", breakpoints: [], step: null, custom: encoded });
  assert.equal(hash, `#b=x&s=custom&custom=${encoded}`);
  assert.equal(await decodeCustom(parse(hash).custom), text);
  assert.equal(parse("#b=x&s=custom&custom=a-b_c").custom, "a-b_c");
  await assert.rejects(decodeCustom("not base64!"));
});

test("a schedule fork's schedule survives the fragment and a block's state", () => {
  const sched = "switch:3=a%2Cb,switch:10=MainThread";   // a name with a comma, as formatSchedule writes it
  const hash = format({ block: "team", scenario: "lost_message", breakpoints: [], step: null, sched });
  assert.equal(hash, "#b=team&s=lost_message&sched=switch%3A3%3Da%252Cb%2Cswitch%3A10%3DMainThread");
  assert.equal(parse(hash).sched, sched);
  assert.equal(parse("#b=team").sched, null);
  const block = { name: "team", scenario: "lost_message", breakpoints: new Set(), events: { keys: [] },
    hasCursor: false, index: null, questions: new Questions(), urlSchedule: "switch:10=MainThread" };
  assert.equal(format(stateOf(block)), "#b=team&s=lost_message&sched=switch%3A10%3DMainThread");
  assert.equal(format(stateOf({ ...block, urlSchedule: null })), "#b=team&s=lost_message");
});

test("a fork survives the fragment", async () => {
  const text = '{"stop_reason": "end_turn", "content": ["a~b & c"]}';
  const encoded = await encodeFork("model:2", text);
  assert.match(encoded, /^model:2~[A-Za-z0-9_-]+$/);
  const hash = format({ block: "x", breakpoints: [], step: null, fork: encoded });
  assert.equal(hash, `#b=x&fork=${encodeURIComponent(encoded)}`);
  assert.equal(format({ block: "x", breakpoints: [], step: null, fork: "model:2~a-b_c" }), "#b=x&fork=model%3A2~a-b_c");
  assert.deepEqual(await decodeFork(parse(hash).fork), { call: "model:2", text });
  await assert.rejects(decodeFork("model:0~AAAA"), /model:K/);
  await assert.rejects(decodeFork("nothing"), /model:K/);
});

test("the query's parts", () => {
  assert.deepEqual(parseQuery("?lang=en&scenario=limit&trace=live&origin=https%3A%2F%2Fh.example"),
    { lang: "en", scenario: "limit", live: true, origin: "https://h.example" });
  assert.deepEqual(parseQuery(""), { lang: null, scenario: null, live: false, origin: null });
  assert.deepEqual(parseQuery(undefined), { lang: null, scenario: null, live: false, origin: null });
  assert.equal(parseQuery("recording=shipped").live, false);
});

test("?lang= names the other language's copy, query and fragment kept", () => {
  const config = { lang: "zh", langHref: "../en/lesson.html" };
  assert.equal(languageTarget("https://h.example/zh/lesson.html?lang=en&scenario=limit#b=x&step=2", config),
    "https://h.example/en/lesson.html?scenario=limit#b=x&step=2");
  assert.equal(languageTarget("https://h.example/zh/lesson.html?lang=en", config), "https://h.example/en/lesson.html");
  assert.equal(languageTarget("https://h.example/zh/l?lang=en", { lang: "zh", langHref: "" }), "https://h.example/zh/");
  assert.equal(languageTarget("https://h.example/zh/lesson.html?lang=zh", config), null);
  assert.equal(languageTarget("https://h.example/zh/lesson.html?lang=fr", config), null);
  assert.equal(languageTarget("https://h.example/zh/lesson.html", config), null);
  assert.equal(languageTarget("https://h.example/x?lang=en", { lang: "zh" }), null); // no other copy
});

/** A stand-in window: its location and the history entries written. */
function fakeWindow(href) {
  const win = {
    written: [],
    replaced: [],
    location: null,
    history: {
      state: { kept: true },
      replaceState(state, title, url) {
        win.written.push({ state, url });
        win.setHref(url);
      },
    },
    setHref(url) {
      const u = new URL(url);
      win.location = { href: u.href, hash: u.hash, search: u.search, replace: (t) => win.replaced.push(t) };
    },
  };
  win.setHref(href);
  return win;
}

const fakeBlock = (fields = {}) => ({
  name: "b1", scenario: null, breakpoints: new Set(), events: { keys: [] }, hasCursor: false, index: null,
  questions: new Questions(), urlCustom: null, urlFork: null, ...fields,
});

test("the page's URL: read, written without a history entry, only when it changes", () => {
  const win = fakeWindow("https://h.example/l.html?scenario=limit#b=b1&bp=3");
  const url = new PageUrl(win);
  assert.deepEqual(url.saved().breakpoints, [3]);
  assert.equal(url.query().scenario, "limit");
  url.write(fakeBlock({ breakpoints: new Set([3]) }));
  assert.deepEqual(win.written, []);   // the same state: nothing written
  url.write(fakeBlock({ breakpoints: new Set([3, 5]), hasCursor: true, index: 4 }));
  assert.deepEqual(win.written, [{ state: { kept: true }, url: "https://h.example/l.html?scenario=limit#b=b1&bp=3,5&step=4" }]);
  url.write(null);
  assert.equal(win.location.href, "https://h.example/l.html?scenario=limit");
});

test("the page's URL follows the last change after a pause, not while it is restored", async () => {
  const win = fakeWindow("https://h.example/l.html");
  const url = new PageUrl(win, { delay: 0 });
  url.follow(fakeBlock({ breakpoints: new Set([1]) }));
  url.follow(fakeBlock({ breakpoints: new Set([2]) }));
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.deepEqual(win.written.map((w) => w.url), ["https://h.example/l.html#b=b1&bp=2"]);
  url.restoring = true;
  url.follow(fakeBlock({ breakpoints: new Set([7]) }));
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(win.written.length, 1);
});

test("the page's URL switches language by replacing the location", () => {
  const win = fakeWindow("https://h.example/zh/l.html?lang=en#b=x");
  const url = new PageUrl(win);
  assert.equal(url.switchLanguage({ lang: "en", langHref: "../en/l.html" }), false);
  assert.equal(url.switchLanguage({ lang: "zh", langHref: "../en/l.html" }), true);
  assert.deepEqual(win.replaced, ["https://h.example/en/l.html#b=x"]);
});

test("the URL is restored through the block's actions", () => {
  const win = fakeWindow("https://h.example/l.html#b=b2&s=limit&bp=3&ev=model%253A1&step=5&w=x");
  const url = new PageUrl(win);
  const calls = [];
  const block = (name) => ({
    name, scenario: "normal",
    setScenario: (s) => calls.push(["setScenario", s, url.restoring]),
    setBreakpoints: (b) => calls.push(["setBreakpoints", b]),
    setEvents: (e) => calls.push(["setEvents", e]),
    restoreQuestions: (q) => calls.push(["restoreQuestions", q]),
    start: (command, options) => calls.push(["start", command, options, url.restoring]),
  });
  url.restore([block("b1"), block("b2")], (b) => calls.push(["restored", b.name]));
  assert.deepEqual(calls, [
    ["setScenario", "limit", true],
    ["setBreakpoints", [3]],
    ["setEvents", ["model:1"]],
    ["restoreQuestions", { specs: [], watches: ["x"] }],
    ["restored", "b2"],
    ["start", "debug", { seek: 5 }, false],
  ]);
  calls.length = 0;
  new PageUrl(fakeWindow("https://h.example/l.html#b=nope&bp=3")).restore([block("b1")]);
  new PageUrl(fakeWindow("https://h.example/l.html")).restore([block("b1")]);
  assert.deepEqual(calls, []);
});

test("a link's custom setup and fork are the code it brings; the custom scenario only with them", () => {
  const saved = (hash) => parse(hash);
  assert.equal(linkCode(saved("#b=x&s=custom&bp=3&step=0"), "custom"), null);
  assert.equal(linkCode(saved("#b=x&s=limit"), "custom"), null);
  assert.equal(linkCode(null, "custom"), null);
  assert.deepEqual(linkCode(saved("#b=x&s=custom&custom=abc&step=0"), "custom"),
    { custom: "abc", fork: null, scenario: "custom" });
  assert.deepEqual(linkCode(saved("#b=x&s=limit&custom=abc"), "custom"),
    { custom: "abc", fork: null, scenario: null });
  assert.deepEqual(linkCode(saved("#b=x&fork=model%3A2~xyz"), "custom"),
    { custom: null, fork: "model:2~xyz", scenario: null });
  assert.equal(linkCode(saved("#b=x&s=custom&custom="), "custom"), null);   // empty: none
});

test("a link's code not run yet stays in the URL, its custom scenario without the preset's step", () => {
  const questions = new Questions();
  const block = { name: "b1", scenario: "normal", breakpoints: new Set([4]), events: { keys: [] },
    hasCursor: true, index: 3, questions, urlCustom: null, urlFork: null,
    linkCode: { custom: "abc", fork: "tool:1~xyz", scenario: "custom" } };
  assert.equal(format(stateOf(block)), "#b=b1&s=custom&bp=4&custom=abc&fork=tool%3A1~xyz");
  const onPreset = { ...block, linkCode: { custom: null, fork: "tool:1~xyz", scenario: null } };
  assert.equal(format(stateOf(onPreset)), "#b=b1&s=normal&bp=4&step=3&fork=tool%3A1~xyz");
  assert.equal(format(stateOf({ ...block, linkCode: null })), "#b=b1&s=normal&bp=4&step=3");
});

test("a link with code restores its preset, breakpoints and questions at once, and runs nothing", async () => {
  for (const hash of ["#b=b1&s=custom&bp=3&w=x&step=0&custom=abc", "#b=b1&s=limit&bp=3&w=x&step=4&fork=model%3A1~abc"]) {
    const url = new PageUrl(fakeWindow(`https://h.example/l.html${hash}`));
    const calls = [];
    let shown = 0;
    const offer = { show: () => { shown++; calls.push(["show", url.restoring]); } };
    const block = {
      name: "b1", scenario: "normal", config: { customScenario: "custom" },
      loadWhatIf: async () => ({ readLink: async (saved) => { calls.push(["readLink", saved.step]); return offer; } }),
      setScenario: (s) => calls.push(["setScenario", s]),
      setBreakpoints: (b) => calls.push(["setBreakpoints", b]),
      setEvents: (e) => calls.push(["setEvents", e]),
      restoreQuestions: (q) => calls.push(["restoreQuestions", q.watches]),
      start: (...args) => calls.push(["start", ...args]),
    };
    url.restore([block], () => calls.push(["restored"]));
    assert.equal(url.restoring, true);   // the URL is not written while the link is read
    await new Promise((resolve) => setTimeout(resolve, 5));
    const scenario = hash.includes("s=limit") ? [["setScenario", "limit"]] : [["setScenario", "custom"]];
    assert.deepEqual(calls, [
      ["readLink", hash.includes("step=0") ? 0 : 4],
      ...scenario,
      ["setBreakpoints", [3]],
      ["restoreQuestions", ["x"]],
      ["restored"],
      ["show", false],
    ]);
    assert.equal(shown, 1);
  }
});

test("a link whose code cannot be read restores as a link without it", async () => {
  const url = new PageUrl(fakeWindow("https://h.example/l.html#b=b1&bp=3&step=2&custom=%21%21"));
  const calls = [];
  const block = {
    name: "b1", scenario: "normal", config: { customScenario: "custom" },
    loadWhatIf: async () => ({ readLink: async () => null }),
    setScenario: (s) => calls.push(["setScenario", s]),
    setBreakpoints: (b) => calls.push(["setBreakpoints", b]),
    setEvents: () => {},
    restoreQuestions: () => {},
    start: (...args) => calls.push(["start", ...args]),
  };
  url.restore([block]);
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.deepEqual(calls, [["setBreakpoints", [3]], ["start", "debug", { seek: 2 }]]);
});

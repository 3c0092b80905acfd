// The page's readers against the conformance fixtures that Python writes
// (tests/fixtures/formats.py; tests/test_formats.py checks they are current).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fromPacked } from "../../web/static/js/model/trace.js";
import { Threads } from "../../web/static/js/model/threads.js";
import { Calls } from "../../web/static/js/model/agent-calls.js";
import { Origins } from "../../web/static/js/model/origins.js";
import { recordedStart } from "../../web/static/js/model/fork-url.js";
import { answerIndex } from "../../web/static/js/model/answers.js";
import { packZeroRuns, expandZeroRuns } from "../../web/static/js/boot/snapshot-delta.js";

const fixture = (name) => JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), "utf8"));
const bytes = (b64) => new Uint8Array(Buffer.from(b64, "base64"));

/** Step i of the dict form with the reader's defaults filled in (docs/design.md). */
function full(step, i, steps) {
  const out = { ...step, end: step.end ?? step.line, set: step.set ?? {}, stack: step.stack ?? 0 };
  if (!("out" in step)) {
    let k = i;
    while (k >= 0 && !("out" in steps[k])) k--;
    out.out = k >= 0 ? steps[k].out : 0;
  }
  return out;
}

for (const { run, trace, packed, states } of fixture("packed_trace.json")) {
  test(`trace.js reads the packed trace of ${run} as its dict form`, () => {
    const t = fromPacked(packed);
    assert.equal(t.count, trace.steps.length);
    trace.steps.forEach((step, i) => assert.deepEqual(t.at(i), full(step, i, trace.steps), `step ${i}`));
    for (const key of ["stdout", "stacks", "status", "error", "result", "threads", "thread_states"]) {
      assert.deepEqual(t[key], trace[key], key);
    }
    if (!states) return;
    // threads.js: each thread's state at each step, as the reference says
    const threads = new Threads(t);
    states.forEach((row, i) => assert.deepEqual(row.map((_, k) => threads.state(k, i)?.state ?? null), row, `step ${i}`));
  });
}

test("agent-calls.js reads the packed agent calls as their dict form", () => {
  const { agent, packed } = fixture("agent_calls.json");
  const calls = new Calls(packed);
  assert.ok(agent.calls.length >= 2);
  assert.equal(calls.count, agent.calls.length);
  agent.calls.forEach((call, k) => {
    assert.deepEqual(calls.ids(k), call.messages, `call ${k}`);
    assert.equal(calls.at(call.step), agent.calls.findLastIndex((c) => c.step <= call.step));
    const c = calls.calls[k];
    assert.deepEqual([c.conversation, c.step, c.ret, c.stop, c.response, c.error],
      [call.conversation, call.step, call.ret, call.stop_reason, call.response, call.error]);
  });
  assert.deepEqual(calls.conversations, agent.conversations.map(({ depth, parent }) => ({ depth, parent })));
  assert.deepEqual(calls.tools, agent.tools.map((t) => ({ ...t, error: Boolean(t.error) })));
  assert.deepEqual(calls.pool, agent.messages);
  const origins = new Origins(calls, packed);
  assert.equal(agent.added.length, agent.messages.length);
  assert.deepEqual(origins.added, agent.added);
  assert.deepEqual(agent.calls.map((_, k) => origins.changedStep(k)), agent.changed);
});

test("agent-calls.js reads packed tool rows that leave out fields as their dict form", () => {
  const { tool_cases: cases } = fixture("agent_calls.json");
  assert.ok(cases.some((c) => c.packed.length === 7));
  for (const { name, tool, packed } of cases) {
    const [read] = new Calls({ conversations: [], messages: [], calls: [], tools: [packed] }).tools;
    assert.deepEqual(read, tool, name);
    // the fork editor reads the packed row itself: a tool that returned starts from that
    if (tool.ret !== null && !tool.error) {
      assert.deepEqual(recordedStart({ tools: [packed] }, "tool:1"), { value: tool.returned, cut: tool.cut }, name);
    }
  }
});

test("agent-calls.js reads a tolerant replay's differences as their dict form", () => {
  const { differing: { agent, packed } } = fixture("agent_calls.json");
  const calls = new Calls(packed);
  assert.deepEqual(calls.calls.map((c) => c.differs), agent.calls.map((c) => c.differs ?? null));
  assert.deepEqual(calls.tools, agent.tools.map((t) => ({ ...t, error: Boolean(t.error) })));
  assert.deepEqual(calls.differing(), { model: 1, tool: 1 });
  const marked = calls.marks().filter((m) => m.differs !== null).map((m) => [m.kind, m.number, m.differs]);
  assert.deepEqual(marked, [["model", 2, agent.calls[1].differs], ["tool", 1, agent.tools[0].differs]]);
});

test("agent-calls.js reads the calls in flight when the run ended apart from the calls", () => {
  const { in_flight: { agent, packed } } = fixture("agent_calls.json");
  const calls = new Calls(packed);
  assert.equal(calls.count, agent.calls.length);
  assert.deepEqual(calls.inFlight, agent.in_flight.map(({ step, conversation, thread, messages }) =>
    ({ step, conversation, thread, ids: messages })));
  assert.deepEqual(new Calls(fixture("agent_calls.json").packed).inFlight, []);
});

test("answers.js folds the watch column as the recorder meant it", () => {
  const { packed, values } = fixture("watch_column.json");
  const t = fromPacked(packed);
  const answers = answerIndex(t);
  assert.equal(values.length, t.count);
  values.forEach((expected, i) => {
    assert.deepEqual(answers.watchesAt(i).map((w) => w.value ?? null), expected, `step ${i}`);
  });
});

for (const { name, total, pieces, packed } of fixture("zero_runs.json")) {
  test(`snapshot-delta.js packs and expands zero runs as specified: ${name}`, () => {
    const data = new Uint8Array(total);
    for (const [offset, piece] of pieces) data.set(bytes(piece), offset);
    assert.deepEqual(packZeroRuns(data), bytes(packed));
    assert.deepEqual(expandZeroRuns(bytes(packed)), data);
  });
}

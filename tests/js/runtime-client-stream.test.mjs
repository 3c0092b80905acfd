// A long run's first steps on their way to the page (boot/runtime-client.js `partial`
// answers, docs/recordings.md "A long run streams") and the guest's warm-up before a
// recording file (boot/guest-client.js warm), against a stand-in worker.
import { test } from "node:test";
import assert from "node:assert/strict";
import { RuntimeClient } from "../../web/static/js/boot/runtime-client.js";
import { GuestClient } from "../../web/static/js/boot/guest-client.js";

const packed = (count) => JSON.stringify({
  format: 1, stdout: "", status: count < 3 ? "step_limit" : "finished", stacks: [[]], packed: 1,
  count, frames: [[1, "f", 1, 0]], event: "0" + "1".repeat(count - 1),
  line: Array.from({ length: count }, (_, i) => i + 1), frame: [0, count],
  end: [], out: [], set: [], del: [], ret: [], exc: [], names: [],
});

/** A client of `kind` talking to a stand-in worker that keeps what it was sent. */
function client(kind = RuntimeClient) {
  const sent = [];
  const c = Object.create(kind.prototype);
  Object.assign(c, { pending: new Map(), nextId: 1, recordTimeout: null, ready: Promise.resolve(),
    worker: { postMessage: (message) => sent.push(message) } });
  return { c, sent };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

test("the first steps are heard before the whole run, which answers the request", async () => {
  const { c, sent } = client();
  const heard = [];
  const asked = c.ask({ type: "record" }, null, (trace) => heard.push(trace.count));
  await tick();
  const id = sent[0].id;
  c.answer({ type: "partial", id, json: packed(2) });
  c.answer({ type: "trace", id, json: packed(3) });   // before the first steps' trace is read
  const whole = await asked;
  assert.deepEqual(heard, [2]);
  assert.equal(whole.count, 3);
});

test("the first steps of a run that failed are not heard", async () => {
  const { c, sent } = client();
  const heard = [];
  const asked = c.ask({ type: "record" }, null, (trace) => heard.push(trace.count));
  await tick();
  c.answer({ type: "partial", id: sent[0].id, json: packed(2) });
  c.rejectPending("cancelled", "cancelled");
  await assert.rejects(asked, (error) => error.kind === "cancelled");
  await tick();
  assert.deepEqual(heard, []);
});

test("the guest warms up once, a task after it is asked, unless a run is waiting", async () => {
  const { c, sent } = client(GuestClient);
  const run = { lesson: "scale", block: "run_agent", scenario: "c300" };
  c.warm(run);
  assert.equal(sent.length, 0);   // not at once: a run asked for meanwhile goes first
  await tick();
  await tick();
  assert.equal(sent.length, 1);
  assert.deepEqual({ ...sent[0], id: undefined }, { type: "warm", ...run, maxSteps: 200, id: undefined });
  c.warm(run);
  await tick();
  await tick();
  assert.equal(sent.length, 1);   // once per worker

  const busy = client(GuestClient);
  busy.c.ask({ type: "record" }, null);
  busy.c.warm(run);
  await tick();
  await tick();
  assert.deepEqual(busy.sent.map((m) => m.type), ["record"]);
});

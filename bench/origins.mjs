// Message origins and the subagent boundary per cursor move, in Node: a subagent
// conversation that grows to 201 messages sent (102 model calls, one tool run per turn),
// the cursor moved to random steps; per move the shown call's view, every message's
// origin, every tool_result part's tool run, the changed-after-send step and the
// boundary (model/origins.js, model/boundary.js). Construction is timed apart.
//   node bench/origins.mjs [MOVES]   → one JSON object on stdout
import { Calls } from "../web/static/js/model/agent-calls.js";
import { boundary, returned } from "../web/static/js/model/boundary.js";
import { Origins } from "../web/static/js/model/origins.js";

const TURNS = 101;
const moves = Number(process.argv[2] ?? 2000);

function agentPart() {
  const messages = [["user", "delegate"], ["assistant", [["tool_use", "task", "task", { prompt: "p" }]]],
    ["user", "the child's task"]];
  const calls = [[0, 1, 2, 0, [0], "tool_use", 1, null]];
  const tools = [[3, 10 * TURNS + 9, "task", "task", {}, "done", 0]];
  const added = [0, 2, 4];
  const changed = [2];
  let shared = 0;
  let fresh = [2];
  for (let t = 0; t < TURNS; t++) {
    const step = 10 * t + 5;
    const answer = messages.length;
    messages.push(["assistant", [`turn ${t}`, ["tool_use", `c${t}`, "read_file", { path: `f${t}` }]]]);
    calls.push([1, step, step + 1, shared, fresh, "tool_use", answer, null]);
    changed.push(step + 2);
    added.push(step + 2);
    tools.push([step + 3, step + 4, "read_file", `c${t}`, { path: `f${t}` }, `text ${t}`, 0]);
    messages.push(["user", [["tool_result", `c${t}`, `text ${t}`, false]]]);
    added.push(step + 5);
    shared += fresh.length;
    fresh = [answer, answer + 1];
  }
  return { conversations: [[0, null], [1, 0]], messages, calls, tools, added, changed };
}

const agent = agentPart();
let t0 = performance.now();
const calls = new Calls(agent);
const origins = new Origins(calls, agent);
const buildMs = performance.now() - t0;
const last = calls.steps[calls.count - 1] + 5;

let seed = 7;
const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
const times = [];
let sink = 0;
let most = 0;
for (let m = 0; m < moves; m++) {
  const index = Math.floor(random() * last);
  t0 = performance.now();
  const view = calls.view(index);
  if (view) {
    const k = view.number - 1;
    for (const message of view.messages) {
      sink += origins.messageStep(message.id) ?? 0;
      const content = calls.pool[message.id][1];
      if (typeof content !== "string") {
        content.forEach((p, i) => { if (p[0] === "tool_result") sink += origins.partStep(message.id, i) ?? 0; });
      }
    }
    sink += origins.changedStep(k) ?? 0;
    const b = boundary(calls, k);
    sink += returned(b, index) ? 1 : 0;
    most = Math.max(most, view.messages.length);
  }
  times.push(performance.now() - t0);
}
times.sort((p, q) => p - q);
const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
process.stdout.write(JSON.stringify({ moves, most_messages: most, build_ms: buildMs,
  move_ms: { median: at(0.5), p95: at(0.95), max: times[times.length - 1] }, sink: sink > 0 }));

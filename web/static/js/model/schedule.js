// A run's schedule (docs/design.md, "Threads", "Schedules you can change"): the choices the
// run's threads follow instead of first come, first served, in the text form Python's
// runtime/world/choices.py reads and writes, the trace header's `schedule.text` and the URL
// fragment's `sched=`. Both are held to tests/fixtures/schedule_text.json. Pure.
//
//   switch:K=NAME   at the K-th switch point thread NAME runs next
//   model:K=NAME    thread NAME has finished before model call K
//
// Choices are joined by ",", switch first, each kind by K, then NAME; in a NAME "%" is
// "%25" and "," "%2C". The empty text is the default schedule.

const KINDS = ["switch", "model"];
const ITEM = /^(switch|model):([1-9]\d{0,8})=([\s\S]+)$/;

/** [{kind, number, name}, …] of a text form, sorted; throws an Error saying what is wrong
 * (a choice that does not parse, two threads chosen at one switch point). */
export function parseSchedule(text) {
  const found = new Map();
  for (const raw of String(text ?? "").split(",")) {
    const part = raw.trim();
    if (!part) continue;
    const match = ITEM.exec(part);
    if (!match) throw new Error(`schedule choice '${part}': expected switch:K=NAME or model:K=NAME, K a number from 1`);
    const name = match[3].replace(/%2C/gi, ",").replace(/%25/g, "%");
    const choice = { kind: match[1], number: Number(match[2]), name };
    found.set(`${choice.kind}:${choice.number}=${name}`, choice);
  }
  const choices = [...found.values()].sort(compare);
  const at = new Map();
  for (const c of choices) {
    if (c.kind !== "switch") continue;
    if (at.has(c.number)) throw new Error(`schedule: two threads chosen at switch point ${c.number} (${at.get(c.number)}, ${c.name})`);
    at.set(c.number, c.name);
  }
  return choices;
}

function compare(a, b) {
  return KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind) || a.number - b.number
    || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** The text form of choices (parseSchedule's). */
export function formatSchedule(choices) {
  return [...choices].sort(compare)
    .map((c) => `${c.kind}:${c.number}=${c.name.replace(/%/g, "%25").replace(/,/g, "%2C")}`).join(",");
}

/** The schedule of a fork at switch point `number` of a run that followed `text`: its
 * choices at earlier switch points and its model choices kept, `name` chosen there, the
 * later switch choices dropped (the run differs from there on). */
export function forkSchedule(text, number, name) {
  const kept = parseSchedule(text).filter((c) => c.kind !== "switch" || c.number < number);
  return formatSchedule([...kept, { kind: "switch", number, name }]);
}

/** The names of the threads runnable at switch point `number` (from 1) of a trace header
 * (`schedule.points`: [STEP, CHOSEN, [RUNNABLE…]], indices into `threads`), the one that
 * ran first; [] when the run had no such point. */
export function runnableAt(header, number) {
  const point = header?.schedule?.points?.[number - 1];
  const names = (header?.threads ?? []).map((t) => t.name);
  return point ? point[2].map((i) => names[i]) : [];
}

/** The number (from 1) of the switch point a timeline mark at `step` stands for: the last
 * point of the header's `schedule.points` whose STEP is `step`; 0 when none is. */
export function switchPointAt(header, step) {
  const points = header?.schedule?.points ?? [];
  for (let k = points.length; k > 0; k--) if (points[k - 1][0] === step) return k;
  return 0;
}

/** The switch point (from 1) and thread name of a schedule's last switch choice, the one a
 * fork at a switch point made (forkSchedule): {number, name}, or null when it has none. */
export function lastSwitch(text) {
  const switches = parseSchedule(text).filter((c) => c.kind === "switch");
  const last = switches[switches.length - 1];
  return last ? { number: last.number, name: last.name } : null;
}

/** {names, ran} at switch point `number` of a trace header: the threads runnable there
 * (runnableAt) and the one the run chose (null when the run had no such point). */
export function choiceAt(header, number) {
  const point = header?.schedule?.points?.[number - 1];
  const ran = point ? header.threads?.[point[1]]?.name ?? null : null;
  return { names: runnableAt(header, number), ran };
}

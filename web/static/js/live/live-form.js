// A block's live run (the contract's "Recorded runs", docs/live.md): form[data-role="live"]
// sends the block's run to a real model with the reader's key, [data-role="live-status"]
// counts the calls, button[data-action="stop-live"] ends it at once, and the run that
// ended — finished, stopped or failed — is the block's recording (`live`: true), stepped
// as a replay (data-run-source="live") and saved by download-recording. A failure is
// [data-role="live-error"] with its data-kind. The key lives in this closure and in the
// worker's request only: never in the DOM after submit, a URL, storage or a message.

import { SEL } from "../selectors.js";

const HEADERS = { anthropic: "x-api-key, anthropic-version, anthropic-dangerous-direct-browser-access, content-type",
  openai: "authorization, content-type" };

const originOf = (url) => {
  try {
    const parsed = new URL(url);
    return /^https?:$/.test(parsed.protocol) ? parsed.origin : null;
  } catch {
    return null;
  }
};

/** Whether `url` is one of the site's endpoints (the same base, or a path under one). */
export function allowed(url, endpoints) {
  const wanted = url.trim().replace(/\/+$/, "");
  return originOf(wanted) !== null && endpoints.some((e) => wanted === e || wanted.startsWith(`${e}/`)
    || (originOf(e) === originOf(wanted) && new URL(e).pathname === "/"));
}

/** A failed request: `cors` when the origin answers an opaque no-cors probe, else `network`. */
async function unreachableKind(base) {
  try {
    await fetch(originOf(base), { mode: "no-cors", cache: "no-store", credentials: "omit" });
    return "cors";
  } catch {
    return "network";
  }
}

export function attach(block, form, live) {
  const m = block.messages;
  const status = form.querySelector('[data-role="live-status"]');
  const errorBox = form.querySelector('[data-role="live-error"]');
  const run = form.querySelector('button[data-action="run-live"]');
  const stop = form.querySelector('button[data-action="stop-live"]');
  const field = (name) => form.elements.namedItem(name);
  let running = null; // {calls: [], skeleton, stopped}

  field("provider").addEventListener("change", () => {
    field("base-url").value = live.defaults[field("provider").value] ?? "";
  });

  const showError = (kind, message) => {
    errorBox.hidden = kind === null;
    if (kind === null) delete errorBox.dataset.kind;
    else errorBox.dataset.kind = kind;
    errorBox.textContent = message ?? "";
  };
  const showStatus = (key, values) => {
    status.hidden = false;
    status.dataset.calls = String(values.calls);
    status.textContent = m.format(key, values);
  };

  async function failure(error, base, provider) {
    let kind = error.kind;
    if (kind === "unreachable") kind = await unreachableKind(base);
    const origin = originOf(base);
    const text = {
      auth: () => m.format("live_err_auth", error),
      "rate-limit": () => m.format("live_err_rate", { ...error, retry: `${error.retry_after ?? "?"} s` }),
      timeout: () => m.format("live_err_timeout", { seconds: live.timeoutMs / 1000 }),
      cors: () => m.format("live_err_cors", { origin, page: location.origin, headers: HEADERS[provider] }),
      network: () => m.format("live_err_network", { origin }),
      "bad-response": () => m.format("live_err_bad", error),
    }[kind] ?? (() => m.format("live_err_http", error));
    if (kind === "http") kind = "bad-response";
    return [kind, text()];
  }

  async function show(text, name) {
    block.recording = { name, text, key: `live\n${name}\n${text.length}`, live: true };
    block.whatif?.dropFork();
    await block.start("debug");
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (running || block.state === "running") return;
    const provider = field("provider").value;
    const base = field("base-url").value.trim().replace(/\/+$/, "");
    const keyInput = field("key");
    showError(null);
    if (!allowed(base, live.endpoints)) {
      showError("endpoint", m.format("live_err_endpoint", { url: base, allowed: live.endpoints.join(", ") }));
      return;
    }
    if (!keyInput.value) {
      showError("auth", m.format("live_err_missing", { field: m.get("live_key") }));
      return;
    }
    const prompt = field("prompt");
    const options = { provider, baseUrl: base, model: field("model").value.trim(), key: keyInput.value,
      timeoutMs: live.timeoutMs, ...(prompt ? { input: prompt.value.split("\n").filter(Boolean) } : {}) };
    const scenario = block.scenario === block.config.customScenario
      ? block.config.presets[0].name : block.scenario;
    const name = `${block.lesson}-${block.name}-live.json`;
    const started = performance.now();
    const current = { calls: [] };
    running = current;
    run.disabled = true;
    stop.disabled = false;
    showStatus("live_running", { calls: 0 });
    const onCall = (e) => {
      current.calls.push(e.detail.call);
      showStatus("live_status", { calls: e.detail.calls, depth: e.detail.depth,
        seconds: ((performance.now() - started) / 1000).toFixed(1) });
    };
    block.client.addEventListener("live-call", onCall);
    let answer = null;
    try {
      answer = JSON.parse(await block.client.live({ lesson: block.lesson, block: block.name, scenario,
        maxSteps: block.client.maxSteps, options: JSON.stringify(options) }));
    } catch (error) {
      if (error.kind !== "stopped") showError("network", error.message);
    } finally {
      block.client.removeEventListener("live-call", onCall);
      options.key = "";
      running = null;
      run.disabled = false;
      stop.disabled = true;
    }
    const made = answer?.recording ?? (current.skeleton ? JSON.stringify(current.skeleton) : null);
    if (answer?.error) showError(...await failure(answer.error, base, provider));
    const calls = answer?.recording ? JSON.parse(answer.recording).calls.length : current.calls.length;
    showStatus(current.stopped ? "live_stopped" : answer?.error ? "live_failed" : "live_done", { calls });
    if (made) await show(made, name);
  });

  stop.addEventListener("click", () => {
    if (!running) return;
    running.stopped = true;
    running.skeleton = stoppedRecording(block, running.calls, field);
    block.client.stop();
  });
}

/** The recording of a stopped run: the calls reported before the stop. */
function stoppedRecording(block, calls, field) {
  const scenario = block.scenario === block.config.customScenario ? block.config.presets[0].name : block.scenario;
  const model = calls.at(-1)?.response?.model ?? field("model").value.trim();
  return { format: "loopstep-recording", version: 1,
    made_for: { lesson: block.lesson, block: block.name, preset: scenario },
    provider: field("provider").value, model, origin: originOf(field("base-url").value.trim()),
    cwd: "/tmp/loopstep-run", imported_from: null, status: "error", calls };
}

// The runtime panel: loading progress (bytes of the boot set), ready, failed.

import { SEL } from "../selectors.js";

export class RuntimeStatus {
  constructor(root, messages) {
    this.root = root;
    this.messages = messages;
  }

  /** Show a runtime client "state" event detail. */
  show({ state, loaded, total, message, path, kind, compiled, stale, recorder }) {
    if (!this.root) return;
    const label = this.root.querySelector(SEL.runtimeLabel);
    const bar = this.root.querySelector(SEL.runtimeProgress);
    const m = this.messages;
    this.root.dataset.state = state === "failed" ? "error" : state;
    if (state === "loading") {
      if (total) {
        bar.max = total;
        bar.value = Math.min(loaded ?? 0, total);
      }
      const percent = total ? Math.floor((100 * (loaded ?? 0)) / total) : 0;
      label.textContent = m.format("loading_progress", { percent });
    } else if (state === "ready") {
      bar.value = bar.max;
      if (path) this.root.dataset.boot = path;
      // the recorder's precompiled modules: how many, and those recompiled from source
      if (compiled !== undefined) this.root.dataset.compiled = String(compiled);
      if (stale) this.root.dataset.stale = stale.join(" ");
      // "snapshot": the recorder came with the memory snapshot; "files": it was imported
      if (recorder) this.root.dataset.recorder = recorder;
      label.textContent = m.get("ready");
    } else if (state === "failed") {
      label.textContent = m.format("status_runtime_failed", { message: message ?? "" });
    } else if (message) {
      const key = kind === "fatal" ? "status_runtime_crashed" : "status_worker_restarted";
      label.textContent = m.format(key, { message });
    }
  }
}

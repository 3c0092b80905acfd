// Shipped traces (web/shipped_traces.py): the packed trace of each block × preset of a
// bundled lesson, recorded by the build exactly as the worker would record it. A preset's
// run asked without questions (no conditions, hit counts, logpoints or watches: those are
// evaluated while recording) is fetched from there, before the runtime is ready; anything
// else, or a recording that is missing or fails to load, is recorded live by the worker.
// `?trace=live` in the page's URL records every run live.

import { runtimeConfig } from "../boot/runtime-client.js";
import { parseQuery } from "./url-state.js";

const traceModule = () => import("../model/trace.js");

export class ShippedTraces {
  /** `traces`: the runtime island's {url, version, runs} or null; `search`: the
   * page URL's query. */
  constructor(traces, search = "") {
    this.traces = traces ?? null;
    this.live = parseQuery(search).live;
    this.failed = new Set(); // URLs that did not load: recorded live from then on
    this.texts = new Map(); // URL → its text's promise (prefetched or asked for)
  }

  /** The text of `url`, fetched once; rejects when it does not load. */
  text(url, priority = "auto") {
    if (!this.texts.has(url)) {
      const text = fetch(url, { priority }).then((response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return response.text();
      });
      text.catch(() => this.texts.delete(url));
      this.texts.set(url, text);
    }
    return this.texts.get(url);
  }

  /** Fetch the recording of `block` × `scenario` ahead, at a low priority, with the
   * module that reads it: Debug then needs neither. */
  prefetch(block, scenario) {
    const url = this.url(block, scenario);
    if (!url) return;
    this.text(url, "low").catch(() => {});
    traceModule().catch(() => {});
  }

  /** The URL of the shipped trace of `block` × `scenario`, or null. */
  url(block, scenario) {
    const shipped = this.traces;
    if (this.live || !shipped?.runs?.[block]?.includes(scenario)) return null;
    const url = new URL(`${encodeURIComponent(block)}/${encodeURIComponent(scenario)}.json`,
      new URL(shipped.url, document.baseURI));
    url.searchParams.set("v", shipped.version);
    return this.failed.has(url.href) ? null : url.href;
  }

  /** The shipped trace of `block` × `scenario`, or null: none, or it failed to load
   * (then the run is recorded live, silently). */
  async trace(block, scenario) {
    const url = this.url(block, scenario);
    if (!url) return null;
    try {
      const [text, { fromPacked }] = await Promise.all([this.text(url), traceModule()]);
      return fromPacked(text);
    } catch {
      this.failed.add(url);
      return null;
    }
  }
}

let shared = null;

/** The page's shipped traces, from its runtime data island. */
export function sharedShipped() {
  shared ??= new ShippedTraces(runtimeConfig()?.traces, window.location.search);
  return shared;
}

// Shipped recordings (web/recordings.py): the packed trace of each block × preset of a
// bundled lesson, recorded by the build exactly as the worker would record it. A preset's
// run asked without questions (no conditions, hit counts, logpoints or watches: those are
// evaluated while recording) is fetched from there, before the runtime is ready; anything
// else, or a recording that is missing or fails to load, is recorded live by the worker.
// `?recording=live` in the page's URL records every run live.

import { runtimeConfig } from "../boot/runtime-client.js";

const traceModule = () => import("../model/trace.js");

export class ShippedRecordings {
  /** `recordings`: the runtime island's {url, version, runs} or null; `search`: the
   * page URL's query. */
  constructor(recordings, search = "") {
    this.recordings = recordings ?? null;
    this.live = new URLSearchParams(search).get("recording") === "live";
    this.failed = new Set(); // URLs that did not load: recorded live from then on
  }

  /** The URL of the shipped recording of `block` × `scenario`, or null. */
  url(block, scenario) {
    const shipped = this.recordings;
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
      const [response, { fromPacked }] = await Promise.all([fetch(url), traceModule()]);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return fromPacked(await response.text());
    } catch {
      this.failed.add(url);
      return null;
    }
  }
}

let shared = null;

/** The page's shipped recordings, from its runtime data island. */
export function sharedShipped() {
  shared ??= new ShippedRecordings(runtimeConfig()?.recordings, window.location.search);
  return shared;
}

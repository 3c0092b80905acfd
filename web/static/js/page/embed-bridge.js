// Embed mode: forward the block's events and the page height to the host page, and to
// no one else: every message is posted with the host page's origin as its target, so the
// browser delivers it only while the parent window shows a page of that origin.

import { EVENTS } from "../selectors.js";
import { parseQuery } from "./url-state.js";

/** The origin of a URL or origin text, or null when it has none (opaque, not a URL). */
function originOf(text) {
  if (!text) return null;
  try {
    const origin = new URL(text).origin;
    return origin && origin !== "null" ? origin : null;
  } catch {
    return null;
  }
}

/**
 * The host page's origin: what the browser says the parent's origin is
 * (`location.ancestorOrigins`, Chromium and Safari), else the `origin=` parameter of the
 * embed URL (embed.js sets it to the host page's `location.origin`), else the origin of
 * the referrer (the page that loaded the frame; empty under a `no-referrer` policy);
 * null when none is known. The `origin=` parameter must be an origin alone (scheme,
 * host and port), not a longer URL.
 */
export function hostOrigin({ ancestorOrigins, search, referrer }) {
  const ancestor = originOf(ancestorOrigins?.[0]);
  if (ancestor) return ancestor;
  const given = parseQuery(search).origin;
  if (given && originOf(given) === given) return given;
  return originOf(referrer);
}

/** Post loopstep:pause / loopstep:finish / loopstep:resize to the parent window, with
 * the host page's origin as the target; nothing when that origin is not known. */
export function installEmbedBridge(win, doc) {
  if (win.parent === win) return;
  const target = hostOrigin({
    ancestorOrigins: win.location.ancestorOrigins,
    search: win.location.search,
    referrer: doc.referrer,
  });
  if (!target) return;
  const post = (message) => win.parent.postMessage(message, target);
  for (const type of [EVENTS.pause, EVENTS.finish]) {
    doc.addEventListener(type, (event) => post({ type, ...event.detail }));
  }
  let last = -1;
  const resize = () => {
    const height = Math.ceil(doc.documentElement.scrollHeight);
    if (height === last) return;
    last = height;
    post({ type: EVENTS.resize, height });
  };
  new ResizeObserver(resize).observe(doc.body);
  resize();
}

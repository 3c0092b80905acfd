// Embed mode: forward the block's events and the page height to the host page.

import { EVENTS } from "../selectors.js";

/** Post loopstep:pause / loopstep:finish / loopstep:resize to the parent window. */
export function installEmbedBridge(win, doc) {
  if (win.parent === win) return;
  const post = (message) => win.parent.postMessage(message, "*");
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

// Entry point: read the page config, wire every block, the diagram, the keys,
// the URL state and the runtime panel; one cursor per page.

import { SEL, EVENTS } from "./selectors.js";
import { Messages } from "./page/messages.js";
import { sharedClient, runtimeConfig } from "./boot/runtime-client.js";
import { RuntimeStatus } from "./boot/runtime-status.js";
import { Block } from "./page/block.js";
import { installKeys } from "./page/keys.js";
import * as urlState from "./page/url-state.js";
import { installAnnouncer } from "./page/announce.js";
import { prefetch } from "./page/block-runs.js";

const URL_WRITE_DELAY_MS = 120;

function readConfig() {
  const node = document.querySelector(SEL.config);
  return node ? JSON.parse(node.textContent) : null;
}

// The diagram follows a cursor: its module (page/diagram.js) is imported with the first
// cursor, off the page's path to ready; until then no stage is current.
class LazyDiagram {
  constructor(...args) {
    this.args = args;
    this.diagram = null;
    this.loading = null;
    this.block = null;
  }

  update(block) {
    this.block = block;
    if (this.diagram) this.diagram.update(block);
    else if (block && this.args[0]) {
      this.loading ??= import("./page/diagram.js").then(({ Diagram }) => {
        this.diagram = new Diagram(...this.args);
        this.diagram.update(this.block);
      });
    }
  }
}

class Page {
  constructor(config) {
    this.config = config;
    this.messages = new Messages(config.messages);
    this.client = sharedClient();
    this.status = new RuntimeStatus(document.querySelector(SEL.runtime), this.messages);
    this.diagram = new LazyDiagram(document.querySelector(SEL.diagram), config.stages, this.messages);
    this.blocks = [];
    this.cursor = null;   // the block holding the page's cursor
    this.lastUsed = null; // the block last acted on
    this.restoring = false;
  }

  start() {
    for (const root of document.querySelectorAll(SEL.block)) {
      const blockConfig = this.config.blocks?.[root.dataset.loopstepBlock];
      if (!blockConfig) continue;
      this.blocks.push(new Block(root, blockConfig, {
        client: this.client,
        messages: this.messages,
        lesson: this.config.lesson,
        onCursor: (block, options) => this.takeCursor(block, options),
        onChange: (block) => this.changed(block),
      }));
    }
    let shown = null;
    const onState = (detail) => {
      this.status.show(detail);
      // progress events repeat "loading": the blocks only need to hear of a change
      if (detail.state === shown && !detail.message) return;
      shown = detail.state;
      for (const block of this.blocks) block.runtime(detail.state, detail.message);
    };
    this.client.addEventListener("state", (event) => onState(event.detail));
    if (this.client.lastDetail) onState(this.client.lastDetail); // booted early
    installKeys(document, () => this.cursor ?? this.lastUsed);
    installAnnouncer(document, this.messages);
    document.addEventListener("focusin", (event) => {
      const block = this.blockOf(event.target);
      if (block) this.lastUsed = block;
    });
    if (this.blocks.length) this.bootRuntime();
    applyScenarioQuery(this);
    this.restore();
    document.dispatchEvent(new CustomEvent(EVENTS.init, {
      detail: { blocks: this.blocks.map((b) => b.id) },
    }));
    // each block's shown preset from the shipped recordings, once the page has settled
    setTimeout(() => this.blocks.forEach(prefetch));
  }

  /** Boot the runtime now; with shipped recordings once the page is interactive (its
   * load event), at low priority; with `data-runtime="lazy"` on first need only. */
  bootRuntime() {
    if (document.documentElement.dataset.runtime === "lazy") return;
    if (!runtimeConfig()?.recordings || document.readyState === "complete") {
      this.client.boot();
      return;
    }
    window.addEventListener("load", () => setTimeout(() => this.client.boot()), { once: true });
  }

  blockOf(node) {
    const root = node?.closest?.(SEL.block);
    return this.blocks.find((b) => b.root === root) ?? null;
  }

  /** One cursor per page: a block that starts or steps takes it from the others. */
  takeCursor(block, { released = false } = {}) {
    this.lastUsed = block;
    if (released) {
      if (this.cursor === block) this.cursor = null;
    } else {
      for (const other of this.blocks) if (other !== block) other.release();
      this.cursor = block;
    }
    this.diagram.update(this.cursor?.hasCursor ? this.cursor : null);
  }

  changed(block) {
    this.lastUsed = block;
    if (this.cursor === block || !block.hasCursor) {
      this.diagram.update(this.cursor?.hasCursor ? this.cursor : null);
    }
    if (!this.restoring) this.writeUrlSoon(block);
  }

  /** The URL follows the last change after a short pause, not on every step: writing
   * history on each of a burst of steps costs frames. */
  writeUrlSoon(block) {
    this.urlBlock = block;
    if (this.urlTimer) return;
    this.urlTimer = setTimeout(() => {
      this.urlTimer = null;
      urlState.write(this.urlBlock);
    }, URL_WRITE_DELAY_MS);
  }

  /** Apply the URL's block, scenario, breakpoints and step. */
  restore() {
    const saved = urlState.parse(window.location.hash);
    if (!saved) return;
    const block = this.blocks.find((b) => b.name === saved.block);
    if (!block) return;
    this.restoring = true;
    if (saved.custom) {
      // the custom setup is decoded asynchronously (setup-url.js): restore the rest after it
      block.loadWhatIf().then((w) => w.restore(saved.custom))
        .then(() => this.restoreBlock(block, saved));
      return;
    }
    this.restoreBlock(block, saved);
  }

  restoreBlock(block, saved) {
    this.restoring = true;
    if (saved.scenario && saved.scenario !== block.scenario) block.setScenario(saved.scenario);
    block.setBreakpoints(saved.breakpoints);
    if (saved.events.length) {
      block.loadEvents().then((events) => {
        events.set(saved.events);
        block.refreshHits();
      });
    }
    block.omni.restore(new URLSearchParams(window.location.hash.replace(/^#/, "")));
    this.restoring = false;
    this.lastUsed = block;
    if (saved.step !== null) block.start("debug", { seek: saved.step });
    if (saved.fork) block.loadWhatIf().then((w) => w.restoreFork(saved.fork)); // fork-editor.js
  }
}

/**
 * `?lang=` and `?scenario=` in the query work on every copy of the page: the server
 * renders them, and a static export (one file per language) follows them here.
 * Returns false when the page is being replaced by the other language's copy.
 */
function applyQuery(config) {
  const query = new URLSearchParams(window.location.search);
  const lang = query.get("lang");
  if ((lang === "zh" || lang === "en") && lang !== config.lang && config.langHref !== undefined) {
    query.delete("lang");
    const search = query.toString();
    const target = new URL(config.langHref || "./", window.location.href);
    target.search = search ? `?${search}` : "";
    target.hash = window.location.hash;
    window.location.replace(target.href);
    return false;
  }
  return true;
}

function applyScenarioQuery(page) {
  const scenario = new URLSearchParams(window.location.search).get("scenario");
  if (!scenario || !page.config.embed) return;
  for (const block of page.blocks) {
    const known = page.config.blocks[block.id]?.presets?.some((p) => p.name === scenario);
    if (known && block.scenario !== scenario) block.setScenario(scenario);
  }
}

performance.mark("loopstep:page-evaluated");
const config = readConfig();
if (config && config.blocks && applyQuery(config)) {
  const page = new Page(config);
  page.start();
  performance.mark("loopstep:page-started");
  // only embeds talk to a host page: off a lesson page's path to ready
  if (config.embed) import("./page/embed-bridge.js").then((m) => m.installEmbedBridge(window, document));
}

// Entry point: read the page config, wire every block, the diagram, the keys,
// the URL state (page/url-state.js, its one reader and writer) and the runtime panel;
// one cursor per page.

import { SEL, EVENTS } from "./selectors.js";
import { Messages } from "./page/messages.js";
import { sharedClient, runtimeConfig } from "./boot/runtime-client.js";
import { RuntimeStatus } from "./boot/runtime-status.js";
import { Block } from "./page/block.js";
import { installKeys } from "./page/keys.js";
import { PageUrl } from "./page/url-state.js";
import { installAnnouncer } from "./page/announce.js";
import { prefetch } from "./page/block-runs.js";
import { afterPaint } from "./page/dom.js";

function readConfig() {
  const node = document.querySelector(SEL.config);
  return node ? JSON.parse(node.textContent) : null;
}

// The diagram follows a cursor: its module (page/diagram.js) is imported once the first
// cursor's frame is painted, off the page's path to ready; until then no stage is current.
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
      this.loading ??= afterPaint(() => import("./page/diagram.js")).then(({ Diagram }) => {
        this.diagram = new Diagram(...this.args);
        this.diagram.update(this.block);
      });
    }
  }
}

class Page {
  constructor(config, url) {
    this.config = config;
    this.url = url;
    this.messages = new Messages(config.messages);
    this.client = sharedClient();
    this.status = new RuntimeStatus(document.querySelector(SEL.runtime), this.messages);
    this.diagram = new LazyDiagram(document.querySelector(SEL.diagram), config.stages, this.messages);
    this.blocks = [];
    this.cursor = null;   // the block holding the page's cursor
    this.lastUsed = null; // the block last acted on
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
    this.url.restore(this.blocks, (block) => { this.lastUsed = block; });
    replayEarlyClicks();
    document.dispatchEvent(new CustomEvent(EVENTS.init, {
      detail: { blocks: this.blocks.map((b) => b.id) },
    }));
    // each block's shown preset from the shipped traces, once the page has settled
    setTimeout(() => this.blocks.forEach(prefetch));
  }

  /** Boot the runtime now; with shipped traces (and no `?trace=live`) once the page is
   * interactive (its load event), at low priority; with `data-runtime="lazy"` on first
   * need only. */
  bootRuntime() {
    if (document.documentElement.dataset.runtime === "lazy") return;
    if (!runtimeConfig()?.traces || this.url.query().live || document.readyState === "complete") {
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
    this.url.follow(block);
  }
}

/** The clicks on blocks' buttons made before the page was wired (kept by the head's early
 * script, boot/runtime-early.js), replayed in order on the buttons still there. */
function replayEarlyClicks() {
  for (const button of window.loopstepEarlyClicks?.take() ?? []) {
    if (button.isConnected && !button.disabled) button.click();
  }
}

/** `?scenario=` in an embed's query selects that preset where a block has it (the server
 * renders it too; a static export follows it here). */
function applyScenarioQuery(page) {
  const { scenario } = page.url.query();
  if (!scenario || !page.config.embed) return;
  for (const block of page.blocks) {
    const known = page.config.blocks[block.id]?.presets?.some((p) => p.name === scenario);
    if (known && block.scenario !== scenario) block.setScenario(scenario);
  }
}

performance.mark("loopstep:page-evaluated");
const config = readConfig();
const url = new PageUrl(window);
// `?lang=` naming the other language: that copy of the page replaces this one
if (config && config.blocks && !url.switchLanguage(config)) {
  const page = new Page(config, url);
  page.start();
  performance.mark("loopstep:page-started");
  // only embeds talk to a host page: off a lesson page's path to ready
  if (config.embed) import("./page/embed-bridge.js").then((m) => m.installEmbedBridge(window, document));
}

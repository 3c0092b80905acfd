// Code a link brings (the contract's "Code from a link or a file"): a custom setup
// (`custom=`) or a fork (`fork=`) in the URL's fragment never runs when the page opens,
// on a lesson page or in an embed. The block shows what would run, as text, in
// [data-role="link-code"]; button[data-action="run-from-link"] runs it as the link asks —
// the custom setup offered (and selected when the link selects it), the block run to the
// link's step (without one: Debug), the fork opened, run and compared. Dismissing it, Reset
// or a scenario switch drops it and its copy in the URL. The rest of the link (a preset,
// breakpoints, their conditions and logpoints, watches) is restored at once by
// url-state.js: the read-only evaluator that answers those cannot call out.

import { SEL } from "../selectors.js";
import { el } from "../page/dom.js";
import { linkCode } from "../page/url-state.js";

/** The offer of the code that `saved` (a parsed fragment: url-state.js) brings to
 * `whatif`'s block: a LinkCode of the parts that can be read, or null when none can
 * (a part that cannot is reported as the URL's error, as before). */
export async function readLink(whatif, saved) {
  const setup = saved.custom ? await whatif.readCustom(saved.custom) : null;
  const fork = saved.fork ? await (await whatif.forkEditor()).read(saved.fork) : null;
  if (setup === null && fork === null) return null;
  const readable = { ...saved, custom: setup === null ? null : saved.custom,
    fork: fork === null ? null : saved.fork, scenario: setup === null ? null : saved.scenario };
  return new LinkCode(whatif, saved, linkCode(readable, whatif.custom), { setup, fork });
}

export class LinkCode {
  /** `link`: {custom, fork, scenario} as the URL keeps them (url-state.js linkCode);
   * `code`: {setup, fork: {call, text}} decoded, null for a part the link does not bring. */
  constructor(whatif, saved, link, code) {
    this.whatif = whatif;
    this.block = whatif.block;
    this.step = saved.step;
    this.link = link;
    this.code = code;
    this.panel = null;
  }

  /** Shown in the block, under its status line; the URL keeps the link's code meanwhile. */
  show() {
    const m = this.whatif.messages;
    const block = this.block;
    const title = el("h3", { class: "link-code-title", id: `link-code-${block.root.id}` }, m.get("link_code"));
    const panel = el("section", { class: "link-code", "data-role": "link-code", "aria-labelledby": title.id });
    panel.append(title, el("p", { class: "link-code-note" }, m.get("link_code_note")));
    if (this.code.setup !== null) panel.append(textPart(m.get("custom_scenario"), this.code.setup));
    if (this.code.fork) {
      panel.append(textPart(m.format("fork_title", { call: this.code.fork.call }), this.code.fork.text));
    }
    const run = el("button", { type: "button", class: "run-from-link", "data-action": "run-from-link" },
      m.get("run_from_link"));
    const dismiss = el("button", { type: "button", "data-action": "dismiss-link-code" },
      m.get("dismiss_link_code"));
    run.addEventListener("click", () => this.run());
    dismiss.addEventListener("click", () => this.dismiss());
    const actions = el("div", { class: "link-code-actions" });
    actions.append(run, dismiss);
    panel.append(actions);
    block.root.querySelector(SEL.status).after(panel);
    block.client.prepareGuest(); // where the code would run, booted while the reader reads it
    this.panel = panel;
    this.whatif.link = this;
    block.linkCode = this.link;
  }

  /** The reader's click: the link's code runs as the link asks; the panel goes. */
  async run() {
    const { whatif, block, code } = this;
    const hadFocus = this.panel?.contains(document.activeElement);
    this.remove();
    if (code.setup !== null) whatif.installCustom(code.setup, this.link.custom);
    if (this.link.scenario && this.link.scenario !== block.scenario) block.setScenario(this.link.scenario);
    if (this.step !== null) await block.start("debug", { seek: this.step });
    else if (!code.fork) await block.command("debug");
    if (code.fork) await (await whatif.forkEditor()).restore(code.fork);
    if (hadFocus) focusRun(block);
    block.onChange(block);
    return true;
  }

  /** The reader's dismissal: not run, dropped from the block and the URL. */
  dismiss() {
    this.remove();
    this.block.root.querySelector(SEL.actionNamed("debug"))?.focus();
    this.block.onChange(this.block);
  }

  /** Reset or a scenario switch: not run, dropped (the URL follows their change). */
  drop() {
    this.remove();
  }

  remove() {
    this.panel?.remove();
    this.panel = null;
    if (this.block.linkCode === this.link) this.block.linkCode = null;
    if (this.whatif.link === this) this.whatif.link = null;
  }
}

/** A text the link brings, captioned: shown as text, never as markup; a long one scrolls. */
function textPart(caption, text) {
  const part = el("figure", { class: "link-code-part" });
  const pre = el("pre", { class: "link-code-text", tabindex: "0", "aria-label": caption });
  pre.append(el("code", {}, text));
  part.append(el("figcaption", {}, caption), pre);
  return part;
}

/** After the run the panel's button started, the keyboard goes on in the block: its
 * timeline once a run is shown, else its output. */
function focusRun(block) {
  if (document.activeElement && document.activeElement !== document.body) return;
  const timeline = block.root.querySelector(SEL.timeline);
  (timeline && !timeline.disabled ? timeline : block.root.querySelector(SEL.output))?.focus();
}

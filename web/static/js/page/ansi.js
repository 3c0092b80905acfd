// Terminal colours in program output: ANSI SGR sequences (colours, bold, reset…)
// become styled spans; every other escape sequence is dropped. Text reaches the
// DOM through textContent only; colours are classes (16-colour palette, themed in
// the CSS) or, for 256-colour and 24-bit codes, CSSOM properties (CSP-safe). Invisible
// characters are shown (invisible.js).

import { showText, visibleNodes } from "./invisible.js";

const ESC = "\x1b";
// CSI (ESC [ params intermediates final, cut or whole), OSC (ESC ] … BEL or ESC \),
// other escapes (ESC intermediates final), a lone ESC.
const SEQUENCE = /\x1b(?:\[([0-?]*)[ -\/]*([@-~])?|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[ -\/]*[0-~])?/g;
const FLAGS = { 1: "bold", 2: "dim", 3: "italic", 4: "underline", 7: "inverse", 9: "strike" };
const UNSET = { 22: ["bold", "dim"], 23: ["italic"], 24: ["underline"], 27: ["inverse"], 29: ["strike"] };

/** The 256-colour palette entry `n` ≥ 16 as an rgb() string. */
function color256(n) {
  if (n >= 232) {
    const v = 8 + (n - 232) * 10;
    return `rgb(${v}, ${v}, ${v})`;
  }
  const i = n - 16;
  const level = (c) => (c ? 55 + c * 40 : 0);
  return `rgb(${level(Math.floor(i / 36))}, ${level(Math.floor(i / 6) % 6)}, ${level(i % 6)})`;
}

/** Read an extended colour (38/48 ;5;n or ;2;r;g;b) at codes[i]; returns [colour, next i]. */
function extended(codes, i) {
  if (codes[i + 1] === 5 && codes[i + 2] >= 0 && codes[i + 2] <= 255) {
    const n = codes[i + 2];
    return [n < 16 ? n : color256(n), i + 3];
  }
  if (codes[i + 1] === 2 && codes.length >= i + 5) {
    const [r, g, b] = codes.slice(i + 2, i + 5).map((c) => Math.max(0, Math.min(255, c || 0)));
    return [`rgb(${r}, ${g}, ${b})`, i + 5];
  }
  return [null, codes.length];
}

/** Apply one SGR parameter list to a style {fg, bg, flags}; returns the new style. */
export function applySgr(style, params) {
  const codes = params === "" ? [0] : params.split(/[;:]/).map((p) => (p === "" ? 0 : Number(p)));
  let { fg, bg } = style;
  const flags = new Set(style.flags);
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i];
    if (c === 0) { fg = bg = null; flags.clear(); }
    else if (FLAGS[c]) flags.add(FLAGS[c]);
    else if (UNSET[c]) for (const f of UNSET[c]) flags.delete(f);
    else if (c >= 30 && c <= 37) fg = c - 30;
    else if (c >= 90 && c <= 97) fg = c - 90 + 8;
    else if (c >= 40 && c <= 47) bg = c - 40;
    else if (c >= 100 && c <= 107) bg = c - 100 + 8;
    else if (c === 39) fg = null;
    else if (c === 49) bg = null;
    else if (c === 38 || c === 48) {
      const [colour, next] = extended(codes, i);
      if (c === 38) fg = colour; else bg = colour;
      i = next - 1;
    }
  }
  return { fg, bg, flags };
}

const PLAIN = Object.freeze({ fg: null, bg: null, flags: new Set() });

/** The runs of [text, style] of `text` read from `style` on (escape sequences removed),
 * and the style at its end. */
function runsFrom(text, style) {
  const runs = [];
  let last = 0;
  for (const match of text.matchAll(SEQUENCE)) {
    if (match.index > last) runs.push([text.slice(last, match.index), style]);
    last = match.index + match[0].length;
    if (match[2] === "m") style = applySgr(style, match[1]);
  }
  if (last < text.length) runs.push([text.slice(last), style]);
  return { runs, style };
}

/** Split `text` into runs of [text, style]; escape sequences removed. */
export function parse(text) {
  return runsFrom(text, PLAIN).runs;
}

function styled(content, { fg, bg, flags }) {
  if (fg === null && bg === null && !flags.size) return visibleNodes(content);
  const span = document.createElement("span");
  showText(span, content);
  const classes = ["ansi", ...[...flags].map((f) => `ansi-${f}`)];
  for (const [kind, colour] of [["fg", fg], ["bg", bg]]) {
    if (typeof colour === "number") classes.push(`ansi-${kind}-${colour}`);
    else if (colour) span.style[kind === "fg" ? "color" : "backgroundColor"] = colour;
  }
  span.className = classes.join(" ");
  return span;
}

/** Fill `node` with `text` read from `style` on (null: plain), SGR styling applied and
 * other escapes dropped; returns the style at its end (a next part of the same output
 * goes on from it). */
export function fillFrom(node, text, style) {
  const read = runsFrom(text, style ?? PLAIN);
  const fragment = document.createDocumentFragment();
  for (const [content, runStyle] of read.runs) fragment.append(styled(content, runStyle));
  node.replaceChildren(fragment);
  return read.style;
}

/** Fill `node` with `text`, SGR styling applied and other escapes dropped. */
export function fill(node, text) {
  if (!text.includes(ESC)) showText(node, text);
  else fillFrom(node, text, PLAIN);
}

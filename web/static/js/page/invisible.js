// Invisible and bidirectional control characters shown visibly (the Trojan Source defence):
// wherever the page shows a text that a program, a lesson, a link or a model wrote (code
// lines, output, titles, the conversation, values), each control (Cc) and format (Cf)
// character but the newline and the tab, and the line and paragraph separators, becomes
//   <span class="invisible" data-label="U+202E" title="U+202E RIGHT-TO-LEFT OVERRIDE">
//     <span class="invisible-char">\u202E</span></span>
// The character stays in the text (an element's text content is the text exactly, as
// [data-line]'s contract asks); CSS takes it out of the layout (display: none, so it
// neither reorders nor breaks what follows) and shows the label in its place. A joiner
// inside an emoji sequence and the tag characters of a flag are left to the emoji.
// web/highlight.py marks the server's HTML the same way; tests/test_invisible.py holds the
// two to the same characters (tests/fixtures/invisible_text.json).

/** The characters marked: Unicode's Cc and Cf (as of Unicode 15) but \t and \n, and U+2028/9. */
export const CONTROLS = "\\u0000-\\u0008\\u000B-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605" +
  "\\u061C\\u06DD\\u070F\\u0890-\\u0891\\u08E2\\u180E\\u200B-\\u200F\\u2028-\\u202E" +
  "\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB\\u{110BD}\\u{110CD}" +
  "\\u{13430}-\\u{1343F}\\u{1BCA0}-\\u{1BCA3}\\u{1D173}-\\u{1D17A}\\u{E0001}\\u{E0020}-\\u{E007F}";
const PICTURE = "[\\u2600-\\u27BF\\u2B00-\\u2BFF\\u{1F000}-\\u{1FAFF}][\\uFE0F\\u{1F3FB}-\\u{1F3FF}]?";
// an emoji joined by U+200D, or a flag of tag characters: kept (group 1); a control: marked
const PATTERN = new RegExp(`(${PICTURE}(?:\\u200D${PICTURE})+|\\u{1F3F4}[\\u{E0020}-\\u{E007E}]+` +
  `\\u{E007F})|[${CONTROLS}]`, "gu");
const ANY = new RegExp(`[${CONTROLS}]`, "u");

/** The names shown in a marker's title (the rest show their code point alone). */
export const NAMES = Object.freeze({
  0x00AD: "SOFT HYPHEN", 0x061C: "ARABIC LETTER MARK", 0x180E: "MONGOLIAN VOWEL SEPARATOR",
  0x200B: "ZERO WIDTH SPACE", 0x200C: "ZERO WIDTH NON-JOINER", 0x200D: "ZERO WIDTH JOINER",
  0x200E: "LEFT-TO-RIGHT MARK", 0x200F: "RIGHT-TO-LEFT MARK", 0x2028: "LINE SEPARATOR",
  0x2029: "PARAGRAPH SEPARATOR", 0x202A: "LEFT-TO-RIGHT EMBEDDING",
  0x202B: "RIGHT-TO-LEFT EMBEDDING", 0x202C: "POP DIRECTIONAL FORMATTING",
  0x202D: "LEFT-TO-RIGHT OVERRIDE", 0x202E: "RIGHT-TO-LEFT OVERRIDE", 0x2060: "WORD JOINER",
  0x2066: "LEFT-TO-RIGHT ISOLATE", 0x2067: "RIGHT-TO-LEFT ISOLATE",
  0x2068: "FIRST STRONG ISOLATE", 0x2069: "POP DIRECTIONAL ISOLATE",
  0xFEFF: "ZERO WIDTH NO-BREAK SPACE",
});

// A text with more marks than this shows the rest as their labels in plain text: a page
// never builds an element per character of a megabyte of them.
export const MAX_MARKS = 2000;

/** "U+202E" for a character. */
export function label(char) {
  return `U+${char.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** The text in pieces: strings, and {char, label, title} for each character to mark (the
 * first `max`; past them, one string with each character as its label, "<U+202E>"). */
export function pieces(text, max = MAX_MARKS) {
  if (!ANY.test(text)) return [text];
  const out = [];
  let last = 0;
  let marks = 0;
  for (const match of text.matchAll(PATTERN)) {
    if (match[1] !== undefined) continue; // an emoji sequence: left as it is
    if (marks === max) break;
    if (match.index > last) out.push(text.slice(last, match.index));
    const char = match[0];
    const name = NAMES[char.codePointAt(0)];
    out.push({ char, label: label(char), title: name ? `${label(char)} ${name}` : label(char) });
    marks += 1;
    last = match.index + char.length;
  }
  let rest = text.slice(last);
  if (marks === max) rest = rest.replace(PATTERN, asLabel);
  if (rest) out.push(rest);
  return out;
}

const shownAs = new Map(); // character → "<U+XXXX>"
function asLabel(char, kept) {
  if (kept !== undefined) return kept;
  let shown = shownAs.get(char);
  if (shown === undefined) shownAs.set(char, shown = `<${label(char)}>`);
  return shown;
}

function marker({ char, label: shown, title }) {
  const span = document.createElement("span");
  span.className = "invisible";
  span.dataset.label = shown;
  span.title = title;
  const inner = document.createElement("span");
  inner.className = "invisible-char";
  inner.textContent = char;
  span.append(inner);
  return span;
}

/** `text` as a DocumentFragment, its invisible characters marked. */
export function visibleNodes(text) {
  const fragment = document.createDocumentFragment();
  for (const piece of pieces(text)) {
    fragment.append(typeof piece === "string" ? piece : marker(piece));
  }
  return fragment;
}

/** Set `node`'s text to `text`, its invisible characters marked (textContent when none). */
export function showText(node, text) {
  if (!ANY.test(text)) node.textContent = text;
  else node.replaceChildren(visibleNodes(text));
}

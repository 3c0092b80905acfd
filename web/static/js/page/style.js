// A view's own style sheet (web/static/css/NAME.css), linked once, when the view first loads.

import { el } from "./dom.js";
import { SEL } from "../selectors.js";

export function loadStyle(name) {
  const href = new URL(`../../css/${name}.css`, import.meta.url).href;
  if ([...document.styleSheets].some((s) => s.href === href) || document.querySelector(SEL.stylesheet(name))) return;
  const link = el("link");
  link.rel = "stylesheet";
  link.href = href;
  link.dataset.loopstepStyle = name;
  document.head.append(link);
}

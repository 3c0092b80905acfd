// Embeds loopstep blocks in any page:
//   <script type="module" src="(the loopstep site)/static/embed.js"></script>
//   <div data-loopstep="s06/run_subagent" data-scenario="limit" data-lang="en"></div>
// (data-runtime="lazy": the block's Python runtime boots only when a run needs it)
// Each div gets an iframe of /embed/<lesson>/<block id>/ that sizes itself to its
// content; the block's loopstep:pause and loopstep:finish events are re-dispatched
// on the div as bubbling CustomEvents. The iframe's URL names this page's origin
// (`origin=`): the block posts its messages to this origin alone, also in browsers
// that do not tell a frame its parent's origin.

const SITE = new URL("../", import.meta.url);
const FORWARDED = new Set(["loopstep:pause", "loopstep:finish"]);
const frames = new Map(); // contentWindow -> host div

function embedUrl(target, scenario, lang, runtime) {
  const [lesson, symbol] = target.split("/");
  const url = new URL(`embed/${encodeURIComponent(lesson)}/${encodeURIComponent(symbol)}/`
    + (lang === "en" ? "en/" : ""), SITE);
  if (scenario) url.searchParams.set("scenario", scenario);
  if (runtime === "lazy") url.searchParams.set("runtime", "lazy");
  // the host page's origin, for browsers that cannot tell the frame (embed-bridge.js)
  if (location.origin && location.origin !== "null") url.searchParams.set("origin", location.origin);
  return url;
}

function mount(host) {
  if (host.dataset.loopstepMounted) return;
  const target = host.dataset.loopstep || "";
  if (!/^[\w.-]+\/[\w.-]+$/.test(target)) {
    host.textContent = `loopstep: "${target}" is not <lesson>/<symbol>`;
    return;
  }
  host.dataset.loopstepMounted = "true";
  const frame = document.createElement("iframe");
  frame.src = embedUrl(target, host.dataset.scenario, host.dataset.lang, host.dataset.runtime).href;
  frame.title = host.dataset.title || `loopstep ${target}`;
  frame.loading = host.dataset.loading === "lazy" ? "lazy" : "eager";
  frame.setAttribute("scrolling", "no");
  frame.style.width = "100%";
  frame.style.border = "0";
  frame.style.display = "block";
  frame.style.height = "480px";
  host.replaceChildren(frame);
  frames.set(frame.contentWindow, { host, frame });
}

function onMessage(event) {
  if (event.origin !== SITE.origin || !event.data || typeof event.data.type !== "string") return;
  const entry = frames.get(event.source);
  if (!entry) return;
  const { type, ...detail } = event.data;
  if (type === "loopstep:resize" && Number.isFinite(detail.height)) {
    entry.frame.style.height = `${Math.ceil(detail.height)}px`;
  } else if (FORWARDED.has(type)) {
    entry.host.dispatchEvent(new CustomEvent(type, { detail, bubbles: true }));
  }
}

export function mountAll(root = document) {
  root.querySelectorAll("[data-loopstep]").forEach(mount);
}

window.addEventListener("message", onMessage);
if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", () => mountAll());
} else {
  mountAll();
}

// Starts the Python worker as soon as the page's config has been parsed, without waiting
// for the page script's module graph: loaded `async`, it depends on runtime-client.js alone,
// and page.js later picks up the same client (sharedClient).

import { sharedClient } from "./runtime-client.js";

const node = document.getElementById("loopstep-config");
const config = node ? JSON.parse(node.textContent) : null;
const query = new URLSearchParams(window.location.search).get("lang");
const redirecting = (query === "zh" || query === "en") && config && query !== config.lang;
if (config && config.blocks && config.pyodide && !redirecting) sharedClient(config).boot();

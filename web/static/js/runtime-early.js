// Starts the Python worker from the document's head, before the body is parsed and laid
// out: loaded `async`, it depends on runtime-client.js alone and reads only the small
// runtime data island; page.js later picks up the same client (sharedClient).

import { runtimeConfig, sharedClient } from "./runtime-client.js";

performance.mark("loopstep:early-evaluated");
const config = runtimeConfig();
const query = new URLSearchParams(window.location.search).get("lang");
const redirecting = (query === "zh" || query === "en") && config && query !== config.lang;
if (config && !redirecting) sharedClient().boot();

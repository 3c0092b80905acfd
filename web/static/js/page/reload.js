// Live reload under `loopstep serve --reload` (web/reload.py): the page asks the server
// each second which generation of the lessons it serves, and reloads itself when a new
// one (an edit of a lesson's files, re-validated) replaced the one it was built from.
// Only on pages the reloading server rendered; an export never has it.

const EVERY_MS = 1000;
const url = new URL("/api/reload", window.location.href);
let seen = null;

async function poll() {
  try {
    const response = await fetch(url, { cache: "no-store" });
    const { generation } = await response.json();
    if (seen === null) seen = generation;
    else if (generation !== seen) {
      window.location.reload();
      return;
    }
  } catch {
    // the server is restarting: ask again
  }
  window.setTimeout(poll, EVERY_MS);
}

poll();

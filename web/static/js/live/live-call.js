// The worker's side of a live run's request (runtime/live/browser.py): a synchronous
// XMLHttpRequest, so the lesson's code keeps its synchronous `client.messages.create(…)`
// while the request is out (docs/live.md says why not a suspended fetch). Strings only
// cross to Python: the headers and the answer are JSON text. The key is only in
// `headers`, sent as the provider's auth header; nothing here logs or keeps it.

/** POST `body` to `url`; JSON text {status, text, retryAfter} or {status: 0, error}. */
export function send(url, headers, body, timeoutMs) {
  const xhr = new XMLHttpRequest();
  xhr.open("POST", url, false);
  xhr.timeout = Number(timeoutMs);
  for (const [name, value] of Object.entries(JSON.parse(headers))) xhr.setRequestHeader(name, value);
  try {
    xhr.send(body);
  } catch (error) {
    const timedOut = error?.name === "TimeoutError";
    return JSON.stringify({ status: 0, text: "", error: timedOut ? "timeout" : "failed" });
  }
  return JSON.stringify({ status: xhr.status, text: xhr.responseText,
    retryAfter: xhr.getResponseHeader("retry-after") });
}

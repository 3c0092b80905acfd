-- wrk script for bench/run.py: rotate over a lesson page, the presets API and the wasm
-- (brotli accepted, as a browser would), and print a JSON summary at the end.
local paths = {}
for p in string.gmatch(os.getenv("LOOPSTEP_PATHS") or "/", "[^,]+") do
  paths[#paths + 1] = p
end
local counter = 0

request = function()
  counter = counter + 1
  return wrk.format("GET", paths[(counter % #paths) + 1], {["Accept-Encoding"] = "br, gzip"})
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'JSON{"requests":%d,"bytes":%d,"duration_us":%d,"connect":%d,"read":%d,"write":%d,' ..
    '"status":%d,"timeout":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d}\n',
    summary.requests, summary.bytes, summary.duration, e.connect, e.read, e.write, e.status,
    e.timeout, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency.max))
end

// The push channel: Server-Sent Events from GET /api/events/<slug>/stream carry the event's
// change counters {clock_version, records_seq, calls_seq, review_seq} on connect and on each
// change. A counter that moved calls its handler; on connect every handler runs once (what
// changed while the stream was down is fetched). When the stream fails (network, or 503 when
// the server holds too many streams) the caller's polling takes over and the stream is tried
// again with backoff (1 s doubling to 60 s).
const COUNTERS = ["clock_version", "records_seq", "calls_seq", "review_seq"];
const BACKOFF_MIN_MS = 1000;
const BACKOFF_MAX_MS = 60000;

export const pushState = new EventTarget();
Object.assign(pushState, { mode: "off", last_message_ms: null }); // mode: "off" | "live" | "polling"

/** Follow the stream of event `slug`. `handlers`: {clock_version?, records_seq?, calls_seq?,
 * review_seq?} functions called when that counter moves; `onMode(mode)` hears "live" (the
 * stream is open: polling may stop) and "polling" (it failed: poll). Returns stop(). */
export function openStream(slug, handlers, onMode = () => {}) {
  let source = null;
  let last = null;
  let failures = 0;
  let retry = null;
  let stopped = false;

  function setMode(mode) {
    if (pushState.mode === mode) return;
    pushState.mode = mode;
    onMode(mode);
    pushState.dispatchEvent(new Event("change"));
  }

  function connect() {
    if (stopped || typeof EventSource === "undefined") { setMode("polling"); return; }
    source = new EventSource(`/api/events/${encodeURIComponent(slug)}/stream`);
    source.addEventListener("change", (ev) => {
      let counters;
      try { counters = JSON.parse(ev.data); } catch { return; }
      failures = 0;
      pushState.last_message_ms = Date.now();
      pushState.dispatchEvent(new Event("message"));
      setMode("live");
      for (const key of COUNTERS) {
        if ((last == null || counters[key] !== last[key]) && handlers[key]) handlers[key](counters[key]);
      }
      last = counters;
    });
    source.addEventListener("error", () => {
      // The server ends each stream after about a minute and the browser reconnects by itself
      // (readyState CONNECTING); a refused stream (503, or no server) is CLOSED: retry later.
      setMode("polling");
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        last = null;
        failures += 1;
        const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** (failures - 1));
        retry = setTimeout(connect, delay * (0.75 + Math.random() / 2));
      }
    });
  }

  connect();
  return () => {
    stopped = true;
    clearTimeout(retry);
    source?.close();
    pushState.mode = "off";
    pushState.dispatchEvent(new Event("change"));
  };
}

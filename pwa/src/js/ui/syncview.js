// Sync details: what waits to be sent, when the last sync worked, and rejected records with
// the server's reason.
import { append, h } from "../dom.js";
import { app, eventRecords } from "../state.js";
import { syncNow, syncState } from "../sync.js";
import { timeOfDay } from "../clock.js";

const TYPE_NAMES = { penalty: "Penalty", time_extension: "Time extension", match_result: "Match result",
                     time_call: "Time call", approval: "Approval", void: "Void" };

export async function render(main) {
  const { all } = await eventRecords();
  const waiting = all.filter((r) => r.sync === "pending");
  const rejected = all.filter((r) => r.sync === "rejected");
  const line = (r) => h("li", { "data-record": r.id }, h("strong", {}, TYPE_NAMES[r.type] || r.type), ` · ${timeOfDay(r.created_ms)}`,
    r.payload.table != null ? ` · table ${r.payload.table}` : "", r.reason ? h("div", { class: "bad-text" }, r.reason) : null);
  append(main,
    h("h1", {}, "Sync"),
    app.session.standalone ? h("p", {}, "Standalone use: records stay on this phone.") : h("div", {},
      h("p", {}, syncState.last_ok_ms ? `Last successful sync at ${timeOfDay(syncState.last_ok_ms)}.` : "Not synced yet."),
      syncState.error ? h("p", { class: "bad-text" }, `Last try: ${syncState.error}`) : null,
      h("button", { type: "button", id: "sync-now", onclick: async () => { await syncNow(); location.reload(); } }, "Sync now")),
    h("h2", {}, `Waiting to send (${waiting.length})`),
    waiting.length ? h("ul", { id: "sync-waiting" }, waiting.map(line)) : h("p", { class: "muted" }, "Nothing waiting."),
    h("h2", {}, `Rejected by the server (${rejected.length})`),
    rejected.length ? h("ul", { id: "sync-rejected" }, rejected.map(line)) : h("p", { class: "muted" }, "None."),
  );
}

// Sync details: what waits to be sent, when the last sync worked, and rejected records with
// the server's reason.
import { append, h } from "../dom.js";
import { app, eventRecords, penaltyName, playerName } from "../state.js";
import * as store from "../store.js";
import { syncNow, syncState } from "../sync.js";
import { timeOfDay } from "../clock.js";

const TYPE_NAMES = { penalty: "Penalty", time_extension: "Time extension", match_result: "Match result",
                     time_call: "Time call", approval: "Approval", resolution: "Kept as issued", void: "Void" };

export async function render(main) {
  const { all } = await eventRecords();
  const waiting = all.filter((r) => r.sync === "pending");
  const rejected = all.filter((r) => r.sync === "rejected");
  const byId = new Map(all.map((r) => [r.id, r]));
  // Records of other events this phone has not sent: they wait for that event, never sent here.
  const others = (await store.outbox(Infinity)).filter((r) => r.event !== app.session.event.slug);
  const bySlug = new Map();
  for (const r of others) bySlug.set(r.event, [...(bySlug.get(r.event) || []), r]);
  const elsewhere = await Promise.all([...bySlug].map(async ([slug, recs]) =>
    [(await store.get(`event_name:${slug}`)) || slug, slug, recs]));
  const line = (r) => h("li", { "data-record": r.id }, h("strong", {}, TYPE_NAMES[r.type] || r.type),
    describe(r, byId).map((part) => ` · ${part}`),
    r.reason ? h("div", { class: "bad-text" }, "Server's reason: ", r.reason) : null);
  append(main,
    h("h1", {}, "Sync"),
    app.session.standalone ? h("p", {}, "Standalone use: records stay on this phone.") : h("div", {},
      h("p", {}, syncState.last_ok_ms ? `Last successful sync at ${timeOfDay(syncState.last_ok_ms)}.` : "Not synced yet."),
      syncState.error ? h("p", { class: "bad-text" }, `Last try: ${syncState.error}`) : null,
      h("button", { type: "button", id: "sync-now", onclick: async () => { await syncNow(); location.reload(); } }, "Sync now")),
    h("h2", {}, `Waiting to send (${waiting.length})`),
    waiting.length ? h("ul", { id: "sync-waiting" }, waiting.map(line)) : h("p", { class: "muted" }, "Nothing waiting."),
    elsewhere.map(([name, slug, recs]) => h("section", { "data-waiting-event": slug },
      h("h2", {}, `Waiting for event ${name} (${recs.length})`),
      h("p", { class: "muted" }, "Not sent: they go to that event when this phone joins it again."),
      h("ul", {}, recs.map((r) => h("li", { "data-record": r.id }, h("strong", {}, TYPE_NAMES[r.type] || r.type),
        describe(r, new Map()).map((part) => ` · ${part}`)))))),
    h("h2", {}, `Rejected by the server (${rejected.length})`),
    rejected.length ? h("ul", { id: "sync-rejected" }, rejected.map(line)) : h("p", { class: "muted" }, "None."),
  );
}

/** What a record says, in short parts: player, infraction and penalty (or minutes, or the
 * result), table, round and the time it was made. Approvals, resolutions (a flagged penalty
 * kept as issued) and voids name their record. */
function describe(r, byId) {
  const p = r.payload || {};
  const parts = [];
  if (p.player != null) parts.push(playerName(p.player));
  if (r.type === "penalty") {
    const inf = (app.ruleset?.infractions || []).find((i) => i.id === p.infraction);
    // A penalty left open waits for the head judge: never "No penalty".
    parts.push(inf ? inf.name : p.infraction,
      p.penalty == null && p.head_judge ? "penalty for the head judge to decide" : penaltyName(p.penalty));
  }
  if (r.type === "time_extension") parts.push(`+${p.minutes} min`);
  if (r.type === "time_call" || r.type === "match_result") {
    if (p.result) parts.push(p.result === "draw" ? "draw" : `player ${p.result} wins`);
  }
  if (r.type === "approval" || r.type === "resolution" || r.type === "void") {
    const target = byId.get(p.record);
    parts.push(target ? `of ${(TYPE_NAMES[target.type] || target.type).toLowerCase()} ${describe(target, byId).join(", ")}`
      : "of a record not on this phone");
    if (r.type === "approval") parts.push(p.approved ? "approve" : "refuse");
    if (p.reason) parts.push(`reason: ${p.reason}`);
  }
  if (p.table != null) parts.push(`table ${p.table}`);
  if (p.round != null) parts.push(`round ${p.round}`);
  parts.push(timeOfDay(r.created_ms));
  return parts;
}

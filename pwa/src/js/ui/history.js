// Player history: a player's records from every judge of the event, as of the last sync.
import { append, h, fill } from "../dom.js";
import { app, eventRecords, penaltyName, playerName } from "../state.js";
import { syncState } from "../sync.js";
import { timeOfDay } from "../clock.js";

export async function render(main, [playerArg]) {
  const { all, voided } = await eventRecords();
  const penalties = all.filter((r) => r.type === "penalty");
  const ids = new Map((app.detail?.players || []).map((p) => [String(p.id), p.name]));
  for (const r of penalties) if (!ids.has(String(r.payload.player))) ids.set(String(r.payload.player), String(r.payload.player));
  const counts = new Map();
  for (const r of penalties) if (!voided.has(r.id)) counts.set(String(r.payload.player), (counts.get(String(r.payload.player)) || 0) + 1);

  const asOf = app.session.standalone ? "Records on this phone only."
    : syncState.last_ok_ms ? `As of ${timeOfDay(syncState.last_ok_ms)}, the last sync with the event.` : "Not yet synced: only this phone's records.";
  const box = h("div", { id: "history-list", "aria-live": "polite" });
  const filter = h("input", { id: "history-filter", type: "search", autocomplete: "off" });

  function showPlayer(id) {
    const mine = penalties.filter((r) => String(r.payload.player) === String(id));
    fill(box, h("h2", {}, playerName(id)), h("p", { class: "small muted" }, asOf),
      mine.length ? h("ul", { class: "list", id: "history-records" }, mine.map((r) => {
        const inf = (app.ruleset.infractions || []).find((i) => i.id === r.payload.infraction);
        return h("li", { class: voided.has(r.id) ? "voided" : "", "data-record": r.id },
          h("strong", {}, penaltyName(r.payload.penalty)), " — ", inf ? inf.name : r.payload.infraction,
          h("div", { class: "small muted" },
            `${timeOfDay(r.created_ms)} · round ${r.payload.round ?? "?"} · table ${r.payload.table ?? "?"} · ${r.judge || "unknown judge"}`,
            r.payload.upgraded ? ` · upgraded from ${penaltyName(r.payload.base_penalty)}` : "",
            voided.has(r.id) ? " · voided" : "",
            r.sync === "pending" ? " · waiting to sync" : r.sync === "rejected" ? ` · rejected: ${r.reason}` : ""));
      })) : h("p", {}, "No penalties recorded for this player."),
      h("button", { type: "button", class: "secondary", onclick: () => { location.hash = "#/history"; } }, "All players"));
  }

  function showAll() {
    const words = filter.value.toLowerCase();
    const rows = [...ids.entries()].filter(([, name]) => name.toLowerCase().includes(words))
      .sort((a, b) => a[1].localeCompare(b[1]));
    fill(box, h("p", { class: "small muted" }, asOf),
      rows.length ? h("ul", { class: "list" }, rows.map(([id, name]) => h("li", {},
        h("button", { type: "button", class: "item", "data-player": id, onclick: () => { location.hash = `#/history/${encodeURIComponent(id)}`; } },
          h("span", {}, name), h("span", { class: "tag" }, `${counts.get(id) || 0} penalt${counts.get(id) === 1 ? "y" : "ies"}`)))))
        : h("p", {}, "No players known yet."));
  }

  filter.addEventListener("input", showAll);
  append(main, h("h1", {}, "Player history"),
    playerArg ? null : h("label", { for: "history-filter" }, "Find a player"), playerArg ? null : filter, box);
  if (playerArg) showPlayer(playerArg);
  else showAll();
}

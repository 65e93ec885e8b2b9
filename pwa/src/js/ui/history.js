// Player history: a player's records from every judge of the event, as of the last sync, each
// with its notes and its review state (waiting for the head judge, flagged, kept as issued:
// the engine's review items, review.js).
import { append, h, fill } from "../dom.js";
import { app, eventRecords, infractionName, penaltyName, playerName } from "../state.js";
import { syncState } from "../sync.js";
import { timeOfDay } from "../clock.js";
import { decide, flagText, reviewList, reviewShown } from "../review.js";
import { appealButton } from "./appeal.js";
import { askVoid } from "./void-step.js";
import { registeredList } from "./decklist-view.js";
import { t, tn } from "../i18n.js";

export async function render(main, [playerArg]) {
  const { all, voided } = await eventRecords();
  const penalties = all.filter((r) => r.type === "penalty");
  const ids = new Map((app.detail?.players || []).map((p) => [String(p.id), p.name]));
  for (const r of penalties) if (!ids.has(String(r.payload.player))) ids.set(String(r.payload.player), String(r.payload.player));
  const counts = new Map();
  // the server refused a rejected record: it is listed (with why) but counts for nothing
  for (const r of penalties) if (!voided.has(r.id) && r.sync !== "rejected") counts.set(String(r.payload.player), (counts.get(String(r.payload.player)) || 0) + 1);

  const asOf = app.session.standalone ? t("Records on this phone only.")
    : syncState.last_ok_ms ? t("As of {time}, the last sync with the event.", { time: timeOfDay(syncState.last_ok_ms) })
      : t("Not yet synced: only this phone's records.");
  const box = h("div", { id: "history-list", "aria-live": "polite" });
  const filter = h("input", { id: "history-filter", type: "search", autocomplete: "off" });

  const role = app.session.role || "floor_judge";
  const approvals = all.filter((r) => r.type === "approval" && r.sync !== "rejected" && !voided.has(r.id));
  // The engine's review items by record (drawn again once they are worked out): an approval
  // item while the head judge has not decided, a conflict item while the penalty is flagged
  // (with its resolution once kept).
  let waitingApproval = new Set();
  let flags = new Map();

  /** The head judge's decision on penalty `id`, as the record's line says it. */
  function approvalText(id) {
    const last = approvals.filter((a) => a.payload.record === id).pop();
    if (!last) return t("head judge: waiting");
    return last.payload.approved ? t("head judge: approved by {judge}", { judge: last.judge })
      : t("head judge: not approved by {judge}", { judge: last.judge });
  }

  /** The line under a penalty record: when, where, by whom and what became of it. */
  function recordLine(r) {
    const judge = r.judge || t("unknown judge");
    return [
      t("{time} · round {round} · table {table} · {judge}",
        { time: timeOfDay(r.created_ms), round: r.payload.round ?? "?", table: r.payload.table ?? "?", judge }),
      r.payload.upgraded ? t("upgraded from {penalty}", { penalty: penaltyName(r.payload.base_penalty) }) : null,
      voided.has(r.id) ? t("voided") : null,
      r.sync === "pending" ? t("waiting to sync") : r.sync === "rejected" ? t("rejected: {reason}", { reason: r.reason }) : null,
      // reserved to the head judge by the policy, or by the event's setting now (review.js)
      r.payload.head_judge || waitingApproval.has(r.id) || approvals.some((a) => a.payload.record === r.id)
        ? approvalText(r.id) : null,
    ].filter(Boolean).join(" · ");
  }

  // Corrections are new records: a void (own records, or any as head judge) or an approval.
  function actions(r) {
    const own = r.device === app.session.device_id || app.session.standalone;
    const buttons = [];
    if (own || role === "head_judge") {
      buttons.push(h("button", { type: "button", class: "secondary", "data-void": r.id,
        onclick: (ev) => askVoid(r, ev.currentTarget.parentElement, {
          prefix: "void", question: t("Why is this penalty void?"), confirm: t("Void this penalty"), back: "[data-void]",
          done: () => {
            main.replaceChildren();
            return render(main, [String(r.payload.player)]);
          } }) }, t("Void")));
    }
    if (role === "head_judge" && waitingApproval.has(r.id) && !app.session.standalone) {
      for (const [approved, text] of [[true, t("Approve")], [false, t("Refuse")]]) {
        buttons.push(h("button", { type: "button", class: "secondary", "data-approve": String(approved), onclick: async () => {
          await decide({ record: r.id }, approved);
          main.replaceChildren();
          render(main, [String(r.payload.player)]);
        } }, text));
      }
    }
    if (!app.session.standalone && role !== "scorekeeper") buttons.push(appealButton(r, r.payload));
    return buttons.length ? h("div", { class: "row", style: "margin-top:0.4rem" }, buttons) : null;
  }

  function showPlayer(id) {
    const mine = penalties.filter((r) => String(r.payload.player) === String(id));
    fill(box, h("h2", {}, playerName(id)), h("p", { class: "small muted" }, asOf),
      mine.length ? h("ul", { class: "list", id: "history-records" }, mine.map((r) => {
        const flag = flags.get(r.id);
        return h("li", { class: voided.has(r.id) ? "voided" : "", "data-record": r.id },
          h("strong", {}, r.payload.penalty == null && r.payload.head_judge ? t("Penalty for the head judge to decide")
            : penaltyName(r.payload.penalty)), " — ", infractionName(r.payload.infraction),
          h("div", { class: "small muted" }, recordLine(r)),
          r.payload.notes ? h("p", { class: "small notes" }, t("Notes: {notes}", { notes: r.payload.notes })) : null,
          flag ? h("p", { class: flag.resolution ? "kept" : "flag", "data-flag": flag.resolution ? "kept" : "flagged" },
            flag.resolution ? t("Kept as issued: {reason}", { reason: flag.resolution.reason })
              : t("Flagged for the head judge: {flag}", { flag: flagText(flag) })) : null,
          voided.has(r.id) ? null : actions(r));
      })) : h("p", {}, t("No penalties recorded for this player.")),
      h("div", { id: "player-decklist" }),
      h("button", { type: "button", class: "secondary", onclick: () => { location.hash = "#/history"; } }, t("All players")));
    // the registered list, as the event's sync brought it (judges only; none standalone)
    if (!app.session.standalone) {
      registeredList(id).then((el) => box.querySelector("#player-decklist")?.replaceChildren(el));
    }
  }

  function showAll() {
    const words = filter.value.toLowerCase();
    const rows = [...ids.entries()].filter(([, name]) => name.toLowerCase().includes(words))
      .sort((a, b) => a[1].localeCompare(b[1]));
    fill(box, h("p", { class: "small muted" }, asOf),
      rows.length ? h("ul", { class: "list" }, rows.map(([id, name]) => h("li", {},
        h("button", { type: "button", class: "item", "data-player": id, onclick: () => { location.hash = `#/history/${encodeURIComponent(id)}`; } },
          h("span", {}, name), h("span", { class: "tag" }, tn("{count} penalty", "{count} penalties", counts.get(id) || 0))))))
        : h("p", {}, t("No players known yet.")));
  }

  filter.addEventListener("input", showAll);
  append(main, h("h1", {}, t("Player history")),
    playerArg ? null : h("label", { for: "history-filter" }, t("Find a player")), playerArg ? null : filter, box);
  if (playerArg) showPlayer(playerArg);
  else showAll();
  if (playerArg && reviewShown()) {
    reviewList().then(({ items }) => {
      waitingApproval = new Set(items.filter((i) => i.kind === "approval").map((i) => i.record));
      flags = new Map(items.filter((i) => i.kind === "conflict").map((i) => [i.record, i]));
      if (box.isConnected) showPlayer(playerArg);
    }, () => {});
  }
}

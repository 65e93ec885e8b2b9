// Review: what waits for the head judge, from this phone's records (offline too), following
// every sync. A head judge approves or refuses the penalties the policy reserves to them, and
// decides each flagged penalty (one decided without another judge's earlier penalties of the
// same player): keep it as issued, with a reason, or issue the policy's penalty instead. A
// floor judge sees the flagged penalties they issued, read-only. Kept ones are listed below.
// Appeals wait here too: the head judge confirms or changes the ruling, and one who made the
// ruling names the judge they consulted first. Below, the head judge sees the event's
// deck-check coverage (from the organiser's server, when it can be reached).
import { append, fill, focusPlace, h, keptFocus } from "../dom.js";
import { LIMITS, textProblem } from "../checks.js";
import { app, infractionName, penaltyName, playerName } from "../state.js";
import { syncState } from "../sync.js";
import { timeOfDay } from "../clock.js";
import { consultRefusal, decide, decideAppeal, decides, flagText, issueInstead, keep, onReviewChange, openText, reviewList,
  ruledFirst } from "../review.js";
import { waitingText } from "./engine-note.js";
import { coverageSection } from "./deckcoverage.js";
import { t } from "../i18n.js";
import { afterPress } from "../press.js";

export async function render(main) {
  const status = h("p", { id: "review-status", role: "status" });
  const box = h("div", { id: "review-list" }, h("p", { class: "muted" }, waitingText()));
  const drafts = new Map(); // reasons being typed, by record id: kept when the list is drawn again
  const coverage = decides() ? coverageSection() : null; // fetched once per visit of the screen
  append(main, h("h1", {}, t("Review")), status, box);

  function say(text, bad = false) {
    status.className = bad ? "bad-text" : "ok-text";
    status.textContent = text;
  }

  /** Run a decision; the list is drawn again once its records are stored (a change). */
  async function act(button, work, done) {
    const row = button.closest("li");
    for (const b of row.querySelectorAll("button")) b.disabled = true;
    try {
      await work();
      drafts.delete(row.dataset.record);
      // the row goes with the list drawn again (once a tap begun meanwhile is over: taking it
      // out now would move the rows below under that finger)
      shown = null;
      // the list is read again from the records now stored (the count, "nothing waits"),
      // not left to the next sync to redraw
      await draw();
      say(done);
      status.tabIndex = -1;
      status.focus({ preventScroll: true });
    } catch (err) {
      for (const b of row.querySelectorAll("button")) b.disabled = false;
      say(err.message, true);
    }
  }

  function meta(item) {
    return [item.judge ? t("Recorded by {judge}", { judge: item.judge }) : t("Recorded by an unknown judge"),
      item.table != null ? t("table {table}", { table: item.table }) : t("no table"),
      item.round != null ? t("round {round}", { round: item.round }) : null, item.created_ms ? timeOfDay(item.created_ms) : null]
      .filter(Boolean).join(" · ");
  }

  function approvalActions(item) {
    // A penalty left for the head judge to choose (the policy does not state it) has nothing to
    // approve: the head judge looks it up with the player and table filled in, records the
    // penalty they choose, and refuses this one (the server refuses approving it as it is).
    const open = item.penalty == null;
    const choose = open ? h("button", { type: "button", "data-choose": item.record, onclick: async () => {
      const penalty = await import("./penalty.js");
      penalty.presetPenalty({ player: item.player, table: item.table, notes: item.notes || "" });
      location.hash = `#/penalty/${encodeURIComponent(item.infraction)}`;
    } }, t("Choose the penalty")) : null;
    return h("div", {},
      open ? h("p", { class: "small" }, t("The policy leaves this penalty to you: choose it, record it, then refuse this one.")) : null,
      h("div", { class: "row" }, choose,
        [[true, t("Approve"), t("Approved.")], [false, t("Refuse"), t("Refused: it no longer counts toward later penalties.")]]
          .filter(([approved]) => !(approved && open))
          .map(([approved, text, done]) => h("button", { type: "button", class: approved ? "" : "secondary",
            "data-decide": String(approved), onclick: (ev) => act(ev.currentTarget, () => decide(item, approved), done) }, text))));
  }

  function conflictActions(item) {
    const id = `review-reason-${item.record}`;
    const reason = h("textarea", { id, rows: "2", maxlength: String(LIMITS.notes), "data-reason": item.record,
      oninput: () => drafts.set(item.record, reason.value) });
    reason.value = drafts.get(item.record) || "";
    // a refusal shown stays when the list is drawn again (a sync), as what is typed does
    const said = drafts.get(`error:${item.record}`);
    const error = h("p", { class: "bad-text", role: "alert", hidden: !said }, said || "");
    const keepIt = (ev) => {
      ev.preventDefault();
      const text = reason.value.trim();
      if (!text || textProblem(text)) {
        error.textContent = text ? t("The reason: {problem}.", { problem: textProblem(text) })
          : t("Say why it is kept as issued: the reason goes with the record.");
        error.hidden = false;
        drafts.set(`error:${item.record}`, error.textContent);
        reason.focus();
        return;
      }
      error.hidden = true;
      drafts.delete(`error:${item.record}`);
      act(ev.submitter || ev.currentTarget.querySelector("button"), () => keep(item, text), t("Kept as issued."));
    };
    return h("div", {},
      item.expected != null
        ? h("button", { type: "button", class: "wide", "data-issue": item.record,
          onclick: (ev) => act(ev.currentTarget, () => issueInstead(item),
            t("{penalty} issued instead.", { penalty: penaltyName(item.expected) })) },
          t("Issue {penalty} instead", { penalty: penaltyName(item.expected) }))
        : h("p", { class: "small" }, t("To issue another penalty, void this one on the Players screen and look it up again.")),
      h("form", { onsubmit: keepIt, "aria-label": t("Keep {penalty} as issued", { penalty: penaltyName(item.penalty) }) },
        h("label", { for: id }, t("Reason for keeping it as issued (required)")), reason, error,
        h("button", { type: "submit", class: "secondary wide", "data-keep": item.record, style: "margin-top:0.4rem" },
          t("Keep as issued"))));
  }

  function appealActions(item) {
    const id = `review-ruling-${item.record}`;
    const ruling = h("textarea", { id, rows: "2", maxlength: String(LIMITS.notes), "data-ruling": item.record,
      oninput: () => drafts.set(`ruling:${item.record}`, ruling.value) });
    ruling.value = drafts.get(`ruling:${item.record}`) || "";
    const consultedId = `review-consulted-${item.record}`;
    const consulted = ruledFirst(item) ? h("input", { id: consultedId, autocomplete: "off", maxlength: "100",
      "data-consulted": item.record, value: drafts.get(`consulted:${item.record}`) || "",
      oninput: () => drafts.set(`consulted:${item.record}`, consulted.value) }) : null;
    // what is typed, and a refusal shown, stay when the list is drawn again (a sync)
    const said = drafts.get(`error:${item.record}`);
    const error = h("p", { class: "bad-text", role: "alert", hidden: !said }, said || "");
    const go = async (ev, outcome) => {
      const button = ev.currentTarget;
      const text = ruling.value.trim();
      const who = consulted?.value.trim() || null;
      const refused = consulted && who ? await consultRefusal(item, who).catch(() => null) : null;
      const problem = consulted && !who ? t("You made this ruling: name the judge you consulted before deciding.")
        : refused ? t("The judge consulted is another judge than you.")
          : outcome === "changed" && !text ? t("Write the new ruling to change it.")
            : textProblem(text) ? t("The ruling: {problem}.", { problem: textProblem(text) })
              : who && textProblem(who, LIMITS.judge, false)
                ? t("The judge consulted: {problem}.", { problem: textProblem(who, LIMITS.judge, false) }) : null;
      if (problem) {
        error.textContent = problem;
        error.hidden = false;
        drafts.set(`error:${item.record}`, problem);
        (consulted && !who ? consulted : ruling).focus();
        return;
      }
      error.hidden = true;
      drafts.delete(`error:${item.record}`);
      act(button, () => decideAppeal(item, outcome, outcome === "changed" ? text : null, who),
        outcome === "changed" ? t("Ruling changed.") : t("Ruling confirmed."));
    };
    return h("div", {},
      consulted ? [h("label", { for: consultedId }, t("You made this ruling: the judge you consulted (required)")), consulted]
        : null,
      h("label", { for: id }, t("New ruling (to change it)")), ruling, error,
      h("div", { class: "row", style: "margin-top:0.4rem" },
        h("button", { type: "button", "data-appeal-decide": "confirmed", onclick: (ev) => go(ev, "confirmed") },
          t("Confirm the ruling")),
        h("button", { type: "button", class: "secondary", "data-appeal-decide": "changed",
          onclick: (ev) => go(ev, "changed") }, t("Change the ruling"))));
  }

  // What each kind of review item says and which decisions it offers (shared_rules.review.KINDS).
  const KINDS = {
    approval: {
      title: (item) => infractionName(item.infraction),
      what: (item) => (item.penalty == null ? t("Penalty for the head judge to decide: waits for the head judge's approval")
        : t("{penalty}: waits for the head judge's approval", { penalty: penaltyName(item.penalty) })),
      actions: approvalActions,
    },
    conflict: { title: (item) => infractionName(item.infraction), what: flagText, flag: true, actions: conflictActions },
    appeal: {
      title: () => t("appeal: waiting"),
      what: (item) => t("Ruling by {judge}: {ruling}", { judge: item.ruled_by, ruling: item.ruling }),
      actions: appealActions,
    },
  };

  function row(item, acting) {
    const kind = KINDS[item.kind];
    return h("li", { "data-record": item.record, "data-kind": item.kind },
      h("strong", {}, playerName(item.player)), " — ", kind.title(item),
      h("p", { class: kind.flag ? "flag" : "" }, kind.what(item)),
      h("p", { class: "small muted" }, meta(item)),
      item.notes ? h("p", { class: "small notes" }, t("Notes: {notes}", { notes: item.notes })) : null,
      openText(item) ? h("p", { class: "small open-facts" }, openText(item)) : null,
      item.resolution ? h("p", { class: "kept" }, item.resolution.judge
        ? t("Kept as issued: {reason} ({judge})", { reason: item.resolution.reason, judge: item.resolution.judge })
        : t("Kept as issued: {reason}", { reason: item.resolution.reason })) : null,
      acting ? kind.actions(item) : null);
  }

  let drawn = 0; // the number of the latest draw: an older one that finishes later is dropped
  // What the list shows now: a sync that changes nothing in it leaves its rows in place, so a
  // tap that lands while the list is read again is not lost with the button it began on.
  let shown = null;
  const asOfLine = h("p", { class: "small muted" });

  async function draw() {
    const mine = ++drawn;
    let list;
    try {
      list = await reviewList();
    } catch (err) {
      if (mine === drawn) fill(box, h("p", { class: "bad-text" }, err.message));
      return;
    }
    // a draw begun before the latest change (a decision, a sync) may finish after the draw
    // that read the change: only the latest draw fills the list
    if (mine !== drawn || !app.session) return;
    box.dataset.read = String(mine); // how many times the list was read: each sync reads it
    const head = decides();
    asOfLine.textContent = syncState.last_ok_ms
      ? t("As of {time}, the last sync with the event.", { time: timeOfDay(syncState.last_ok_ms) })
      : t("Not yet synced: only this phone's records.");
    const shape = JSON.stringify([head, list.waiting, list.kept, [...list.waiting, ...list.kept].map((i) => playerName(i.player))]);
    if (shape === shown && box.contains(asOfLine)) return;
    // The list is filled once a tap under way is over (press.js): its rows would move or be
    // replaced under the finger, and the tap would be lost or decide another item.
    await new Promise((resolve) => afterPress(resolve));
    if (mine !== drawn || !app.session) return;
    shown = shape;
    const focused = focusPlace(box, "record"); // the keyboard stays where it was
    fill(box,
      asOfLine,
      head ? null : h("p", {},
        t("The head judge decides these: a flagged penalty was decided without another judge's earlier penalties for the same player, and the head judge keeps it or issues another.")),
      h("h2", {}, head ? t("Waiting for you ({count})", { count: list.waiting.length })
        : t("Your penalties flagged for the head judge ({count})", { count: list.waiting.length })),
      list.waiting.length ? h("ul", { class: "list", id: "review-waiting" }, list.waiting.map((item) => row(item, head)))
        : h("p", { class: "muted", id: "review-empty" },
          head ? t("Nothing waits for you.") : t("None of your penalties is flagged.")),
      list.kept.length ? [h("h2", {}, t("Kept as issued ({count})", { count: list.kept.length })),
        h("ul", { class: "list", id: "review-kept" }, list.kept.map((item) => row(item, false)))] : null,
      head ? coverage : null);
    keptFocus(box, "record", focused);
  }

  const stop = onReviewChange(draw);
  draw();
  return stop;
}

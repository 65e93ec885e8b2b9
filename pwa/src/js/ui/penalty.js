// Penalty: find an infraction by name or words, read the decision card (penalty, upgrade from
// the player's history across judges, remedy, head-judge requirement, options, lines to read
// out, source) with what the engine still asks under its decided part, and record it for a
// player and table (with the facts still open, once the penalty itself is decided).
// The optional details, the questions and the card's extra lines are the ruleset's own facts
// and answer fields, in its words; the history and the record's payload come from the engine.
// The choices made (infraction, player, table, details, answers, notes) are the screen's draft
// (drafts.js): Back and Forward, or leaving and coming back, show the same card again.
import { append, h, fill } from "../dom.js";
import { app, currentTables, eventContext, eventRecords, penaltyName, playerName, request } from "../state.js";
import { appealButton } from "./appeal.js";
import { evaluate, factsRead, history as playerHistory, historySeen, penaltyPayload } from "../engine.js";
import { recordPenalty } from "../penalty-record.js";
import { LIMITS, tableProblem, textProblem } from "../checks.js";
import { syncState } from "../sync.js";
import { clearDraft, loadDraft, saveDraft } from "../drafts.js";
import { timeOfDay } from "../clock.js";
import { answerLines, ask, factName, humanize, sentence, setFact } from "./questions.js";
import { answeredNote, waitingText } from "./engine-note.js";
import { isEnglish, ruleItems, ruleText } from "./rule-text.js";
import { t, tn } from "../i18n.js";

// Asked on the screen itself (the infraction picked, the player's history, the chooser).
const ASKED_UP_FRONT = new Set(["infraction", "history", "issuing"]);

/** The optional yes/no details of an infraction: the ruleset's facts its rules read (or, before
 * Python is ready, every yes/no fact the ruleset declares for penalties), in its words. */
async function optionalDetails(inf) {
  const declared = app.ruleset.queries?.penalty?.facts || {};
  const read = await factsRead(app.session.event.ruleset, "penalty", inf.id).catch(() => null);
  const names = read ? read.filter((f) => f.type === "bool").map((f) => f.name) : Object.keys(declared);
  return names.filter((name) => !ASKED_UP_FRONT.has(name) && declared[name]?.type === "bool")
    .map((name) => [name, declared[name].summary]);
}

/** `text` lower-cased without accents, so "penalite" finds "Pénalité". */
function folded(text) {
  return String(text ?? "").normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** The name of an infraction's category (the ruleset's `categories`; its id made readable
 * where the ruleset does not list it). */
export function categoryName(ruleset, id) {
  if (!id) return "";
  return (ruleset.categories || []).find((c) => c.id === id)?.name ?? humanize(id);
}

/** Infractions whose name, category, keywords, id or summary hold every word of `text`
 * (accents and case ignored), best first: a word found at the start of a word of the name
 * counts most, then anywhere in the name, then the category and keywords, then the
 * summary; equal ones keep the ruleset's order. */
export function searchInfractions(ruleset, text) {
  const words = folded(text).split(/\s+/).filter(Boolean);
  const scored = [];
  for (const inf of ruleset.infractions || []) {
    const name = folded(inf.name);
    const nameWords = name.split(/[^\p{L}\p{N}]+/u);
    const fields = [name, folded([categoryName(ruleset, inf.category), ...(inf.keywords || []), inf.id].join(" ")),
      folded(inf.summary)];
    let score = 0;
    for (const word of words) {
      const at = fields.findIndex((f) => f.includes(word));
      if (at < 0) { score = -1; break; }
      score += at === 0 && nameWords.some((w) => w.startsWith(word)) ? 0 : at + 1;
    }
    if (score >= 0) scored.push([score, inf]);
  }
  return scored.sort((a, b) => a[0] - b[0]).map(([, inf]) => inf);
}

/** Whether the penalty itself (or whether the policy states it) still waits on a fact. */
function penaltyOpen(answer) {
  return Boolean(answer.pending?.penalty || answer.pending?.stated);
}

/** The upgrade badge: from which penalty (or from one the head judge decides; a starting
 * penalty that depends on a detail the answer did not need goes unnamed). */
function upgradedFrom(answer, notStated) {
  if (answer.base_penalty != null) return t("Upgraded from {penalty}", { penalty: penaltyName(answer.base_penalty) });
  if (answer.head_judge || notStated) return t("Upgraded from penalty for the head judge to decide");
  return t("Upgraded for earlier penalties");
}

// Who and where the next Penalty screen is for (a deck check that found a problem): the
// player and table fields are filled in with them once an infraction is chosen.
let preset = null;

/** Fill in the player and table of the next Penalty screen: `{player (an id or a name), table,
 * notes?}` (notes: what a deck check found, put in the card's notes). */
export function presetPenalty(given) {
  preset = given;
}

export async function render(main, [infractionArg]) {
  const presetFor = preset;
  preset = null;
  // The draft is shown again unless the screen was opened for someone or something else.
  let restoring = loadDraft("penalty");
  if (presetFor || (infractionArg && restoring?.infraction !== infractionArg)) restoring = null;
  const infractions = app.ruleset.infractions || [];
  const search = h("input", { id: "pen-search", type: "search", autocomplete: "off", placeholder: t("e.g. slow, deck, late") });
  const results = h("ul", { class: "list", id: "pen-results", "aria-label": t("Matching infractions") });
  const detail = h("div", { id: "pen-detail" });

  function list() {
    const found = searchInfractions(app.ruleset, search.value);
    fill(results, found.slice(0, 40).map((inf) => h("li", {},
      h("button", { type: "button", class: "item", "data-infraction": inf.id, onclick: () => choose(inf) },
        h("span", {}, inf.name), h("span", { class: "tag" }, categoryName(app.ruleset, inf.category))))));
    if (!found.length) results.append(h("li", { class: "muted" }, t("No infraction matches these words.")));
  }

  // Choosing an infraction takes its button away: focus goes to what it shows instead.
  function choose(inf, { focus = true } = {}) {
    const restore = restoring?.infraction === inf.id ? restoring : null;
    restoring = null;
    fill(results);
    search.value = inf.name;
    fill(detail, h("h2", { id: "pen-detail-h", tabindex: "-1" }, inf.name), h("p", {}, inf.summary), facts(inf, restore),
      h("button", { type: "button", class: "secondary wide", id: "pen-reset", style: "margin-top:0.8rem", onclick: () => {
        clearDraft("penalty");
        fill(detail);
        search.value = "";
        list();
        search.focus();
      } }, t("Start over")));
    if (focus) detail.querySelector("h2").focus();
  }

  /** Who and what for `inf`; `restore`: a draft of this infraction to show again. */
  function facts(inf, restore = null) {
    const players = app.detail?.players || [];
    const playerIn = players.length
      ? h("select", { id: "pen-player" }, h("option", { value: "" }, t("Pick a player")),
        players.map((p) => h("option", { value: p.id }, p.name)))
      : h("input", { id: "pen-player", autocomplete: "off" });
    const tableIn = h("input", { id: "pen-table", type: "number", min: "1", inputmode: "numeric" });
    // The table follows the player: theirs in the current round, none when they have none.
    playerIn.addEventListener("change", () => {
      const seat = currentTables().find((x) => String(x.player_a) === playerIn.value || String(x.player_b) === playerIn.value);
      tableIn.value = seat ? seat.number : "";
    });
    if (presetFor) {
      playerIn.value = String(presetFor.player);
      tableIn.value = presetFor.table ?? "";
    }
    if (restore) {
      playerIn.value = restore.player;
      tableIn.value = restore.table;
    }
    const selects = [];
    const details = h("details", { hidden: true }, h("summary", {}, t("More details (optional)")));
    const out = h("div", { id: "pen-answer", "aria-live": "polite" });
    const given = { ...restore?.given };
    // Whether the card (or its question) is asked for: shown again with the draft.
    let shown = false;

    function keep() {
      saveDraft("penalty", {
        infraction: inf.id, player: playerIn.value, table: tableIn.value, given, shown,
        details: Object.fromEntries(selects.filter(([, sel]) => sel.value).map(([k, sel]) => [k, sel.value])),
        notes: out.querySelector("#pen-notes")?.value ?? "" });
    }

    optionalDetails(inf).then(async (found) => {
      for (const [k, summary] of found) {
        const sel = h("select", { id: `pen-fact-${k}`, "data-fact": k },
          h("option", { value: "" }, t("Not asked")), h("option", { value: "true" }, t("Yes")),
          h("option", { value: "false" }, t("No")));
        sel.value = restore?.details?.[k] ?? "";
        selects.push([k, sel]);
        details.append(h("div", {}, h("label", { for: sel.id }, sentence(summary || humanize(k))), sel));
      }
      details.hidden = !found.length;
      if (!restore?.shown) return keep();
      await decide();
      const notes = out.querySelector("#pen-notes");
      if (notes) notes.value = restore.notes || "";
      keep();
    });
    // A card is for one player at one table: changing either takes it away (no old record).
    const clearCard = () => {
      shown = false;
      fill(out);
    };
    for (const el of [playerIn, tableIn]) {
      el.addEventListener("input", clearCard);
      el.addEventListener("change", clearCard);
    }

    async function decide(ev) {
      ev?.preventDefault();
      const player = playerIn.value.trim();
      if (!player) { fill(out, h("p", { class: "bad-text" }, t("Say which player first."))); playerIn.focus(); return; }
      const named = !/^\d+$/.test(player) && textProblem(player, LIMITS.name, false);
      const wrong = named ? ["pen-player", t("Player's name: {problem}.", { problem: named })]
        : tableProblem(tableIn.value) ? ["pen-table", t("Table: {problem}.", { problem: tableProblem(tableIn.value) })] : null;
      if (wrong) {
        fill(out, h("p", { class: "bad-text", role: "alert" }, wrong[1]));
        document.getElementById(wrong[0])?.focus();
        return;
      }
      shown = true;
      keep();
      fill(out, h("p", {}, waitingText()));
      let answer;
      let f;
      let seen;
      try {
        // The history and the ids the record keeps of it (history_seen) come from the same records.
        const { all } = await eventRecords();
        [f, seen] = await Promise.all([
          playerHistory(all, player, app.session.event.ruleset).then((history) => ({ infraction: inf.id, history, ...given })),
          historySeen(all, player)]);
        for (const [k, sel] of selects) if (sel.value) f[k] = sel.value === "true";
        answer = await evaluate(request("penalty", f));
      } catch (err) {
        fill(out, h("p", { class: "bad-text" }, err.message));
        return;
      }
      // The player changed while the engine answered: this answer is not theirs.
      if (playerIn.value.trim() !== player) { fill(out); return; }
      // Where the policy leaves the class to the judge, the engine reads `issuing`.
      const choosing = await factsRead(app.session.event.ruleset, "penalty", inf.id).then(
        (facts) => facts.some((x) => x.name === "issuing"), () => false);
      // The judge chose a class the policy does not leave open: the engine's penalty stands,
      // and the list goes back to it so the screen never shows a choice that was not applied.
      const overruled = f.issuing != null && !penaltyOpen(answer)
        && JSON.stringify(answer.penalty) !== JSON.stringify(f.issuing);
      if (overruled) delete given.issuing;
      const current = overruled ? (typeof answer.penalty === "string" ? answer.penalty : null) : f.issuing;
      fill(out, card(inf, answer, player, Number(tableIn.value) || null, f, seen,
        choosing || overruled ? choosePenalty(current, answer.penalty == null && answer.stated === false) : null, overruled));
      // A fact some field still waits on: the decided part is shown, the question under it (the
      // first fact the rules read), asked again once answered.
      const need = (answer.needs || [])[0];
      if (need) ask(out.querySelector("#pen-question"), need, (value) => { setFact(given, factName(need.path), value); decide(); });
      out.querySelector("h2")?.focus();
    }

    // "Penalty the judge chooses": asks the engine again with facts.issuing.
    function choosePenalty(current, open) {
      const sel = h("select", { id: "pen-issuing" },
        h("option", { value: "" }, open ? t("Choose a penalty") : t("The one the policy gives")),
        (app.ruleset.penalties || []).map((p) => h("option", { value: p.id, selected: p.id === current }, p.name)));
      sel.addEventListener("change", () => {
        if (sel.value) given.issuing = sel.value;
        else delete given.issuing;
        decide();
      });
      return h("div", {}, h("label", { for: "pen-issuing" }, t("Penalty the judge chooses")), sel);
    }

    return h("form", { onsubmit: decide, oninput: keep, onchange: keep, novalidate: true, "aria-label": t("Who and what") },
      h("label", { for: "pen-player" }, t("Player")), playerIn,
      h("label", { for: "pen-table" }, t("Table")), tableIn,
      details,
      h("button", { type: "submit", id: "pen-decide", class: "wide", style: "margin-top:0.8rem" }, t("Show the penalty")),
      out);
  }

  function card(inf, answer, player, table, f, seen, chooser, overruled = false) {
    const open = answer.pending || {};
    const undecided = penaltyOpen(answer);
    const notStated = !undecided && answer.penalty == null && answer.stated === false;
    const asOf = app.session.standalone ? t("history on this phone only")
      : syncState.last_ok_ms ? t("history as of {time} (last sync)", { time: timeOfDay(syncState.last_ok_ms) })
        : t("history not yet synced");
    const history = f.history.length
      ? tn("{count} earlier penalty; {asOf}", "{count} earlier penalties; {asOf}", f.history.length, { asOf })
      : t("no earlier penalties; {asOf}", { asOf });
    // The ruleset's own answer fields (when a game loss applies, how the game is fixed, ...).
    const details = answerLines(answer, app.ruleset.queries?.penalty?.answer, { penaltyName });
    return h("section", { class: "card decision", id: "pen-card", "aria-labelledby": "pen-card-h" },
      h("h2", { id: "pen-card-h", tabindex: "-1" }, `${inf.name} — ${playerName(player)}`),
      undecided
        ? h("div", { id: "pen-penalty", "data-penalty": "pending" }, h("p", { class: "big-penalty" }, t("Not decided yet")),
          h("p", {}, t("The penalty depends on the question below.")))
        : notStated
        ? h("div", { id: "pen-penalty", "data-penalty": "null", "data-stated": "false" },
          h("p", { class: "big-penalty" }, t("Not stated by this policy")),
          h("p", { id: "pen-not-stated" }, t("The policy does not state this penalty: the head judge decides.")))
        : h("p", { class: "big-penalty", id: "pen-penalty", "data-penalty": JSON.stringify(answer.penalty) }, penaltyName(answer.penalty)),
      chooser,
      answeredNote(answer),
      overruled ? h("p", { class: "bad-text", id: "pen-issuing-note", role: "status" },
        t("This policy sets the penalty; a different class needs the head judge.")) : null,
      h("p", { class: "row" },
        answer.upgraded ? h("span", { class: "tag up", id: "pen-upgraded" }, upgradedFrom(answer, notStated)) : null,
        answer.head_judge ? h("span", { class: "tag hj", id: "pen-hj" }, t("Head judge must confirm")) : null,
        open.head_judge ? h("span", { class: "tag hj", id: "pen-hj-open" }, t("Head judge may have to confirm")) : null,
        // The policy's condition for the drop is in the lines read out, never in the badge alone.
        answer.drop ? h("span", { class: "tag hj", id: "pen-drop" },
          t("Drop from the event — see the conditions read out below")) : null,
        answer.extra_turns_each ? h("span", { class: "tag" },
          tn("+{count} turn each", "+{count} turns each", answer.extra_turns_each)) : null),
      answer.needs?.length ? openPart(answer, open, undecided) : null,
      h("p", { class: "small muted", id: "pen-history" }, history),
      details.length ? h("ul", { id: "pen-details" }, details.map((d) => h("li", { "data-field": d.field }, d.text))) : null,
      inf.remedy ? h("div", {}, h("h3", {}, t("Remedy")), h("p", {}, inf.remedy)) : null,
      h("h3", {}, t("Read out")),
      h("ul", { class: "readout" }, ruleItems("li", {}, answer, "explain")),
      answer.options.length ? h("div", {}, h("h3", {}, t("Head judge may instead")),
        h("ul", {}, answer.options.map((o, i) => h("li", {}, h("strong", {}, penaltyName(o.penalty)), ": ",
          ruleText("span", {}, o.condition, isEnglish(answer, `options[${i}].condition`)))))) : null,
      ruleItems("p", { class: "muted" }, answer, "notes"),
      h("p", { class: "source" }, t("Source: {sources}", { sources: answer.sources.join("; ") })),
      h("label", { for: "pen-notes" }, t("Notes (optional)")),
      h("textarea", { id: "pen-notes", rows: "2", maxlength: String(LIMITS.notes) }, presetFor?.notes ?? ""),
      h("p", { class: "bad-text", id: "pen-notes-error", role: "alert", hidden: true }),
      undecided ? null : h("button", { type: "button", id: "pen-record", class: "wide", style: "margin-top:0.6rem", onclick: async (ev) => {
        const btn = ev.currentTarget;
        const notes = document.getElementById("pen-notes").value.trim();
        const notesError = document.getElementById("pen-notes-error");
        if (textProblem(notes)) {
          notesError.textContent = t("Notes: {problem}. Change them to record.", { problem: textProblem(notes) });
          notesError.hidden = false;
          return;
        }
        notesError.hidden = true;
        btn.disabled = true;
        const e = app.session.event;
        let payload;
        try {
          payload = await penaltyPayload({
            answer, facts: f, player: /^\d+$/.test(player) ? Number(player) : player, table,
            round: app.clock?.round?.number ?? null, event: { ...eventContext(), ruleset: e.ruleset }, notes: notes || null,
            history_seen: seen });
        } catch (err) {
          notesError.textContent = err.message;
          notesError.hidden = false;
          btn.disabled = false;
          return;
        }
        const stored = await recordPenalty(payload, answer);
        clearDraft("penalty");
        const said = h("p", { class: "ok-text", role: "status", id: "pen-recorded", tabindex: "-1" },
          app.session.standalone ? t("Recorded on this phone.") : t("Recorded on this phone; it will sync with the event."));
        btn.replaceWith(said, app.session.standalone ? null : appealButton(stored, payload));
        said.focus();
      } }, notStated ? t("Record it for the head judge to decide") : t("Record this penalty")));
  }

  /** What the answer still leaves open (the engine's sentence for each pending field) and the
   * slot its question goes in, under the decided part. */
  function openPart(answer, open, undecided) {
    return h("section", { id: "pen-open", "aria-labelledby": "pen-open-h" },
      h("h3", { id: "pen-open-h" }, t("Still open")),
      h("ul", { id: "pen-pending" }, Object.entries(open).filter(([, entry]) => entry.text).map(([field, entry]) =>
        ruleText("li", { "data-field": field }, entry.text, isEnglish(answer, `pending.${field}.text`)))),
      h("p", { class: "small muted", id: "pen-open-record" }, undecided
        ? t("Answer the question to record this penalty.")
        : t("You can record the penalty now: the record keeps what is still open.")),
      h("div", { id: "pen-question" }));
  }

  search.addEventListener("input", list);
  append(main,
    h("h1", {}, t("Penalty")),
    presetFor ? h("p", { id: "pen-preset" }, presetFor.table
      ? t("For {player} at table {table}: find the infraction.", { player: playerName(presetFor.player), table: presetFor.table })
      : t("For {player}: find the infraction.", { player: playerName(presetFor.player) })) : null,
    h("label", { for: "pen-search" }, t("Find an infraction")), search,
    results, detail);
  list();
  const pre = infractions.find((i) => i.id === (infractionArg || restoring?.infraction));
  if (pre) choose(pre, { focus: false });
}

// A deck counted against its registered list (#/deck/<started check's id>), offline: the list
// section by section, a counter per line (−1, +1, "All n"), cards found where the list does not
// have them, and the differences as the engine finds them (shared_rules.decklists.compare, in
// the phone's worker): missing, not on the list, in the wrong section. Finishing records the
// check's `finished` record with what was counted (the server checks it with the same
// comparison), the table's time extension as ui/deckcheck.js does, and for each difference the
// penalty look-up with the infraction the event's policy names for it (its decklist_problem
// query) and the differences in the notes. The count is the screen's draft (drafts.js) until
// finished: a reload or Back keeps it.
import { append, fill, h } from "../dom.js";
import { app, eventRecords, infractionName, playerName, request } from "../state.js";
import * as store from "../store.js";
import { deckChecks, decklistCompare, decklistSizes, evaluate } from "../engine.js";
import { clearDraft, loadDraft, saveDraft } from "../drafts.js";
import { LIMITS, textProblem } from "../checks.js";
import { finishCheck } from "./deckcheck.js";
import { ruleItems } from "./rule-text.js";
import { waitingText } from "./engine-note.js";
import { sectionName, sizeProblemText } from "./decklist-view.js";
import { t, tn } from "../i18n.js";

const PROBLEM_QUERY = "decklist_problem";

/** A difference in words: "Missing: 1 Lightning Bolt (Main deck)". */
export function differenceText(d) {
  const where = sectionName(d.section);
  if (d.kind === "missing") return t("Missing: {count} {card} ({section})", { count: d.count, card: d.card, section: where });
  if (d.kind === "extra") return t("Not on the list: {count} {card} ({section})", { count: d.count, card: d.card, section: where });
  return t("In the wrong section: {count} {card} (found in {section}, listed in {listed})",
    { count: d.count, card: d.card, section: where, listed: sectionName(d.listed_section) });
}

/** The differences as a penalty's notes, within the notes' limit. */
function notesFor(check, differences) {
  const text = t("Deck check, round {round}, table {table}: {differences}", {
    round: check.round, table: check.table, differences: differences.map(differenceText).join("; ") });
  return text.length > LIMITS.notes ? `${text.slice(0, LIMITS.notes - 1)}…` : text;
}

export async function render(main, [checkId]) {
  const { all } = await eventRecords();
  const check = (await deckChecks(all)).find((c) => c.record === checkId);
  append(main, h("h1", { id: "dk-h" }, t("Deck check")));
  if (!check || check.finished_ms != null) {
    append(main, h("p", { id: "dk-none" }, check ? t("This deck check is finished.") : t("No deck check under way with this address.")),
      h("a", { href: "#/clock" }, t("Back to the clock")));
    return;
  }
  const list = await store.playerDecklist(app.session.event.slug, check.player);
  append(main, h("p", { id: "dk-who" }, t("{player} · table {table} · round {round}",
    { player: playerName(check.player), table: check.table, round: check.round })));
  if (!list) {
    append(main, h("p", { id: "dk-no-list" },
      t("This phone has no registered list for {player}: it comes with the event's sync (judges only). Finish the check on the Clock screen.",
        { player: playerName(check.player) })), h("a", { href: "#/clock" }, t("Back to the clock")));
    return;
  }
  const sections = list.payload.sections;
  const draftKey = `deck:${checkId}`;
  const kept = loadDraft(draftKey);
  const state = kept?.list === list.id ? kept : {
    list: list.id, counts: Object.fromEntries(sections.map((s) => [s.id, s.cards.map(() => 0)])), found: [] };
  // until the engine first answers (Python starting), the screen says what it waits for
  const outcome = h("div", { id: "dk-differences", "aria-live": "polite" }, h("p", {}, waitingText()));
  const problems = h("div", { id: "dk-list-problems" });
  const finishBox = h("div", { class: "row", style: "margin-top:0.8rem" });
  let latest = null;
  let asked = 0;

  async function compareNow() {
    saveDraft(draftKey, state);
    const mine = ++asked;
    let found;
    try {
      found = await decklistCompare(sections, state.counts, state.found);
    } catch (err) {
      fill(outcome, h("p", { class: "bad-text" }, err.message));
      return;
    }
    if (mine !== asked) return;
    latest = found;
    fill(outcome,
      h("p", { id: "dk-totals" }, found.sections.map((s) => t("{section}: {counted} of {listed}",
        { section: sectionName(s.id), counted: s.counted, listed: s.listed })).join(" · ")),
      found.matches ? h("p", { class: "ok-text", id: "dk-match" }, t("The deck matches its list."))
        : h("ul", { id: "dk-diff-list" }, found.differences.map((d) => h("li", { "data-kind": d.kind }, differenceText(d)))));
    for (const b of finishBox.querySelectorAll("button")) {
      b.disabled = (b.id === "dk-finish-ok") !== found.matches;
    }
  }

  function counter(section, i, card) {
    const shown = h("output", { class: "count", id: `dk-n-${section}-${i}` }, String(state.counts[section][i]));
    const label = card.name || card.code;
    const set = (n) => {
      state.counts[section][i] = Math.max(0, Math.min(999, n));
      shown.textContent = String(state.counts[section][i]);
      row.dataset.state = state.counts[section][i] === card.count ? "ok" : state.counts[section][i] ? "part" : "";
      compareNow();
    };
    const row = h("li", { class: "count-row", "data-section": section, "data-line": i },
      h("span", { class: "card-line" }, h("strong", {}, `${card.count} `), card.name || h("code", {}, card.code),
        card.name && card.code ? h("span", { class: "small muted" }, ` (${card.code})`) : null),
      h("span", { class: "row counter" },
        h("button", { type: "button", class: "secondary", "aria-label": t("−1 {card}", { card: label }),
          onclick: () => set(state.counts[section][i] - 1) }, "−1"),
        shown,
        h("button", { type: "button", class: "secondary", "aria-label": t("+1 {card}", { card: label }),
          onclick: () => set(state.counts[section][i] + 1) }, "+1"),
        h("button", { type: "button", "data-all": "", "aria-label": t("All {count}: {card}", { count: card.count, card: label }),
          onclick: () => set(card.count) }, t("All {count}", { count: card.count }))));
    row.dataset.state = state.counts[section][i] === card.count ? "ok" : state.counts[section][i] ? "part" : "";
    return row;
  }

  const labels = [...new Set(sections.flatMap((s) => s.cards.map((c) => c.name || c.code)))];
  const options = h("datalist", { id: "dk-cards" }, labels.map((name) => h("option", { value: name })));

  function foundList(section, box) {
    fill(box, state.found.map((f, i) => (f.section !== section ? null : h("li", { "data-found": i },
      `${f.count} ${f.name} `,
      h("button", { type: "button", class: "secondary", "aria-label": t("Remove {count} {card}", { count: f.count, card: f.name }),
        onclick: () => { state.found.splice(i, 1); foundList(section, box); compareNow(); } }, t("Remove"))))));
  }

  function foundForm(section) {
    const box = h("ul", { class: "found", id: `dk-found-${section}` });
    const name = h("input", { id: `dk-found-name-${section}`, list: "dk-cards", autocomplete: "off" });
    const count = h("input", { id: `dk-found-count-${section}`, type: "number", min: "1", max: "999", value: "1",
      inputmode: "numeric" });
    const error = h("p", { class: "bad-text", role: "alert", hidden: true });
    const add = (ev) => {
      ev.preventDefault();
      const text = name.value.trim();
      const n = Number(count.value);
      const wrong = !text ? t("Say which card.") : textProblem(text, LIMITS.name, false)
        || (!Number.isInteger(n) || n < 1 || n > 999 ? t("The count is a whole number from 1 to 999.") : null);
      error.textContent = wrong || "";
      error.hidden = !wrong;
      if (wrong) return;
      state.found.push({ section, name: text, count: n });
      name.value = "";
      count.value = "1";
      foundList(section, box);
      compareNow();
    };
    foundList(section, box);
    return h("form", { class: "found-form", onsubmit: add },
      h("label", { for: name.id }, t("Found in {section}, not listed there", { section: sectionName(section) })),
      name, h("label", { for: count.id }, t("How many")), count, error,
      h("button", { type: "submit", class: "secondary", id: `dk-found-add-${section}` }, t("Add this card")), box);
  }

  async function finish(ok, button) {
    if (!latest) return;
    for (const b of main.querySelectorAll("button")) b.disabled = true;
    const differences = latest.differences;
    const said = h("p", { class: "ok-text", id: "dk-recorded", role: "status", tabindex: "-1" },
      ok ? t("Recorded: the deck matches its list.") : tn("Recorded with {count} difference.",
        "Recorded with {count} differences.", differences.length));
    const out = h("div", { id: "dc-answer", "aria-live": "polite" });
    const after = h("div", { id: "dk-lookups" });
    button.closest(".row").replaceWith(said, out, after);
    await finishCheck(check, ok ? "ok" : "wrong", { decklist: list.id, counts: state.counts, found: state.found }, out);
    clearDraft(draftKey);
    if (!ok) await lookUps(after, differences);
    said.focus();
  }

  // For each difference, what the policy calls it: one look-up per infraction, the differences
  // in its notes; where the policy names none, a plain look-up with the policy's words.
  async function lookUps(box, differences) {
    fill(box, h("p", {}, waitingText()));
    const byInfraction = new Map();
    const unnamed = [];
    for (const d of differences) {
      let answer = null;
      if (app.ruleset?.queries?.[PROBLEM_QUERY]) {
        try {
          answer = await evaluate(request(PROBLEM_QUERY, { problem: d.kind, section: d.section }));
        } catch { answer = null; }
      }
      if (answer?.infraction) {
        const entry = byInfraction.get(answer.infraction) || { answer, differences: [] };
        entry.differences.push(d);
        byInfraction.set(answer.infraction, entry);
      } else unnamed.push({ d, answer });
    }
    const open = (infraction, shown) => async () => {
      const penalty = await import("./penalty.js");
      penalty.presetPenalty({ player: check.player, table: check.table, notes: notesFor(check, shown) });
      location.hash = infraction ? `#/penalty/${encodeURIComponent(infraction)}` : "#/penalty";
    };
    fill(box, h("h2", {}, t("Penalty look-up")),
      [...byInfraction].map(([infraction, { answer, differences: shown }]) => h("div", { class: "card", "data-infraction": infraction },
        h("p", {}, shown.map(differenceText).join("; ")),
        h("ul", { class: "readout" }, ruleItems("li", {}, answer, "explain")),
        ruleItems("p", { class: "muted" }, answer, "notes"),
        h("p", { class: "source" }, answer.sources.join("; ")),
        h("button", { type: "button", class: "wide", "data-look-up": infraction, onclick: open(infraction, shown) },
          t("Look up the penalty: {infraction}", { infraction: infractionName(infraction) })))),
      unnamed.length ? h("div", { class: "card", id: "dk-not-named" },
        h("p", {}, unnamed.map(({ d }) => differenceText(d)).join("; ")),
        unnamed[0].answer ? ruleItems("p", {}, unnamed[0].answer, "explain")
          : h("p", {}, t("This policy names no infraction for a decklist problem (not stated).")),
        h("button", { type: "button", class: "wide", id: "dk-look-up", onclick: open(null, unnamed.map(({ d }) => d)) },
          t("Look up a penalty"))) : null);
  }

  append(main,
    h("p", { class: "small muted", id: "dk-list-info" }, t("Registered list: {format}, {by}, {cards} cards.", {
      format: list.payload.format, cards: sections.reduce((n, s) => n + s.cards.reduce((m, c) => m + c.count, 0), 0),
      by: list.payload.by === "player" ? t("by the player") : t("by the organiser") })),
    problems, options,
    sections.map((s) => h("section", { class: "count-section", "aria-labelledby": `dk-s-${s.id}` },
      h("h2", { id: `dk-s-${s.id}` }, t("{section} ({count})", { section: sectionName(s.id),
        count: s.cards.reduce((n, c) => n + c.count, 0) })),
      h("ul", { class: "count-list" }, s.cards.map((card, i) => counter(s.id, i, card))),
      foundForm(s.id))),
    h("h2", {}, t("Differences")), outcome,
    append(finishBox,
      h("button", { type: "button", id: "dk-finish-ok", disabled: true, onclick: (ev) => finish(true, ev.currentTarget) },
        t("Finished: the deck matches")),
      h("button", { type: "button", id: "dk-finish-wrong", class: "secondary", disabled: true,
        onclick: (ev) => finish(false, ev.currentTarget) }, t("Finished: record the differences"))));
  compareNow();
  const limits = app.detail?.decklists?.sections || [];
  decklistSizes(sections, limits).then((found) => {
    if (found.length) {
      fill(problems, h("p", { class: "flag", id: "dk-size-problems" },
        t("The list breaks the event's deck sizes: {problems}", { problems: found.map((p) => sizeProblemText(p)).join("; ") })));
    }
  }).catch(() => {});
}

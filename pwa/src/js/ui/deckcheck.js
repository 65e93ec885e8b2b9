// Deck check at a table (Clock screen): the judge starts a check when they take a player's
// deck (a `deck_check` record, phase "started") and finishes it when the deck is back (phase
// "finished", naming the started record, with the outcome). On finishing, the engine's
// `extension` query is asked with the check's length (facts.deck_check_minutes, and
// facts.mid_game where the ruleset reads it) and its minutes are recorded as the table's
// time extension (reason deck_check), which every phone's clock gets after sync. Where the
// ruleset has no extension query or states no value, the screen says "not stated" and the
// judge types the minutes. A problem found leads to the Penalty screen with the player and
// table filled in. The checks themselves are the engine's (shared_rules.board.deck_checks).
// Where this phone holds the player's registered list (synced), starting the check opens the
// count against it (ui/deckcount.js, #/deck/<check>), which finishes the check through
// finishCheck below.
import { fill, h } from "../dom.js";
import { ruleItems } from "./rule-text.js";
import { addRecord, answerUnit, app, eventRecords, playerName, request } from "../state.js";
import { LIMITS, extensionProblem, typedNumber } from "../checks.js";
import { playerDecklist } from "../store.js";
import { deckChecks, evaluate, factsRead } from "../engine.js";
import { serverNow } from "../servertime.js";
import { timeOfDay } from "../clock.js";
import { answeredNote, waitingText } from "./engine-note.js";
import { t } from "../i18n.js";

/** The checks under way at `table` in the current round (oldest first). */
export async function openChecks(table) {
  const { all } = await eventRecords();
  const round = app.clock?.round?.number ?? 1;
  return (await deckChecks(all)).filter((c) => c.round === round && c.table === table && c.finished_ms == null);
}

/** The check's length in minutes (to a tenth), from its start to now (the server's clock as
 * this phone measures it, like every record's time). */
function minutesSince(startedMs) {
  return Math.max(0, Math.round((serverNow() - startedMs) / 6000) / 10);
}

/** Record the end of `check` ({record, player, table, round, started_ms, mid_game}) with
 * `outcome` ("ok" | "wrong") and `extra` payload fields (a count against the list:
 * {decklist, counts, found}), then ask and record the table's time extension into `out`;
 * `done()` after each record (the clock redraws). */
export async function finishCheck(check, outcome, extra, out, { midGame = check.mid_game, done = () => {} } = {}) {
  const minutes = minutesSince(check.started_ms);
  await addRecord("deck_check", { player: check.player, table: check.table, round: check.round, phase: "finished",
    started: check.record, outcome, mid_game: midGame, ...extra });
  done();
  await extension(out, { table: check.table, round: check.round, minutes, midGame }, done);
}

/** The address of the count against the registered list, for a check under way. */
function countRoute(id) {
  return `#/deck/${encodeURIComponent(id)}`;
}

/** Draw the deck-check panel for `table` (its pairing `{player_a, player_b}` or null) into
 * `box`; `done()` is called after each record made here (the clock redraws). */
export async function showDeckCheck(box, table, pairing, done) {
  fill(box, h("p", {}, waitingText()));
  let open;
  try {
    open = await openChecks(table);
  } catch (err) {
    fill(box, h("p", { class: "bad-text" }, err.message));
    return;
  }
  const close = h("button", { type: "button", class: "secondary", onclick: () => fill(box) }, t("Close"));
  const round = app.clock?.round?.number ?? 1;
  if (!open.length) {
    const seated = pairing ? [pairing.player_a, pairing.player_b].filter((p) => p != null) : [];
    const choices = seated.length ? seated : (app.detail?.players || []).map((p) => p.id);
    const player = choices.length
      ? h("select", { id: "dc-player" }, choices.map((id) => h("option", { value: id }, playerName(id))))
      : h("input", { id: "dc-player", autocomplete: "off" });
    const midGame = h("input", { id: "dc-mid-game", type: "checkbox" });
    const error = h("p", { class: "bad-text", role: "alert", hidden: true });
    const start = async (ev) => {
      ev.preventDefault();
      const value = player.value.trim();
      if (!value) { error.textContent = t("Say whose deck is checked."); error.hidden = false; return; }
      if (ev.submitter) ev.submitter.disabled = true;
      const who = /^\d+$/.test(value) && choices.length ? Number(value) : value;
      const started = await addRecord("deck_check", { player: who, table, round, phase: "started",
        mid_game: midGame.checked });
      done();
      if (await playerDecklist(app.session.event.slug, who)) location.hash = countRoute(started.id);
      else showDeckCheck(box, table, pairing, done);
    };
    fill(box, h("form", { class: "card", id: "deck-check", onsubmit: start, "aria-labelledby": "dc-h" },
      h("h2", { id: "dc-h" }, t("Deck check at table {table}", { table })),
      h("label", { for: "dc-player" }, t("Player")), player,
      h("label", { class: "check" }, midGame, " ", t("In the middle of a game")),
      error,
      h("div", { class: "row", style: "margin-top:0.7rem" },
        h("button", { type: "submit", id: "dc-start" }, t("Start the deck check")), close)));
    box.querySelector("#dc-start").focus();
    return;
  }
  const check = open[0];
  const out = h("div", { id: "dc-answer", "aria-live": "polite" });
  const midGame = h("input", { id: "dc-mid-game", type: "checkbox", checked: check.mid_game });
  const listed = await playerDecklist(app.session.event.slug, check.player);
  const finish = async (outcome, button) => {
    for (const b of box.querySelectorAll("button")) b.disabled = true;
    button.closest("form")?.replaceWith(out);
    await finishCheck(check, outcome, {}, out, { midGame: midGame.checked, done });
    if (outcome === "wrong") {
      out.append(h("button", { type: "button", class: "wide", id: "dc-penalty", onclick: async () => {
        const penalty = await import("./penalty.js");
        penalty.presetPenalty({ player: check.player, table });
        location.hash = "#/penalty";
      } }, t("Look up the penalty for {player}", { player: playerName(check.player) })));
      out.querySelector("#dc-penalty").focus();
    }
  };
  fill(box, h("form", { class: "card", id: "deck-check", "aria-labelledby": "dc-h", onsubmit: (ev) => ev.preventDefault() },
    h("h2", { id: "dc-h" }, t("Deck check at table {table}", { table })),
    h("p", { id: "dc-under-way" }, check.judge
      ? t("{player}'s deck, taken at {time} by {judge}.",
        { player: playerName(check.player), time: timeOfDay(check.started_ms), judge: check.judge })
      : t("{player}'s deck, taken at {time} by a judge.", { player: playerName(check.player), time: timeOfDay(check.started_ms) })),
    h("label", { class: "check" }, midGame, " ", t("In the middle of a game")),
    listed ? h("a", { class: "button wide", id: "dc-count", href: countRoute(check.record) },
      t("Count the deck against its registered list")) : null,
    h("div", { class: "row", style: "margin-top:0.7rem" },
      h("button", { type: "button", id: "dc-ok", onclick: (ev) => finish("ok", ev.currentTarget) }, t("Finished: deck correct")),
      h("button", { type: "button", id: "dc-wrong", class: "secondary", onclick: (ev) => finish("wrong", ev.currentTarget) },
        t("Finished: problem found")),
      close)));
  (box.querySelector("#dc-count") || box.querySelector("#dc-ok")).focus();
}

/** Ask the engine what the table gets for a check of `minutes` and record it; where the
 * policy states nothing, the judge types the minutes. */
async function extension(out, { table, round, minutes, midGame }, done) {
  const record = async (given) => {
    await addRecord("time_extension", { table, round, minutes: given, reason: "deck_check" });
    done();
    out.querySelector("#dc-not-stated")?.remove();
    out.append(h("p", { class: "ok-text", id: "dc-extended", role: "status" },
      t("Table {table} gets +{minutes} min; every phone's clock has it after sync.", { table, minutes: given })));
  };
  const manual = (text) => {
    const step = String(answerUnit("extension", "extension_minutes") ?? "any");
    const input = h("input", { id: "dc-manual", type: "number", min: step === "any" ? "0" : step, max: String(LIMITS.minutes),
      step, inputmode: "decimal" });
    const error = h("p", { class: "bad-text", role: "alert", hidden: true });
    return h("div", { id: "dc-not-stated" }, h("p", {}, text),
      h("label", { for: "dc-manual" }, t("Minutes to add")), input, error,
      h("button", { type: "button", id: "dc-manual-add", onclick: (ev) => {
        // what the event's server takes (checks.js extensionProblem)
        const problem = extensionProblem(input.value, answerUnit("extension", "extension_minutes"));
        if (problem) {
          error.textContent = problem;
          error.hidden = false;
          return;
        }
        ev.currentTarget.disabled = true;
        record(typedNumber(input.value));
      } }, t("Add these minutes")));
  };
  const took = h("p", { id: "dc-took" }, t("The check took {minutes} min.", { minutes }));
  if (!app.ruleset?.queries?.extension) {
    fill(out, took, manual(t("Time extension for a deck check: not stated by this policy. The judge decides.")));
    return;
  }
  fill(out, took, h("p", {}, waitingText()));
  try {
    const reads = await factsRead(app.session.event.ruleset, "extension").catch(() => []);
    const facts = { deck_check_minutes: minutes };
    if (reads.some((f) => f.name === "mid_game")) facts.mid_game = midGame;
    if (app.session.event.round_minutes) facts.round_minutes = app.session.event.round_minutes;
    const answer = await evaluate(request("extension", facts));
    const add = answer.extension_minutes;
    fill(out, took, h("div", { class: "card decision" },
      h("p", { class: "big-penalty", id: "dc-result" },
        add == null ? t("Not stated by this policy") : t("+{minutes} min", { minutes: add })),
      answeredNote(answer),
      h("ul", { class: "readout" }, ruleItems("li", {}, answer, "explain")),
      ruleItems("p", { class: "muted" }, answer, "notes"),
      h("p", { class: "source" }, answer.sources.join("; "))));
    if (add == null || add > LIMITS.minutes) {
      out.append(manual(add == null ? t("The policy states no time for this: the judge decides.")
        : t("The event takes at most {max} minutes of extension: the head judge decides.", { max: LIMITS.minutes })));
    } else if (add > 0) {
      await record(add);
    }
  } catch (err) {
    out.append(h("p", { class: "bad-text" }, err.message), manual(t("The judge decides the minutes.")));
  }
}

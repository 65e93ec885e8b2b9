// Match results on the Clock screen: each table's current result (shared_rules.board, asked
// of the engine over this phone's records) and the panel that enters one for a match that
// ended without time. A correction is a new result; it voids the earlier one, and those that
// disagree with it, where this phone may (its own, or any as head judge) — the latest result
// counts either way.
import { h, fill } from "../dom.js";
import { app, addRecord, eventContext, eventRecords, playerName } from "../state.js";
import { resultProblem, tableResults } from "../engine.js";
import { LIMITS, numberProblem, typedNumber } from "../checks.js";
import { t } from "../i18n.js";

/** {table number: result} for the current round, from this phone's records of the event. */
export async function currentResults() {
  const { all } = await eventRecords();
  const round = app.clock?.round?.number ?? null;
  const results = await tableResults(all.filter((r) => r.sync !== "rejected"));
  return new Map(results.filter((r) => r.round === round).map((r) => [r.table, r]));
}

/** "Ada wins 2–1", "Draw" for a result of a table with players `pairing` ({player_a, player_b}). */
export function resultText(result, pairing) {
  if (!result) return "";
  const name = (side) => (pairing ? playerName(side === "A" ? pairing.player_a : pairing.player_b)
    : t("Player {side}", { side }));
  const games = result.games ? `${result.games.A}–${result.games.B}` : null;
  if (result.result === "draw") return games ? t("Draw {games}", { games }) : t("Draw");
  return games ? t("{player} wins {games}", { player: name(result.result), games })
    : t("{player} wins", { player: name(result.result) });
}

/** The result panel for `table` into `container`; `onDone()` after recording. */
export function showResult(container, table, pairing, earlier, onDone) {
  const round = app.clock?.round?.number ?? 1;
  const name = (side) => (pairing ? playerName(side === "A" ? pairing.player_a : pairing.player_b)
    : t("Player {side}", { side }));
  let chosen = null;
  const choices = ["A", "B", "draw"].map((r) => h("button", {
    type: "button", class: "secondary", "data-result": r, "aria-pressed": "false",
    onclick: (ev) => {
      chosen = r;
      for (const b of choices) b.setAttribute("aria-pressed", String(b === ev.currentTarget));
    },
  }, r === "draw" ? t("Draw") : t("{player} wins", { player: name(r) })));
  const gamesA = h("input", { id: "res-games-a", type: "number", min: "0", max: "99", step: "1", inputmode: "numeric" });
  const gamesB = h("input", { id: "res-games-b", type: "number", min: "0", max: "99", step: "1", inputmode: "numeric" });
  const note = h("div", { "aria-live": "polite", id: "res-note" });
  const typed = (el) => el.value.trim();
  // games won are typed as any number is (checks.js), up to the server's highest count
  const gamesBad = (el) => Boolean(numberProblem(el.value, { minimum: 0, whole: true }))
    || typedNumber(el.value) > LIMITS.games;
  async function record(ev) {
    ev.preventDefault();
    if (!chosen) { fill(note, h("p", { class: "bad-text" }, t("Choose who won, or a draw."))); return; }
    const given = [gamesA, gamesB].filter((el) => typed(el) !== "");
    if (given.length === 1 || given.some(gamesBad)) {
      fill(note, h("p", { class: "bad-text" }, t("Games won: both whole numbers from 0 to {most}, or neither.",
        { most: LIMITS.games })));
      return;
    }
    const [a, b] = given.length ? [typedNumber(gamesA.value), typedNumber(gamesB.value)] : [null, null];
    // the rule the server checks a result by (shared_rules.board.result_problem), asked of the engine
    const wrong = await resultProblem(chosen, a == null ? null : { A: a, B: b }, eventContext().games_per_match ?? null);
    const problem = !wrong ? null
      : wrong.problem === "no_win"
        ? t("{player} cannot win {games}: the winner has won more games.", { player: name(chosen), games: `${a}–${b}` })
        : t("{won} games won, but a match here has at most {most}.", { won: wrong.won, most: wrong.most });
    if (problem) {
      fill(note, h("p", { class: "bad-text" }, problem));
      gamesA.focus();
      return;
    }
    ev.submitter && (ev.submitter.disabled = true);
    // every standing result of the table this phone may void: the one shown and those that
    // disagree with it (shared_rules.board `disputed`)
    const standing = earlier ? [...(earlier.disputed || []), earlier] : [];
    for (const r of standing.filter((x) => x.device === app.session.device_id || app.session.role === "head_judge")) {
      await addRecord("void", { record: r.record, reason: "result corrected" });
    }
    await addRecord("match_result", { table, round, result: chosen, ...(a != null ? { games: { A: a, B: b } } : {}) });
    fill(container);
    onDone();
  }
  fill(container, h("form", { class: "card", id: "result-panel", onsubmit: record, novalidate: true, "aria-labelledby": "res-h" },
    h("h2", { id: "res-h" }, t("Result of table {table}", { table })),
    earlier ? h("p", { class: "muted" }, t("This replaces the result entered: {result}.", { result: resultText(earlier, pairing) })) : null,
    h("div", { class: "row", role: "group", "aria-label": t("Who won") }, choices),
    h("fieldset", {}, h("legend", {}, t("Games won (optional)")),
      h("label", { for: "res-games-a" }, name("A")), gamesA, h("label", { for: "res-games-b" }, name("B")), gamesB),
    note,
    h("div", { class: "row" },
      h("button", { type: "submit", id: "res-record" }, t("Record result")),
      h("button", { type: "button", class: "secondary", onclick: () => fill(container) }, t("Cancel")))));
  choices[0].focus();
}

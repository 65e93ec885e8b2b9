// Time!: the end-of-match procedure, step by step. The engine's time_call answer says what to
// play and, through `needs`, what it must know next; each answer is fed back as a fact until
// the engine gives the match result, which one tap records. The choices for when time was
// called, the questions and the names of next steps and answer fields are the ruleset's words.
// The walk (the start and each answer, in order) is the screen's draft (drafts.js): drawn
// again, it is played again through the engine answer by answer, so Back and Forward show it
// as it was.
import { append, h, fill } from "../dom.js";
import { ruleItems } from "./rule-text.js";
import { app, addRecord, currentTables, eventContext, playerName, request } from "../state.js";
import { evaluate, resultProblem } from "../engine.js";
import { clearDraft, loadDraft, saveDraft } from "../drafts.js";
import { answerLines, answerText, ask, factName, humanize, numberField, readFields, sentence, setFact } from "./questions.js";
import { answeredNote, waitingText } from "./engine-note.js";
import { t } from "../i18n.js";

/** The time_call vocabulary of the event's ruleset: the shared facts and answer fields
 * (queries.json) with the ruleset's own added. */
function vocabulary() {
  const shared = app.queries?.queries?.time_call || { facts: {}, answer: {} };
  const own = app.ruleset?.queries?.time_call || {};
  const answer = { ...shared.answer };
  for (const [field, spec] of Object.entries(own.answer || {})) answer[field] = { ...(answer[field] || {}), ...spec };
  return { facts: { ...shared.facts, ...(own.facts || {}) }, answer };
}

/** The facts and event settings a walk has said so far: its start, then each answer in order
 * (`{fact | event, value}`, `{continues}`: a step played, whose object fact starts again empty). */
function walkFacts(start, answers) {
  const facts = { game_wins: { ...start.wins } };
  const eventFacts = {};
  for (const name of start.when) facts[name] = true;
  for (const a of answers) {
    if (a.continues) facts[a.continues] = {};
    else if (a.fact) setFact(facts, a.fact, structuredClone(a.value));
    else if (a.event) setFact(eventFacts, a.event, structuredClone(a.value));
  }
  return { facts, eventFacts };
}

/** Yes/no facts with a default (said before the walk starts): between games, while side decking, ... */
function startFacts(words) {
  return Object.entries(words.facts).filter(([, spec]) => spec.type === "bool" && spec.default === false);
}

export async function render(main) {
  const tables = currentTables();
  const tableSel = h("select", { id: "tc-table" },
    h("option", { value: "" }, t("No table (enter the game state)")),
    tables.map((tbl) => h("option", { value: tbl.number }, t("Table {table}: {player_a} – {player_b}",
      { table: tbl.number, player_a: playerName(tbl.player_a), player_b: playerName(tbl.player_b) }))));
  const words = vocabulary();
  // The games won are counts as the vocabulary declares them (whole, at least its minimum).
  const wins = { A: numberField("tc-wins-a", t("Player A"), words.facts.game_wins),
                 B: numberField("tc-wins-b", t("Player B"), words.facts.game_wins) };
  const labelPlayers = () => {
    const n = playerNames(tableSel.value);
    wins.A.label.textContent = n.A;
    wins.B.label.textContent = n.B;
  };
  tableSel.addEventListener("change", labelPlayers);
  // Why the engine refused the two counts together (refuseWins); typing in either clears it.
  const winsError = h("p", { class: "bad-text", id: "tc-wins-error", role: "alert", hidden: true });
  for (const field of [wins.A, wins.B]) {
    field.input.setAttribute("aria-describedby", `${field.input.id}-error tc-wins-error`);
    field.input.addEventListener("input", () => clearWinsError());
  }
  const whenBoxes = startFacts(words).map(([name, spec]) => {
    const box = h("input", { type: "checkbox", id: `tc-fact-${name}`, "data-fact": name });
    return [name, box, h("label", { class: "check" }, box, " ", sentence(spec.summary || humanize(name)))];
  });
  const steps = h("div", { id: "tc-steps", "aria-live": "polite" });
  // The draft: the form as filled in, and the walk started from it ({start, answers}).
  const draft = loadDraft("time") || { form: null, walk: null };
  let names = { A: t("Player A"), B: t("Player B") };
  // How many of the walk's answers the screen has shown (fewer while it plays them again).
  let shown = 0;

  function playerNames(table) {
    const tbl = tables.find((x) => String(x.number) === String(table));
    return tbl ? { A: `${playerName(tbl.player_a)} (A)`, B: `${playerName(tbl.player_b)} (B)` }
      : { A: t("Player A"), B: t("Player B") };
  }

  function formValues() {
    return { table: tableSel.value, wins: { A: wins.A.input.value, B: wins.B.input.value },
             when: whenBoxes.filter(([, box]) => box.checked).map(([name]) => name) };
  }

  function showForm(form) {
    tableSel.value = tables.some((tbl) => String(tbl.number) === form.table) ? form.table : "";
    wins.A.input.value = form.wins.A;
    wins.B.input.value = form.wins.B;
    for (const [name, box] of whenBoxes) box.checked = form.when.includes(name);
    labelPlayers();
  }

  function keep() {
    draft.form = formValues();
    saveDraft("time", draft);
  }

  /** Add an answer to the walk (kept in the draft) and go on to the next step. */
  function answered(entry, line) {
    draft.walk.answers.push(entry);
    shown += 1;
    keep();
    lastCard?.append(h("p", { class: "small answered" }, line));
    step();
  }

  /** The walk's next kept answer when it is being played again and fits `matches`, or null;
   * a kept answer that no longer fits (and those after it) is dropped. */
  function replay(matches) {
    const kept = draft.walk.answers[shown];
    if (!kept) return null;
    if (matches(kept)) {
      shown += 1;
      return kept;
    }
    draft.walk.answers.length = shown;
    keep();
    return null;
  }

  // What the screen has shown so far in this walk-through: each step shows only what is new,
  // and earlier steps fold away (still one tap to open).
  let seen = null;
  let stepNo = 0;
  let lastCard = null;

  function fresh(kind, items) {
    const out = items.filter((x) => !seen[kind].has(x));
    for (const x of out) seen[kind].add(x);
    return out;
  }

  // Each Start begins a new walk-through; a step of an earlier one (a second tap) shows nothing.
  let walk = 0;

  async function step() {
    const mine = walk;
    steps.querySelector(".question")?.remove();
    let answer;
    const { facts, eventFacts } = walkFacts(draft.walk.start, draft.walk.answers.slice(0, shown));
    const waiting = steps.appendChild(h("p", { class: "muted" }, waitingText()));
    try {
      const req = request("time_call", facts);
      req.event = { ...req.event, ...eventFacts };
      answer = await evaluate(req);
      waiting.remove();
      if (mine !== walk) return;
    } catch (err) {
      waiting.remove();
      if (mine !== walk) return;
      // Facts the policy cannot have (a query's checks: more game wins than the match allows)
      // are the start form's to fix: the reason goes beside the field and the walk is dropped.
      if (err.field === "facts.game_wins") {
        refuseWins(err.message);
        return;
      }
      steps.append(h("p", { class: "bad-text" }, err.message));
      return;
    }
    const next = answer.next ? nextText(answer) : null;
    const turns = words.answer.turns_after_current;
    const big = fresh("big", [
      answer.turns_after_current != null ? (turns?.text || "{value}").replace("{value}", answer.turns_after_current) : null,
      next,
      ...answerLines(answer, ownFields(), { names }).map((line) => line.text),
    ].filter(Boolean));
    const lines = fresh("lines", answer.explain);
    const notes = fresh("notes", answer.notes);
    const sources = fresh("sources", answer.sources);
    if (big.length || lines.length || notes.length || answer.game_result) {
      stepNo += 1;
      for (const d of steps.querySelectorAll("details.step[open]")) {
        d.open = false;
        d.querySelector("summary").textContent = t("Step {step}: {title}", { step: d.dataset.step, title: d.dataset.title });
      }
      const title = big[0] || lines[0]
        || (answer.game_result ? t("this game: {result}", { result: resultText(answer.game_result) }) : "");
      lastCard = h("details", { class: "card decision step", open: true, "data-step": stepNo, "data-title": title },
        h("summary", {}, t("Step {step}", { step: stepNo })),
        big.map((text) => h("p", { class: "big-penalty", "data-next": text === next ? answer.next : null }, text)),
        answer.game_result ? h("p", {}, h("strong", {}, t("This game:")), " ", resultText(answer.game_result)) : null,
        answeredNote(answer),
        lines.length ? h("ul", { class: "readout" }, ruleItems("li", {}, answer, "explain", lines)) : null,
        ruleItems("p", { class: "muted" }, answer, "notes", notes),
        sources.length ? h("p", { class: "source" }, sources.join("; ")) : null);
      steps.append(lastCard);
    }
    if (answer.match) {
      offerRecord(answer, facts, answer.match, "procedure");
      return;
    }
    const need = (answer.needs || [])[0];
    if (need) {
      const root = need.path.startsWith("event.") ? "event" : "fact";
      const name = factName(need.path);
      // The answer stays with the step it belongs to.
      const line = (value) => `${sentence(need.label)} — ${answerText(value, need, names)}`;
      const kept = replay((a) => a[root] === name);
      if (kept) {
        lastCard?.append(h("p", { class: "small answered" }, line(kept.value)));
        step();
        return;
      }
      ask(steps, need, (value) => answered({ [root]: name, value }, line(value)), names);
      return;
    }
    // A step after which the procedure goes on (the ruleset's answer.next.continues): once it
    // is played, its questions follow (each time again, replacing the last one's answers).
    const goOn = words.answer.next?.continues?.[answer.next];
    if (goOn) {
      if (replay((a) => a.continues === goOn)) {
        lastCard?.append(h("p", { class: "small answered" }, t("Played.")));
        step();
        return;
      }
      const btn = h("button", { type: "button", class: "wide", id: "tc-continue", onclick: () => {
        btn.disabled = true;
        answered({ continues: goOn }, t("Played."));
      } }, t("Played it: go on"));
      steps.append(h("div", { class: "card question" }, h("p", {}, t("{step}, then go on.", { step: nextText(answer) })), btn));
      btn.focus();
      return;
    }
    // The policy gives no result here: the head judge decides, and the screen records it.
    const decided = replay((a) => "head_judge" in a);
    steps.append(h("div", { class: "card question", id: "tc-head-judge" },
      h("p", {}, h("strong", {}, t("The policy does not settle this: the head judge decides the result."))),
      h("p", { class: "muted" }, t("Record the head judge's decision:")),
      ["A", "B", "draw"].map((r) => h("button", { type: "button", "data-result": r, disabled: decided ? true : null, onclick: (ev) => {
        for (const b of ev.currentTarget.parentElement.querySelectorAll("button")) b.disabled = true;
        draft.walk.answers.push({ head_judge: r });
        shown += 1;
        keep();
        offerRecord(answer, facts, r, "head_judge");
      } }, r === "draw" ? t("A draw") : t("{player} wins", { player: names[r] })))));
    if (decided) offerRecord(answer, facts, decided.head_judge, "head_judge");
    else steps.querySelector("#tc-head-judge button")?.focus();
  }

  /** The match result with one tap to record it for the chosen table (a time_call record;
   * `decided_by` "procedure" or "head_judge"), with the games each player won where the
   * procedure's answer gives them (its `games`: the engine's score, never counted here).
   * The score is checked by the match-result rule the server applies (the worker's
   * result_problem); recording it ends the draft. */
  async function offerRecord(answer, facts, result, decidedBy) {
    const mine = walk;
    const games = decidedBy === "procedure" && answer.games ? answer.games : null;
    const problem = games ? await resultProblem(result, games, eventContext().games_per_match ?? null) : null;
    if (mine !== walk) return;
    const score = games ? `${games.A}–${games.B}` : null;
    const table = tableSel.value ? Number(tableSel.value) : null;
    const said = result === "draw"
      ? (score ? t("The match is a draw, {games}", { games: score }) : t("The match is a draw"))
      : (score ? t("{player} wins the match {games}", { player: names[result], games: score })
        : t("{player} wins the match", { player: names[result] }));
    const done = h("div", { class: "card", id: "tc-result" },
      h("p", { class: "big-penalty", "data-match": result, "data-games": score, id: "tc-match", tabindex: "-1" }, said),
      decidedBy === "head_judge" ? h("p", { class: "muted" }, t("Decided by the head judge.")) : null,
      problem ? h("p", { class: "bad-text", role: "alert" }, t("This score cannot be recorded: {games} does not give this result.",
        { games: score })) : null,
      problem ? null : table ? h("button", { type: "button", id: "tc-record", onclick: async (ev) => {
        const btn = ev.currentTarget;
        btn.disabled = true;
        await addRecord("time_call", { table, round: app.clock?.round?.number ?? 1, facts, answer, result,
                                       decided_by: decidedBy, ...(games ? { games } : {}) });
        clearDraft("time");
        const said = h("p", { class: "ok-text", role: "status", tabindex: "-1", id: "tc-recorded" }, t("Recorded on this phone."));
        btn.replaceWith(said);
        said.focus();
      } }, t("Record the result for table {table}", { table })) : h("p", { class: "muted" }, t("Pick a table to record this result.")));
    steps.append(done);
    // Focus goes to the result (read first), the button to record it next.
    done.querySelector("#tc-match").focus();
  }

  /** The ruleset's own answer fields, shown as lines in the step (not the shared ones). */
  function ownFields() {
    const own = app.ruleset?.queries?.time_call?.answer || {};
    return Object.fromEntries(Object.entries(own).filter(([field]) => !(field in (app.queries?.queries?.time_call?.answer || {}))));
  }

  function nextText(answer) {
    return words.answer.next?.values?.[answer.next] || humanize(answer.next);
  }

  function resultText(r) {
    return r === "draw" ? t("a draw") : t("{player} wins", { player: names[r] });
  }

  /** Show the draft's walk from its start (its kept answers are played again). */
  function begin() {
    walk += 1;
    names = playerNames(draft.walk.start.table);
    fill(steps);
    seen = { big: new Set(), lines: new Set(), notes: new Set(), sources: new Set() };
    stepNo = 0;
    lastCard = null;
    shown = 0;
    reset.hidden = false;
    step();
  }

  /** The engine refused the games won as a score no match can have: say why beside them,
   * focus the first, and go back to the form (the walk and its draft are dropped). */
  function refuseWins(message) {
    walk += 1;
    draft.walk = null;
    keep();
    fill(steps);
    reset.hidden = true;
    winsError.textContent = message;
    winsError.hidden = false;
    for (const field of [wins.A, wins.B]) field.input.setAttribute("aria-invalid", "true");
    wins.A.input.focus();
  }

  function clearWinsError() {
    winsError.hidden = true;
    for (const field of [wins.A, wins.B]) field.input.removeAttribute("aria-invalid");
  }

  function start(ev) {
    ev.preventDefault();
    clearWinsError();
    const counts = readFields([wins.A, wins.B]);
    if (!counts) return;
    const form = formValues();
    draft.walk = { start: { table: form.table, wins: { A: counts[0], B: counts[1] }, when: form.when }, answers: [] };
    keep();
    begin();
  }

  const reset = h("button", { type: "button", id: "tc-reset", class: "secondary wide", hidden: true, onclick: () => {
    walk += 1;
    clearDraft("time");
    draft.form = null;
    draft.walk = null;
    showForm({ table: "", wins: { A: "0", B: "0" }, when: [] });
    fill(steps);
    reset.hidden = true;
    tableSel.focus();
  } }, t("Start over"));

  append(main,
    h("h1", {}, t("Time! End-of-match procedure")),
    h("form", { onsubmit: start, oninput: keep, onchange: keep, novalidate: true, "aria-labelledby": "tc-h" },
      h("p", { id: "tc-h", class: "muted" }, t("Say which table and the score; the app walks you through the rest.")),
      h("label", { for: "tc-table" }, t("Table")), tableSel,
      h("fieldset", {}, h("legend", {}, sentence(words.facts.game_wins?.summary || t("games won before the current one"))),
        wins.A.nodes, wins.B.nodes, winsError),
      whenBoxes.length ? h("fieldset", { id: "tc-when" }, h("legend", {}, t("When time was called")), whenBoxes.map(([, , label]) => label)) : null,
      h("button", { type: "submit", id: "tc-start", class: "wide", style: "margin-top:0.8rem" }, t("Start")),
      reset),
    steps);
  showForm(draft.form || { table: "", wins: { A: "0", B: "0" }, when: [] });
  if (draft.walk) begin();
}

// Time!: the end-of-match procedure, step by step. The engine's time_call answer says what to
// play and, through `needs`, what it must know next; each answer is fed back as a fact until
// the engine gives the match result, which one tap records. The choices for when time was
// called, the questions and the names of next steps and answer fields are the ruleset's words.
import { append, h, fill } from "../dom.js";
import { app, addRecord, currentTables, playerName, request } from "../state.js";
import { evaluate } from "../engine.js";
import { answerLines, answerText, ask, factName, humanize, sentence, setFact } from "./questions.js";
import { answeredNote, waitingText } from "./engine-note.js";

const RESULT_TEXT = { A: "wins the match", B: "wins the match", draw: "The match is a draw" };

/** The time_call vocabulary of the event's ruleset: the shared facts and answer fields
 * (queries.json) with the ruleset's own added. */
function vocabulary() {
  const shared = app.queries?.queries?.time_call || { facts: {}, answer: {} };
  const own = app.ruleset?.queries?.time_call || {};
  const answer = { ...shared.answer };
  for (const [field, spec] of Object.entries(own.answer || {})) answer[field] = { ...(answer[field] || {}), ...spec };
  return { facts: { ...shared.facts, ...(own.facts || {}) }, answer };
}

/** Yes/no facts with a default (said before the walk starts): between games, while side decking, ... */
function startFacts(words) {
  return Object.entries(words.facts).filter(([, spec]) => spec.type === "bool" && spec.default === false);
}

export async function render(main) {
  const tables = currentTables();
  const tableSel = h("select", { id: "tc-table" },
    h("option", { value: "" }, "No table (enter the game state)"),
    tables.map((t) => h("option", { value: t.number }, `Table ${t.number}: ${playerName(t.player_a)} – ${playerName(t.player_b)}`)));
  const labelA = h("label", { for: "tc-wins-a" }, "Player A");
  const labelB = h("label", { for: "tc-wins-b" }, "Player B");
  tableSel.addEventListener("change", () => {
    const n = playerNames();
    labelA.textContent = n.A;
    labelB.textContent = n.B;
  });
  const winsA = h("input", { id: "tc-wins-a", type: "number", min: "0", max: "2", value: "0", inputmode: "numeric" });
  const winsB = h("input", { id: "tc-wins-b", type: "number", min: "0", max: "2", value: "0", inputmode: "numeric" });
  const words = vocabulary();
  const whenBoxes = startFacts(words).map(([name, spec]) => {
    const box = h("input", { type: "checkbox", id: `tc-fact-${name}`, "data-fact": name });
    return [name, box, h("label", { class: "check" }, box, " ", sentence(spec.summary || humanize(name)))];
  });
  const steps = h("div", { id: "tc-steps", "aria-live": "polite" });
  let facts = {};
  let eventFacts = {}; // event settings the engine asked for (a level where the session has none)
  let names = { A: "Player A", B: "Player B" };

  function playerNames() {
    const t = tables.find((x) => String(x.number) === tableSel.value);
    return t ? { A: `${playerName(t.player_a)} (A)`, B: `${playerName(t.player_b)} (B)` } : { A: "Player A", B: "Player B" };
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
    const waiting = steps.appendChild(h("p", { class: "muted" }, waitingText()));
    try {
      const req = request("time_call", structuredClone(facts));
      req.event = { ...req.event, ...eventFacts };
      answer = await evaluate(req);
      waiting.remove();
      if (mine !== walk) return;
    } catch (err) {
      waiting.remove();
      if (mine !== walk) return;
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
        d.querySelector("summary").textContent = `Step ${d.dataset.step}: ${d.dataset.title}`;
      }
      const title = big[0] || lines[0] || (answer.game_result ? `this game: ${resultText(answer.game_result)}` : "");
      lastCard = h("details", { class: "card decision step", open: true, "data-step": stepNo, "data-title": title },
        h("summary", {}, `Step ${stepNo}`),
        big.map((text) => h("p", { class: "big-penalty", "data-next": text === next ? answer.next : null }, text)),
        answer.game_result ? h("p", {}, h("strong", {}, "This game: "), resultText(answer.game_result)) : null,
        answeredNote(answer),
        lines.length ? h("ul", { class: "readout" }, lines.map((l) => h("li", {}, l))) : null,
        notes.map((n) => h("p", { class: "muted" }, n)),
        sources.length ? h("p", { class: "source" }, sources.join("; ")) : null);
      steps.append(lastCard);
    }
    if (answer.match) {
      offerRecord(answer, answer.match, "procedure");
      return;
    }
    const need = (answer.needs || [])[0];
    if (need) {
      ask(steps, need, (value) => {
        // The answer stays with the step it belongs to.
        lastCard?.append(h("p", { class: "small answered" }, `${sentence(need.label)} — ${answerText(value, need, names)}`));
        setFact(need.path.startsWith("event.") ? eventFacts : facts, factName(need.path), value);
        step();
      }, names);
      return;
    }
    // A step after which the procedure goes on (the ruleset's answer.next.continues): once it
    // is played, its questions follow (each time again, replacing the last one's answers).
    const goOn = words.answer.next?.continues?.[answer.next];
    if (goOn) {
      const btn = h("button", { type: "button", class: "wide", id: "tc-continue", onclick: () => {
        btn.disabled = true;
        lastCard?.append(h("p", { class: "small answered" }, "Played."));
        facts[goOn] = {};
        step();
      } }, "Played it: go on");
      steps.append(h("div", { class: "card question" }, h("p", {}, `${nextText(answer)}, then go on.`), btn));
      btn.focus();
      return;
    }
    // The policy gives no result here: the head judge decides, and the screen records it.
    steps.append(h("div", { class: "card question", id: "tc-head-judge" },
      h("p", {}, h("strong", {}, "The policy does not settle this: the head judge decides the result.")),
      h("p", { class: "muted" }, "Record the head judge's decision:"),
      ["A", "B", "draw"].map((r) => h("button", { type: "button", "data-result": r, onclick: (ev) => {
        for (const b of ev.currentTarget.parentElement.querySelectorAll("button")) b.disabled = true;
        offerRecord(answer, r, "head_judge");
      } }, r === "draw" ? "A draw" : `${names[r]} wins`))));
    steps.querySelector("#tc-head-judge button")?.focus();
  }

  /** The match result with one tap to record it for the chosen table (a time_call record;
   * `decided_by` "procedure" or "head_judge"). */
  function offerRecord(answer, result, decidedBy) {
    const t = tableSel.value ? Number(tableSel.value) : null;
    const done = h("div", { class: "card", id: "tc-result" },
      h("p", { class: "big-penalty", "data-match": result, id: "tc-match", tabindex: "-1" },
        result === "draw" ? RESULT_TEXT.draw : `${names[result]} ${RESULT_TEXT[result]}`),
      decidedBy === "head_judge" ? h("p", { class: "muted" }, "Decided by the head judge.") : null,
      t ? h("button", { type: "button", id: "tc-record", onclick: async (ev) => {
        const btn = ev.currentTarget;
        btn.disabled = true;
        await addRecord("time_call", { table: t, round: app.clock?.round?.number ?? 1, facts, answer, result,
                                       decided_by: decidedBy });
        const said = h("p", { class: "ok-text", role: "status", tabindex: "-1", id: "tc-recorded" }, "Recorded on this phone.");
        btn.replaceWith(said);
        said.focus();
      } }, `Record the result for table ${t}`) : h("p", { class: "muted" }, "Pick a table to record this result."));
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
    return r === "draw" ? "a draw" : `${names[r]} wins`;
  }

  function start(ev) {
    ev.preventDefault();
    walk += 1;
    names = playerNames();
    facts = { game_wins: { A: Number(winsA.value) || 0, B: Number(winsB.value) || 0 } };
    eventFacts = {};
    for (const [name, box] of whenBoxes) if (box.checked) facts[name] = true;
    fill(steps);
    seen = { big: new Set(), lines: new Set(), notes: new Set(), sources: new Set() };
    stepNo = 0;
    lastCard = null;
    step();
  }

  append(main,
    h("h1", {}, "Time! End-of-match procedure"),
    h("form", { onsubmit: start, "aria-labelledby": "tc-h" },
      h("p", { id: "tc-h", class: "muted" }, "Say which table and the score; the app walks you through the rest."),
      h("label", { for: "tc-table" }, "Table"), tableSel,
      h("fieldset", {}, h("legend", {}, sentence(words.facts.game_wins?.summary || "games won before the current one")),
        labelA, winsA, labelB, winsB),
      whenBoxes.length ? h("fieldset", { id: "tc-when" }, h("legend", {}, "When time was called"), whenBoxes.map(([, , label]) => label)) : null,
      h("button", { type: "submit", id: "tc-start", class: "wide", style: "margin-top:0.8rem" }, "Start")),
    steps);
}

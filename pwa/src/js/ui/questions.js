// Questions built from what the engine says it needs: an answer's `needs` entries
// ({path, type, label, values?, minimum?}, the label in the ruleset's words). One form control
// per type; ask(container, need, onAnswer, names) renders one question and calls
// onAnswer(value) with the typed value (bool, number, {"A": n, "B": n}, "A" | "B" | null, or a
// value id). Nothing here knows a game: the labels and choices come from the answer. A typed
// value is checked on screen first (the entry's minimum and whole, checks.js): a bad one gets
// a message beside its field and the question stays.
import { ruleText } from "./rule-text.js";
import { h, uid } from "../dom.js";
import { LIMITS, numberProblem, textProblem, typedNumber } from "../checks.js";
import { t } from "../i18n.js";

/** The two players' names where a table gives none. */
function playersAB() {
  return { A: t("Player A"), B: t("Player B") };
}

/** "round_minutes" -> "Round minutes" (the last part of a dotted name). */
export function humanize(name) {
  const s = String(name).replace(/^.*\./, "").replace(/_/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** "the judge believes ..." -> "The judge believes ...". */
export function sentence(text) {
  const s = String(text || "");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The name a `needs` path has inside its root: "facts.current_game.winner" -> "current_game.winner". */
export function factName(path) {
  return String(path).replace(/^(facts|event)\./, "");
}

/** A typed number with its message beside it: `{label, input, nodes, read()}`. `bounds`:
 * `{minimum, whole}` (a needs entry, a fact's vocabulary). read() gives the number, or shows
 * why the text is not one (named by the label) and gives undefined. */
export function numberField(id, text, bounds = {}) {
  const label = h("label", { for: id }, text);
  const input = h("input", { id, type: "text", inputmode: bounds.whole ? "numeric" : "decimal", autocomplete: "off",
                             "aria-describedby": `${id}-error` });
  const error = h("p", { class: "bad-text", id: `${id}-error`, role: "alert", hidden: true });
  input.addEventListener("input", () => {
    error.hidden = true;
    input.removeAttribute("aria-invalid");
  });
  function read() {
    const problem = numberProblem(input.value, bounds);
    if (!problem) return typedNumber(input.value);
    error.textContent = t("{label}: {problem}.", { label: label.textContent, problem });
    error.hidden = false;
    input.setAttribute("aria-invalid", "true");
    return undefined;
  }
  return { label, input, nodes: [label, input, error], read };
}

/** Read each field (numberField); focus the first bad one. The values, or null when one is bad. */
export function readFields(fields) {
  const values = fields.map((f) => f.read());
  const bad = values.findIndex((v) => v === undefined);
  if (bad < 0) return values;
  fields[bad].input.focus();
  return null;
}

/** Render the question for one `needs` entry into `container` (its label marked as English
 * where `need.label_english`, engine.js). `names` labels the two players. */
export function ask(container, need, onAnswer, names = playersAB()) {
  const id = uid("q");
  const label = sentence(need.label || humanize(need.path));
  // One answer per question: a second tap (or submit) before the next step is ignored.
  let card = null;
  let taken = false;
  const answer = onAnswer;
  onAnswer = (value) => {
    if (taken) return;
    taken = true;
    for (const el of card?.querySelectorAll("button, input") || []) el.disabled = true;
    answer(value);
  };
  const choice = (text, value, attrs = {}) => h("button", { type: "button", class: "secondary", ...attrs, onclick: () => onAnswer(value) }, text);
  const group = (...buttons) => h("div", { class: "row", role: "group", "aria-labelledby": id }, buttons);
  let body;
  switch (need.type) {
    case "bool":
      body = group(choice(t("Yes"), true, { "data-answer": "yes" }), choice(t("No"), false, { "data-answer": "no" }));
      break;
    case "player":
      body = group(choice(names.A, "A", { "data-answer": "A" }), choice(names.B, "B", { "data-answer": "B" }));
      break;
    case "player_or_null":
      body = group(choice(names.A, "A", { "data-answer": "A" }), choice(names.B, "B", { "data-answer": "B" }),
        choice(t("Neither"), null, { "data-answer": "none" }));
      break;
    case "enum":
    case "penalty":
      body = group((need.values || []).map((v) => choice(v.name, v.id, { "data-answer": String(v.id) })));
      break;
    case "per_player": {
      const fields = [numberField(`${id}-a`, names.A, need), numberField(`${id}-b`, names.B, need)];
      body = h("form", { novalidate: true, onsubmit: (ev) => {
        ev.preventDefault();
        const values = readFields(fields);
        if (values) onAnswer({ A: values[0], B: values[1] });
      } }, fields.map((f) => f.nodes), h("button", { type: "submit", style: "margin-top:0.6rem" }, t("Next")));
      break;
    }
    case "number": {
      const field = numberField(`${id}-v`, label, need);
      field.label.className = "sr-only";
      body = h("form", { novalidate: true, onsubmit: (ev) => {
        ev.preventDefault();
        const values = readFields([field]);
        if (values) onAnswer(values[0]);
      } }, field.nodes, h("button", { type: "submit", style: "margin-top:0.6rem" }, t("Next")));
      break;
    }
    default: {
      const input = h("input", { id: `${id}-v`, type: "text", autocomplete: "off", "aria-describedby": `${id}-v-error` });
      const error = h("p", { class: "bad-text", id: `${id}-v-error`, role: "alert", hidden: true });
      body = h("form", { novalidate: true, onsubmit: (ev) => {
        ev.preventDefault();
        const text = input.value.trim();
        const problem = text ? textProblem(text, LIMITS.notes, false) : t("an answer is needed");
        if (!problem) return onAnswer(text);
        error.textContent = `${sentence(problem)}.`;
        error.hidden = false;
        input.focus();
      } }, h("label", { for: input.id, class: "sr-only" }, label), input, error,
      h("button", { type: "submit", style: "margin-top:0.6rem" }, t("Next")));
    }
  }
  card = h("div", { class: "card question", "data-fact": factName(need.path) },
    h("p", { id, class: "question-text" }, ruleText("strong", {}, label, need.label_english)), body);
  container.append(card);
  container.querySelector(".question button, .question input")?.focus();
}

/** The text of an answer given to a question, for the line that stays with its step. */
export function answerText(value, need, names = playersAB()) {
  if (value === true) return t("yes");
  if (value === false) return t("no");
  if (value === null) return t("neither");
  if (value === "A" || value === "B") return need.type?.startsWith("player") ? names[value] : value;
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${names[k] || k} ${v}`).join(", ");
  const named = (need.values || []).find((v) => v.id === value);
  return named ? named.name : String(value);
}

/** Set a dotted fact into a facts object (objects merge). */
export function setFact(facts, name, value) {
  const parts = name.split(".");
  let at = facts;
  for (const p of parts.slice(0, -1)) {
    if (typeof at[p] !== "object" || at[p] === null) at[p] = {};
    at = at[p];
  }
  const last = parts[parts.length - 1];
  if (value && typeof value === "object" && !Array.isArray(value) && typeof at[last] === "object" && at[last]) {
    Object.assign(at[last], value);
  } else at[last] = value;
  return facts;
}

/** Lines for the ruleset's own answer fields ({label, type, values?, text?} declarations):
 * "Label: value" for each field the answer gives (a false flag says nothing), or the
 * declared text for the value. `extraNames` turns penalty ids and players into names. */
export function answerLines(answer, fields, { penaltyName = (p) => p, names = playersAB() } = {}) {
  const lines = [];
  for (const [field, spec] of Object.entries(fields || {})) {
    const value = answer[field];
    if (value == null || value === false || spec.decides === false || !spec.label) continue;
    const key = typeof value === "object" ? null : String(value);
    let text;
    if (key != null && spec.values?.[key]) text = spec.values[key];
    else if (spec.text) text = spec.text.replace("{value}", String(value));
    else if (spec.type === "penalty" || spec.type === "penalty_or_list") text = `${spec.label}: ${penaltyName(value)}`;
    else if (value === true) text = spec.label;
    else if (value === "A" || value === "B") text = `${spec.label}: ${names[value]}`;
    else text = `${spec.label}: ${Array.isArray(value) ? value.join(", ") : value}`;
    lines.push({ field, text });
  }
  return lines;
}

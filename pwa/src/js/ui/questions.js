// Questions built from the query vocabulary (queries.json): one form control per fact type.
// ask(container, name, spec, label, onAnswer) renders a question; onAnswer(value) is called
// with the typed value (bool, number, {"A": n, "B": n}, "A" | "B" | null, or a string).
import { h, uid } from "../dom.js";

/** "life_points" -> "Life points". */
export function humanize(name) {
  const s = String(name).replace(/^.*\./, "").replace(/_/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The vocabulary entry of a dotted fact name within a query's facts; null when unknown. */
export function factSpec(queryFacts, name) {
  const [head, ...rest] = name.split(".");
  let spec = queryFacts[head];
  let label = spec?.summary || humanize(head);
  for (const part of rest) {
    spec = spec?.fields?.[part];
    label = `${label}: ${humanize(part).toLowerCase()}`;
  }
  return spec ? { spec, label } : null;
}

/** Render one question into `container`. `names` labels the two players for per-player facts. */
export function ask(container, name, spec, label, onAnswer, names = { A: "Player A", B: "Player B" }) {
  const id = uid("q");
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
  let body;
  switch (spec.type) {
    case "bool":
      body = h("div", { class: "row", role: "group", "aria-labelledby": id },
        choice("Yes", true, { "data-answer": "yes" }), choice("No", false, { "data-answer": "no" }));
      break;
    case "player_or_null":
      body = h("div", { class: "row", role: "group", "aria-labelledby": id },
        choice(names.A, "A", { "data-answer": "A" }), choice(names.B, "B", { "data-answer": "B" }),
        choice("Neither", null, { "data-answer": "none" }));
      break;
    case "choice":
      body = h("div", { class: "row", role: "group", "aria-labelledby": id },
        spec.choices.map(([value, text]) => choice(text, value, { "data-answer": value })));
      break;
    case "per_player": {
      const a = h("input", { id: `${id}-a`, type: "number", inputmode: "numeric", required: true });
      const b = h("input", { id: `${id}-b`, type: "number", inputmode: "numeric", required: true });
      body = h("form", { onsubmit: (ev) => { ev.preventDefault(); onAnswer({ A: Number(a.value), B: Number(b.value) }); } },
        h("label", { for: a.id }, names.A), a, h("label", { for: b.id }, names.B), b,
        h("button", { type: "submit", style: "margin-top:0.6rem" }, "Next"));
      break;
    }
    case "object": {
      const [field, fieldSpec] = Object.entries(spec.fields || {})[0] || [];
      if (!field) return;
      ask(container, `${name}.${field}`, fieldSpec, `${label}: ${humanize(field).toLowerCase()}`,
        (value) => onAnswer({ [field]: value }), names);
      return;
    }
    default: {
      const numeric = spec.type === "number";
      const input = h("input", { id: `${id}-v`, type: numeric ? "number" : "text", required: true, inputmode: numeric ? "decimal" : "text" });
      body = h("form", { onsubmit: (ev) => { ev.preventDefault(); onAnswer(numeric ? Number(input.value) : input.value); } },
        h("label", { for: input.id, class: "sr-only" }, label), input,
        h("button", { type: "submit", style: "margin-top:0.6rem" }, "Next"));
    }
  }
  card = h("div", { class: "card question", "data-fact": name },
    h("p", { id, class: "question-text" }, h("strong", {}, label)), body);
  container.append(card);
  container.querySelector(".question button, .question input")?.focus();
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

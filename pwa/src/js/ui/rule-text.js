// Rule texts as the engine gives them in the app's language: a text without a current
// translation comes in English (the answer's `english` names where: "explain[2]",
// "notes[0]", "options[1].condition", "needs[0].label", ...). Such a text is shown with
// lang="en" and a small mark, so a reader (and a screen reader) knows it is English.
import { h } from "../dom.js";
import { t } from "../i18n.js";

/** The texts of `answer[kind]` ("explain", "notes") shown in English, as a Set. */
export function englishTexts(answer, kind) {
  const out = new Set();
  for (const where of answer?.english ?? []) {
    const m = /^(\w+)\[(\d+)\]$/.exec(where);
    if (m && m[1] === kind) out.add(answer[kind][Number(m[2])]);
  }
  return out;
}

/** Whether the answer's text at `where` ("options[0].condition", "needs[1].label") is English. */
export function isEnglish(answer, where) {
  return Boolean(answer?.english?.includes(where));
}

/** `<tag>` holding `text`; where `english`, with lang="en" and the mark after it. */
export function ruleText(tag, attrs, text, english) {
  if (!english) return h(tag, attrs, text);
  return h(tag, { ...attrs, lang: "en", "data-english": "" }, text, " ",
    h("span", { class: "english-mark small muted" }, t("(English)")));
}

/** One element per text of `answer[kind]`, each marked where English. */
export function ruleItems(tag, attrs, answer, kind, texts = answer[kind]) {
  const english = englishTexts(answer, kind);
  return texts.map((text) => ruleText(tag, attrs, text, english.has(text)));
}

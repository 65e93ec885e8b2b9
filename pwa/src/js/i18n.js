// The app's own words in the language shown (lang.js). The English text is the message id, as
// in gettext: t("Clock"), t("Table {table}", { table }), and for a count
// tn("{count} record waiting", "{count} records waiting", count). Each other language has one
// catalog, i18n/<code>.json: {"language": "de", "messages": {"<English>": "<translation>"}},
// where a counted message's translation is an object with one text per plural category of
// that language ({"one": "…", "other": "…"}, chosen by Intl.PluralRules). A message missing
// from the catalog (or empty there) shows in English. Placeholders are `{name}`, filled from
// the parameters; numbers are written with Intl.NumberFormat in the language shown.
// `node build/messages.mjs` lists every message of the sources (only string literals are
// read, so the first arguments of t and tn must be literals) and checks each catalog.
import { language } from "./lang.js";
import { translateWords } from "./page-words.js";

let shown = "en";
let messages = {};
// The rule data in the language loaded (build.mjs adds it to each catalog): texts with no
// current translation are in English with the catalog's rule_mark in front (the engine's
// translations.MARK); the screens get them without it (translatedRules), the engine with it
// (ruleTexts, engine.js).
let rules = {};
let ruleMark = null;
const unmarked = new Map(); // name -> rules[name] without the mark, made when first asked
let loading = Promise.resolve("en");
// Built when first needed: the first Intl object of a page costs tens of milliseconds on a
// slow phone, and the first clock (first-clock.js, with clock.js and this module) paints
// before any is needed.
let plurals = null;
let numbers = null;
const decimals = new Map(); // "<language>:<digits>" -> its Intl.NumberFormat (the download's MiB, often redrawn)

/** Load the catalog of `code` (default: the language shown) so t and tn answer in it; "en"
 * needs none. Resolves to the language loaded: English when the catalog cannot be read
 * (offline and not cached), so the app never waits on it or breaks. */
export function loadMessages(code = language()) {
  loading = load(code);
  return loading;
}

/** The rule data `name` (a ruleset id, "queries" or "index") in the language loaded, from its
 * catalog; null in English or where the catalog has none (the English files serve). Waits for
 * a catalog still loading. */
export async function translatedRules(name) {
  await loading;
  if (shown === "en" || !Object.hasOwn(rules, name)) return null;
  if (!unmarked.has(name)) unmarked.set(name, withoutMark(rules[name], ruleMark));
  return unmarked.get(name);
}

/** `value` (texts, lists and objects of them) with `mark` taken out of every text. */
function withoutMark(value, mark) {
  if (!mark) return value;
  if (typeof value === "string") return value.replaceAll(mark, "");
  if (Array.isArray(value)) return value.map((item) => withoutMark(item, mark));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutMark(item, mark)]));
  }
  return value;
}

/** The rule texts of language `code` for the engine, `{name: data}` (every ruleset id and
 * "queries": the data as the engine translates it, marks kept; shared_rules translations.give),
 * from that language's catalog: the one loaded, else read (from the offline copy once there
 * is one). null in English or when the catalog cannot be read. */
export async function ruleTexts(code) {
  if (code === "en") return null;
  await loading;
  let all = code === shown ? rules : null;
  if (!all) {
    try {
      const reply = await fetch(`i18n/${code}.json`);
      if (!reply.ok) throw new Error(`HTTP ${reply.status}`);
      all = (await reply.json())?.rules ?? null;
    } catch {
      return null;
    }
  }
  if (!all || typeof all !== "object") return null;
  const { index: _index, ...texts } = all;
  return texts;
}

async function load(code) {
  let loaded = {};
  let loadedRules = {};
  let loadedMark = null;
  if (code !== "en") {
    try {
      const reply = await fetch(`i18n/${code}.json`);
      if (!reply.ok) throw new Error(`HTTP ${reply.status}`);
      const catalog = await reply.json();
      loaded = catalog && typeof catalog.messages === "object" && catalog.messages ? catalog.messages : {};
      loadedRules = catalog && typeof catalog.rules === "object" && catalog.rules ? catalog.rules : {};
      loadedMark = typeof catalog?.rule_mark === "string" && catalog.rule_mark ? catalog.rule_mark : null;
    } catch {
      code = "en";
    }
  }
  messages = loaded;
  rules = loadedRules;
  ruleMark = loadedMark;
  unmarked.clear();
  shown = code;
  plurals = null;
  numbers = null;
  return code;
}

function filled(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!Object.hasOwn(params, name)) return whole;
    const value = params[name];
    if (!(typeof value === "number" && Number.isFinite(value))) return String(value ?? "");
    numbers ??= new Intl.NumberFormat(shown, { useGrouping: false });
    return numbers.format(value);
  });
}

/** `value` written with `digits` decimals in the language shown ("1.5" in English, "1,5" in
 * German). */
export function decimal(value, digits = 1) {
  const key = `${shown}:${digits}`;
  if (!decimals.has(key)) {
    decimals.set(key, new Intl.NumberFormat(shown, { minimumFractionDigits: digits, maximumFractionDigits: digits }));
  }
  return decimals.get(key).format(value);
}

/** `message` (English, with `{name}` placeholders) in the language shown, filled from `params`
 * ({name: value}; numbers are formatted for the language). */
export function t(message, params) {
  const text = messages[message];
  return filled(typeof text === "string" && text ? text : message, params);
}

/** A counted message: `one` or `other` (English) by `count`, in the language shown, where the
 * catalog holds the message (under its `other` text) with one text per plural category. The
 * placeholder `{count}` is `count`; `params` fill the others. */
export function tn(one, other, count, params) {
  const all = { count, ...params };
  const entry = messages[other];
  plurals ??= new Intl.PluralRules(shown);
  const category = plurals.select(Number(count));
  if (entry && typeof entry === "object") {
    const text = entry[category] || entry.other;
    if (typeof text === "string" && text) return filled(text, all);
  }
  return filled(Number(count) === 1 ? one : other, all);
}

/** Translate the page's fixed words (index.html) with the catalog (page-words.js). */
export function translatePage(root = document) {
  translateWords(root, (english) => t(english));
}

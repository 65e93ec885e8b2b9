// The app's message catalogs (js/i18n.js): reads every message of the sources — the string
// literals given to t("…") and tn("…", "…", n) in src/js, the fixed words of index.html
// (the text of elements marked data-t, the attributes named in data-t-attrs) and the web app
// manifest's texts (build/manifests.mjs) — and checks or writes the catalogs
// src/i18n/<code>.json.
// Usage:
//   node build/messages.mjs                 report each catalog: translated, missing, obsolete
//   node build/messages.mjs --json          the same as JSON (tests read it)
//   node build/messages.mjs --write de      write or update de.json: every message, translations
//                                           kept, new ones empty, obsolete ones dropped
//   --catalogs DIR                          read and write the catalogs in DIR instead
// Exits 1 when a call's first arguments are not string literals or a translation's
// placeholders differ from its English.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_LANGUAGE, LANGUAGES as APP_LANGUAGES } from "../src/js/lang.js";
import { MANIFEST_SOURCE, MANIFEST_TEXTS, sourceManifest } from "./manifests.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const src = path.join(here, "..", "src");
let catalogs = path.join(src, "i18n");
// The languages with a catalog: every language of the app (js/lang.js, their one list) but English.
export const LANGUAGES = Object.keys(APP_LANGUAGES).filter((code) => code !== DEFAULT_LANGUAGE);

const LITERAL = String.raw`"(?:[^"\\\n]|\\.)*"`;
const CALL_T = new RegExp(String.raw`(?<![\w$.])t\(\s*(${LITERAL})`, "g");
const CALL_TN = new RegExp(String.raw`(?<![\w$.])tn\(\s*(${LITERAL})\s*,\s*(${LITERAL})`, "g");
const ANY_CALL = /(?<![\w$.])(tn?)\(\s*(?=[^\s)])/g;
const ENTITIES = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&rsquo;": "’" };

function jsFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? jsFiles(full) : e.name.endsWith(".js") ? [full] : [];
  });
}

function lineOf(text, index) {
  return text.slice(0, index).split("\n").length;
}

function decode(html) {
  return html.replace(/&[#\w]+;/g, (m) => ENTITIES[m] ?? m).replace(/\s+/g, " ").trim();
}

/** {messages: {english: {plural: bool, where: [file:line]}}, problems: [text]} of the sources. */
export function sourceMessages() {
  const found = {};
  const problems = [];
  const add = (text, plural, where) => {
    const entry = (found[text] ??= { plural, where: [] });
    if (entry.plural !== plural) problems.push(`${where}: "${text}" is used both counted and not`);
    entry.where.push(where);
  };
  // i18n.js defines t and tn and translates index.html's words (listed below) by their English.
  for (const file of jsFiles(path.join(src, "js")).sort().filter((f) => path.basename(f) !== "i18n.js")) {
    const code = fs.readFileSync(file, "utf8");
    const rel = path.relative(src, file).split(path.sep).join("/");
    const literalAt = new Set();
    for (const m of code.matchAll(CALL_T)) {
      add(JSON.parse(m[1]), false, `${rel}:${lineOf(code, m.index)}`);
      literalAt.add(m.index);
    }
    for (const m of code.matchAll(CALL_TN)) {
      add(JSON.parse(m[2]), true, `${rel}:${lineOf(code, m.index)}`);
      found[JSON.parse(m[2])].one = JSON.parse(m[1]);
      literalAt.add(m.index);
    }
    for (const m of code.matchAll(ANY_CALL)) {
      if (!literalAt.has(m.index)) {
        problems.push(`${rel}:${lineOf(code, m.index)}: ${m[1]}() needs string literals first, so the message can be listed`);
      }
    }
  }
  const html = fs.readFileSync(path.join(src, "index.html"), "utf8");
  for (const m of html.matchAll(/<([a-z]+)\b([^>]*)>([^<]*)<\/\1>/g)) {
    if (/\sdata-t(\s|>|$)/.test(` ${m[2]} `)) add(decode(m[3]), false, `index.html:${lineOf(html, m.index)}`);
  }
  for (const m of html.matchAll(/<[a-z]+\b([^>]*\bdata-t-attrs="([^"]*)"[^>]*)>/g)) {
    for (const attr of m[2].split(/\s+/).filter(Boolean)) {
      const value = m[1].match(new RegExp(String.raw`\s${attr}="([^"]*)"`));
      if (value) add(decode(value[1]), false, `index.html:${lineOf(html, m.index)}`);
      else problems.push(`index.html:${lineOf(html, m.index)}: data-t-attrs names ${attr}, which the element lacks`);
    }
  }
  const manifest = sourceManifest();
  for (const key of MANIFEST_TEXTS) {
    if (typeof manifest[key] === "string" && manifest[key]) add(manifest[key], false, `${MANIFEST_SOURCE}:${key}`);
    else problems.push(`${MANIFEST_SOURCE}: ${key} is not a text`);
  }
  return { messages: found, problems };
}

/** index.html's fixed words in each catalog language, `{language: {english: text}}` (the
 * translated ones only), for the page's first frame (src/js/first-words.js). */
export function firstWords() {
  const english = Object.entries(sourceMessages().messages)
    .filter(([, entry]) => entry.where.some((w) => w.startsWith("index.html:"))).map(([text]) => text);
  return Object.fromEntries(LANGUAGES.map((code) => {
    const { messages } = JSON.parse(fs.readFileSync(path.join(src, "i18n", `${code}.json`), "utf8"));
    return [code, Object.fromEntries(english.filter((text) => typeof messages[text] === "string" && messages[text])
      .map((text) => [text, messages[text]]))];
  }));
}

function placeholders(text) {
  return [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
}

function same(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** A catalog's state against the sources: {language, translated, missing: [english],
 * obsolete: [english], problems: [text]}. */
export function checkCatalog(code, sources) {
  const file = path.join(catalogs, `${code}.json`);
  const catalog = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : { messages: {} };
  const held = catalog.messages ?? {};
  const categories = new Intl.PluralRules(code).resolvedOptions().pluralCategories;
  const report = { language: code, total: Object.keys(sources).length, translated: 0, missing: [], obsolete: [], problems: [] };
  for (const [english, info] of Object.entries(sources)) {
    const text = held[english];
    if (info.plural) {
      const wanted = placeholders(english).filter((p) => p !== "count");
      const forms = text && typeof text === "object" ? text : {};
      const empty = categories.filter((c) => typeof forms[c] !== "string" || !forms[c]);
      if (empty.length) { report.missing.push(english); continue; }
      for (const c of categories) {
        const got = [...new Set(placeholders(forms[c]))].filter((p) => p !== "count");
        if (!same(got, [...new Set(wanted)])) report.problems.push(`${code} "${english}" (${c}): placeholders ${got} instead of ${wanted}`);
      }
    } else {
      if (typeof text !== "string" || !text) { report.missing.push(english); continue; }
      if (!same(placeholders(text), placeholders(english))) {
        report.problems.push(`${code} "${english}": placeholders {${placeholders(text)}} instead of {${placeholders(english)}}`);
      }
    }
    report.translated += 1;
  }
  report.obsolete = Object.keys(held).filter((k) => !Object.hasOwn(sources, k));
  return report;
}

/** Write `code`'s catalog: every source message, sorted, its translation kept where it has one. */
export function writeCatalog(code, sources) {
  const file = path.join(catalogs, `${code}.json`);
  const held = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")).messages ?? {} : {};
  const categories = new Intl.PluralRules(code).resolvedOptions().pluralCategories;
  const out = {};
  for (const english of Object.keys(sources).sort()) {
    const kept = held[english];
    out[english] = sources[english].plural
      ? Object.fromEntries(categories.map((c) => [c, (kept && typeof kept === "object" && kept[c]) || ""]))
      : typeof kept === "string" ? kept : "";
  }
  fs.mkdirSync(catalogs, { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify({ language: code, messages: out }, null, 1)}\n`);
}

function main(argv) {
  const dir = argv.indexOf("--catalogs");
  if (dir >= 0) catalogs = path.resolve(argv[dir + 1]);
  const { messages, problems } = sourceMessages();
  const write = argv.indexOf("--write");
  if (write >= 0) {
    const code = argv[write + 1];
    if (!LANGUAGES.includes(code)) throw new Error(`--write needs one of ${LANGUAGES.join(" ")}`);
    writeCatalog(code, messages);
  }
  const reports = LANGUAGES.map((code) => checkCatalog(code, messages));
  const allProblems = [...problems, ...reports.flatMap((r) => r.problems)];
  if (argv.includes("--json")) {
    console.log(JSON.stringify({ languages: LANGUAGES, messages, problems, catalogs: reports }, null, 1));
  } else {
    console.log(`${Object.keys(messages).length} messages in the sources`);
    for (const r of reports) {
      console.log(`MESSAGES ${r.language}: ${r.translated}/${r.total} translated, ${r.missing.length} missing,`
        + ` ${r.obsolete.length} obsolete (${r.missing.length ? "incomplete" : "complete"})`);
    }
    for (const p of allProblems) console.log(`PROBLEM ${p}`);
  }
  process.exitCode = allProblems.length ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));

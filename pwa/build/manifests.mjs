// The web app manifest in each language of the app: src/manifest.webmanifest is the English
// one; its texts for people (MANIFEST_TEXTS) are messages of the app's catalogs
// (build/messages.mjs lists them, src/i18n/<code>.json translates them), and the build writes
// one manifest per language (js/lang.js manifestFile names it, and the page links the one of
// the language shown). A text missing from a catalog stays in English, as in the app.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_LANGUAGE, LANGUAGES, manifestFile } from "../src/js/lang.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const src = path.join(here, "..", "src");
export const MANIFEST_SOURCE = "manifest.webmanifest";
// The manifest's members read by people (the rest are addresses, colours and sizes).
export const MANIFEST_TEXTS = ["name", "short_name", "description"];

/** The English manifest (src/manifest.webmanifest), parsed. */
export function sourceManifest() {
  return JSON.parse(fs.readFileSync(path.join(src, MANIFEST_SOURCE), "utf8"));
}

/** The manifest in `code` (a language of js/lang.js): the English one with its texts from
 * the catalog src/i18n/<code>.json, and `lang` naming the language. */
export function manifestIn(code, english = sourceManifest()) {
  let messages = {};
  if (code !== DEFAULT_LANGUAGE) {
    messages = JSON.parse(fs.readFileSync(path.join(src, "i18n", `${code}.json`), "utf8")).messages ?? {};
  }
  const out = { ...english, lang: code, dir: "ltr" };
  for (const key of MANIFEST_TEXTS) {
    const text = messages[english[key]];
    if (typeof text === "string" && text) out[key] = text;
  }
  return out;
}

/** Write every language's manifest into `dist` (manifestFile's names); returns their names. */
export function writeManifests(dist) {
  const english = sourceManifest();
  return Object.keys(LANGUAGES).map((code) => {
    const name = manifestFile(code);
    fs.writeFileSync(path.join(dist, name), `${JSON.stringify(manifestIn(code, english), null, 1)}\n`);
    return name;
  });
}

// The language the app speaks: one of LANGUAGES, the judge's choice kept on the device, else
// the browser's first preferred language we have (a regional tag such as de-AT matches de),
// else English. <html lang> names it, and the page links the web app manifest written in it
// (manifestFile). A change fires "judge-language" on window so screens redraw in the new
// language.

export const LANGUAGES = {
  en: "English", de: "Deutsch", fr: "Français", it: "Italiano", es: "Español", pt: "Português",
}; // code → the language's own name, as the choice on the Event screen shows it
export const DEFAULT_LANGUAGE = "en";
const LANG_KEY = "judge-language";

function keptChoice() {
  let value = null;
  try { value = localStorage.getItem(LANG_KEY); } catch { /* storage blocked: no choice */ }
  return Object.hasOwn(LANGUAGES, value ?? "") ? value : null;
}

/** The browser's first preferred language we have, or null. */
export function browserLanguage() {
  const wanted = navigator.languages?.length ? navigator.languages : [navigator.language || ""];
  for (const tag of wanted) {
    const code = String(tag).toLowerCase().split("-")[0];
    if (Object.hasOwn(LANGUAGES, code)) return code;
  }
  return null;
}

/** The language shown: the kept choice, else the browser's, else English ("en"). */
export function language() {
  return keptChoice() ?? browserLanguage() ?? DEFAULT_LANGUAGE;
}

/** The kept choice ("en", "de", …) or "browser" when the app follows the browser. */
export function languageChoice() {
  return keptChoice() ?? "browser";
}

/** Keep `choice` (a code of LANGUAGES, or "browser" to follow the browser again), set
 *  <html lang> and tell the screens. Throws on an unknown code. */
export function setLanguage(choice) {
  if (choice !== "browser" && !Object.hasOwn(LANGUAGES, choice)) throw new Error(`unknown language ${choice}`);
  try {
    if (choice === "browser") localStorage.removeItem(LANG_KEY);
    else localStorage.setItem(LANG_KEY, choice);
  } catch { /* storage blocked: this page only */ }
  applyLanguage();
  window.dispatchEvent(new CustomEvent("judge-language", { detail: { language: language() } }));
}

/** The web app manifest of language `code` (the build writes one per language,
 *  build/manifests.mjs): "manifest.webmanifest" in English, else "manifest.<code>.webmanifest". */
export function manifestFile(code) {
  return code === DEFAULT_LANGUAGE ? "manifest.webmanifest" : `manifest.${code}.webmanifest`;
}

/** Set <html lang> to the language shown (default: the one chosen, language()) and link the
 *  manifest in it (<link rel="manifest">, so an install names the app in that language). */
export function applyLanguage(code = language()) {
  document.documentElement.lang = code;
  document.querySelector('link[rel="manifest"]')?.setAttribute("href", manifestFile(code));
}

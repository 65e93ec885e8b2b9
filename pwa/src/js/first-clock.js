// The round clock's time left, drawn as the page opens, before the app's code and kept data
// are read: a copy of the round (the one the clock screen last had, with the server-time
// offset) is kept in localStorage, which reads at once, where the app's data needs
// IndexedDB. index.html calls openPage, which draws it and then loads the app's code (the
// build puts this module, with clock.js, in line into the page); the clock screen replaces
// what it drew (same look, same clock.js arithmetic) as soon as it is up. Shown only on the
// clock screen of a judge's phone that has joined an event (or uses a policy on its own):
// leaving the event, or an event with no round, removes the copy. The page's own words are
// put into the app's language first, so the first frame is not English on a German phone.
import { roundLeft, showFace } from "./clock.js";
import { FIRST_WORDS } from "./first-words.js";
import { applyLanguage, language } from "./lang.js";
import { translateWords } from "./page-words.js";

const KEY = "judge-first-clock";

/** Keep the copy: `slug` (the event), `round` (app.clock.round, or null to drop the copy) and
 * `offsetMs` (servertime's offset to the server clock, ms). Never throws (storage blocked or
 * full: the page simply opens without it). */
let kept; // the text last written (the clock is fetched every few seconds; most fetches change nothing)

export function keepFirstClock(slug, round, offsetMs) {
  const text = slug && round ? JSON.stringify({ slug, round, offset_ms: Number(offsetMs) || 0 }) : null;
  if (text === kept) return;
  try {
    if (text == null) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, text);
    kept = text;
  } catch { /* storage blocked or full */ }
}

function keptCopy() {
  try {
    const copy = JSON.parse(localStorage.getItem(KEY) || "null");
    return copy && typeof copy.slug === "string" && copy.round && typeof copy.round === "object" ? copy : null;
  } catch {
    return null;
  }
}

/** Open the page: draw the first clock, then load the app's code (js/main.js). When a clock
 * was drawn the code loads once that has been painted (the next frame): evaluating the app is
 * a long task that would otherwise hold the paint back. index.html preloads main.js, so its
 * download does not wait. */
export function openPage() {
  showFirstWords();
  const drew = drawFirstClock();
  // From the page's address, as this code also runs in line in index.html.
  const load = () => import(new URL("js/main.js", document.baseURI).href).catch((err) => {
    // No code (offline with no copy of it): the page stays as drawn, the first clock ticking.
    console.warn(`the app's code could not load: ${err.message}`);
  });
  if (!drew) {
    load();
    return;
  }
  // After the next frame; a page opened in the background gets no frames, so at the latest
  // after 100 ms.
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    load();
  };
  requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, 100);
}

/** The page's fixed words and <html lang> in the app's language (lang.js) from the first
 * frame, with the words the build put in line (first-words.js); the app's catalog, read
 * later, does the rest. */
export function showFirstWords() {
  const code = language();
  applyLanguage(code);
  const words = FIRST_WORDS[code];
  if (words) translateWords(document, (english) => words[english] ?? english);
}

/** Draw the kept round's time left into <main> when the page opens on the clock screen, and
 * tick it until the clock screen replaces it. Returns whether it drew. */
export function drawFirstClock() {
  const screen = location.hash.replace(/^#\/?/, "").split("/")[0];
  const main = document.getElementById("main");
  const copy = screen === "" || screen === "clock" ? keptCopy() : null;
  if (!copy || !main) return false;
  const time = document.createElement("div");
  time.className = "time";
  time.setAttribute("aria-hidden", "true"); // the clock screen's own timer is the one announced
  time.setAttribute("elementtiming", "round-clock"); // when it is painted (Element Timing)
  const section = document.createElement("section");
  section.className = "clock first-clock";
  section.append(document.createElement("div"), time);
  section.firstChild.className = "label";
  section.firstChild.textContent = "\u00a0";
  function tick() {
    let left;
    try {
      left = roundLeft(copy.round, Date.now() + copy.offset_ms);
    } catch {
      return false;
    }
    // a copy whose numbers make no sane clock (not finite, a week or more away) draws nothing
    if (left && !(Number.isFinite(left.remaining_ms) && Math.abs(left.remaining_ms) < 7 * 86400000)) return false;
    showFace(time, left);
    return true;
  }
  if (!tick()) return false;
  main.replaceChildren(section);
  performance.mark("clock-visible");
  const timer = setInterval(() => { if (!section.isConnected) clearInterval(timer); else tick(); }, 250);
  return true;
}

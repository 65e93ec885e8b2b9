// Hash routes: #/join[/CODE], #/clock, #/time, #/penalty, #/history, #/review, #/sync, #/deck/<check>,
// #/event/<slug> (the players' page: /table/<n>, /decklist[/<code>]).
import { app } from "./state.js";
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
// The clock, the screen a judge's phone opens on, comes with the app's code; the others are
// loaded when first shown.
import * as clockScreen from "./ui/clockview.js";
import { reviewShown } from "./review.js";
import { updateReviewBadge } from "./ui/review-badge.js";

const screens = {
  join: () => import("./ui/join.js"),
  clock: () => Promise.resolve(clockScreen),
  time: () => import("./ui/timecall.js"),
  penalty: () => import("./ui/penalty.js"),
  history: () => import("./ui/history.js"),
  review: () => import("./ui/review.js"),
  sync: () => import("./ui/syncview.js"),
  deck: () => import("./ui/deckcount.js"),
  event: () => import("./ui/players.js"),
};

let cleanup = null;

/** One part of an address, %-decoded; a malformed one ("%ZZ", a lone "%") as it is, so a
 * mistyped or damaged link opens a screen that says what is wrong instead of throwing. */
export function decodedPart(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The current route: {screen, args: [...]} from location.hash. */
export function route() {
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodedPart);
  let screen = parts[0] || (app.session ? "clock" : "join");
  if (!screens[screen]) screen = "join";
  if (!app.session && !["join", "event"].includes(screen)) screen = "join";
  if (screen === "review" && !reviewShown()) screen = "clock";
  return { screen, args: parts.slice(1) };
}

/** Start loading the code of the screen the hash names (the clock by default) while the
 * app reads its kept data, so render() need not wait for it. */
export function preloadScreen() {
  const name = location.hash.replace(/^#\/?/, "").split("/")[0];
  screens[screens[name] ? name : "clock"]().catch(() => {});
}

/** Render the screen for the current hash into <main>. */
let shown = null;
let rendering = 0; // counts render() calls: only the latest one's screen is shown

export async function render() {
  const { screen, args } = route();
  const moved = shown !== null && shown !== screen;
  shown = screen;
  if (cleanup) cleanup();
  cleanup = null;
  const nav = document.getElementById("nav");
  nav.hidden = screen === "event" || !app.session;
  const queries = Object.keys(app.ruleset?.queries || {});
  nav.querySelector("[data-screen=time]").hidden = !queries.includes("time_call");
  nav.querySelector("[data-screen=review]").hidden = !reviewShown();
  updateReviewBadge();
  for (const a of nav.querySelectorAll("a")) {
    if (a.dataset.screen === screen) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  const main = document.getElementById("main");
  const mine = ++rendering;
  let mod;
  try {
    mod = await screens[screen]();
  } catch (err) {
    if (mine !== rendering) return;
    cleanup = notLoaded(main, screen, err);
    return;
  }
  if (mine !== rendering) return; // the hash moved on while the screen's code loaded
  // Each render draws into its own box: a screen still drawing when the hash moves on (two
  // quick taps) draws into a box no longer shown, never beside the newer screen.
  const box = document.createElement("div");
  box.className = "screen";
  fill(main, box);
  main.dataset.screen = screen;
  const done = (await mod.render(box, args)) || null;
  if (mine !== rendering) {
    if (done) done();
    return;
  }
  cleanup = done;
  // After moving between screens, start reading (and tabbing) at the new screen's heading.
  const heading = main.querySelector("h1") || main;
  if (moved) {
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }
}

/** Draw, in place of `screen`, why it cannot open: its code is not on the phone yet (the
 * offline copy had not fetched it when the network went) and it could not be fetched now.
 * The screen opens by itself when the browser is back online, or with "Try again". Returns
 * the cleanup that stops waiting for the network. */
function notLoaded(main, screen, err) {
  console.warn(`screen ${screen}: its code did not load`, err);
  const retry = () => {
    if (route().screen === screen) render();
  };
  const box = h("div", { class: "screen", id: "not-loaded" },
    h("h1", {}, t("This screen is not on this phone yet")),
    h("p", { role: "status" }, t("Its part of the app had not downloaded when the network went. It opens by itself when the network is back.")),
    h("button", { type: "button", id: "not-loaded-retry", onclick: retry }, t("Try again now")));
  fill(main, box);
  main.dataset.screen = screen;
  main.dataset.notLoaded = "";
  window.addEventListener("online", retry);
  return () => {
    window.removeEventListener("online", retry);
    delete main.dataset.notLoaded;
  };
}

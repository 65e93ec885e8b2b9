// Alerts, on whatever screen is shown: the banner (role="alert"), a short tone (Web Audio;
// the judge may silence it, kept in the settings store), vibration where the phone has it,
// and a system notification once the judge allowed notifications (the service worker's
// showNotification when there is one, else new Notification). Also the one ticker of time
// alerts: it fires at the minutes the judge picked whichever screen is open.
import { app } from "../state.js";
import * as store from "../store.js";
import { roundLeft } from "../clock.js";
import { clockEvents } from "../clockdata.js";
import { serverNow } from "../servertime.js";
import { t, tn } from "../i18n.js";
import { afterPress } from "../press.js";

const SOUND_KEY = "alert_sound";    // false: the judge silenced alerts
const MINUTES_KEY = "alerts";       // the minutes before time an alert fires
export const ALERT_CHOICES = [15, 10, 5, 1, 0];
// What this page did, for tests and integrations: {tones, vibrations, notifications}.
export const alertLog = { tones: 0, vibrations: 0, notifications: [] };

let timer = null;
let said = null; // what the banner shows: its text, or a function giving it in the language shown
let bannerShown = false; // whether it is to be shown (drawn as it stands once a tap under way is over)
let audio = null;
let sound = true;
let minutes = [5, 0];
const fired = new Set();

/** Load the kept settings (sound on/off, alert minutes). */
export async function loadAlertSettings() {
  const [s, m] = await Promise.all([store.get(SOUND_KEY), store.get(MINUTES_KEY)]);
  sound = s !== false;
  minutes = Array.isArray(m) ? m : [5, 0];
}

/** Whether alerts make a sound. */
export function soundOn() { return sound; }

/** Turn the alert sound on or off (kept on the device). */
export async function setSound(on) {
  sound = Boolean(on);
  await store.set(SOUND_KEY, sound);
  showSoundNote();
}

/** The minutes before time at which an alert fires ([15, 10, 5, 1, 0] are offered). */
export function alertMinutes() { return [...minutes]; }

/** Add or remove `m` from the alert minutes (kept on the device); resolves to the new list. */
export async function toggleAlertMinute(m) {
  minutes = minutes.includes(m) ? minutes.filter((x) => x !== m) : [...minutes, m];
  await store.set(MINUTES_KEY, minutes);
  return alertMinutes();
}

// Browsers start audio only after the person touched the page: the context made then is kept.
function audioContext() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!audio) audio = new Ctx();
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}
// Each tap resumes audio the phone suspended meanwhile.
document.addEventListener("pointerdown", () => {
  if (sound) audioContext();
  showSoundNote();
}, { capture: true });

/** Show, on every screen of a joined phone whose alerts make a sound, that the sound waits
 * for a first tap (browsers keep a page's audio suspended until then: after a reload the
 * phone would otherwise stay silent for the next call without saying so), with a button that
 * is that tap. The note follows the audio's own state. */
export function showSoundNote() {
  const note = document.getElementById("sound-note");
  if (!note) return;
  const ctx = app.session && sound ? audioContext() : null;
  if (ctx) ctx.onstatechange = showSoundNote;
  const hide = !ctx || ctx.state === "running";
  note.dataset.audio = ctx ? ctx.state : "off";
  // taken away once the tap is over: the content below it would move up under the finger
  if (hide && !note.hidden) afterPress(() => { note.hidden = ["running", "off"].includes(note.dataset.audio); });
  else note.hidden = hide;
  note.querySelector("#sound-on").onclick = () => audioContext();
}

/** A short two-note tone (about 0.4 s) unless the judge silenced alerts. */
export function tone() {
  if (!sound) return;
  const ctx = audioContext();
  if (!ctx) return;
  const t = ctx.currentTime;
  for (const [freq, at] of [[880, 0], [660, 0.2]]) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.25, t + at);
    gain.gain.exponentialRampToValueAtTime(0.001, t + at + 0.18);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t + at);
    osc.stop(t + at + 0.2);
  }
  alertLog.tones += 1;
}

/** Whether system notifications are allowed: "granted", "denied", "default" or
 * "unsupported". */
export function notificationPermission() {
  return "Notification" in window ? Notification.permission : "unsupported";
}

/** Ask the judge to allow system notifications; resolves to notificationPermission(). */
export async function askNotifications() {
  if (!("Notification" in window)) return "unsupported";
  try { await Notification.requestPermission(); } catch { /* older browsers: callback form */ }
  return notificationPermission();
}

/** Show a system notification `title` / `body` when allowed; `tag` replaces an earlier one
 * with the same tag. */
export async function notify(title, body, tag) {
  if (notificationPermission() !== "granted") return;
  const options = { body, tag, renotify: Boolean(tag), icon: "icons/icon-192.png" };
  alertLog.notifications.push({ title, body, tag });
  try {
    const reg = await navigator.serviceWorker?.getRegistration?.();
    if (reg?.showNotification) {
      await reg.showNotification(title, options);
      return;
    }
  } catch { /* fall back to the page's own notification */ }
  try { new Notification(title, options); } catch { /* not allowed here (e.g. some mobile browsers) */ }
}

/** Show `text` in the alert banner for `ms` milliseconds, with tone and vibration; with
 * `system: {title, tag}` also a system notification. `text` may be a function giving the
 * text (a message of i18n.js): then the banner follows a change of language while it shows. */
export function showAlert(text, { ms = 20000, system = null } = {}) {
  const el = document.getElementById("alert-bar");
  said = text;
  text = typeof said === "function" ? said() : said;
  // The sound, vibration and notification go now; the banner, which pushes the screen down,
  // once a tap under way is over (press.js), and it goes away the same way.
  bannerShown = true;
  afterPress(drawBanner);
  // A tap anywhere on the banner or its button (the keyboard's way) dismisses it.
  el.onclick = () => { bannerShown = false; drawBanner(); };
  if (navigator.vibrate) {
    navigator.vibrate([300, 150, 300]);
    alertLog.vibrations += 1;
  }
  tone();
  if (system) notify(system.title, text, system.tag);
  clearTimeout(timer);
  timer = setTimeout(() => { bannerShown = false; afterPress(drawBanner); }, ms);
}

function drawBanner() {
  if (bannerShown) document.getElementById("alert").textContent = typeof said === "function" ? said() : said;
  document.getElementById("alert-bar").hidden = !bannerShown;
}

/** Write the banner again in the language shown, when it still shows a message given as a
 * function (main.js calls this once a newly chosen language's catalog is loaded). */
export function redrawAlert() {
  const el = document.getElementById("alert-bar");
  if (typeof said === "function" && el && !el.hidden) document.getElementById("alert").textContent = said();
}

/** Check the round against the chosen minutes now: an alert fires once per round and
 * minute, within 30 s after that minute is reached while the round runs. */
let last = null; // {round: "<event>:<round number>", state: "paused" | "running"} as last seen

export function checkTimeAlerts() {
  const round = app.clock?.round;
  const left = roundLeft(round, serverNow());
  // a pause or a resume of the round shows on every screen, not only on the clock
  const now = left && (left.state === "paused" || left.state === "running")
    ? { round: `${app.session?.event?.slug}:${round.number}`, state: left.state } : null;
  if (now && last && now.round === last.round && now.state !== last.state) {
    const number = round.number;
    showAlert(now.state === "paused" ? () => t("Round {round} is paused: the clock is stopped.", { round: number })
      : () => t("Round {round} runs again.", { round: number }),
    { system: { title: t("Round clock"), tag: `pause-${number}` } });
  }
  last = now;
  if (!left || left.state !== "running") return;
  for (const m of minutes) {
    const key = `${app.session?.event?.slug}:${round.number}:${m}`;
    if (left.remaining_ms <= m * 60000 && left.remaining_ms > m * 60000 - 30000 && !fired.has(key)) {
      fired.add(key);
      // the clock on screen shows this same moment before the banner says "5 minutes left"
      // (its own tick is up to 100 ms behind, and could still show 5:01)
      clockEvents.dispatchEvent(new Event("tick"));
      const number = round.number;
      const text = m === 0 ? () => t("Time! Round {round} is over.", { round: number })
        : () => tn("{count} minute left in round {round}.", "{count} minutes left in round {round}.", m, { round: number });
      showAlert(text, { system: { title: t("Round clock"), tag: `time-${number}` } });
    }
    if (left.remaining_ms > m * 60000) fired.delete(key);
  }
}

/** Run the time alerts every half second, on every screen. */
export function startTimeAlerts() {
  setInterval(() => { if (app.session) checkTimeAlerts(); }, 500);
}

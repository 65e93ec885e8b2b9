// Round clock arithmetic from absolute server times (epoch ms): the time left is always
// end - serverNow(), never a count of ticks, so it survives reloads, sleep and lost network.
import { t } from "./i18n.js";

/** Time left on the round in milliseconds (negative once over), and its state.
 * `round` is the server's clock.round object; `now` is the server clock in epoch ms.
 * Returns {state, remaining_ms, end_ms} or null without a round. */
export function roundLeft(round, now) {
  if (!round) return null;
  if (round.state === "ended") return { state: "ended", remaining_ms: 0, end_ms: round.ended_ms };
  if (round.state === "running" && round.end_ms != null) {
    return { state: "running", remaining_ms: round.end_ms - now, end_ms: round.end_ms };
  }
  // Paused: the time left is frozen at the moment the open pause began.
  const pauses = round.pauses || [];
  const open = pauses.find((p) => p.end_ms == null);
  const closed = pauses.filter((p) => p.end_ms != null).reduce((s, p) => s + (p.end_ms - p.start_ms), 0);
  const at = open ? open.start_ms : now;
  const elapsed = at - round.started_ms - closed;
  return { state: round.state, remaining_ms: round.round_minutes * 60000 - elapsed, end_ms: null };
}

/** A table's time left (ms) given the round's and the table's extension minutes
 * (the server's plus any not yet synced from this device). */
export function tableLeft(left, extensionMinutes) {
  if (!left) return null;
  return left.remaining_ms + extensionMinutes * 60000;
}

/** "mm:ss" (or "h:mm:ss") for a time left; negative values are shown as "+mm:ss" over time. */
export function formatLeft(ms) {
  const over = ms < 0;
  // Count down by whole seconds: show 0:01 until the last second has fully passed.
  const s = over ? Math.floor(-ms / 1000) : Math.ceil(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  const text = h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
  return over ? `+${text}` : text;
}

/** Local time of day "HH:MM" (24-hour) for an epoch ms value shown to the judge. Written out
 * by hand: the first toLocaleTimeString of a page loads the locale's date formats, which held
 * the clock's first drawing back by ~60 ms of CPU (~250 ms at 4x slowdown). */
export function timeOfDay(ms) {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

/** When the round ends, or ended, for `left` (roundLeft's answer, its end including a
 * table's time extensions of `minutes`, which are named): "Ends at 14:30" while time is
 * left, "Time was called at 14:30" once it is up (the end-of-match procedure may still run),
 * "Ended at 14:30" once the round was ended; "" without an end time. */
export function endsText(left, minutes = 0) {
  if (!left?.end_ms) return "";
  const time = timeOfDay(left.end_ms);
  if (left.state === "ended") return t("Ended at {time}", { time });
  if (left.remaining_ms <= 0) {
    return minutes ? t("Time was called at {time} (with +{minutes} min for this table)", { time, minutes })
      : t("Time was called at {time}", { time });
  }
  return minutes ? t("Ends at {time} (with +{minutes} min for this table)", { time, minutes })
    : t("Ends at {time}", { time });
}

// How long without news from the server before an offline clock says so: long enough that a
// pause may have been missed (the push stream or a poll brings news at least every minute).
export const STALE_NEWS_MS = 90000;

/** What a clock shows for `left` (roundLeft's answer): {time, state, phase} where phase is
 * "running", "paused", "over" (round time is up: time has been called) or "ended". */
export function clockFace(left) {
  if (!left) return { time: "–:––", state: t("No round running"), phase: "none" };
  if (left.state === "ended") return { time: "0:00", state: t("Round ended"), phase: "ended" };
  if (left.remaining_ms <= 0) {
    return { time: "0:00", state: t("Time has been called ({ago} ago)", { ago: formatLeft(left.remaining_ms).slice(1) }),
             phase: "over" };
  }
  if (left.state === "paused") {
    return { time: formatLeft(left.remaining_ms), state: t("Paused: the clock is stopped"), phase: "paused" };
  }
  return { time: formatLeft(left.remaining_ms), state: t("time left"), phase: "running" };
}

/** Show `left` (roundLeft's answer) on a clock: its time in `timeEl` (with data-remaining-ms
 * while there is a round, class "over" once time is up) and its phase on the section around
 * it (data-phase, classes "paused" and "over"). The Clock screen, the players' page and the
 * first clock drawn as the page opens share it. Returns clockFace(left). */
export function showFace(timeEl, left) {
  const face = clockFace(left);
  const section = timeEl.parentElement;
  if (section) {
    section.dataset.phase = face.phase;
    section.classList.toggle("paused", face.phase === "paused");
    section.classList.toggle("over", face.phase === "over");
  }
  if (timeEl.textContent !== face.time) timeEl.textContent = face.time;
  timeEl.classList.toggle("over", Boolean(left && left.remaining_ms < 0));
  if (left) timeEl.dataset.remainingMs = String(Math.round(left.remaining_ms));
  else delete timeEl.dataset.remainingMs;
  return face;
}

/** "last clock news 3 min ago" once `ageMs` passes STALE_NEWS_MS, else "". */
export function staleText(ageMs) {
  if (ageMs == null || ageMs < STALE_NEWS_MS) return "";
  const min = Math.floor(ageMs / 60000);
  return min < 60
    ? t("No news from the server: last clock news {minutes} min ago; a pause may have been missed.", { minutes: min })
    : t("No news from the server: last clock news {hours} h {minutes} min ago; a pause may have been missed.",
      { hours: Math.floor(min / 60), minutes: min % 60 });
}

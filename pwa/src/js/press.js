// A tap under way: from the finger (or button) going down until its click, or shortly after a
// release that made none (a scroll, a drag). What would take away, replace or move the content
// under the finger waits for it to end (afterPress): otherwise the release lands on nothing and
// the tap is lost, or on what moved there (another table's button).
let presses = 0; // taps so far; each has its number
let pressed = 0; // the number of the tap under way, 0 when none
let ending = 0; // timers set to end a tap that have not run yet
const due = new Set();

// A timer ends only the tap that set it: one left from an earlier tap (its release's 500 ms)
// must not end a tap begun since.
function letGoLater(ms) {
  const tap = pressed;
  ending += 1;
  setTimeout(() => {
    ending -= 1;
    if (!tap || tap !== pressed) return;
    pressed = 0;
    const now = [...due];
    due.clear();
    for (const fn of now) fn();
  }, ms);
}

document.addEventListener("pointerdown", () => { pressed = ++presses; }, { capture: true });
// a touch's click comes after the finger is up; a click from the keyboard (detail 0) is not
// the end of a press
document.addEventListener("click", (ev) => { if (ev.detail) letGoLater(0); }, { capture: true });
document.addEventListener("pointerup", () => letGoLater(500), { capture: true });
document.addEventListener("pointercancel", () => letGoLater(0), { capture: true });

/** Run `fn` now, or once the tap under way is over (once, however often it is asked meanwhile). */
export function afterPress(fn) {
  if (pressed) due.add(fn);
  else fn();
}

/** For tests: {pressed: whether a tap is under way, ending: its and earlier taps' timers not yet run}. */
export function pressState() {
  return { pressed: pressed !== 0, ending };
}

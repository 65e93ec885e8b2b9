// The alert settings on the Event screen: allow system notifications (the browser asks the
// judge), and the sound of alerts on or off (kept on the device).
import { h, fill } from "../dom.js";
import { askNotifications, notificationPermission, setSound, soundOn, tone } from "./alerts.js";
import { t } from "../i18n.js";

function permissionText(permission) {
  return {
    granted: t("System notifications are allowed: new calls and time alerts show even when the app is in the background."),
    denied: t("System notifications are blocked for this app; allow them in the browser's site settings."),
    default: t("System notifications are not allowed yet."),
    unsupported: t("This browser has no system notifications; alerts show in the app, with sound and vibration."),
  }[permission];
}

/** The "Alerts" section: a fieldset with its controls. */
export function alertSettings() {
  const said = h("p", { class: "small muted", id: "notify-state", "aria-live": "polite" });
  const allow = h("button", { type: "button", id: "notify-allow", class: "secondary", onclick: async () => {
    await askNotifications();
    draw();
  } }, t("Allow notifications"));
  const sound = h("input", { type: "checkbox", id: "alert-sound", checked: soundOn(), onchange: async (ev) => {
    const on = ev.currentTarget.checked; // (the event's currentTarget is gone once it has been handled)
    await setSound(on);
    if (on) tone();
  } });
  function draw() {
    const p = notificationPermission();
    allow.hidden = p !== "default";
    fill(said, permissionText(p));
  }
  draw();
  return h("fieldset", { id: "alert-settings" }, h("legend", {}, t("Alerts")),
    h("div", { class: "choice" }, sound, h("label", { for: "alert-sound" }, t("Sound for calls and time alerts"))),
    allow, said);
}

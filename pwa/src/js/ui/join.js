// Join: type (or scan) the event's join code, join as oneself (a staff account logged in on this
// browser, or a one-time link from one's account page: #/join/link/<token>), or use a ruleset
// on its own without a server. However a phone joined, it works offline the same way after.
import { append, h } from "../dom.js";
import { api } from "../api.js";
import { app, eventRecords, ruleData } from "../state.js";
import { openSession } from "../main.js";
import { decodedPart, render as redraw } from "../router.js";
import * as store from "../store.js";
import { syncNow, syncState } from "../sync.js";
import { alertSettings } from "./alert-settings.js";
import { lookSettings } from "./look-settings.js";
import { LIMITS, textProblem } from "../checks.js";
import { t, tn } from "../i18n.js";

/** Why this phone may not leave its event yet (records still to send), or null. Records are
 * sent with this event's device token, so leaving before they reach the server would lose them. */
async function leaveBlocked() {
  const s = app.session;
  if (!s || s.standalone) return null;
  await syncNow();
  const waiting = (await store.outbox()).filter((r) => r.event === s.event.slug).length;
  if (!waiting) return null;
  return syncState.revoked
    ? tn("{count} record is still waiting to sync, and the event no longer accepts this phone. Ask the organiser, then join this event again; the records stay on this phone.",
      "{count} records are still waiting to sync, and the event no longer accepts this phone. Ask the organiser, then join this event again; the records stay on this phone.",
      waiting)
    : tn("{count} record is still waiting to sync. Connect to the event's network first, then leave.",
      "{count} records are still waiting to sync. Connect to the event's network first, then leave.", waiting);
}

/** The words of a device's role (its id when it is none the app knows). */
function roleName(role) {
  switch (role) {
    case "floor_judge": return t("floor judge");
    case "head_judge": return t("head judge");
    case "scorekeeper": return t("scorekeeper");
    case "organiser": return t("organiser");
    default: return (role || "").replace("_", " ");
  }
}

export async function render(main, [codeArg, linkArg]) {
  const link = codeArg === "link" ? linkArg || "" : null;
  if (link !== null) codeArg = "";
  const leaveStatus = h("p", { role: "status", "aria-live": "polite", id: "leave-status", class: "bad-text" });
  const status = h("p", { role: "status", "aria-live": "polite", id: "join-status" });
  const code = h("input", { id: "join-code", name: "code", autocomplete: "off", autocapitalize: "characters",
                            inputmode: "text", required: true, maxlength: String(LIMITS.code), value: codeArg || "" });
  const judge = h("input", { id: "judge-name", name: "judge", autocomplete: "name", required: true,
                             maxlength: String(LIMITS.judge), value: app.session?.judge_name || "" });
  const device = h("input", { id: "device-name", name: "device", maxlength: String(LIMITS.device), value: t("Phone") });

  /** Why the join form cannot be sent as typed, or null (the server's own checks, said here). */
  function joinProblem() {
    const fields = [[code, t("Join code"), LIMITS.code], [judge, t("Your name (judge)"), LIMITS.judge],
      [device, t("This device"), LIMITS.device]];
    for (const [input, label, max] of fields) {
      const text = input.value.trim();
      const problem = !text && input !== device ? t("is needed") : textProblem(text, max, false);
      if (problem) return [input, t("{field}: {problem}.", { field: label, problem })];
    }
    return null;
  }

  async function join(ev) {
    ev.preventDefault();
    const problem = joinProblem();
    if (problem) {
      status.textContent = problem[1];
      problem[0].focus();
      return;
    }
    status.textContent = t("Joining…");
    // Joining another event would drop this one's token; a fresh join of the same event
    // (after the phone was revoked) is allowed.
    const blocked = app.session && !app.session.standalone && !syncState.revoked ? await leaveBlocked() : null;
    if (blocked) {
      status.textContent = blocked;
      return;
    }
    try {
      await joined(await api("/api/join", {
        body: { code: code.value.trim(), device_name: deviceName(), judge_name: judge.value.trim() },
      }), judge.value.trim());
    } catch (err) {
      status.textContent = err.status === 404 ? t("No event has that join code.") :
        err.status === 429 ? t("Too many tries. Wait a minute and try again.")
        : t("Could not join: {error}", { error: err.message });
    }
  }

  const deviceName = () => device.value.trim() || t("Phone");

  /** Open the event a join answered with (the name the device's records carry: the typed
   * one, or the account's person's). Joining an event again keeps what this phone had not
   * sent to it yet. */
  async function joined(reply, typed = null) {
    await store.adoptOutbox(reply.event.slug, reply.device_id);
    await openSession({ token: reply.token, device_id: reply.device_id, role: reply.role,
                        judge_name: reply.judge_name || typed, event: reply.event });
    location.hash = "#/clock";
  }

  /** Join as oneself: through the account logged in on this browser (`event` a slug), or a
   * one-time link (`link`). `where` shows how it went. */
  async function joinAsMe(where, { event, link: token }) {
    const blocked = app.session && !app.session.standalone && !syncState.revoked ? await leaveBlocked() : null;
    if (blocked) {
      where.textContent = blocked;
      return;
    }
    where.textContent = t("Joining…");
    try {
      await joined(event ? await api("/api/me/devices", { body: { event, device_name: deviceName() } })
        : await api("/api/join/link", { body: { link: token, device_name: deviceName() } }));
    } catch (err) {
      where.textContent = err.status === 404 && token ? t("This link no longer works (used, expired or replaced). Make a new one on your account page.")
        : err.status === 401 ? t("You are no longer logged in to the organiser pages on this browser.")
        : err.status === 403 ? t("You no longer have a role in this event.")
        : err.status === 429 ? t("Too many tries. Wait a minute and try again.")
        : t("Could not join: {error}", { error: err.message });
    }
  }

  // Joining as oneself: with a one-time link, or the organiser pages' login on this browser
  // (asked once when the screen opens; offline or logged out, the card is simply not shown).
  const mineStatus = h("p", { role: "status", "aria-live": "polite", id: "mine-status" });
  const mine = h("section", { class: "card", id: "join-mine", hidden: true, "aria-labelledby": "mine-h" });
  if (link !== null) {
    mine.hidden = false;
    mine.append(h("h2", { id: "mine-h" }, t("Join with your link")),
      h("p", {}, t("This link from your account page joins this phone as you, with your role. It works once.")),
      h("button", { type: "button", id: "join-link-btn", onclick: () => joinAsMe(mineStatus, { link }) }, t("Join as me")),
      mineStatus);
  } else {
    api("/api/me", { timeoutMs: 5000 }).then((me) => {
      if (!me.events.length) return;
      mine.hidden = false;
      mine.append(h("h2", { id: "mine-h" }, t("Join with your account")),
        h("p", {}, t("Logged in as {name}: this phone then carries your name and your role.", { name: me.name })),
        h("div", { class: "row" }, me.events.map((e) =>
          h("button", { type: "button", class: "secondary", "data-event": e.slug,
                        onclick: () => joinAsMe(mineStatus, { event: e.slug }) },
            t("Join {event} as {role}", { event: e.name, role: roleName(e.device_role) })))),
        mineStatus);
    }).catch(() => {});
  }

  const scan = "BarcodeDetector" in window ? h("button", { type: "button", class: "secondary", onclick: () => scanCode(code, status) }, t("Scan the QR code")) : null;

  const rulesetSel = h("select", { id: "standalone-ruleset" },
    app.rulesets.map((r) => h("option", { value: r.id }, r.title)));
  const levelSel = h("select", { id: "standalone-level" });
  const levelLabel = h("label", { for: "standalone-level" }, t("Level"));
  // The stages every policy shares, named in queries.json.
  const stage = (await ruleData("queries").catch(() => null))?.event?.stage;
  const stageSel = h("select", { id: "standalone-stage" },
    (stage?.values || ["swiss"]).map((v) => h("option", { value: v }, stage?.names?.[v] || v)));
  const fillLevels = () => {
    const r = app.rulesets.find((x) => x.id === rulesetSel.value);
    levelLabel.textContent = r?.level_label || t("Level");
    levelSel.replaceChildren(...(r?.levels.length ? r.levels : [{ id: "", name: t("No levels in this policy") }])
      .map((l) => h("option", { value: l.id }, l.name)));
  };
  rulesetSel.addEventListener("change", fillLevels);
  fillLevels();

  const soloStatus = h("p", { role: "status", "aria-live": "polite", id: "standalone-status", class: "bad-text" });

  async function standalone(ev) {
    ev.preventDefault();
    // Standalone use drops the event's token like leaving does: not while records wait.
    if (app.session && !app.session.standalone) {
      soloStatus.textContent = t("Checking for records still to send…");
      const blocked = await leaveBlocked();
      if (blocked) { soloStatus.textContent = blocked; return; }
      soloStatus.textContent = "";
    }
    const r = app.rulesets.find((x) => x.id === rulesetSel.value);
    await openSession({
      standalone: true, judge_name: judge.value.trim(),
      event: { slug: `standalone-${r.id}`, name: r.title, ruleset: r.id, level: levelSel.value || null,
               stage: stageSel.value, games_per_match: r.defaults?.games_per_match ?? null,
               round_minutes: r.defaults?.round_minutes ?? null },
    });
    location.hash = "#/penalty";
  }

  async function leave() {
    await openSession(null);
    location.hash = "#/join";
    redraw();
  }

  const current = app.session ? h("div", { class: "card" },
    h("h2", {}, t("Current event")),
    h("p", {}, app.session.event.name || app.session.event.slug),
    app.session.standalone ? h("p", { class: "muted" }, t("Standalone: records stay on this phone."))
      : h("p", { class: "muted" }, t("Joined as {judge} ({role}).",
        { judge: app.session.judge_name, role: roleName(app.session.role) })),
    app.session.standalone ? null : h("p", {}, h("a", { href: `#/event/${app.session.event.slug}` }, t("Players' page for this event"))),
    h("button", { type: "button", class: "secondary", id: "leave-btn", onclick: async (ev) => {
      const button = ev.currentTarget;
      document.getElementById("leave-step")?.remove();
      leaveStatus.textContent = t("Checking for records still to send…");
      const blocked = await leaveBlocked();
      if (blocked) { leaveStatus.textContent = blocked; return; }
      const refused = app.session.standalone ? 0 : (await eventRecords()).all.filter((r) => r.sync === "rejected").length;
      if (!refused) {
        await leave();
        return;
      }
      // records the server refused exist only on this phone: leaving deletes them, so ask once
      leaveStatus.textContent = "";
      const step = h("div", { class: "card", id: "leave-step", role: "group", "aria-labelledby": "leave-ask" },
        h("p", { id: "leave-ask" }, tn(
          "{count} record the server refused is kept only on this phone (the Sync screen lists them, with why). Leaving deletes it. Leave anyway?",
          "{count} records the server refused are kept only on this phone (the Sync screen lists them, with why). Leaving deletes them. Leave anyway?",
          refused)),
        h("div", { class: "row" },
          h("button", { type: "button", class: "danger", id: "leave-anyway", onclick: leave },
            tn("Leave and delete it", "Leave and delete them", refused)),
          h("button", { type: "button", class: "secondary", id: "leave-stay", onclick: () => {
            step.remove();
            button.hidden = false;
            leaveStatus.textContent = t("Still in this event: the refused records are on the Sync screen.");
            button.focus();
          } }, t("Stay in this event"))));
      button.hidden = true;
      button.after(step);
      step.querySelector("#leave-stay").focus();
    } }, t("Leave this event")),
    leaveStatus,
  ) : null;

  append(main,
    h("h1", {}, t("Event")),
    current,
    app.session ? alertSettings() : null,
    lookSettings(),
    mine,
    h("form", { onsubmit: join, "aria-labelledby": "join-h" },
      h("h2", { id: "join-h" }, t("Join an event")),
      h("label", { for: "join-code" }, t("Join code")), code,
      h("label", { for: "judge-name" }, t("Your name (judge)")), judge,
      h("label", { for: "device-name" }, t("This device")), device,
      h("div", { class: "row", style: "margin-top:0.8rem" }, h("button", { type: "submit", id: "join-btn" }, t("Join")), scan),
      status),
    h("form", { onsubmit: standalone, "aria-labelledby": "solo-h" },
      h("h2", { id: "solo-h" }, t("Use a policy without a server")),
      h("label", { for: "standalone-ruleset" }, t("Policy")), rulesetSel,
      levelLabel, levelSel,
      h("label", { for: "standalone-stage" }, t("Stage")), stageSel,
      h("div", { style: "margin-top:0.8rem" }, h("button", { type: "submit", id: "standalone-btn", class: "secondary" }, t("Use this policy"))), soloStatus),
  );
}

async function scanCode(input, status) {
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
    const video = h("video", { playsinline: true, muted: true, "aria-label": t("Camera") });
    video.srcObject = stream;
    status.replaceChildren(video);
    await video.play();
    const detector = new window.BarcodeDetector({ formats: ["qr_code"] });
    for (let i = 0; i < 300; i++) {
      const codes = await detector.detect(video);
      if (codes.length) {
        const text = codes[0].rawValue;
        const m = text.match(/#\/join\/([^/?#]+)/);
        input.value = m ? decodedPart(m[1]) : text.trim();
        status.textContent = t("Code read.");
        return;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    status.textContent = t("No code found. Type it instead.");
  } catch {
    status.textContent = t("The camera is not available. Type the code instead.");
  } finally {
    stream?.getTracks().forEach((track) => track.stop());
  }
}

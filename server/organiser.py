"""Organiser pages (server-rendered, plain, mobile-friendly), behind ORGANISER_PASSWORD:
events, join code and QR, round clock controls, players and tables, devices and roles,
penalties with approval, exports."""

import json
import uuid
from functools import wraps

import segno
from flask import Blueprint, Response, flash, redirect, render_template, request, session, url_for

from . import timeutil, urls
from .auth import (
    attempt_allowed,
    check_organiser_password,
    csrf_token,
    note_failed_attempt,
    organiser_password,
    organiser_required,
)
from .clock import bump, clock_state, end_round, pause_round, resume_round, start_round
from .errors import ApiError
from .events import (
    create_event,
    export_json,
    get_event,
    import_pairings,
    import_players,
    organiser_device,
    penalties_csv,
    penalty_rows,
    revoke,
    set_role,
)
from .extensions import db
from .models import STAGES, Device, Event
from .rules import RuleError, load_ruleset, rulesets
from .sync import push

bp = Blueprint("organiser", __name__, url_prefix="/organiser", template_folder="templates")


@bp.app_context_processor
def _template_globals():
    return {"csrf_token": csrf_token}


def _form_action(view):
    """POST handlers: a refused action (ApiError, RuleError) becomes a message on the event
    page instead of an error page."""

    @wraps(view)
    def wrapped(slug, *args, **kwargs):
        try:
            message = view(slug, *args, **kwargs)
            if message:
                flash(message, "ok")
        except (ApiError, RuleError) as err:
            flash(str(err), "error")
        return redirect(url_for("organiser.event_page", slug=slug))

    return wrapped


@bp.route("/login", methods=["GET", "POST"])
def login():
    if request.method == "POST":
        if not attempt_allowed("login"):
            flash("Too many attempts; wait a minute.", "error")
            return render_template("organiser/login.html"), 429
        if check_organiser_password(request.form.get("password", "")):
            session.clear()
            session["organiser"] = True
            target = request.args.get("next", "")
            return redirect(target if target.startswith("/organiser") else url_for(".index"))
        note_failed_attempt("login")
        flash("Wrong password." if organiser_password() else
              "No organiser password is set (ORGANISER_PASSWORD).", "error")
    return render_template("organiser/login.html")


@bp.post("/logout")
@organiser_required
def logout():
    session.clear()
    return redirect(url_for(".login"))


@bp.get("/")
@organiser_required
def index():
    events = db.session.scalars(db.select(Event).order_by(Event.id.desc())).all()
    return render_template("organiser/index.html", events=events, rulesets=rulesets(),
                           stages=STAGES)


@bp.post("/events")
@organiser_required
def new_event():
    form = request.form
    ruleset, _, level = form.get("ruleset_level", "").partition("|")
    try:
        event = create_event(
            form.get("name", "").strip() or "Event", ruleset, level=level or None, stage=form.get("stage") or "swiss",
            games_per_match=_form_number("games_per_match", int, "games per match"),
            round_minutes=_form_number("round_minutes", float, "round minutes"),
            game=form.get("game") or None)
    except (ApiError, RuleError) as err:
        flash(str(err), "error")
        return redirect(url_for(".index"))
    return redirect(url_for(".event_page", slug=event.slug))


@bp.get("/events/<slug>")
@organiser_required
def event_page(slug):
    event = get_event(slug)
    clock = clock_state(event)
    now = timeutil.now_ms()
    players = {p.id: p.name for p in event.players}
    infractions, penalty_names = rule_names(event.ruleset)
    devices = device_rows(event)
    labels = {d["id"]: f"{d['name']} #{d['id']}" for d in devices}
    join_url = urls.join_url(event.join_code)
    penalties = []
    for row in penalty_rows(event):
        issued = row["penalty"]
        issued = issued if isinstance(issued, list) else [issued] if issued else []
        penalties.append({
            **row, "device": labels.get(row["device_id"], row["device"]),
            "infraction_name": infractions.get(row["infraction"], _readable(row["infraction"])),
            "penalty_name": " + ".join(penalty_names.get(i, _readable(i)) for i in issued)
            or "no penalty"})
    return render_template(
        "organiser/event.html", event=event, clock=clock, players=players, devices=devices,
        penalties=penalties, join_url=join_url, now_ms=now,
        join_unreachable=urls.phones_cannot_reach(join_url), join_insecure=join_url.startswith("http:"),
        time_left=_time_left(clock["round"], now), ago=lambda ms: _ago(ms, now),
        qr_svg=segno.make(join_url, error="m").svg_inline(scale=4))


def _readable(rule_id: str) -> str:
    return rule_id.replace("_", " ")


def rule_names(ruleset_id: str) -> tuple[dict[str, str], dict[str, str]]:
    """(infraction id → name, penalty id → name) from the ruleset's JSON."""
    try:
        data = load_ruleset(ruleset_id)
    except RuleError:
        return {}, {}
    return ({i["id"]: i.get("name") or i["id"] for i in data.get("infractions", [])},
            {p["id"]: p.get("name") or p["id"] for p in data.get("penalties", [])})


def device_rows(event: Event) -> list[dict]:
    """The event's devices (not the organiser's) by judge, oldest join first: `{"id",
    "label", "judge", "name", "role", "created_ms", "last_seen_ms", "revoked_ms",
    "joins", "current"}`. Where one judge joined more than once, `current` marks the
    device that synced last (a device that never synced counts from its join)."""
    devices = [d for d in event.devices if d.role != "organiser"]
    by_judge: dict[str, list[Device]] = {}
    for d in devices:
        by_judge.setdefault(d.judge_name.strip().casefold(), []).append(d)
    rows = []
    for group in by_judge.values():
        live = [d for d in group if d.revoked_ms is None]
        current = max(live, key=lambda d: (d.last_seen_ms or d.created_ms, d.id)) if live else None
        for d in sorted(group, key=lambda d: (d.created_ms, d.id)):
            rows.append({"id": d.id, "label": f"{d.judge_name} · {d.name} #{d.id}",
                         "judge": d.judge_name, "name": d.name, "role": d.role,
                         "created_ms": d.created_ms, "last_seen_ms": d.last_seen_ms,
                         "revoked_ms": d.revoked_ms, "joins": len(group),
                         "current": d is current})
    return sorted(rows, key=lambda r: (r["judge"].casefold(), r["created_ms"], r["id"]))


def _time_left(rnd: dict | None, now: int) -> str | None:
    """The round's time left as m:ss (also while paused: what is left when it resumes);
    None for no round, an ended or an untimed one."""
    if not rnd or rnd["state"] == "ended" or rnd["round_minutes"] is None:
        return None
    if rnd["state"] == "paused":
        end = rnd["started_ms"] + round(rnd["round_minutes"] * 60_000) + rnd["paused_ms"]
        left = end - rnd["pauses"][-1]["start_ms"]
    else:
        left = rnd["end_ms"] - now
    seconds = max(0, left) // 1000
    return f"{seconds // 60}:{seconds % 60:02d}"


def _ago(ms: int | None, now: int) -> str:
    if ms is None:
        return "never"
    minutes = max(0, now - ms) // 60_000
    if minutes < 1:
        return "just now"
    if minutes < 60:
        return f"{minutes} min ago"
    return f"{minutes // 60} h {minutes % 60} min ago"


def _form_number(key: str, kind, label: str):
    """The form's number `key` (None when empty); ApiError 400 naming `label` otherwise."""
    text = request.form.get(key, "").strip()
    if not text:
        return None
    try:
        return kind(text)
    except ValueError:
        raise ApiError.bad_request(f"{label} must be a number, not {text!r}", key) from None


@bp.post("/events/<slug>/round")
@organiser_required
@_form_action
def round_action(slug):
    event = get_event(slug)
    action = request.form.get("action")
    if action == "start":
        rnd = start_round(event, _form_number("round_minutes", float, "round minutes"),
                          untimed=bool(request.form.get("untimed")))
        return f"Round {rnd.number} started."
    actions = {"pause": pause_round, "resume": resume_round, "end": end_round}
    if action not in actions:
        raise ApiError.bad_request("unknown action")
    rnd = actions[action](event)
    return f"Round {rnd.number}: {action}."


@bp.post("/events/<slug>/stage")
@organiser_required
@_form_action
def set_stage(slug):
    event = get_event(slug)
    stage = request.form.get("stage")
    if stage not in STAGES:
        raise ApiError.bad_request("stage must be swiss or elimination")
    event.stage = stage
    bump(event)
    db.session.commit()
    return f"Stage: {stage}."


def _csv_text() -> str:
    upload = request.files.get("file")
    if upload and upload.filename:
        return upload.read().decode("utf-8-sig")
    return request.form.get("csv", "")


@bp.post("/events/<slug>/players")
@organiser_required
@_form_action
def players(slug):
    added, skipped = import_players(get_event(slug), _csv_text())
    message = f"{added} player{'' if added == 1 else 's'} added."
    if skipped:
        message += " Skipped: " + "; ".join(skipped) + "."
    return message


@bp.post("/events/<slug>/pairings")
@organiser_required
@_form_action
def pairings(slug):
    try:
        number = int(request.form.get("round", ""))
    except ValueError:
        raise ApiError.bad_request("round must be a number") from None
    count = import_pairings(get_event(slug), number, _csv_text())
    return f"Round {number}: {count} tables."


@bp.post("/events/<slug>/devices/<int:device_id>")
@organiser_required
@_form_action
def device_action(slug, device_id):
    event = get_event(slug)
    device = db.session.get(Device, device_id)
    if device is None or device.event_id != event.id:
        raise ApiError.not_found("device")
    if request.form.get("action") == "revoke":
        revoke(device)
        return f"{device.name} revoked."
    set_role(device, request.form.get("role", ""))
    return f"{device.name} is now {device.role.replace('_', ' ')}."


@bp.post("/events/<slug>/penalties/<record_id>/approval")
@organiser_required
@_form_action
def approve(slug, record_id):
    """An approval record from the organiser's pseudo-device, validated and numbered like
    any device's record."""
    event = get_event(slug)
    device = organiser_device(event)
    approved = request.form.get("approved") == "1"
    record = {"id": str(uuid.uuid4()), "type": "approval", "device": device.id,
              "judge": "organiser", "event": slug, "created_ms": timeutil.now_ms(),
              "payload": {"record": record_id, "approved": approved,
                          "comment": request.form.get("comment") or None}}
    result = push(event, device, [record])[0]
    if result["status"] != "accepted":
        raise ApiError.bad_request(result.get("reason", result["status"]))
    return "Approved." if approved else "Declined."


@bp.get("/events/<slug>/penalties.csv")
@organiser_required
def export_csv(slug):
    return Response(penalties_csv(get_event(slug)), mimetype="text/csv",
                    headers={"Content-Disposition": f"attachment; filename=penalties-{slug}.csv"})


@bp.get("/events/<slug>/penalties.json")
@organiser_required
def export_json_file(slug):
    return Response(json.dumps(export_json(get_event(slug)), indent=2), mimetype="application/json",
                    headers={"Content-Disposition": f"attachment; filename=penalties-{slug}.json"})

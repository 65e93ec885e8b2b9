"""Organiser pages (server-rendered, plain, mobile-friendly), behind each person's account
(what each role may do: roles.PAGES): events, join code and QR, round clock controls,
players, devices and roles, penalties with approval, exports. Logging in and accounts:
organiser_accounts.py; replacing a round's tables: organiser_imports.py; the audit log:
organiser_audit.py. Every action is written to the event's audit log (audit.log)."""

import json
import uuid
from functools import wraps

import segno
from flask import Blueprint, Response, current_app, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from markupsafe import Markup, escape
from werkzeug.exceptions import RequestEntityTooLarge, TooManyRequests

from . import timeutil, urls
from .accounts import account_events, event_staff, other_accounts
from .audit import log
from .auth import csrf_token, current_account, may, page_access
from .board import results_csv, round_board
from .clock import ROUND_MINUTES, clock_state, end_round, pause_round, resume_round, start_round
from .deck_checks import coverage
from .errors import ApiError
from .events import (
    check_number,
    create_event,
    event_problems,
    export_json,
    get_event,
    import_players,
    new_code,
    organiser_device,
    penalties_csv,
    penalty_rows,
    revoke,
    rule_names,
    ruleset_label,
    set_head_judge_from,
    set_role,
    unreadable_records,
)
from .events import (
    set_stage as change_stage,
)
from .extensions import api, db
from .fields import MAX_BIGINT
from .i18n import LANG_COOKIE, LANG_COOKIE_DAYS, LANGUAGES, label, page_language, rule_lang, rule_text, unmarked
from .models import STAGES, Device, Event
from .reconcile import stored_items
from .roles import ACCOUNT_ROLES
from .rules import RuleError, load_ruleset, ruleset_ids
from .sync import push

bp = Blueprint("organiser", __name__, url_prefix="/organiser", template_folder="templates")
MAX_GAMES = 99  # games per match a form may give


@bp.app_context_processor
def _template_globals():
    return {"csrf_token": csrf_token, "me": current_account, "may": may, "kept": kept, "languages": LANGUAGES,
            "page_language": page_language, "label": label, "rule_lang": rule_lang}


bp.add_app_template_filter(rule_text)
bp.add_app_template_filter(unmarked)


@bp.app_template_global()
def event_rules(event) -> Markup:
    """Template global: an event's ruleset title and level name ("Title · Level") in the
    page's language (rule_text marks English), its ids where the rule data no longer knows
    them (events.ruleset_label)."""
    title, level = ruleset_label(event.ruleset, event.level, page_language())
    return rule_text(title) + (Markup(" · ") + rule_text(level) if level else Markup(""))


@bp.get("/language")
def choose_language():
    """The language picker (the pages' footer): keeps `?lang=` (one of i18n.LANGUAGES) in a
    cookie for a year and goes back to `?next=` (an organiser page; the event list otherwise)."""
    target = request.args.get("next", "")
    response = redirect(target if target.startswith("/organiser") else url_for(".index"))
    lang = request.args.get("lang")
    if lang in LANGUAGES:
        response.set_cookie(LANG_COOKIE, lang, max_age=LANG_COOKIE_DAYS * 86400, samesite="Lax",
                            httponly=True, path=bp.url_prefix)
    return response


def refused_on(endpoint: str, slug: str, status: int = 400):
    """The page `endpoint` of event `slug` drawn again after a refused form (`status`: 400, or
    the refusal's own, e.g. 409 for a change someone else made first), its flashed message on
    it and the refused form's fields as typed (the template global `kept`)."""
    g.kept = {"endpoint": request.endpoint, "form": request.form.to_dict()}
    return current_app.view_functions[endpoint](slug=slug), status


def kept(endpoint: str, name: str, default=""):
    """Template global: what was typed in field `name` of the form posted to `endpoint` when
    that form was refused on this request (refused_on), else `default`."""
    found = g.get("kept")
    if found and found["endpoint"] == endpoint and name in found["form"]:
        return found["form"][name]
    return default


def form_action_to(endpoint: str):
    """A decorator for POST handlers of an event's page `endpoint`: the handler's message, or
    a refused action (ApiError, RuleError), becomes a message on that page instead of an
    error page, and nothing the refused action began is kept."""

    def decorate(view):
        @wraps(view)
        def wrapped(slug, *args, **kwargs):
            try:
                message = view(slug, *args, **kwargs)
                if message:
                    flash(message, "ok")
            except (ApiError, RuleError) as err:
                db.session.rollback()
                flash(str(err), "error")
                conflict = isinstance(err, ApiError) and err.status == 409
                return refused_on(endpoint, slug, 409 if conflict else 400)
            return redirect(url_for(endpoint, slug=slug))

        return wrapped

    return decorate


_form_action = form_action_to("organiser.event_page")


@bp.app_errorhandler(RequestEntityTooLarge)
@bp.app_errorhandler(TooManyRequests)
def _page_error(error):
    """An upload or form field over the size limits, or too many wrong passwords: the
    organiser page again, saying so (elsewhere, the API's error shape)."""
    if not request.path.startswith(bp.url_prefix):
        return api.handle_http_exception(error)
    if error.code == 429:
        flash(_("Too many wrong passwords from this address (at most %(limits)s); wait and try again.",
                limits=current_app.config["LOGIN_LIMITS"]), "error")
        return render_template("organiser/login.html"), 429
    limit = current_app.config["MAX_CONTENT_LENGTH"] // (1024 * 1024)
    field = current_app.config["MAX_FORM_MEMORY_SIZE"] // 1000
    flash(_("Too large: a file may have at most %(limit)s MiB and pasted text at most %(field)s kB; "
            "nothing was changed.", limit=limit, field=field), "error")
    slug = (request.view_args or {}).get("slug")
    return redirect(url_for(".event_page", slug=slug) if slug else url_for(".index"))


@bp.get("/")
@page_access("own_account")
def index():
    """The events the account has a role in (every event for an admin) with that role, and
    for an admin the new-event form (its ruleset picker in the page's language)."""
    return _index_page()


def _index_page(form=None, problems=None, status=200):
    language = page_language()
    account = current_account()
    rulesets = [load_ruleset(r, language) for r in ruleset_ids()] if account.admin else []
    return render_template("organiser/index.html", events=account_events(account), stages=STAGES,
                           rulesets=rulesets, form=form or {}, problems=problems or {}), status


@bp.post("/events")
@page_access("create_event")
def new_event():
    """Create an event from the form. Every refused value is named at its field and the form
    comes back as typed (400); nothing is made then."""
    form = request.form
    ruleset, _sep, level = form.get("ruleset_level", "").partition("|")
    values, problems = {}, {}
    for key, read in (("games_per_match", lambda: _form_number("games_per_match", _l("games per match"), 1,
                                                               MAX_GAMES)),
                      ("round_minutes", _form_minutes)):
        try:
            values[key] = read()
        except ApiError as err:
            problems[key] = str(err)
    name, game = form.get("name", "").strip() or "Event", form.get("game") or None
    settings = {"level": level or None, "stage": form.get("stage") or "swiss", "game": game,
                **{k: values.get(k) for k in ("games_per_match", "round_minutes")}}
    for field, message in event_problems(name, ruleset, settings).items():
        problems.setdefault(NEW_EVENT_FIELDS.get(field, field), message)
    if problems:
        return _index_page(form, problems, 400)
    event = create_event(name, ruleset, **settings)
    log(event, "event.create", {"name": event.name, "ruleset": event.ruleset, "level": event.level,
                                "stage": event.stage, "games_per_match": event.games_per_match,
                                "round_minutes": event.round_minutes, "game": event.game})
    return redirect(url_for(".event_page", slug=event.slug))


# a setting's field as event_problems names it -> the new-event form's field
NEW_EVENT_FIELDS = {"ruleset": "ruleset_level", "level": "ruleset_level"}


@bp.get("/events/<slug>")
@page_access("event_page")
def event_page(slug):
    """The event: round clock, join code, round board, calls, what waits for the head judge,
    deck checks, penalties, devices, staff, players and tables; each form shown only to the
    roles that may use it (roles.PAGES)."""
    event = get_event(slug)
    language = page_language()
    clock = clock_state(event)
    now = timeutil.now_ms()
    players = {p.id: p.name for p in event.players}
    devices = device_rows(event)
    labels = {d["id"]: f"{d['name']} #{d['id']}" for d in devices}
    join_url = urls.join_url(event.join_code)
    items = stored_items(event)
    penalties = [{**row, "device": labels.get(row["device_id"], row["device"])}
                 for row in penalty_rows(event, items, language)]
    review = review_rows(items, penalties, players)
    try:
        ruleset_data = load_ruleset(event.ruleset, language)
    except RuleError:  # the rule data no longer has the event's ruleset: the page still shows the event
        ruleset_data = {}
    return render_template(
        "organiser/event.html", event=event, clock=clock, players=players, devices=devices, stages=STAGES,
        penalties=penalties, review=review, unreadable=unreadable_records(event), join_url=join_url, now_ms=now,
        ruleset_penalties=ruleset_data.get("penalties", []),
        head_judge_default=ruleset_data.get("defaults", {}).get("head_judge_from"),
        join_unreachable=urls.phones_cannot_reach(join_url), join_insecure=join_url.startswith("http:"),
        time_left=_time_left(clock["round"], now), board=round_board(event, now), ago=lambda ms: _ago(ms, now),
        qr_svg=segno.make(join_url, error="m").svg_inline(scale=4), deck_checks=coverage(event, language),
        staff=event_staff(event) if may("staff") else [], account_roles=ACCOUNT_ROLES,
        others=other_accounts(event) if current_account().admin else [])


def review_rows(items: list, penalties: list[dict], players: dict[int, str]) -> list[dict]:
    """What waits for the head judge (of the event's reconcile.stored_items), with
    the penalty rows' names: `{"kind", "record", "player_name", "judge", "table", "round",
    "notes", "penalty_name", "infraction_name", "flag"}`; an appeal item (`players`: id →
    name) has `ruling` and `ruled_by` instead of the penalty's names."""
    by_id = {p["id"]: p for p in penalties}
    rows = []
    for item in items:
        if item.kind == "appeal":
            i = item.item
            rows.append({"kind": "appeal", "record": item.record_id,
                         "player_name": players.get(i["player"], str(i["player"])),
                         **{k: i.get(k) for k in ("judge", "table", "round", "ruling", "ruled_by")}, "notes": None})
            continue
        row = by_id.get(item.record_id)
        if row is None or not item.item["waiting"]:
            continue
        rows.append({"kind": item.kind, "record": item.record_id, **{k: row[k] for k in (
            "player_name", "judge", "table", "round", "notes", "penalty_name", "infraction_name", "flag")}})
    return rows


def device_label(device: Device) -> str:
    """How the pages name a device: its judge first, then the device's own name and number
    ("Ines Floor · Phone #12"), so two judges' phones both called "Phone" are told apart."""
    return f"{device.judge_name} · {device.name} #{device.id}"


def device_rows(event: Event) -> list[dict]:
    """The event's devices (not the organiser's) by judge, oldest join first: `{"id",
    "label", "account" (the account it joined through, or None), "judge", "name", "role",
    "created_ms", "last_seen_ms", "revoked_ms", "joins", "current"}`. Where one judge joined
    more than once, `current` marks the device that synced last (a device that never synced
    counts from its join)."""
    devices = [d for d in event.devices if d.role != "organiser"]
    by_judge: dict[str, list[Device]] = {}
    for d in devices:
        by_judge.setdefault(d.judge_name.strip().casefold(), []).append(d)
    rows = []
    for group in by_judge.values():
        live = [d for d in group if d.revoked_ms is None]
        current = max(live, key=lambda d: (d.last_seen_ms or d.created_ms, d.id)) if live else None
        for d in sorted(group, key=lambda d: (d.created_ms, d.id)):
            rows.append({"id": d.id, "label": device_label(d), "account": d.account_id,
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
    """How long ago `ms` was, in the page's language ("never" for None)."""
    if ms is None:
        return _("never")
    minutes = max(0, now - ms) // 60_000
    if minutes < 1:
        return _("just now")
    if minutes < 60:
        return _("%(minutes)s min ago", minutes=minutes)
    return _("%(hours)s h %(minutes)s min ago", hours=minutes // 60, minutes=minutes % 60)


def _form_number(key: str, label, low: int, high: int) -> int | None:
    """The form's whole number `key` from `low` to `high` (None when empty), written in ASCII
    digits (no "1_0", "１２", "5.5" or "1e2"); ApiError 400 naming `label` otherwise."""
    text = request.form.get(key, "").strip()
    return check_number(text, label, low, high, key) if text else None


def _form_minutes() -> float | None:
    """The form's round length in whole minutes (clock.ROUND_MINUTES; None when empty: the
    event's or the ruleset's), as the round stores it."""
    minutes = _form_number("round_minutes", _l("round minutes"), *ROUND_MINUTES)
    return None if minutes is None else float(minutes)


@bp.post("/events/<slug>/round")
@page_access("run_rounds")
@_form_action
def round_action(slug):
    """Start (with its minutes, or untimed), pause, resume or end the round."""
    event = get_event(slug)
    action = request.form.get("action")
    if action == "start":
        rnd = start_round(event, _form_minutes(),
                          untimed=bool(request.form.get("untimed")))
        log(event, "round.start", {"round": rnd.number, "minutes": rnd.round_minutes, "stage": rnd.stage})
        return _("Round %(number)s started.", number=rnd.number)
    actions = {"pause": pause_round, "resume": resume_round, "end": end_round}
    if action not in actions:
        raise ApiError.bad_request(_l("unknown action"))
    rnd = actions[action](event)
    log(event, f"round.{action}", {"round": rnd.number})
    done = {"pause": _("Round %(number)s paused."), "resume": _("Round %(number)s resumed."),
            "end": _("Round %(number)s ended.")}[action]
    return done % {"number": rnd.number}


@bp.post("/events/<slug>/stage")
@page_access("settings")
@_form_action
def set_stage(slug):
    event = get_event(slug)
    before = event.stage
    change_stage(event, request.form.get("stage") or "")
    log(event, "event.settings", {"stage": {"from": before, "to": event.stage}})
    return _("Stage: %(stage)s.", stage=event.stage)


@bp.post("/events/<slug>/head-judge")
@page_access("settings")
@_form_action
def head_judge_from(slug):
    """The penalty from which the head judge confirms (events.set_head_judge_from)."""
    event = get_event(slug)
    before = event.head_judge_from
    set_head_judge_from(event, request.form.get("head_judge_from") or None)
    log(event, "event.settings", {"head_judge_from": {"from": before, "to": event.head_judge_from}})
    if not event.head_judge_from:
        return _("The policy alone says what the head judge confirms.")
    name = rule_names(event.ruleset, page_language())[1].get(event.head_judge_from, event.head_judge_from)
    return escape(_("The head judge confirms from %(penalty)s up.")) % {"penalty": rule_text(name)}


def upload_text() -> str:
    """The uploaded file's text, else the pasted text. ApiError 400 for a file that is not
    UTF-8 text (size limits: see the 413 handler)."""
    upload = request.files.get("file")
    if upload and upload.filename:
        try:
            return upload.read().decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ApiError.bad_request(
                _l("the file is not UTF-8 text: save it from the spreadsheet as CSV UTF-8"), "file") from None
    return request.form.get("csv", "")


@bp.post("/events/<slug>/players")
@page_access("import")
@_form_action
def players(slug):
    event = get_event(slug)
    before = {p.id for p in event.players}
    added, skipped = import_players(event, upload_text())
    log(event, "players.import", {"added": [p.name for p in event.players if p.id not in before],
                                  "skipped": [str(s) for s in skipped]})
    message = ngettext("%(num)s player added.", "%(num)s players added.", added)
    if skipped:
        message += " " + _("Skipped: %(players)s.", players="; ".join(str(s) for s in skipped))
    return message


@bp.post("/events/<slug>/devices/<int:device_id>")
@page_access("devices")
@_form_action
def device_action(slug, device_id):
    """Revoke a device, or set its role (a device joined through an account follows its
    person's role: that is set under Staff)."""
    event = get_event(slug)
    device = db.session.get(Device, device_id) if device_id <= MAX_BIGINT else None
    if device is None or device.event_id != event.id:
        raise ApiError.not_found(_l("device"))
    changes = {"device": device.id, "judge": device.judge_name}
    if request.form.get("action") == "revoke":
        code = revoke(device)
        if code is None:
            return _("%(device)s was already revoked.", device=device_label(device))
        log(event, "device.revoke", changes)
        return _("%(device)s revoked. The join code is now %(code)s: judges who have not joined yet need it; "
                 "phones that joined keep working.", device=device_label(device), code=code)
    if device.account_id is not None:
        raise ApiError.bad_request(_l("%(device)s follows its person's role: change it under Staff",
                                      device=device_label(device)), "role")
    before = device.role
    set_role(device, request.form.get("role", ""))
    log(event, "device.role", {**changes, "role": {"from": before, "to": device.role}})
    return _("%(device)s is now %(role)s.", device=device_label(device), role=label(device.role))


@bp.post("/events/<slug>/join-code")
@page_access("devices")
@_form_action
def join_code(slug):
    """A new join code for the event; the old one stops working at once."""
    event = get_event(slug)
    code = new_code(event)
    log(event, "join_code.new")
    return _("New join code: %(code)s. The old code no longer works; phones that joined keep working.", code=code)


@bp.post("/events/<slug>/penalties/<record_id>/approval")
@page_access("approve")
@_form_action
def approve(slug, record_id):
    """An approval record from the organiser's pseudo-device, validated and numbered like
    any device's record (the audit log names the account that gave it)."""
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
    return _("Approved.") if approved else _("Declined.")


def csv_download(text: str, filename: str) -> Response:
    """CSV text as a file the browser saves under `filename`."""
    return Response(text, mimetype="text/csv", headers={"Content-Disposition": f"attachment; filename={filename}"})


@bp.get("/events/<slug>/penalties.csv")
@page_access("penalty_exports")
def export_csv(slug):
    return csv_download(penalties_csv(get_event(slug)), f"penalties-{slug}.csv")


@bp.get("/events/<slug>/results.csv")
@page_access("round_exports")
def export_results(slug):
    """Every table's current result (board.result_rows) as CSV."""
    return csv_download(results_csv(get_event(slug)), f"results-{slug}.csv")


@bp.get("/events/<slug>/board.json")
@page_access("event_page")
def board_json(slug):
    """The round board (board.round_board) for the event page to follow without a reload."""
    now = timeutil.now_ms()
    return {**round_board(get_event(slug), now), "server_ms": now}


@bp.get("/events/<slug>/board")
@page_access("event_page")
def board_part(slug):
    """The round board's part of the event page, drawn again (the page fetches it every 5 s)."""
    event = get_event(slug)
    return render_template("organiser/_board.html", event=event, board=round_board(event, timeutil.now_ms()))


@bp.get("/events/<slug>/penalties.json")
@page_access("penalty_exports")
def export_json_file(slug):
    return Response(json.dumps(export_json(get_event(slug)), indent=2), mimetype="application/json",
                    headers={"Content-Disposition": f"attachment; filename=penalties-{slug}.json"})

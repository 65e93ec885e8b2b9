"""Organiser pages for decklists: the deadline and deck sizes, each player's list (paste or
upload a version, its history), a bulk CSV of lists, the players' codes with QR links,
printing every list (one a page, by last name) and the CSV export (decklist_intake.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import segno
from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from . import timeutil, urls
from .audit import log
from .auth import page_access
from .decklist_intake import (
    MAX_SIZE,
    ListRefused,
    bulk,
    by_last_name,
    current_lists,
    ensure_codes,
    limits,
    lists_csv,
    problem_infraction,
    register,
    set_deadline,
    set_sizes,
    shown_code,
    submissions_open,
    versions,
    view,
)
from .decklists import FORMATS
from .errors import ApiError
from .events import check_number, get_event, rule_names, utc_iso
from .extensions import db
from .i18n import page_language
from .models import Event, Player
from .organiser import bp, csv_download, form_action_to, upload_text

TZ_MINUTES = 14 * 60  # the furthest a time zone is from UTC


_to_page = form_action_to("organiser.decklists_page")


@bp.app_context_processor
def _decklist_globals():
    return {"decklist_summary": decklist_summary}


def _list_text() -> str:
    """The uploaded list file's text, else the pasted text (`text`). ApiError 400 for a file
    that is not UTF-8 text (size limits: see the organiser pages' 413 handler)."""
    upload = request.files.get("file")
    if upload and upload.filename:
        try:
            return upload.read().decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ApiError.bad_request(_l("the file is not UTF-8 text"), "file") from None
    return request.form.get("text", "")


def decklist_summary(event: Event) -> dict:
    """For the event page: `{"players", "registered", "deadline_ms", "open"}`."""
    return {"players": len(event.players), "registered": len(current_lists(event)),
            "deadline_ms": event.decklist_deadline_ms, "open": submissions_open(event)}


def _policy_words(event: Event, language: str) -> dict:
    """The policy's infraction for an illegal and for a late list, named in `language`:
    `{"illegal_list": {...problem_infraction, "name"}, "late_list": {...}}`."""
    names = rule_names(event.ruleset, language)[0]
    out = {}
    for problem in ("illegal_list", "late_list"):
        found = problem_infraction(event, problem, language=language)
        out[problem] = {**found, "name": names.get(found["infraction"]) if found["infraction"] else None}
    return out


@bp.get("/events/<slug>/decklists")
@page_access("decklists")
def decklists_page(slug):
    """The event's decklists: settings, who has a list (by last name), bulk upload, links."""
    event = get_event(slug)
    ensure_codes(event)
    language = page_language()
    sizes = limits(event, language)
    lists = current_lists(event)
    counts: dict[int, int] = {}
    for r in versions(event):
        counts[r.payload["player"]] = counts.get(r.payload["player"], 0) + 1
    rows = [{"player": p, "code": shown_code(p.decklist_code), "versions": counts.get(p.id, 0),
             "list": view(lists[p.id], sizes) if p.id in lists else None} for p in by_last_name(event.players)]
    return render_template("organiser/decklists.html", event=event, rows=rows, sizes=sizes, now_ms=timeutil.now_ms(),
                           open=submissions_open(event), formats=FORMATS, policy=_policy_words(event, language),
                           deadline_utc=utc_iso(event.decklist_deadline_ms), max_size=MAX_SIZE)


def _deadline_ms() -> int | None:
    """The form's deadline (`deadline`, a datetime-local value, in the organiser's time zone
    given by `tz_offset`: minutes behind UTC, as the browser's getTimezoneOffset; empty: UTC)
    as epoch ms; ApiError 400 naming what is wrong."""
    text = request.form.get("deadline", "").strip()
    try:
        moment = datetime.strptime(text, "%Y-%m-%dT%H:%M").replace(tzinfo=UTC)
    except ValueError:
        raise ApiError.bad_request(_l("the deadline must be a date and time, as 2027-01-15T09:30"), "deadline") \
            from None
    offset = request.form.get("tz_offset", "").strip()
    minutes = 0
    if offset:
        sign = -1 if offset.startswith("-") else 1
        minutes = sign * check_number(offset.lstrip("+-"), _l("time zone"), 0, TZ_MINUTES, "tz_offset")
    return int(moment.timestamp() * 1000) + minutes * 60_000


@bp.post("/events/<slug>/decklists/settings")
@page_access("decklists")
@_to_page
def decklist_settings(slug):
    """The players' deadline (`action` "deadline" or "no_deadline") or the deck sizes the
    ruleset does not state (`action` "sizes": `min_<section>`, `max_<section>`, empty for no
    bound)."""
    event = get_event(slug)
    action = request.form.get("action")
    before = event.decklist_deadline_ms
    if action == "no_deadline":
        set_deadline(event, None)
        log(event, "decklists.settings", {"deadline_ms": {"from": before, "to": None}})
        return _("Players no longer submit their lists; you enter them.")
    if action == "deadline":
        set_deadline(event, _deadline_ms())
        log(event, "decklists.settings", {"deadline_ms": {"from": before, "to": event.decklist_deadline_ms}})
        return _("Players submit their lists until %(deadline)s (UTC).", deadline=utc_iso(event.decklist_deadline_ms))
    if action != "sizes":
        raise ApiError.bad_request(_l("unknown action"))
    values = {}
    for section in limits(event):
        if section["stated"]:
            continue
        values[section["id"]] = tuple(
            check_number(text, label, 0, MAX_SIZE, f"{bound}_{section['id']}")
            if (text := request.form.get(f"{bound}_{section['id']}", "").strip()) else None
            for bound, label in (("min", _l("minimum")), ("max", _l("maximum"))))
    before = event.decklist_sizes
    set_sizes(event, values)
    log(event, "decklists.settings", {"sizes": {"from": before, "to": event.decklist_sizes}})
    return _("Deck sizes saved.")


@bp.post("/events/<slug>/decklists/bulk")
@page_access("decklists")
@_to_page
def decklists_bulk(slug):
    """Lists from a CSV (decklist_intake.bulk): the rows that read are stored, each other row
    is named with its reason."""
    stored, refused = bulk(get_event(slug), upload_text())
    message = ngettext("%(num)s list stored.", "%(num)s lists stored.", len(stored))
    if refused:
        flash(_("Not stored: %(rows)s", rows=" · ".join(refused)), "error")
    return message


def _player(event: Event, player_id: int) -> Player:
    player = db.session.get(Player, player_id) if player_id < 2**31 else None
    if player is None or player.event_id != event.id:
        raise ApiError.not_found(_l("player"))
    return player


@bp.route("/events/<slug>/decklists/<int:player_id>", methods=["GET", "POST"])
@page_access("decklists")
def decklist_player(slug, player_id):
    """One player's list: the version that counts, every version (who, when), and a form to
    add a version (pasted or uploaded, in any format). A list that does not read is shown
    again with each bad line, and nothing is stored (400)."""
    event = get_event(slug)
    try:
        player = _player(event, player_id)
    except ApiError as err:
        flash(str(err), "error")
        return redirect(url_for(".decklists_page", slug=slug))
    ensure_codes(event)
    refused, text, fmt, status = None, "", "", 200
    if request.method == "POST":
        fmt = request.form.get("format", "")
        try:
            text = _list_text()
            register(event, player, text, fmt or None, "organiser")
            flash(_("A new version of %(name)s's list is stored.", name=player.name), "ok")
            return redirect(url_for(".decklist_player", slug=slug, player_id=player.id))
        except ListRefused as err:
            refused, status = err.lines, 400
        except ApiError as err:
            flash(str(err), "error")
            status = 400
    language = page_language()
    sizes = limits(event, language)
    own = versions(event, player.id)
    return render_template("organiser/decklist_player.html", event=event, player=player,
                           code=shown_code(player.decklist_code), sizes=sizes, formats=FORMATS,
                           shown=[view(r, sizes) for r in reversed(own)], refused=refused, text=text, fmt=fmt,
                           policy=_policy_words(event, language), utc=utc_iso), status


@bp.get("/events/<slug>/decklists/print")
@page_access("decklists")
def decklists_print(slug):
    """Every registered list, one a page, by last name (the order judges file them)."""
    event = get_event(slug)
    sizes = limits(event, page_language())
    lists = current_lists(event)
    players = by_last_name(event.players)
    return render_template("organiser/decklists_print.html", event=event, utc=utc_iso,
                           pages=[(p, view(lists[p.id], sizes)) for p in players if p.id in lists],
                           missing=[p for p in players if p.id not in lists])


@bp.get("/events/<slug>/decklists.csv")
@page_access("decklists")
def decklists_export(slug):
    """Every registered list as CSV, one row per card line (decklist_intake.lists_csv)."""
    return csv_download(lists_csv(get_event(slug)), f"decklists-{slug}.csv")


def code_url(slug: str, code: str) -> str:
    """The players' page where a player submits their list, their code filled in."""
    return f"{urls.base_url()}/#/event/{slug}/decklist/{code}"


@bp.get("/events/<slug>/decklists/codes")
@page_access("decklists")
def decklist_codes(slug):
    """A printable sheet of each player's decklist code with a QR of their submission link,
    by last name (hand each player their own slip)."""
    event = get_event(slug)
    ensure_codes(event)
    slips = [{"player": p, "code": shown_code(p.decklist_code), "url": code_url(slug, p.decklist_code),
              "svg": segno.make(code_url(slug, p.decklist_code), error="m").svg_inline(scale=3)}
             for p in by_last_name(event.players)]
    return render_template("organiser/decklist_codes.html", event=event, slips=slips,
                           deadline_utc=utc_iso(event.decklist_deadline_ms))

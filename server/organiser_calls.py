"""Organiser pages for judge calls: the event page's calls part, the escalation setting,
the calls' CSV, and a printable sheet of table QR cards (each opens the players' table page,
`<public address>/#/event/<slug>/table/<n>`, where players call a judge)."""

import segno
from flask import render_template, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from . import timeutil, urls
from .appeals import appeals_csv
from .audit import log
from .auth import page_access
from .calls import ESCALATE_SECONDS, call_json, calls_csv, list_calls, reasons, set_escalate_seconds
from .errors import ApiError
from .events import check_number, get_event
from .extensions import db
from .i18n import page_language
from .models import Event, Pairing
from .organiser import _form_action, bp, csv_download

MAX_CARDS = 500  # table cards one sheet may hold


@bp.app_context_processor
def _calls_globals():
    return {"event_calls": event_calls, "escalate_range": ESCALATE_SECONDS,
            "call_reasons": {r["id"]: r["label"] for r in reasons(page_language())}}


def event_calls(event: Event) -> list[dict]:
    """The event's calls that are not closed, oldest first (calls.call_json), for the page."""
    now = timeutil.now_ms()
    return [call_json(event, c, now) for c in list_calls(event)]


def table_url(slug: str, table: int) -> str:
    """The players' page of one table (what its QR card encodes)."""
    return f"{urls.base_url()}/#/event/{slug}/table/{table}"


def table_count(event: Event) -> int:
    """The highest table number in the event's pairings (any round), or 0 when none."""
    return db.session.scalar(db.select(db.func.max(Pairing.number)).where(Pairing.event_id == event.id)) or 0


@bp.post("/events/<slug>/call-escalation")
@page_access("settings")
@_form_action
def call_escalation(slug):
    """The organiser's setting: seconds before a call nobody took goes to the head judge."""
    low, high = ESCALATE_SECONDS
    seconds = check_number(request.form.get("seconds", ""), _l("seconds"), low, high, "seconds")
    event = get_event(slug)
    before = event.call_escalate_seconds
    set_escalate_seconds(event, seconds)
    log(event, "event.settings", {"call_escalate_seconds": {"from": before, "to": seconds}})
    return _("A call nobody takes within %(seconds)s s now goes to the head judge.", seconds=seconds)


@bp.get("/events/<slug>/calls.csv")
@page_access("round_exports")
def export_calls(slug):
    """Every judge call of the event with its times (calls.calls_csv)."""
    return csv_download(calls_csv(get_event(slug)), f"calls-{slug}.csv")


@bp.get("/events/<slug>/appeals.csv")
@page_access("penalty_exports")
def export_appeals(slug):
    """Every appeal of the event with the head judge's decision (appeals.appeals_csv)."""
    return csv_download(appeals_csv(get_event(slug)), f"appeals-{slug}.csv")


@bp.get("/events/<slug>/tables")
@page_access("import")
def table_cards(slug):
    """A printable sheet of table QR cards for tables 1..N: N is `?count=` (1 to MAX_CARDS),
    else the highest table number of the event's pairings. A bad count is said on the page,
    with what the sheet shows instead (the default), and stays in its field, marked."""
    event = get_event(slug)
    count, error = table_count(event), None
    typed = request.args.get("count")
    if typed:
        try:
            count = check_number(typed, _l("count"), 1, MAX_CARDS, "count")
        except ApiError as err:  # shown on the page, with the sheet it shows instead
            fallback = (_("Showing tables 1 to %(count)s instead, the highest table number of the pairings.",
                          count=count) if count else _("No cards are shown instead: the event has no pairings yet."))
            error = f"{err} {fallback}"
    cards = [{"number": n, "url": table_url(slug, n),
              "svg": segno.make(table_url(slug, n), error="m").svg_inline(scale=3)} for n in range(1, count + 1)]
    return render_template("organiser/tables.html", event=event, cards=cards, count=count, error=error,
                           typed=typed if error else None, max_cards=MAX_CARDS)

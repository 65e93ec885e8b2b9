"""The event's audit log page (organisers): every entry newest first, filtered by person and
kind, 200 at a time ("older" pages on), and its CSV (audit.audit_csv). Read-only: nothing
here or anywhere changes an entry."""

from flask import render_template, request

from .audit import PAGE_SIZE, audit_csv, change_lines, entries, kind_name, kinds_used, people
from .auth import page_access
from .events import get_event, utc_iso
from .organiser import bp, csv_download


def _filters() -> tuple[str | None, str | None, int | None]:
    """(person, kind, before) from the query; an unusable `before` is ignored."""
    before = request.args.get("before", "")
    return (request.args.get("person") or None, request.args.get("kind") or None,
            int(before) if before.isascii() and before.isdigit() and len(before) < 12 else None)


@bp.get("/events/<slug>/audit")
@page_access("audit")
def audit_page(slug):
    """The audit log: `?person=` (audit.person_key), `?kind=` (a kind id), `?before=` (an
    entry id: older entries)."""
    event = get_event(slug)
    person, kind, before = _filters()
    shown = entries(event, person, kind, before)
    return render_template("organiser/audit.html", event=event, entries=shown, people=people(event),
                           kinds=kinds_used(event), person=person, kind=kind, kind_name=kind_name,
                           change_lines=change_lines, utc_iso=utc_iso,
                           older=shown[-1].id if len(shown) == PAGE_SIZE else None)


@bp.get("/events/<slug>/audit.csv")
@page_access("audit")
def export_audit(slug):
    """The audit log as CSV, oldest first, filtered like the page (`?person=`, `?kind=`)."""
    person, kind, _before = _filters()
    return csv_download(audit_csv(get_event(slug), person, kind), f"audit-{slug}.csv")

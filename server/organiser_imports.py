"""Organiser pages for replacing a round's tables (imports.py): the upload (our own CSV, a
mapped CSV, or a `.tdf`), the column mapping asked once per kind of CSV, the preview of what
changes, and its confirmation, the one step that changes the round's tables."""

from flask import flash, render_template, request
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from .audit import log
from .auth import page_access
from .errors import ApiError
from .events import check_number, get_event
from .extensions import db
from .imports import (
    MAPPED,
    MAPPED_LABELS,
    apply,
    csv_headers,
    from_form,
    is_tdf,
    plan,
    plan_form,
    read_csv,
    read_tdf,
    save_mapping,
    saved_mapping,
)
from .organiser import _form_action, bp, refused_on, upload_text
from .records import MAX_ROUND

SAMPLE_ROWS = 3  # rows of the file the mapping page shows


def _round() -> int:
    return check_number(request.form.get("round", ""), _l("round"), 1, MAX_ROUND, "round")


@bp.post("/events/<slug>/pairings")
@page_access("import")
def pairings(slug):
    """Read the uploaded or pasted file for round `round` and show what replacing that
    round's tables with it changes (nothing changes yet). A CSV that is neither our own
    format nor one whose columns were mapped before asks for its mapping first (`remap`
    asks again; the mapping form sends `mapping`). A bad file: the event page, naming the
    line or element."""
    event = get_event(slug)
    try:
        number, text = _round(), upload_text()
        if is_tdf(text):
            found = read_tdf(text, number)
        else:
            headers = csv_headers(text)
            if request.form.get("mapping"):
                mapping = save_mapping(headers, request.form)
            else:
                mapping = None if request.form.get("remap") else saved_mapping(headers)
            if mapping is None:
                return _mapping_page(event, number, text, headers)
            found = read_csv(text, mapping)
        planned = plan(event, number, found)
    except ApiError as err:
        db.session.rollback()
        flash(str(err), "error")
        return refused_on("organiser.event_page", slug)
    return render_template("organiser/import_preview.html", event=event, plan=planned, form_plan=plan_form(found),
                           text=None if is_tdf(text) else text)


def _mapping_page(event, number: int, text: str, headers: list[str]):
    """The page that asks which column holds what (imports.MAPPED), with the file's first
    rows and a guess from the header names."""
    from .events import csv_rows

    rows = csv_rows(text)[:SAMPLE_ROWS]
    return render_template("organiser/import_map.html", event=event, round=number, text=text, headers=headers,
                           sample=[row for _, row in rows], fields=MAPPED, labels=MAPPED_LABELS,
                           guess=guess_mapping(headers))


# words in a header name that suggest a mapped field (exports of Melee, EventLink and others)
HINTS = {"table": ("table", "tisch", "mesa", "tavolo"),
         "a_name": ("player 1", "player1", "player a", "player", "name"),
         "a_id": ("player 1 id", "player1 id", "player id", "id"),
         "b_name": ("player 2", "player2", "player b", "opponent"),
         "b_id": ("player 2 id", "player2 id", "opponent id")}


def guess_mapping(headers: list[str]) -> dict[str, str]:
    """A first guess of the mapping from header names: each field takes the first header
    equal to one of its HINTS, else containing one; a header is used once."""
    guess, used = {}, set()
    for field in MAPPED:
        for exact in (True, False):
            found = next((h for hint in HINTS[field] for h in headers if h not in used
                          and (h == hint if exact else hint in h)
                          and ("id" in h.split()) == field.endswith("_id")), None)
            if found:
                guess[field] = found
                used.add(found)
                break
    return guess


@bp.post("/events/<slug>/pairings/confirm")
@page_access("import")
@_form_action
def confirm_pairings(slug):
    """Replace the round's tables as the preview showed (imports.apply): new players added,
    ids filled in. Refused (nothing changes) when the round's tables changed since."""
    event = get_event(slug)
    number = _round()
    planned = apply(event, number, from_form(request.form.get("plan", "")), request.form.get("digest", ""))
    changed = [r["number"] for r in planned["rows"] if r["state"] != "same"]
    log(event, "tables.import", {"round": number, "source": planned["source"],
                                 "tables": {"from": sum(r["before"] is not None for r in planned["rows"]),
                                            "to": len(planned["tables"])},
                                 "changed": changed, "players_added": [p["name"] for p in planned["new_players"]],
                                 "ids_added": [p["name"] for p in planned["ids_added"]]})
    count = len(planned["tables"])
    message = ngettext("Round %(number)s: %(num)s table.", "Round %(number)s: %(num)s tables.", count, number=number)
    if planned["new_players"]:
        message += " " + ngettext("%(num)s player added.", "%(num)s players added.", len(planned["new_players"]))
    return message

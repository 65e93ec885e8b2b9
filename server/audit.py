"""The audit log: who did what, when, from which account or device, and what changed.

One table (`audit_entries`), one function that writes to it: `log(event, kind, changes)`.
Every organiser page action calls it after the action succeeded, and the sync stores one
entry per record a head judge, a scorekeeper or the organiser's pages recorded (voids,
approvals, results, resolutions, appeal decisions...), in the same transaction as the record.
Who acted is taken from the request: the device whose token authorised it (`g.device`, with
its person when it joined through an account), else the account logged in on the pages.

A new kind of action is one line in KINDS (its id and its name in the pages' words,
translated) and a call `log(event, "decklist.change", {"player": 12, "list": {"from": ..., "to":
...}})` where it happens; `changes` is any JSON object, by convention `{"field": {"from": old,
"to": new}}` for a changed value and plain values for what was made. A record type added to
roles.RECORDS needs its name in RECORD_KINDS (tests/server/test_audit.py checks it).

The log is append-only: no page or endpoint edits or deletes it, and the ORM refuses any
UPDATE or DELETE of its rows (`AppendOnly`).
"""

import json

import sqlalchemy as sa
from flask import g, has_request_context
from flask_babel import force_locale
from flask_babel import lazy_gettext as _l
from sqlalchemy.orm import Session

from . import timeutil
from .extensions import db
from .models import Account, AuditEntry, Device, Event, Record

# kind id -> its name on the audit page (translated); the ids are the app's own, never game words
KINDS = {
    "event.create": _l("event created"),
    "event.settings": _l("event settings changed"),
    "round.start": _l("round started"),
    "round.pause": _l("round paused"),
    "round.resume": _l("round resumed"),
    "round.end": _l("round ended"),
    "players.import": _l("players imported"),
    "tables.import": _l("tables replaced"),
    "device.join": _l("device joined"),
    "device.role": _l("device role changed"),
    "device.revoke": _l("device revoked"),
    "join_code.new": _l("new join code"),
    "staff.invite": _l("person invited"),
    "staff.role": _l("person's role changed"),
    "staff.link": _l("password link issued"),
    "staff.revoke": _l("person revoked"),
    "decklists.settings": _l("decklist deadline or deck sizes changed"),
}
# record type (roles.RECORDS) -> the name of its kind "record.<type>"
RECORD_KINDS = {
    "penalty": _l("penalty recorded"),
    "time_extension": _l("time extension recorded"),
    "time_call": _l("end-of-match procedure recorded"),
    "match_result": _l("result recorded"),
    "approval": _l("approval recorded"),
    "resolution": _l("flagged penalty kept as issued"),
    "void": _l("record voided"),
    "deck_check": _l("deck check recorded"),
    "appeal": _l("appeal recorded"),
    "appeal_decision": _l("appeal decided"),
    "decklist": _l("decklist version stored"),
}
KINDS.update({f"record.{t}": name for t, name in RECORD_KINDS.items()})
# the roles whose records are logged (floor judges' records are the event's records log)
LOGGED_RECORD_ROLES = ("head_judge", "scorekeeper", "organiser")
PAGE_SIZE = 200  # entries the page shows at once
COMMAND_LINE = "command line"  # who acted when no request says (flask commands)
PLAYERS_PAGE = "a player, with their code"  # who acted in a request with no device and no login (a decklist)


class AppendOnly(Exception):
    """Raised on any attempt to change or delete an audit entry through the ORM."""


def actor() -> tuple[Account | None, Device | None, str]:
    """Who is acting in this request: (account, device, their name). A device that
    authorised the request comes first (with its person's account when it joined through
    one); else the account logged in on the pages; else, in a request, a player with their
    decklist code (the players' page, the only public action that is logged); else (a command)
    nobody, "command line"."""
    from .auth import current_account

    if not has_request_context():
        return None, None, COMMAND_LINE
    device = g.get("device")
    if device is not None:
        account = db.session.get(Account, device.account_id) if device.account_id else None
        return account, device, device.judge_name
    account = current_account()
    return account, None, account.name if account else PLAYERS_PAGE


def log(event: Event, kind: str, changes: dict | None = None, commit: bool = True) -> AuditEntry:
    """Append one entry to `event`'s audit log: `kind` (a key of KINDS; KeyError otherwise,
    so every kind has a name), `changes` (a JSON object: what was made or changed), who (see
    `actor`) and when (server clock, epoch ms). Commits unless `commit` is False (the caller
    commits it with its own change)."""
    if kind not in KINDS:
        raise KeyError(f"audit kind {kind!r} is not in audit.KINDS")
    account, device, name = actor()
    entry = AuditEntry(event_id=event.id, at_ms=timeutil.now_ms(), kind=kind,
                       account_id=account.id if account else None, device_id=device.id if device else None,
                       actor=name[:100], changes=changes or {})
    db.session.add(entry)
    if commit:
        db.session.commit()
    return entry


def log_records(event: Event, device: Device, records: list) -> None:
    """One entry per stored record (models.Record) of a head judge, scorekeeper or the
    organiser's pages: kind "record.<type>", changes `{"record_id": its id, **its payload}`
    (a void's or an approval's `record` is the record it names, and `about` what that record
    is: _abouts). Not committed: the sync commits it with the records."""
    if device.role not in LOGGED_RECORD_ROLES:
        return
    abouts = _abouts(event, {r.payload.get("record") for r in records} - {None})
    for record in records:
        changes = {"record_id": record.id, **record.payload}
        if record.payload.get("record") in abouts:
            changes["about"] = abouts[record.payload["record"]]
        log(event, f"record.{record.type}", changes, commit=False)


# what an entry names of the record a void, approval or resolution is about
ABOUT_FIELDS = ("player", "table", "round", "infraction", "penalty", "result")


def _abouts(event: Event, record_ids: set) -> dict[str, dict]:
    """`{record id: {"type", "player" (the player's name where known), "table", "round",
    "infraction", "penalty", "result"}}` (those the record has) for the event's records among
    `record_ids`, read in one query: so an approval or a void in the log says what it was
    about, not only an id."""
    ids = [i for i in record_ids if isinstance(i, str)]
    if not ids:
        return {}
    names = {p.id: p.name for p in event.players}
    out = {}
    for target in db.session.scalars(sa.select(Record).where(Record.event_id == event.id, Record.id.in_(ids))):
        payload = target.payload if isinstance(target.payload, dict) else {}
        about = {"type": target.type, **{k: payload[k] for k in ABOUT_FIELDS if k in payload}}
        if isinstance(about.get("player"), int):
            about["player"] = names.get(about["player"], about["player"])
        out[target.id] = about
    return out


def person_key(entry: AuditEntry) -> str:
    """How the page's person filter names who made an entry: "a<account id>" for a person
    with an account (pages and their devices alike), "d<device id>" for a device joined by
    code, "-" for the command line."""
    if entry.account_id:
        return f"a{entry.account_id}"
    return f"d{entry.device_id}" if entry.device_id else "-"


def _filtered(event: Event, person: str | None, kind: str | None):
    query = db.select(AuditEntry).where(AuditEntry.event_id == event.id)
    if person and person[:1] in "ad" and person[1:].isascii() and person[1:].isdigit() and len(person) < 12:
        column = AuditEntry.account_id if person[0] == "a" else AuditEntry.device_id
        query = query.where(column == int(person[1:]))
        if person[0] == "d":
            query = query.where(AuditEntry.account_id.is_(None))
    elif person == "-":
        query = query.where(AuditEntry.account_id.is_(None), AuditEntry.device_id.is_(None))
    elif person:
        query = query.where(sa.false())
    if kind:
        query = query.where(AuditEntry.kind == kind)
    return query


def entries(event: Event, person: str | None = None, kind: str | None = None, before: int | None = None,
            limit: int | None = PAGE_SIZE) -> list[AuditEntry]:
    """The event's entries, newest first, filtered by `person` (person_key) and `kind`
    (exact id); only entries older than id `before` when given; at most `limit` (None: all)."""
    query = _filtered(event, person, kind)
    if before is not None:
        query = query.where(AuditEntry.id < before)
    query = query.order_by(AuditEntry.id.desc())
    return list(db.session.scalars(query if limit is None else query.limit(limit)))


def people(event: Event) -> list[tuple[str, str]]:
    """(person_key, name) of everyone with an entry in the event's log, by name; a device
    joined by code is named with its number ("Ines · device #12")."""
    rows = db.session.execute(db.select(AuditEntry.account_id, AuditEntry.device_id, AuditEntry.actor)
                              .where(AuditEntry.event_id == event.id).distinct()).all()
    found: dict[str, str] = {}
    for account_id, device_id, name in rows:
        if account_id:
            found.setdefault(f"a{account_id}", name)
        elif device_id:
            found[f"d{device_id}"] = f"{name} · #{device_id}"
        else:
            found["-"] = name
    return sorted(found.items(), key=lambda item: (item[1].casefold(), item[0]))


def kinds_used(event: Event) -> list[str]:
    """The kinds that occur in the event's log, in KINDS order."""
    used = set(db.session.scalars(db.select(AuditEntry.kind).where(AuditEntry.event_id == event.id).distinct()))
    return [k for k in KINDS if k in used]


def kind_name(kind: str) -> str:
    """A kind's name in the page's language (its id for one no longer in KINDS)."""
    return str(KINDS.get(kind, kind))


def change_lines(changes) -> list[tuple[str, str]]:
    """(field, text) for each top-level field of an entry's `changes`, for the page: a
    `{"from", "to"}` pair as "from → to", other values as compact JSON. Anything that is not
    an object is one line "changes"."""
    if not isinstance(changes, dict):
        return [("changes", _json(changes))]
    lines = []
    for key, value in changes.items():
        if isinstance(value, dict) and set(value) == {"from", "to"}:
            lines.append((str(key), f"{_json(value['from'])} → {_json(value['to'])}"))
        else:
            lines.append((str(key), _json(value)))
    return lines


def _json(value) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)


CSV_COLUMNS = ["id", "at_utc", "at_ms", "kind", "kind_name", "person", "account", "device", "changes"]


def audit_csv(event: Event, person: str | None = None, kind: str | None = None) -> str:
    """The event's log (filtered like `entries`, oldest first) as CSV: CSV_COLUMNS, times as
    UTC ISO 8601 and epoch ms, `changes` as JSON; every cell quoted and made safe for
    spreadsheets (events.write_csv)."""
    from .events import utc_iso, write_csv

    with force_locale("en"):  # the exports stay English
        rows = [{"id": e.id, "at_utc": utc_iso(e.at_ms), "at_ms": e.at_ms, "kind": e.kind,
                 "kind_name": kind_name(e.kind), "person": e.actor, "account": e.account_id or "",
                 "device": e.device_id or "",
                 "changes": json.dumps(e.changes, ensure_ascii=False, sort_keys=True)}
                for e in reversed(entries(event, person, kind, limit=None))]
    return write_csv(CSV_COLUMNS, rows)


@sa.event.listens_for(AuditEntry, "before_update")
@sa.event.listens_for(AuditEntry, "before_delete")
def _refuse_change(_mapper, _connection, _target):
    raise AppendOnly("the audit log is append-only")


@sa.event.listens_for(Session, "do_orm_execute")
def _refuse_bulk_change(state):
    if (state.is_update or state.is_delete) and any(
            getattr(m, "class_", None) is AuditEntry for m in state.all_mappers):
        raise AppendOnly("the audit log is append-only")

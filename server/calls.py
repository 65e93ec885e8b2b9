"""Judge calls from the tables: who may call (the event's ruleset, via the engine), making a
call (one per table while it is not closed), taking and closing it, escalation, and the
calls' CSV.

A call holds no personal data: the table number, the reason, whether a player or a
spectator called, its times (server clock, epoch ms) and the name of the judge who took it.
Every change bumps the event's `calls_seq` (the push channel, stream.py, carries it).

Who may call is rule data: the shared query `judge_call` (shared_rules/queries.json, fact
`caller`) answered by the event's ruleset. A ruleset without that query does not state it:
nobody is refused and the policy says "not stated". The reasons offered and the callers'
names are the query's `reason` and `caller` facts in queries.json.
"""

import uuid

from flask_babel import lazy_gettext as _l
from sqlalchemy import func, update
from sqlalchemy.exc import IntegrityError

from shared_rules.translations import ENGLISH
from shared_rules.vocabulary import shared, shared_in

from . import rules, timeutil
from .errors import ApiError
from .events import engine_event, utc_iso, write_csv
from .extensions import db
from .fields import text_problem
from .models import Call, Device, Event, Pairing
from .roles import HEADS

QUERY = "judge_call"
NOT_STATED = ("not stated: this event's policy does not say who may call a judge, "
              "so nobody is refused")
ESCALATE_SECONDS = (10, 3600)  # the range of the organiser's escalation setting
OPEN = ("open", "taken")  # statuses of a call that is not closed


def _fact(name: str) -> dict:
    return shared()["queries"][QUERY]["facts"][name]


def callers() -> list[str]:
    """Who may be named as calling: `player`, `spectator` (queries.json)."""
    return list(_fact("caller")["values"])


def reasons(language: str = ENGLISH) -> list[dict]:
    """The reasons a call may give, `[{"id", "label"}]` (queries.json, our own words), the
    labels in `language` where translated (English otherwise)."""
    spec = shared_in(language)["queries"][QUERY]["facts"]["reason"]
    return [{"id": r, "label": spec["names"][r]} for r in _fact("reason")["values"]]


def caller_policy(event: Event, caller: str, language: str = ENGLISH) -> dict:
    """`{"caller", "name", "allowed", "explain", "stated", "source"}`: whether `caller` may call
    a judge at this event, from its ruleset and level (the engine's `judge_call` answer in
    `language`; a text with no current translation is its English with translations.MARK in
    it, as rules.evaluate(marked=True) gives it; source "document §section"). Where the ruleset does not
    state it (or the rule data no longer has the ruleset): allowed, stated False, explain
    "not stated: ..." (English), source None."""
    name = shared_in(language)["queries"][QUERY]["facts"]["caller"]["names"].get(caller, caller)
    if QUERY in rules.queries_of(event.ruleset):
        answer = rules.evaluate({"ruleset": event.ruleset, "query": QUERY, "event": engine_event(event),
                                 "facts": {"caller": caller}, "language": language}, marked=True)
        if answer.get("allowed") is not None:
            return {"caller": caller, "name": name, "allowed": answer["allowed"],
                    "explain": " ".join(answer["explain"]), "stated": True,
                    "source": answer["sources"][0] if answer["sources"] else None}
    return {"caller": caller, "name": name, "allowed": True, "explain": NOT_STATED, "stated": False, "source": None}


def policy(event: Event, language: str = ENGLISH) -> dict:
    """What the players' page shows, in `language` (one of translations.LANGUAGES), for the
    API: `{"callers": [caller_policy...], "reasons": reasons(), "english": [the paths of texts
    shown in English for want of a current translation, e.g. "callers[1].explain"]}`
    (rules.for_api)."""
    return rules.for_api({"callers": [caller_policy(event, c, language) for c in callers()],
                          "reasons": reasons(language)})


def bump_calls(event: Event) -> None:
    """Mark the event's calls as changed (before the commit of any change to them)."""
    db.session.execute(update(Event).where(Event.id == event.id).values(calls_seq=Event.calls_seq + 1))


def open_call(event: Event, table: int) -> Call | None:
    """The table's call that is not closed, if any (the latest)."""
    return db.session.scalar(db.select(Call).where(
        Call.event_id == event.id, Call.table_number == table, Call.status.in_(OPEN))
        .order_by(Call.created_ms.desc()).limit(1))


def latest_call(event: Event, table: int) -> Call | None:
    """The table's latest call, closed or not."""
    return db.session.scalar(db.select(Call).where(Call.event_id == event.id, Call.table_number == table)
                             .order_by(Call.created_ms.desc(), Call.id).limit(1))


def check_table(event: Event, table: int) -> None:
    """ApiError 400 (field "table") when the event has tables for its latest round and
    `table` is not one of them (a mistyped or made-up table number must not reach judges'
    phones); before any pairings every table 1..9999 may call."""
    latest = db.session.scalar(db.select(func.max(Pairing.round_number)).where(Pairing.event_id == event.id))
    if latest is None:
        return
    numbers = set(db.session.scalars(db.select(Pairing.number).where(
        Pairing.event_id == event.id, Pairing.round_number == latest)))
    if table not in numbers:
        raise ApiError.bad_request(f"no table {table} in round {latest} of this event "
                                   f"(tables {min(numbers)} to {max(numbers)})", field="table")


def check_caller(event: Event, caller: str) -> None:
    """Raise ApiError 403 with the policy's explanation when the event's ruleset says
    `caller` may not call a judge."""
    verdict = caller_policy(event, caller)
    if not verdict["allowed"]:
        raise ApiError.forbidden(verdict["explain"])


def create_call(event: Event, table: int, reason: str | None, caller: str) -> tuple[Call, bool]:
    """(the call, whether it is new): a new open call for `table`, or the table's call that is
    not closed yet (repeated taps make one call). The caller is checked first (check_caller)."""
    # under the event row's lock (PostgreSQL), so two taps at once make one call
    db.session.execute(db.select(Event.id).where(Event.id == event.id).with_for_update())
    existing = open_call(event, table)
    if existing is not None:
        db.session.commit()
        return existing, False
    call = Call(id=str(uuid.uuid4()), event_id=event.id, table_number=table, reason=reason, caller=caller,
                status="open", created_ms=timeutil.now_ms())
    try:
        db.session.add(call)
        bump_calls(event)  # flushes the new call first
        db.session.commit()
    except IntegrityError:  # a tap at the same moment stored the table's call first
        db.session.rollback()
        existing = open_call(event, table)
        if existing is None:
            raise
        return existing, False
    return call, True


def get_call(event: Event, call_id: str) -> Call:
    """The event's call with this id; ApiError 404 otherwise (also for text no id can be,
    which the database is never asked about)."""
    call = db.session.get(Call, call_id) if len(call_id) <= 36 and not text_problem(call_id) else None
    if call is None or call.event_id != event.id:
        raise ApiError.not_found("call")
    return call


def take_call(event: Event, call: Call, device: Device) -> Call:
    """The judge of `device` takes the call ("on my way"). Taking one's own call again is
    harmless; ApiError 409 when another judge took it or it is closed."""
    db.session.execute(db.select(Event.id).where(Event.id == event.id).with_for_update())
    db.session.refresh(call)
    if call.status == "closed":
        raise ApiError.conflict("this call is closed")
    if call.status == "taken":
        if call.taken_device_id != device.id:
            raise ApiError.conflict(f"{call.taken_by} took this call")
        db.session.commit()
        return call
    call.status, call.taken_ms = "taken", timeutil.now_ms()
    call.taken_by, call.taken_device_id = device.judge_name, device.id
    bump_calls(event)
    db.session.commit()
    return call


def close_call(event: Event, call: Call, device: Device, ruling: str | None) -> Call:
    """Close the call, with the ruling given if any; `closed_by` names this judge. A call
    nobody took is taken by this judge at the same moment. ApiError 409 when it is already
    closed, or when another judge took it and this one is not the head judge (or organiser),
    who may close any call (e.g. calls nobody needs)."""
    db.session.execute(db.select(Event.id).where(Event.id == event.id).with_for_update())
    db.session.refresh(call)
    if call.status == "closed":
        raise ApiError.conflict("this call is closed")
    if call.status == "taken" and call.taken_device_id != device.id and device.role not in HEADS:
        raise ApiError.conflict(f"{call.taken_by} took this call: they close it, or the head judge")
    now = timeutil.now_ms()
    if call.status == "open":
        call.taken_ms, call.taken_by, call.taken_device_id = now, device.judge_name, device.id
    call.status, call.closed_ms, call.ruling, call.closed_by = "closed", now, ruling, device.judge_name
    bump_calls(event)
    db.session.commit()
    return call


def escalated(event: Event, call: Call, now: int) -> bool:
    """Whether nobody took the open call within the event's `call_escalate_seconds`."""
    return call.status == "open" and now - call.created_ms > event.call_escalate_seconds * 1000


def call_json(event: Event, call: Call, now: int) -> dict:
    """A call for judges: `{"id", "table", "reason", "status", "created_ms", "taken_by",
    "taken_ms", "closed_ms", "closed_by", "ruling", "escalated"}`."""
    return {"id": call.id, "table": call.table_number, "reason": call.reason, "status": call.status,
            "created_ms": call.created_ms, "taken_by": call.taken_by, "taken_ms": call.taken_ms,
            "closed_ms": call.closed_ms, "closed_by": call.closed_by, "ruling": call.ruling,
            "escalated": escalated(event, call, now)}


def list_calls(event: Event, closed: bool = False) -> list[Call]:
    """The event's calls that are not closed (with `closed`, every call), oldest first."""
    query = db.select(Call).where(Call.event_id == event.id)
    if not closed:
        query = query.where(Call.status.in_(OPEN))
    return db.session.scalars(query.order_by(Call.created_ms, Call.id)).all()


def set_escalate_seconds(event: Event, seconds: int) -> None:
    """The organiser's setting: seconds an open call waits before it is flagged for the head
    judge (ESCALATE_SECONDS). ApiError 400 outside that range."""
    low, high = ESCALATE_SECONDS
    if not low <= seconds <= high:
        raise ApiError.bad_request(_l("seconds must be from %(low)s to %(high)s, not %(seconds)s", low=low, high=high,
                                      seconds=seconds), "call_escalate_seconds")
    event.call_escalate_seconds = seconds
    bump_calls(event)
    db.session.commit()


CSV_COLUMNS = ["id", "table", "caller", "reason", "status", "created_utc", "created_ms", "taken_by",
               "taken_utc", "taken_ms", "closed_utc", "closed_ms", "closed_by", "ruling"]


def calls_csv(event: Event) -> str:
    """Every call of the event as CSV (CSV_COLUMNS; times as UTC ISO 8601 and epoch ms, every
    cell quoted, formula-like text neutralised as in the penalty export)."""
    rows = []
    for call in list_calls(event, closed=True):
        rows.append({"id": call.id, "table": call.table_number, "caller": call.caller,
                     "reason": call.reason or "", "status": call.status,
                     "created_utc": utc_iso(call.created_ms), "created_ms": call.created_ms,
                     "taken_by": call.taken_by or "", "taken_utc": utc_iso(call.taken_ms),
                     "taken_ms": call.taken_ms or "", "closed_utc": utc_iso(call.closed_ms),
                     "closed_ms": call.closed_ms or "", "closed_by": call.closed_by or "",
                     "ruling": call.ruling or ""})
    return write_csv(CSV_COLUMNS, rows)

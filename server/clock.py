"""Round clocks: start, pause, resume and end a round on the server clock, and the clock
state that every phone and player screen follows.

A round's end (`end_ms`) = start + round minutes + time spent paused; it is null while the
round is paused (nobody knows yet) or when the round is untimed. A table's end adds the sum
of its non-voided `time_extension` records for that round.
"""

from collections import defaultdict

from flask import current_app
from flask_babel import lazy_gettext as _l

from . import timeutil
from .errors import ApiError
from .extensions import db
from .http_cache import etag_of
from .models import Event, Pause, Record, Round
from .records import effective, readable


def bump(event: Event) -> None:
    """Mark the event's clock as changed (call before the commit of any change to its
    rounds, pauses, tables or stage); records bump `last_seq` themselves."""
    event.clock_version = Event.clock_version + 1


def current_round(event: Event) -> Round | None:
    """The latest started round of the event, or None before round 1."""
    return db.session.scalar(
        db.select(Round).where(Round.event_id == event.id).order_by(Round.number.desc()).limit(1))


def paused_ms(rnd: Round) -> int:
    """Milliseconds the round spent in finished pauses (an open pause is not counted)."""
    return sum(p.end_ms - p.start_ms for p in rnd.pauses if p.end_ms is not None)


def round_state(rnd: Round) -> str:
    if rnd.ended_ms is not None:
        return "ended"
    if rnd.pauses and rnd.pauses[-1].end_ms is None:
        return "paused"
    return "running"


def round_end_ms(rnd: Round) -> int | None:
    """When time is called for the round, or None while paused or when untimed."""
    if rnd.round_minutes is None or round_state(rnd) == "paused":
        return None
    return rnd.started_ms + round(rnd.round_minutes * 60_000) + paused_ms(rnd)


ROUND_MINUTES = (1, 600)  # the range a round's length may take


def check_round_minutes(minutes: float | None) -> None:
    """Raise ApiError 400 (field `round_minutes`) unless `minutes` is None or within
    ROUND_MINUTES."""
    low, high = ROUND_MINUTES
    if minutes is not None and not low <= minutes <= high:
        raise ApiError.bad_request(
            _l("round minutes must be between %(low)s and %(high)s, not %(minutes)s", low=low, high=high,
               minutes=f"{minutes:g}"), "round_minutes")


def start_round(event: Event, round_minutes: float | None = None, untimed: bool = False) -> Round:
    """Start the next round (number = last + 1) now. Minutes default to the event's;
    `untimed` starts a round without an end (e.g. a top-cut round).

    Raises ApiError 409 while another round is running or paused, 400 when neither the call
    nor the event gives the round's length or the length is outside ROUND_MINUTES.
    """
    last = current_round(event)
    if last is not None and last.ended_ms is None:
        raise ApiError.conflict(_l("round %(number)s has not ended", number=last.number))
    check_round_minutes(round_minutes)
    minutes = None if untimed else (round_minutes or event.round_minutes)
    if minutes is None and not untimed:
        raise ApiError.bad_request(_l("give the round's minutes: this event has no round length"),
                                   "round_minutes")
    rnd = Round(event_id=event.id, number=(last.number + 1) if last else 1, stage=event.stage,
                round_minutes=minutes, started_ms=timeutil.now_ms())
    db.session.add(rnd)
    bump(event)
    db.session.commit()
    return rnd


def _open_round(event: Event) -> Round:
    rnd = current_round(event)
    if rnd is None or rnd.ended_ms is not None:
        raise ApiError.conflict(_l("no round is running"))
    return rnd


def pause_round(event: Event) -> Round:
    """Pause the running round now (409 if none runs or it is already paused)."""
    rnd = _open_round(event)
    if round_state(rnd) == "paused":
        raise ApiError.conflict(_l("round %(number)s is already paused", number=rnd.number))
    rnd.pauses.append(Pause(start_ms=timeutil.now_ms()))
    bump(event)
    db.session.commit()
    return rnd


def resume_round(event: Event) -> Round:
    """End the open pause now (409 unless the round is paused)."""
    rnd = _open_round(event)
    if round_state(rnd) != "paused":
        raise ApiError.conflict(_l("round %(number)s is not paused", number=rnd.number))
    rnd.pauses[-1].end_ms = timeutil.now_ms()
    bump(event)
    db.session.commit()
    return rnd


def end_round(event: Event) -> Round:
    """End the round now (an open pause closes at the same moment)."""
    rnd = _open_round(event)
    now = timeutil.now_ms()
    if round_state(rnd) == "paused":
        rnd.pauses[-1].end_ms = now
    rnd.ended_ms = now
    bump(event)
    db.session.commit()
    return rnd


def table_extensions(event: Event, round_number: int) -> dict[int, float]:
    """Minutes of time extension per table number in a round (non-voided records only;
    a stored record that cannot be read is left out, see records.stored_problem)."""
    records = readable(db.session.scalars(db.select(Record).where(
        Record.event_id == event.id, Record.type.in_(("time_extension", "void")))
        .order_by(Record.seq)).all())
    minutes: dict[int, float] = defaultdict(float)
    for rec in effective(records):
        if rec.type == "time_extension" and rec.payload.get("round") == round_number:
            minutes[rec.payload["table"]] += rec.payload["minutes"]
    return dict(minutes)


def event_summary(event: Event) -> dict:
    """The public description of an event (no personal data)."""
    return {"slug": event.slug, "name": event.name, "ruleset": event.ruleset,
            "level": event.level, "stage": event.stage,
            "games_per_match": event.games_per_match, "round_minutes": event.round_minutes,
            "head_judge_from": event.head_judge_from}


def clock_state(event: Event) -> dict:
    """The event's clock without `server_ms` (the caller adds it; the ETag excludes it).

    `{"event", "round": null | {"number", "state", "round_minutes", "started_ms", "pauses":
    [{"start_ms", "end_ms"}], "paused_ms" (finished pauses), "end_ms", "ended_ms"}, "tables": [{"number",
    "extension_minutes", "end_ms"}]}`; tables are the round's pairings plus any table with
    an extension, by number.
    """
    rnd = current_round(event)
    state = {"event": event_summary(event), "round": None, "tables": []}
    if rnd is None:
        return state
    end = round_end_ms(rnd)
    state["round"] = {
        "number": rnd.number, "state": round_state(rnd), "round_minutes": rnd.round_minutes,
        "started_ms": rnd.started_ms,
        "pauses": [{"start_ms": p.start_ms, "end_ms": p.end_ms} for p in rnd.pauses],
        "paused_ms": paused_ms(rnd),
        "end_ms": end, "ended_ms": rnd.ended_ms,
    }
    extensions = table_extensions(event, rnd.number)
    numbers = {p.number for p in event.pairings if p.round_number == rnd.number}
    for number in sorted(numbers | set(extensions)):
        extra = extensions.get(number, 0)
        state["tables"].append({
            "number": number, "extension_minutes": extra,
            "end_ms": None if end is None else end + round(extra * 60_000)})
    return state


def cached_clock_state(event: Event) -> tuple[dict, str]:
    """(clock_state(event), its ETag), kept per process until the event's `last_seq` or
    `clock_version` moves, so a poll by many players costs one small query."""
    cache = current_app.extensions.setdefault("clock_cache", {})
    key = (event.last_seq, event.clock_version)
    hit = cache.get(event.id)
    if hit is None or hit[0] != key:
        state = clock_state(event)
        hit = cache[event.id] = (key, state, etag_of(state))
    return hit[1], hit[2]

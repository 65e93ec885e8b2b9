"""Sync: a device pushes its outbox and pulls what it has not seen, in one request.

Push is idempotent by record id: a record already stored is `duplicate` (or `rejected` when
the same id arrives with different content). Each record is checked on its own; a bad one
is `rejected` with a reason and the rest are kept. Accepted records get the event's next
sequence numbers; pulling returns every record of the event with `seq` > the device's
cursor, so a device that pulls until it has no more holds exactly the server's records.
"""

from sqlalchemy import func, or_, update
from sqlalchemy.exc import IntegrityError

from . import roles, timeutil
from .audit import log_records
from .extensions import db
from .models import Device, Event, Pairing, Player, Record, Round
from .reconcile import reconcile
from .records import PAYLOADS, PlayerRef, check_shape, event_refs, known_readable, player_key, readable, record_refs

FIELDS = ("type", "device", "judge", "created_ms", "payload")


def record_json(rec: Record, slug: str) -> dict:
    """A stored record as sent to devices: the RECORD plus `seq` and `received_ms`."""
    return {"id": rec.id, "type": rec.type, "device": rec.device_id, "judge": rec.judge,
            "event": slug, "created_ms": rec.created_ms, "payload": rec.payload,
            "seq": rec.seq, "received_ms": rec.received_ms}


def _same(stored: Record, rec: dict) -> bool:
    return (stored.type, stored.device_id, stored.judge, stored.created_ms, stored.payload) \
        == tuple(rec[f] for f in FIELDS)


class _Batch:
    """The checks of one push that need the database: what the records name must exist in
    the event (players, rounds, records: see records.EventRef), and the device's role must
    allow each record (roles.RECORDS)."""

    def __init__(self, event: Event, device: Device, recs: list[dict]):
        self.event, self.device = event, device
        ids = {r["id"] for r in recs} | {ref for r in recs for ref in record_refs(r["type"], r["payload"])}
        self.known = {r.id: r for r in db.session.scalars(
            db.select(Record).where(Record.id.in_(ids)))} if ids else {}
        players = {value for r in recs for name, field in event_refs(r["type"]).items()
                   if isinstance(field, PlayerRef)
                   and isinstance(value := r["payload"].get(name), int)}
        self.players = set(db.session.scalars(db.select(Player.id).where(
            Player.event_id == event.id, Player.id.in_(players)))) if players else set()
        self.last_round = max(1, db.session.scalar(db.select(func.max(Round.number)).where(
            Round.event_id == event.id)) or 0, db.session.scalar(
            db.select(func.max(Pairing.round_number)).where(Pairing.event_id == event.id)) or 0)
        self._tables: dict[int, set[int]] = {}  # round number -> its tables (pairings), read once

    def live_naming(self, target: str, record_type: str) -> list[Record]:
        """The event's records of `record_type` naming `target` (stored, or accepted earlier
        in this push) that no void cancels."""
        eid = self.event.id
        rows = {r.id: r for r in db.session.scalars(db.select(Record).where(
            Record.event_id == eid, Record.target == target, Record.type == record_type))}
        rows.update({r.id: r for r in self.known.values()
                     if r.event_id == eid and r.target == target and r.type == record_type})
        voided = set(db.session.scalars(db.select(Record.target).where(
            Record.event_id == eid, Record.type == "void", Record.target.in_(list(rows))))) if rows else set()
        voided |= {r.target for r in self.known.values() if r.event_id == eid and r.type == "void"}
        return [r for rid, r in rows.items() if rid not in voided]

    def reason(self, rec: dict) -> str | None:
        """Why this (well-formed) record cannot be accepted, or None."""
        event, device = self.event, self.device
        if rec["event"] != event.slug:
            return f"event: this is event {event.slug}, not {rec['event']}"
        if rec["device"] != device.id:
            return f"device: this token belongs to device {device.id}"
        writers = roles.RECORDS[rec["type"]][0]
        if device.role not in writers:
            return roles.needed(writers)
        for name, field in event_refs(rec["type"]).items():
            value = rec["payload"].get(name)
            problem = None if value is None else field.problem(value, self)
            if problem:
                return f"payload.{name}: {problem}"
        problem = self.table_problem(rec["payload"])
        if problem:
            return problem
        return PAYLOADS[rec["type"]].event_problem(rec, self)

    def table_problem(self, payload: dict) -> str | None:
        """A record naming a table and a round whose tables were entered must name one of
        them (a table that does not play that round gets no result, extension or penalty)."""
        table, number = payload.get("table"), payload.get("round")
        if not isinstance(table, int) or not isinstance(number, int):
            return None
        if number not in self._tables:
            self._tables[number] = set(db.session.scalars(db.select(Pairing.number).where(
                Pairing.event_id == self.event.id, Pairing.round_number == number)))
        tables = self._tables[number]
        if tables and table not in tables:
            return f"payload.table: round {number} has no table {table} (its tables: {_spans(tables)})"
        return None


def _spans(numbers: set[int]) -> str:
    """Table numbers as short runs: {1, 2, 3, 7} -> "1-3, 7"."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def push(event: Event, device: Device, raw_records: list) -> list[dict]:
    """Store what can be stored of `raw_records`; one result per record, in order:
    `{"id", "status": "accepted"|"duplicate"|"rejected", "reason"?}`.

    Tries again (up to three times in all) when another request stored one of the same ids
    meanwhile: the primary key makes this insert fail, and the next try sees a duplicate.
    """
    for attempt in range(3):
        try:
            return _push_once(event, device, raw_records)
        except IntegrityError:
            db.session.rollback()
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def _push_once(event: Event, device: Device, raw_records: list) -> list[dict]:
    checked = [check_shape(raw) for raw in raw_records]
    for rec, _ in checked:
        if rec:  # the name the device joined with, whatever the phone sent
            rec["judge"] = device.judge_name
    batch = _Batch(event, device, [rec for rec, _ in checked if rec])
    results, new = [], []
    now = timeutil.now_ms()
    for raw, (rec, reason) in zip(raw_records, checked, strict=True):
        rid = rec["id"] if rec else (raw.get("id") if isinstance(raw, dict) else None)
        if rec is None:
            results.append({"id": rid, "status": "rejected", "reason": reason})
            continue
        stored = batch.known.get(rec["id"])
        if stored is not None:
            if stored.event_id == event.id and _same(stored, rec):
                results.append({"id": rid, "status": "duplicate"})
            else:
                results.append({"id": rid, "status": "rejected",
                                "reason": "id: already used by a different record"})
            continue
        reason = batch.reason(rec)
        if reason:
            results.append({"id": rid, "status": "rejected", "reason": reason})
            continue
        row = Record(id=rec["id"], event_id=event.id, type=rec["type"], device_id=device.id,
                     judge=rec["judge"], created_ms=rec["created_ms"], received_ms=now,
                     payload=rec["payload"], target=rec["target"],
                     player=player_key(rec["type"], rec["payload"]))
        batch.known[row.id] = row  # later records of the batch may void or approve it
        new.append(row)
        results.append({"id": rid, "status": "accepted"})
    if new:
        # Taking the numbers locks the event row until commit, so sequence numbers become
        # visible in order and a reader's cursor never skips a record committed later.
        last = db.session.execute(
            update(Event).where(Event.id == event.id)
            .values(last_seq=Event.last_seq + len(new)).returning(Event.last_seq)).scalar_one()
        for seq, row in enumerate(new, start=last - len(new) + 1):
            row.seq = seq
        db.session.add_all(new)
        db.session.flush()
        known_readable(new)  # checked above: views and reconciliation need not check them again
        reconcile(event, last)  # under the event row's lock, like the numbers
        log_records(event, device, new)  # a head judge's, scorekeeper's or the pages' records
    device.last_seen_ms = now
    db.session.commit()
    return results


def pull(event: Event, role: str, cursor: int, limit: int) -> tuple[list[Record], int, bool]:
    """Records of the event with seq > cursor that `role` may read (roles.RECORDS: a void
    goes with the record it voids), oldest first, at most `limit`; returns (records, new
    cursor, whether more remain). The cursor passes records the role may not read and rows
    that cannot be read (records.stored_problem), so they are never sent."""
    # read before the records: every record up to it is committed and in the query below
    last_seq = db.session.scalar(db.select(Event.last_seq).where(Event.id == event.id))
    types = roles.readable_types(role)
    target = db.aliased(Record)
    voids = db.select(target.id).where(target.event_id == event.id, target.type.in_(types))
    rows = db.session.scalars(
        db.select(Record).where(Record.event_id == event.id, Record.seq > cursor, or_(
            Record.type.in_(types), (Record.type == "void") & Record.target.in_(voids)))
        .order_by(Record.seq).limit(limit + 1)).all()
    more = len(rows) > limit
    rows = rows[:limit]
    # when nothing more is readable, the cursor moves on to the event's last record
    new_cursor = rows[-1].seq if more else max(rows[-1].seq if rows else cursor, last_seq, cursor)
    return readable(rows), new_cursor, more

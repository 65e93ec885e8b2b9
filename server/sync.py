"""Sync: a device pushes its outbox and pulls what it has not seen, in one request.

Push is idempotent by record id: a record already stored is `duplicate` (or `rejected` when
the same id arrives with different content). Each record is checked on its own; a bad one
is `rejected` with a reason and the rest are kept. Accepted records get the event's next
sequence numbers; pulling returns every record of the event with `seq` > the device's
cursor, so a device that pulls until it has no more holds exactly the server's records.
"""

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError

from . import timeutil
from .extensions import db
from .models import Device, Event, Player, Record
from .records import HEAD_ROLES, TYPE_ROLES, check_shape
from .schemas import MAX_BIGINT

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
    """The checks of one push that need the database: targets, players, ownership."""

    def __init__(self, event: Event, device: Device, recs: list[dict]):
        self.event, self.device = event, device
        ids = {r["id"] for r in recs} | {r["target"] for r in recs if r["target"]}
        self.known = {r.id: r for r in db.session.scalars(
            db.select(Record).where(Record.id.in_(ids)))} if ids else {}
        players = {r["payload"]["player"] for r in recs
                   if r["type"] == "penalty" and isinstance(r["payload"]["player"], int)
                   and 1 <= r["payload"]["player"] <= MAX_BIGINT}  # others match no row
        self.players = set(db.session.scalars(db.select(Player.id).where(
            Player.event_id == event.id, Player.id.in_(players)))) if players else set()

    def reason(self, rec: dict) -> str | None:
        """Why this (well-formed) record cannot be accepted, or None."""
        event, device = self.event, self.device
        if rec["event"] != event.slug:
            return f"event: this is event {event.slug}, not {rec['event']}"
        if rec["device"] != device.id:
            return f"device: this token belongs to device {device.id}"
        roles = TYPE_ROLES[rec["type"]]
        if device.role not in roles:
            return f"role {roles[0]} required" if rec["type"] == "approval" \
                else f"role {' or '.join(roles)} required"
        payload = rec["payload"]
        if rec["type"] == "penalty":
            if isinstance(payload["player"], int) and payload["player"] not in self.players:
                return f"payload.player: no player {payload['player']} in this event"
            if payload.get("ruleset") not in (None, event.ruleset):
                return f"payload.ruleset: this event uses {event.ruleset}"
        if rec["target"]:
            target = self.known.get(rec["target"])
            if target is None or target.event_id != event.id:
                return f"payload.record: no record {rec['target']} in this event"
            if rec["type"] == "approval" and target.type != "penalty":
                return "payload.record: only a penalty can be approved"
            if rec["type"] == "void":
                if target.type == "void":
                    return "payload.record: a void cannot be voided"
                if target.device_id != device.id and device.role not in HEAD_ROLES:
                    return "role head_judge required to void another device's record"
        return None


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
    checked = [check_shape(raw, event.ruleset) for raw in raw_records]
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
                     payload=rec["payload"], target=rec["target"])
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
    device.last_seen_ms = now
    db.session.commit()
    return results


def pull(event: Event, cursor: int, limit: int) -> tuple[list[Record], int, bool]:
    """Records of the event with seq > cursor, oldest first, at most `limit`; returns
    (records, new cursor, whether more remain)."""
    rows = db.session.scalars(
        db.select(Record).where(Record.event_id == event.id, Record.seq > cursor)
        .order_by(Record.seq).limit(limit + 1)).all()
    more = len(rows) > limit
    rows = rows[:limit]
    return rows, (rows[-1].seq if rows else cursor), more

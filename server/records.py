"""Record types: what each payload must hold, who may push it, and which records count.

A RECORD is `{"id": uuid4 (made on the phone), "type", "device": device id, "judge": judge
name, "event": event slug, "created_ms": device clock epoch ms, "payload": {...}}`.
Payload fields per type are in the schemas below; extra payload fields are kept as sent.
Records are immutable: a `void` record cancels an earlier one, an `approval` record gives
the head judge's decision on a penalty.
"""

import json
import uuid

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate

from .errors import first_error
from .models import STAGES
from .rules import penalty_ids
from .schemas import MAX_BIGINT

HEAD_ROLES = ("head_judge", "organiser")
JUDGE_ROLES = ("floor_judge", *HEAD_ROLES)
# who may push each record type
TYPE_ROLES = {
    "penalty": JUDGE_ROLES,
    "time_extension": JUDGE_ROLES,
    "time_call": JUDGE_ROLES,
    "match_result": ("scorekeeper", *JUDGE_ROLES),
    "approval": HEAD_ROLES,
    "void": ("scorekeeper", *JUDGE_ROLES),
}
EXTENSION_REASONS = ("judge_pause", "deck_check", "tardiness", "ruling")
RESULTS = ("A", "B", "draw")
MAX_PAYLOAD_CHARS = 20_000


class PenaltyIds(fields.Field):
    """A penalty id, a list of penalty ids, or null (the policy gives no penalty). Which ids
    exist is the event's ruleset's word: check_shape checks them against it."""

    def _deserialize(self, value, attr, data, **kwargs):
        items = value if isinstance(value, list) else [value]
        if not items or not all(isinstance(v, str) for v in items):
            raise ValidationError("must be a penalty id or a non-empty list of penalty ids")
        return value


def unknown_penalty(payload: dict, ruleset_id: str) -> str | None:
    """The reason a penalty payload names a penalty id its event's ruleset does not declare,
    or None."""
    allowed = penalty_ids(ruleset_id)
    for key in ("penalty", "base_penalty"):
        value = payload.get(key)
        for item in value if isinstance(value, list) else [value]:
            if item is not None and item not in allowed:
                return (f"payload.{key}: unknown penalty id {item!r} in ruleset {ruleset_id}; allowed: "
                        + ", ".join(sorted(allowed)))
    return None


class PlayerRef(fields.Field):
    """A player id of the event (int) or a free-text name."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise ValidationError("must be a player id (integer) or a name")
        if isinstance(value, str) and not 1 <= len(value.strip()) <= 200:
            raise ValidationError("a player name has 1 to 200 characters")
        return value


class StrictBool(fields.Boolean):
    """true or false only (no 1, "yes", ...)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise ValidationError("must be true or false")
        return value


def _table():
    return fields.Integer(required=True, strict=True, validate=validate.Range(min=1))


class PayloadSchema(Schema):
    class Meta:
        unknown = INCLUDE


class PenaltyPayload(PayloadSchema):
    player = PlayerRef(required=True)
    table = fields.Integer(strict=True, allow_none=True, validate=validate.Range(min=1))
    round = fields.Integer(strict=True, allow_none=True, validate=validate.Range(min=1))
    infraction = fields.String(required=True, validate=validate.Length(1, 64))
    penalty = PenaltyIds(required=True, allow_none=True)
    base_penalty = PenaltyIds(allow_none=True)
    upgraded = StrictBool()
    head_judge = StrictBool()
    # facts the engine's downgrade options need in a later history (judicial guidelines)
    intentional = StrictBool(allow_none=True)
    minor = StrictBool(allow_none=True)
    ruleset = fields.String(validate=validate.Length(1, 64))
    level = fields.String(allow_none=True)
    stage = fields.String(allow_none=True, validate=validate.OneOf(STAGES))
    notes = fields.String(allow_none=True, validate=validate.Length(max=2000))


class TimeExtensionPayload(PayloadSchema):
    table = _table()
    round = _table()
    minutes = fields.Float(required=True, validate=validate.Range(0, 240, min_inclusive=False))
    reason = fields.String(required=True, validate=validate.OneOf(EXTENSION_REASONS))


class GamesField(Schema):
    A = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))
    B = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))


class MatchResultPayload(PayloadSchema):
    table = _table()
    round = _table()
    result = fields.String(required=True, validate=validate.OneOf(RESULTS))
    games = fields.Nested(GamesField)


class TimeCallPayload(PayloadSchema):
    table = _table()
    round = _table()
    facts = fields.Dict(required=True)
    answer = fields.Dict(required=True)
    result = fields.String(allow_none=True, validate=validate.OneOf(RESULTS))  # null: undecided


class ApprovalPayload(PayloadSchema):
    record = fields.UUID(required=True)
    approved = StrictBool(required=True)
    comment = fields.String(allow_none=True, validate=validate.Length(max=2000))


class VoidPayload(PayloadSchema):
    record = fields.UUID(required=True)
    reason = fields.String(required=True, validate=validate.Length(1, 2000))


PAYLOADS = {
    "penalty": PenaltyPayload(),
    "time_extension": TimeExtensionPayload(),
    "match_result": MatchResultPayload(),
    "time_call": TimeCallPayload(),
    "approval": ApprovalPayload(),
    "void": VoidPayload(),
}


class RecordSchema(Schema):
    """The envelope of every record (the payload is checked by its type's schema)."""

    id = fields.UUID(required=True)
    type = fields.String(required=True, validate=validate.OneOf(list(PAYLOADS)))
    device = fields.Integer(required=True, strict=True)
    judge = fields.String(required=True, validate=validate.Length(1, 100))
    event = fields.String(required=True)
    created_ms = fields.Integer(required=True, strict=True,
                                validate=validate.Range(min=0, max=MAX_BIGINT))
    payload = fields.Dict(required=True)


RECORD_SCHEMA = RecordSchema()


def check_shape(raw, ruleset_id: str) -> tuple[dict | None, str | None]:
    """Validate a record's envelope and payload for an event of `ruleset_id` (penalty ids are
    the ruleset's). Returns (record, None) with the id as a canonical lower-case UUID string,
    or (None, reason) naming the first bad field."""
    if not isinstance(raw, dict):
        return None, "a record must be a JSON object"
    try:
        rec = RECORD_SCHEMA.load(raw)
    except ValidationError as err:
        return None, "{}: {}".format(*first_error(err.messages))
    try:
        PAYLOADS[rec["type"]].load(rec["payload"])
    except ValidationError as err:
        return None, "payload.{}: {}".format(*first_error(err.messages))
    if len(json.dumps(rec["payload"])) > MAX_PAYLOAD_CHARS:
        return None, f"payload: larger than {MAX_PAYLOAD_CHARS} characters"
    if rec["type"] == "penalty":
        reason = unknown_penalty(rec["payload"], ruleset_id)
        if reason:
            return None, reason
    rec["id"] = str(rec["id"])
    if rec["type"] in ("void", "approval"):
        rec["target"] = str(uuid.UUID(str(rec["payload"]["record"])))
    else:
        rec["target"] = None
    return rec, None


def effective(records) -> list:
    """The records that count: every non-void record that no void record cancels, in the
    order given (voids of missing records are ignored)."""
    voided = {r.target for r in records if r.type == "void"}
    return [r for r in records if r.type != "void" and r.id not in voided]


def approval_state(penalty, approvals) -> str | None:
    """"approved", "declined", "pending" (head judge must confirm, no decision yet) or None
    (no approval needed). `approvals` are the effective approval records, in seq order; the
    latest decision for the penalty wins."""
    decision = None
    for a in approvals:
        if a.target == penalty.id:
            decision = "approved" if a.payload["approved"] else "declined"
    if decision:
        return decision
    return "pending" if penalty.payload.get("head_judge") else None


def plain(record) -> dict:
    """A stored record as the plain dict records travel as (shared_rules.history reads these)."""
    return {"id": record.id, "type": record.type, "device": record.device_id, "judge": record.judge,
            "created_ms": record.created_ms, "seq": record.seq, "payload": record.payload}

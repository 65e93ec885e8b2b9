"""Record types: what each payload must hold, what must exist in the event, which records
count.

A RECORD is `{"id": uuid4 (made on the phone), "type", "device": device id, "judge": judge
name (the server writes the name the device joined with), "event": event slug,
"created_ms": device clock epoch ms, "payload": {...}}`. Every payload field is declared
below, typed and ranged; a field not declared is refused. Fields that name something of the
event (a player id, a round, another record, a penalty id, the ruleset) are checked against
the event when the record arrives (`EventRef`). Records are immutable: a `void` record
cancels an earlier one, an `approval` record gives the head judge's decision on a penalty.

A payload schema's `event_problem` checks what one field cannot alone against the event (a
finished deck check names a started check of the same player; an appeal decision by the judge
who made the ruling names the judge consulted).

Adding a record type: a payload schema here, in PAYLOADS, and its row in roles.RECORDS.
"""

import json

from marshmallow import RAISE, Schema, ValidationError, fields, post_load, validates_schema
from marshmallow.validate import Length, Regexp

from shared_rules.board import result_problem
from shared_rules.decklists import compare
from shared_rules.errors import RuleError
from shared_rules.history import player_key as history_player_key
from shared_rules.review import consult_problem
from shared_rules.units import step_up

from . import roles
from .decklists import FORMATS
from .errors import first_error
from .fields import MAX_BIGINT, Bool, Choice, Int, Json, Number, RuleId, Text
from .models import STAGES
from .rules import answer_unit, declares_fact, infraction_ids, level_ids, penalty_ids

EXTENSION_REASONS = ("judge_pause", "deck_check", "tardiness", "ruling")
RESULTS = ("A", "B", "draw")
MAX_PAYLOAD_CHARS = 20_000  # a payload's JSON text, at most
MAX_TABLE = 9999  # table numbers run from 1 to this
MAX_ROUND = 999
MAX_GAMES = 99  # games one player won in a match, at most
MAX_NAME = 200  # a player's name (as the players table holds it)
MAX_NOTES = 2000
MAX_PENALTIES = 8  # penalty ids one record may issue together
MAX_SEEN = 500  # record ids a penalty's history_seen may name
MAX_JUDGE = 100  # a judge's name (as devices join with it)
MAX_CALL_ID = 36  # a judge call's id (server/calls)
MAX_OPEN_FACTS = 32  # facts a penalty may be recorded without (its pending fields' facts)
MAX_FACT_PATH = 200  # a rooted fact path's characters ("facts.current_game.winner")
MAX_SECTIONS = 8  # sections of a decklist (the shared ones are main, side and extra)
MAX_CARD_LINES = 250  # card lines of a decklist's section (decklists.common.MAX_ENTRIES in all)
MAX_FOUND = 100  # cards a deck check found that the list does not have there
PLAYER_TYPES = ("penalty", "appeal")  # the types whose payload.player fills records.player


def allowed_penalty_ids(event) -> frozenset[str]:
    """The penalty ids a penalty record of `event` may name: its ruleset's own."""
    return penalty_ids(event.ruleset)


class EventRef:
    """A field whose value must exist in the event; `problem(value, where)` says why not
    (`where` is the push's view of the event: sync._Batch)."""

    def problem(self, value, where) -> str | None:
        raise NotImplementedError


class PlayerRef(EventRef, fields.Field):
    """A player of the event by id (an integer) or a free-text name (1 to 200 characters,
    e.g. a player not yet in the list)."""

    as_name = Text(MAX_NAME)
    as_id = Int(1, MAX_BIGINT)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str):
            if not value.strip():
                raise ValidationError("a player name must not be blank")
            if value.strip().isdigit():
                raise ValidationError("a player name cannot be digits only: send a player id as a number")
            return self.as_name._deserialize(value, attr, data)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValidationError("must be a player id (a whole number) or a name")
        return self.as_id._deserialize(value, attr, data)

    def problem(self, value, where):
        if isinstance(value, int) and value not in where.players:
            return f"no player {value} in this event"
        return None


class RoundRef(EventRef, Int):
    """A round number of the event: 1 up to the event's latest round (started, or with
    tables entered); round 1 also before any round starts."""

    def __init__(self, **kwargs):
        super().__init__(1, MAX_ROUND, **kwargs)

    def problem(self, value, where):
        if value > where.last_round:
            return f"this event has no round {value} yet (latest: {where.last_round})"
        return None


class RecordRef(EventRef, fields.UUID):
    """Another record of the event, by id; `types` limits which kinds it may be."""

    def __init__(self, types: tuple[str, ...] | None = None, exclude: tuple[str, ...] = (), **kwargs):
        super().__init__(**kwargs)
        self.types, self.exclude = types, exclude

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str):
            raise ValidationError("must be a record id (a UUID)")
        return str(super()._deserialize(value, attr, data, **kwargs))

    def problem(self, value, where):
        target = where.known.get(value)
        if target is None or target.event_id != where.event.id:
            return f"no record {value} in this event"
        if self.types and target.type not in self.types:
            return f"only a {' or '.join(self.types)} record can be named here, not a {target.type}"
        if target.type in self.exclude:
            return f"a {target.type} record cannot be named here"
        return None


class PenaltyIds(EventRef, fields.Field):
    """A penalty id, a list of 1 to MAX_PENALTIES penalty ids, or null (no penalty); ids
    must be penalties of the event's ruleset."""

    id_text = Text(64)

    def _deserialize(self, value, attr, data, **kwargs):
        items = value if isinstance(value, list) else [value]
        if not 1 <= len(items) <= MAX_PENALTIES or not all(isinstance(v, str) for v in items):
            raise ValidationError(f"must be a penalty id or a list of 1 to {MAX_PENALTIES} penalty ids")
        for item in items:
            self.id_text._deserialize(item, attr, data)
        return value

    def problem(self, value, where):
        allowed = allowed_penalty_ids(where.event)
        unknown = sorted(set(value if isinstance(value, list) else [value]) - allowed)
        if unknown:
            return (f"unknown penalty id {unknown[0]!r} in ruleset {where.event.ruleset}; allowed: "
                    + ", ".join(sorted(allowed)))
        return None


class RuleIdOf(EventRef, RuleId):
    """An id the event's ruleset declares: `kind` is "infraction" or "level"."""

    LOOKUPS = {"infraction": infraction_ids, "level": level_ids}

    def __init__(self, kind: str, **kwargs):
        super().__init__(**kwargs)
        self.kind = kind

    def problem(self, value, where):
        allowed = self.LOOKUPS[self.kind](where.event.ruleset)
        if value in allowed:
            return None
        shown = ", ".join(sorted(allowed)) if len(allowed) <= 12 \
            else f"{len(allowed)} ids, see GET /api/rulesets/{where.event.ruleset}"
        return f"unknown {self.kind} {value!r} in ruleset {where.event.ruleset}; allowed: {shown or 'none'}"


class FactPaths(EventRef, fields.List):
    """The facts a penalty was recorded without (history.penalty_payload `open_facts`): a list
    of 1 to MAX_OPEN_FACTS rooted paths ("facts.x", "facts.x.y", "event.x"), each naming a fact
    or event setting the event's ruleset declares for its penalty query, none twice."""

    def __init__(self, **kwargs):
        super().__init__(Text(MAX_FACT_PATH, metadata={"pattern": r"^(facts|event)(\.[a-z0-9_]+)+$"}),
                         validate=Length(min=1, max=MAX_OPEN_FACTS), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, list):
            raise ValidationError("must be a list of fact paths")
        paths = super()._deserialize(value, attr, data, **kwargs)
        for path in paths:
            head, _, rest = path.partition(".")
            if head not in ("facts", "event") or not rest or not all(
                    part and part.isascii() and all(ch.islower() or ch.isdigit() or ch == "_" for ch in part)
                    for part in rest.split(".")):
                raise ValidationError(f"{path[:40]!r} is not a fact path (facts.name or event.name)")
        if len(set(paths)) != len(paths):
            raise ValidationError("names a fact twice")
        return paths

    def problem(self, value, where):
        unknown = [p for p in value if not declares_fact(where.event.ruleset, "penalty", p)]
        return f"{unknown[0]!r} is not a fact of ruleset {where.event.ruleset}'s penalties" if unknown else None


class RulesetRef(EventRef, Text):
    """The event's ruleset id (a record made under another ruleset is refused)."""

    def __init__(self, **kwargs):
        super().__init__(64, **kwargs)

    def problem(self, value, where):
        return None if value == where.event.ruleset else f"this event uses {where.event.ruleset}"


class PayloadSchema(Schema):
    class Meta:
        unknown = RAISE

    def event_problem(self, record: dict, where) -> str | None:
        """Why a record of this type cannot be accepted given what else the event holds
        (`where`: sync._Batch), beyond its EventRef fields; None when it can."""
        return None


class PenaltyPayload(PayloadSchema):
    player = PlayerRef(required=True)
    table = Int(1, MAX_TABLE, allow_none=True)
    round = RoundRef(allow_none=True)
    infraction = RuleIdOf("infraction", required=True)
    penalty = PenaltyIds(required=True, allow_none=True)
    base_penalty = PenaltyIds(allow_none=True)
    upgraded = Bool(allow_none=True)
    head_judge = Bool(allow_none=True)
    # facts the engine's downgrade options need in a later history (judicial guidelines)
    intentional = Bool(allow_none=True)
    minor = Bool(allow_none=True)
    ruleset = RulesetRef()
    level = RuleIdOf("level", allow_none=True)
    stage = Choice(STAGES, allow_none=True)
    notes = Text(MAX_NOTES, min_length=0, multiline=True, allow_none=True)
    # the decision's facts without the history (the engine's penalty query), so it can be
    # made again with every judge's records (shared_rules.review)
    facts = Json(allow_none=True)
    # the ids of the player's penalty records the decision's history held (history.seen_ids)
    history_seen = fields.List(fields.UUID(), validate=Length(max=MAX_SEEN), allow_none=True)
    # the flagged penalty this one is issued in place of (its void goes with it)
    replaces = RecordRef(types=("penalty",), allow_none=True)
    # the facts still open when it was recorded: its remedy or head-judge step waited on them
    open_facts = FactPaths(allow_none=True)

    @post_load
    def _ids_as_text(self, data, **kwargs):
        if data.get("history_seen") is not None:
            data["history_seen"] = [str(x) for x in data["history_seen"]]
        return data


class TimeExtensionPayload(PayloadSchema):
    """Minutes added to a table's end: above 0, at most 240, in the step the event's ruleset
    gives extensions in (whole minutes: queries.json's `extension_minutes` unit)."""

    table = Int(1, MAX_TABLE, required=True)
    round = RoundRef(required=True)
    minutes = Number(0, 240, low_open=True, required=True)
    reason = Choice(EXTENSION_REASONS, required=True)

    def event_problem(self, record, where):
        unit = answer_unit(where.event.ruleset, "extension", "extension_minutes")
        minutes = record["payload"]["minutes"]
        if unit and step_up(minutes, unit) != minutes:
            step = "whole minutes" if unit == 1 else f"steps of {unit:g} minutes"
            return (f"payload.minutes: time extensions are given in {step} "
                    f"(got {minutes:g}; {step_up(minutes, unit):g} rounds it up)")
        return None


class GamesField(Schema):
    class Meta:
        unknown = RAISE

    A = Int(0, MAX_GAMES, required=True)
    B = Int(0, MAX_GAMES, required=True)


def games_problem(payload: dict, where) -> str | None:
    """Why a result record's `games` ({"A", "B"} or absent) cannot go with its `result` in the
    event, or None: the match-result rule (shared_rules.board.result_problem, which the app asks
    too), with the event's games per match as the most (null: the ruleset's default, not
    checked). A message naming `payload.games`."""
    games, result = payload.get("games"), payload.get("result")
    if result is None:
        return "payload.games: a score needs a result" if games else None
    problem = result_problem(result, games, where.event.games_per_match)
    if problem is None:
        return None
    if problem["problem"] == "no_win":
        return (f"payload.games: {games['A']}-{games['B']} is no win for player {result} "
                "(the winner has won more games)")
    return f"payload.games: {problem['won']} games won in a match of {problem['most']} games at most"


class MatchResultPayload(PayloadSchema):
    """A table's match result: `result` "A", "B" or "draw", with the games each player won
    (`games`, optional). The winner has won more games than the other player, and no more
    games are won than the event's games per match (a draw may be agreed at any score)."""

    table = Int(1, MAX_TABLE, required=True)
    round = RoundRef(required=True)
    result = Choice(RESULTS, required=True)
    games = fields.Nested(GamesField)

    def event_problem(self, record, where):
        return games_problem(record["payload"], where)


class TimeCallPayload(PayloadSchema):
    """The end-of-match procedure walked for a table (query time_call): the facts as asked, the
    engine's answer, the match `result` it ends with ("A", "B", "draw"; null: undecided), who
    gave it (`decided_by`), and the games each player won (`games`, optional, null: not given;
    the answer's `games` where the procedure gives a score). The score is checked like a match
    result's (games_problem)."""

    table = Int(1, MAX_TABLE, required=True)
    round = RoundRef(required=True)
    facts = Json(required=True)  # the engine's facts as asked (query time_call)
    answer = Json(required=True)  # the engine's answer
    result = Choice(RESULTS, allow_none=True)  # null: undecided
    # who gave the result: the procedure's answer, or the head judge where the policy gives none
    decided_by = Choice(("procedure", "head_judge"), allow_none=True)
    games = fields.Nested(GamesField, allow_none=True)

    def event_problem(self, record, where):
        return games_problem(record["payload"], where)


class ApprovalPayload(PayloadSchema):
    """The head judge's decision on a penalty waiting for them: approved or refused. A penalty
    recorded with no penalty for the head judge to decide (the policy does not state it,
    shared_rules.history.penalty_payload) cannot be approved as it is: the head judge records
    the penalty they choose in its place and refuses this one."""

    record = RecordRef(types=("penalty",), required=True)
    approved = Bool(required=True)
    comment = Text(MAX_NOTES, min_length=0, multiline=True, allow_none=True)

    def event_problem(self, record, where):
        target = where.known[record["target"]].payload
        if record["payload"]["approved"] and target.get("penalty") is None and target.get("head_judge"):
            return ("payload.approved: this penalty names no penalty for the head judge to approve: "
                    "record the penalty you choose in its place, and refuse this one")
        return None


class ResolutionPayload(PayloadSchema):
    """The head judge keeps a flagged penalty as issued (shared_rules.review), with a reason."""

    record = RecordRef(types=("penalty",), required=True)
    reason = Text(MAX_NOTES, multiline=True, required=True)


class VoidPayload(PayloadSchema):
    record = RecordRef(exclude=("void",), required=True)
    reason = Text(MAX_NOTES, multiline=True, required=True)

    def event_problem(self, record, where):
        """A void is written by a role that may write the record it voids, and of another
        device's record only with "void_any" (roles.py)."""
        target, role = where.known[record["target"]], where.device.role
        if not roles.may_write(role, target.type):
            return roles.needed(roles.RECORDS[target.type][0]) + f" to void a {target.type}"
        if target.device_id != where.device.id and not roles.may(role, "void_any"):
            return roles.needed(roles.ACTIONS["void_any"]) + " to void another device's record"
        return None


SECTION_ID = Regexp(r"^[a-z0-9_]{1,32}$", error="must be a section id (a-z, 0-9, _; up to 32)")


class CardField(Schema):
    """One card line of a decklist: its count, and its name as written or its code (both
    where the format gives both)."""

    class Meta:
        unknown = RAISE

    count = Int(1, 999, required=True)
    name = Text(200, allow_none=True)
    code = Text(64, allow_none=True)

    @validates_schema
    def _named(self, data, **kwargs):
        if not data.get("name") and not data.get("code"):
            raise ValidationError("a card has a name or a code", "name")


class SectionField(Schema):
    class Meta:
        unknown = RAISE

    id = Text(32, required=True, validate=SECTION_ID)
    cards = fields.List(fields.Nested(CardField), required=True, validate=Length(1, MAX_CARD_LINES))


class FoundField(Schema):
    """A card a deck check counted in a section whose list does not have it there."""

    class Meta:
        unknown = RAISE

    section = Text(32, required=True, validate=SECTION_ID)
    name = Text(200, required=True)
    count = Int(1, 999, required=True)


class DecklistPayload(PayloadSchema):
    """One version of a player's registered decklist (every version is kept; the latest counts:
    shared_rules.decklists.current). Made by the server only, for the organiser (the pages) or
    for the player (the players' page, with their code, before the deadline): `by`. `format`
    is the format its text was read in (server/decklists); `late` marks a version stored after
    the event's deadline."""

    player = PlayerRef(required=True)
    format = Choice(tuple(FORMATS), required=True)
    sections = fields.List(fields.Nested(SectionField), required=True, validate=Length(1, MAX_SECTIONS))
    by = Choice(("player", "organiser"), required=True)
    late = Bool(allow_none=True)

    def event_problem(self, record, where):
        if not isinstance(record["payload"]["player"], int):
            return "payload.player: a decklist belongs to a player of the event (an id)"
        ids = [s["id"] for s in record["payload"]["sections"]]
        if len(set(ids)) != len(ids):
            return "payload.sections: a section appears twice"
        return None


class DeckCheckPayload(PayloadSchema):
    """A deck check of one player at a table: a "started" record when the judge takes the
    deck, a "finished" record naming it (`started`) with the outcome when the deck is back
    (WotF §3.8: the table's time extension is asked of the engine from the two times).

    A finished check counted against the player's registered list names that list's version
    (`decklist`) and holds what was counted: `counts` `{section: [count per card line]}` and
    `found` (cards counted where the list does not have them). Its outcome must be what
    shared_rules.decklists.compare finds: "ok" exactly when nothing differs."""

    player = PlayerRef(required=True)
    table = Int(1, MAX_TABLE, required=True)
    round = RoundRef(required=True)
    phase = Choice(("started", "finished"), required=True)
    started = RecordRef(types=("deck_check",), allow_none=True)
    outcome = Choice(("ok", "wrong"), allow_none=True)
    mid_game = Bool(allow_none=True)
    decklist = RecordRef(types=("decklist",), allow_none=True)
    counts = fields.Dict(keys=Text(32, validate=SECTION_ID),
                         values=fields.List(Int(0, 999), validate=Length(max=MAX_CARD_LINES)),
                         validate=Length(max=MAX_SECTIONS), allow_none=True)
    found = fields.List(fields.Nested(FoundField), validate=Length(max=MAX_FOUND), allow_none=True)

    @validates_schema
    def _phase_fields(self, data, **kwargs):
        finished = data.get("phase") == "finished"
        if finished and data.get("started") is None:
            raise ValidationError("a finished check names its started record", "started")
        if not finished and (data.get("started") is not None or data.get("outcome") is not None):
            raise ValidationError("only a finished check has started and outcome", "started")
        given = [name for name in ("counts", "found") if data.get(name) is not None]
        if given and not finished:
            raise ValidationError("only a finished check holds what was counted", given[0])
        if given and data.get("decklist") is None:
            raise ValidationError("a count names the decklist it was counted against", "decklist")
        if data.get("decklist") is not None and data.get("counts") is None:
            raise ValidationError("a count against a decklist holds the counts of its lines", "counts")

    def event_problem(self, record, where):
        payload = record["payload"]
        started = where.known.get(payload.get("started"))
        if started is not None and started.payload.get("phase") != "started":
            return "payload.started: must name a started check"
        if started is not None and (history_player_key(started.payload.get("player"))
                                    != history_player_key(payload["player"])):
            return "payload.player: not the player of the started check"
        listed = where.known.get(payload.get("decklist"))
        if listed is None:
            return None
        if history_player_key(listed.payload.get("player")) != history_player_key(payload["player"]):
            return "payload.decklist: not a decklist of this player"
        if payload.get("counts") is None:
            return None
        try:
            found = compare(listed.payload["sections"], payload["counts"], payload.get("found"))
        except RuleError as err:
            return f"payload.{err.field}: {err.message}"
        if (payload.get("outcome") == "ok") != found["matches"]:
            return (f"payload.outcome: the count differs from the list in {len(found['differences'])} ways"
                    if found["differences"] else "payload.outcome: the count matches the list")
        return None


class AppealPayload(PayloadSchema):
    """A player appeals a floor judge's ruling to the head judge (WotF §3.9)."""

    player = PlayerRef(required=True)
    table = Int(1, MAX_TABLE, allow_none=True)
    round = RoundRef(allow_none=True)
    ruling = Text(MAX_NOTES, multiline=True, required=True)
    ruled_by = Text(MAX_JUDGE, required=True)
    call = Text(MAX_CALL_ID, allow_none=True)
    penalty = RecordRef(types=("penalty",), allow_none=True)


class AppealDecisionPayload(PayloadSchema):
    """The head judge's final decision on an appeal: the ruling confirmed or changed (then
    with the new ruling); one decision per appeal (another needs a void of the first). A head
    judge deciding an appeal of their own first ruling names the judge they consulted (WotF
    §3.9, 004_348b1a1435ac9899.txt)."""

    appeal = RecordRef(types=("appeal",), required=True)
    outcome = Choice(("confirmed", "changed"), required=True)
    ruling = Text(MAX_NOTES, multiline=True, allow_none=True)
    consulted = Text(MAX_JUDGE, allow_none=True)

    @validates_schema
    def _ruling_when_changed(self, data, **kwargs):
        if data.get("outcome") == "changed" and not data.get("ruling"):
            raise ValidationError("a changed ruling needs the new ruling", "ruling")

    def event_problem(self, record, where):
        appeal = where.known.get(record["payload"]["appeal"])
        earlier = where.live_naming(record["payload"]["appeal"], "appeal_decision")
        if earlier:  # the decision is final: changing it takes a void of it first
            return (f"payload.appeal: already decided by {earlier[0].judge}; "
                    "void that decision first to decide again")
        if appeal is None:
            return None
        problem = consult_problem(appeal.payload.get("ruled_by"), record["judge"], record["payload"].get("consulted"))
        return f"payload.consulted: {problem}" if problem else None


PAYLOADS = {
    "penalty": PenaltyPayload(),
    "time_extension": TimeExtensionPayload(),
    "match_result": MatchResultPayload(),
    "time_call": TimeCallPayload(),
    "approval": ApprovalPayload(),
    "resolution": ResolutionPayload(),
    "void": VoidPayload(),
    "deck_check": DeckCheckPayload(),
    "decklist": DecklistPayload(),
    "appeal": AppealPayload(),
    "appeal_decision": AppealDecisionPayload(),
}


class RecordSchema(Schema):
    """The envelope of every record (the payload is checked by its type's schema)."""

    class Meta:
        unknown = RAISE

    id = fields.UUID(required=True)
    type = Choice(list(PAYLOADS), required=True)
    device = Int(1, MAX_BIGINT, required=True)
    judge = Text(MAX_JUDGE, required=True)
    event = Text(16, required=True)
    created_ms = Int(0, MAX_BIGINT, required=True)
    payload = fields.Dict(required=True)


RECORD_SCHEMA = RecordSchema()


def event_refs(record_type: str) -> dict[str, EventRef]:
    """The payload fields of a type that must exist in the event, by name."""
    return {name: f for name, f in PAYLOADS[record_type].fields.items() if isinstance(f, EventRef)}


def record_refs(record_type: str, payload: dict) -> list[str]:
    """The ids of every record a record names (a finished deck check names its started check
    and the decklist it was counted against)."""
    return [payload[name] for name, field in event_refs(record_type).items()
            if isinstance(field, RecordRef) and isinstance(payload.get(name), str)]


def target_of(record_type: str, payload: dict) -> str | None:
    """The id of the record a record points at (a void's or an approval's), or None."""
    for name, field in event_refs(record_type).items():
        if isinstance(field, RecordRef):
            return payload.get(name)
    return None


def player_key(record_type: str, payload: dict) -> str | None:
    """A penalty's or an appeal's player as the records.player column holds it
    (shared_rules.history.player_key), or None for other types."""
    return history_player_key(payload["player"]) if record_type in PLAYER_TYPES else None


def check_shape(raw) -> tuple[dict | None, str | None]:
    """Validate a record's envelope and payload by type and range. Returns (record, None)
    with the id as a canonical lower-case UUID string and `target` set (see target_of), or
    (None, reason) naming the first bad field."""
    if not isinstance(raw, dict):
        return None, "a record must be a JSON object"
    try:
        rec = RECORD_SCHEMA.load(raw)
    except ValidationError as err:
        return None, "{}: {}".format(*first_error(err.messages))
    try:
        rec["payload"] = PAYLOADS[rec["type"]].load(rec["payload"])
    except ValidationError as err:
        return None, "payload.{}: {}".format(*first_error(err.messages))
    if len(json.dumps(rec["payload"])) > MAX_PAYLOAD_CHARS:
        return None, f"payload: larger than {MAX_PAYLOAD_CHARS} characters"
    rec["id"] = str(rec["id"])
    rec["target"] = target_of(rec["type"], rec["payload"])
    return rec, None


# stored_problem's verdicts by the row's content: records are immutable, so a row read again
# (every reconciliation and view reads the same rows) is not checked again
_VERDICTS: dict[tuple, str | None] = {}
MAX_VERDICTS = 200_000


def _verdict_key(row) -> tuple:
    return (row.id, row.type, row.judge, row.created_ms, row.target,
            json.dumps(row.payload, sort_keys=True, ensure_ascii=False, allow_nan=True))


def known_readable(rows) -> None:
    """Note rows just checked by `check_shape` (and stored) as readable."""
    if len(_VERDICTS) + len(rows) >= MAX_VERDICTS:
        _VERDICTS.clear()
    for row in rows:
        _VERDICTS[_verdict_key(row)] = None


def stored_problem(row) -> str | None:
    """Why a stored record cannot be read (shown, exported, pulled), or None. Rows come in
    through `check_shape`; this guards every view against anything else a database holds.
    The verdict is kept per row content (id, type, judge, times, target and payload text), so
    a row that somehow changes in place is checked again."""
    try:
        key = _verdict_key(row)
    except (TypeError, ValueError):
        return _problem(row)
    if key not in _VERDICTS:
        if len(_VERDICTS) >= MAX_VERDICTS:
            _VERDICTS.clear()
        _VERDICTS[key] = _problem(row)
    return _VERDICTS[key]


def _problem(row) -> str | None:
    schema = PAYLOADS.get(row.type) if isinstance(row.type, str) else None
    if schema is None:
        return f"type: unknown type {str(row.type)[:40]!r}"
    if not isinstance(row.payload, dict):
        return "payload: not a JSON object"
    for name, value, field in (("judge", row.judge, RECORD_SCHEMA.fields["judge"]),
                               ("created_ms", row.created_ms, RECORD_SCHEMA.fields["created_ms"])):
        try:
            field.deserialize(value)
        except ValidationError as err:
            return f"{name}: {first_error(err.messages)[1]}"
    errors = schema.validate(row.payload)
    if errors:
        return "payload.{}: {}".format(*first_error(errors))
    if row.target != target_of(row.type, row.payload):
        return "target: does not match payload.record"
    return None


def readable(rows) -> list:
    """The rows that `stored_problem` finds nothing wrong with, in the order given."""
    return [r for r in rows if stored_problem(r) is None]


def effective(records) -> list:
    """The records that count: every non-void record that no void record cancels, in the
    order given (voids of missing records are ignored)."""
    voided = {r.target for r in records if r.type == "void"}
    return [r for r in records if r.type != "void" and r.id not in voided]


def approval_state(penalty, decided: dict[str, bool], awaiting: set[str] = frozenset()) -> str | None:
    """"approved", "declined", "pending" (head judge must confirm, no decision yet) or None
    (no approval needed). `decided` is shared_rules.history.decisions() of the event's records:
    the latest decision by when it was made (as on the phones), not by when it arrived;
    `awaiting` the ids of the review list's approval items (shared_rules.review: the record's
    own `head_judge`, or the event's head-judge setting now)."""
    if penalty.id in decided:
        return "approved" if decided[penalty.id] else "declined"
    return "pending" if penalty.payload.get("head_judge") or penalty.id in awaiting else None


def plain(record) -> dict:
    """A stored record as the plain dict records travel as (shared_rules.history reads these)."""
    return {"id": record.id, "type": record.type, "device": record.device_id, "judge": record.judge,
            "created_ms": record.created_ms, "seq": record.seq, "payload": record.payload}

"""marshmallow schemas of the API's request and response bodies (they also make the
OpenAPI document at /api/openapi.json). Record payloads are in records.py."""

from marshmallow import INCLUDE, Schema, fields, validate

from shared_rules.translations import ENGLISH, LANGUAGES

from .decklists import FORMATS
from .fields import MAX_BIGINT, Int, Text
from .models import ROLES
from .roles import ACCOUNT_ROLES


class TimeOut(Schema):
    now_ms = fields.Integer(required=True, metadata={"description": "server clock, epoch ms"})


class LevelOut(Schema):
    id = fields.String()
    name = fields.String()


class RulesetOut(Schema):
    id = fields.String()
    title = fields.String()
    version = fields.String(allow_none=True)
    level_label = fields.String(allow_none=True, metadata={"description": "what the levels are called"})
    levels = fields.List(fields.Nested(LevelOut))
    best_of = fields.List(fields.Integer(), allow_none=True,
                          metadata={"description": "games per match an event may use; null: any"})
    defaults = fields.Dict(metadata={"description": "event settings the ruleset states"})
    queries = fields.List(fields.String())
    language = fields.String(metadata={"description": "the language asked for (?language=), where one was"})
    english = fields.List(fields.String(), metadata={
        "description": "the fields shown in English for want of a current translation (title, levels[0].name)"})


class LanguageQuery(Schema):
    language = fields.String(load_default=ENGLISH, validate=validate.OneOf(LANGUAGES), metadata={
        "description": "the language of the reply's rule texts (en, de, fr, it, es, pt; default en)"})


class RulesetsQuery(Schema):
    language = fields.String(metadata={"description": "the rule texts' language (en, de, fr, it, es, pt)"})


class EvaluateIn(Schema):
    query = fields.String(required=True)
    event = fields.Dict(load_default=dict)
    facts = fields.Dict(load_default=dict)
    language = fields.String(metadata={
        "description": "the language of the answer's texts (en, de, fr, it, es, pt; default en); the "
                       "answer's `english` lists the texts shown in English for want of a current translation"})


class EngineIn(Schema):
    """An engine action's request object, as the app's worker takes it (shared_rules.worker)."""

    class Meta:
        unknown = INCLUDE


class EngineOut(Schema):
    result = fields.Raw(required=True, metadata={"description": "the action's result"})


class EventOut(Schema):
    slug = fields.String()
    name = fields.String()
    ruleset = fields.String()
    level = fields.String(allow_none=True)
    stage = fields.String()
    games_per_match = fields.Integer(allow_none=True)
    round_minutes = fields.Float(allow_none=True)
    head_judge_from = fields.String(allow_none=True, metadata={
        "description": "the organiser's setting: from this penalty up the head judge confirms (null: policy alone)"})


class PauseOut(Schema):
    start_ms = fields.Integer()
    end_ms = fields.Integer(allow_none=True)


class RoundOut(Schema):
    number = fields.Integer()
    state = fields.String(validate=validate.OneOf(("running", "paused", "ended")))
    round_minutes = fields.Float(allow_none=True, metadata={"description": "null: untimed"})
    started_ms = fields.Integer()
    pauses = fields.List(fields.Nested(PauseOut))
    paused_ms = fields.Integer(metadata={"description": "ms spent in finished pauses"})
    end_ms = fields.Integer(allow_none=True, metadata={"description": "null while paused"})
    ended_ms = fields.Integer(allow_none=True)


class TableClockOut(Schema):
    number = fields.Integer()
    extension_minutes = fields.Float()
    end_ms = fields.Integer(allow_none=True)


class ClockOut(Schema):
    server_ms = fields.Integer()
    event = fields.Nested(EventOut)
    round = fields.Nested(RoundOut, allow_none=True)
    tables = fields.List(fields.Nested(TableClockOut))


class JoinIn(Schema):
    code = Text(32, required=True)
    device_name = Text(100, required=True)
    judge_name = Text(100, required=True)


class JoinLinkIn(Schema):
    link = Text(200, required=True, metadata={"description": "the token of a one-time device link"})
    device_name = Text(100, required=True)


class AccountJoinIn(Schema):
    event = Text(16, required=True, metadata={"description": "the event's slug"})
    device_name = Text(100, required=True)


class JoinEventOut(EventOut):
    id = fields.Integer()


class JoinOut(Schema):
    token = fields.String(metadata={"description": "bearer token; shown once"})
    device_id = fields.Integer()
    role = fields.String(validate=validate.OneOf(ROLES))
    judge_name = fields.String(metadata={"description": "the name the device's records carry"})
    event = fields.Nested(JoinEventOut)


class AccountEventOut(Schema):
    slug = fields.String()
    name = fields.String()
    role = fields.String(validate=validate.OneOf(ACCOUNT_ROLES), metadata={"description": "the person's role"})
    device_role = fields.String(validate=validate.OneOf(ROLES), metadata={
        "description": "the role a device joined through the account takes"})


class AccountOut(Schema):
    name = fields.String(metadata={"description": "the person's name, which their devices carry"})
    events = fields.List(fields.Nested(AccountEventOut))


class PlayerOut(Schema):
    id = fields.Integer()
    name = fields.String()


class TableOut(Schema):
    number = fields.Integer()
    player_a = fields.Integer(allow_none=True)
    player_b = fields.Integer(allow_none=True)


class RoundTablesOut(Schema):
    number = fields.Integer()
    tables = fields.List(fields.Nested(TableOut))


class MeOut(Schema):
    device_id = fields.Integer()
    role = fields.String()
    judge_name = fields.String()


class EventDetailOut(JoinEventOut):
    game = fields.String(allow_none=True)
    players = fields.List(fields.Nested(PlayerOut))
    rounds = fields.List(fields.Nested(RoundTablesOut))
    me = fields.Nested(MeOut)
    decklists = fields.Dict(metadata={
        "description": "{deadline_ms (null: players do not submit), sections: [{id, minimum, maximum, stated, "
                       "setting}]}: the decklist sections with the sizes the event asks (the ruleset's where it "
                       "states them, else the organiser's setting; null: no bound)"})


class SyncIn(Schema):
    device = Int(1, MAX_BIGINT, required=True)
    cursor = Int(0, MAX_BIGINT, load_default=0)
    # each record is checked on its own (sync.push): a bad one, null included, is rejected
    # with its reason and the rest are kept
    records = fields.List(fields.Raw(allow_none=True), load_default=list)


class ResultOut(Schema):
    id = fields.String(allow_none=True)
    status = fields.String(validate=validate.OneOf(("accepted", "duplicate", "rejected")))
    reason = fields.String()


class RecordOut(Schema):
    id = fields.String()
    type = fields.String()
    device = fields.Integer()
    judge = fields.String()
    event = fields.String()
    created_ms = fields.Integer()
    payload = fields.Dict()
    seq = fields.Integer()
    received_ms = fields.Integer()


class SyncOut(Schema):
    results = fields.List(fields.Nested(ResultOut))
    records = fields.List(fields.Nested(RecordOut))
    cursor = fields.Integer()
    more = fields.Boolean(metadata={"description": "more records wait: sync again"})
    server_ms = fields.Integer()


class ReviewOut(Schema):
    items = fields.List(fields.Dict(), metadata={
        "description": "what waits for the head judge, oldest first (shared_rules.review): "
                       "{kind: approval | conflict | appeal, record, player, player_name, judge, created_ms, "
                       "infraction, penalty, table, round, notes, open_facts (fact paths still open when it was "
                       "recorded); a conflict adds expected, needs, "
                       "unseen, history, resolution; an appeal adds ruling, ruled_by, call}"})
    kept = fields.List(fields.Dict(), metadata={"description": "conflicts the head judge kept as issued"})
    as_of_ms = fields.Integer()


class DeckChecksOut(Schema):
    players = fields.List(fields.Dict(), metadata={
        "description": "checked players by name: {player, player_name, checks: [{record, round, table, stage, "
                       "judge, started_ms, finished_ms (null: open), outcome: ok | wrong | null}]}"})
    top_cut_unchecked = fields.List(fields.Dict(), metadata={
        "description": "top-cut players never checked during the Swiss rounds: {player, player_name}"})
    top_cut_players = fields.Integer()
    policy = fields.Dict(metadata={
        "description": "the engine's deck_checks answer at the event's level: {expectation, expectation_label, "
                       "label, top_cut_checked, top_cut_label, top_cut_field, explain, sources, notes, stated, "
                       "covered, english}; 'not stated' where the ruleset is silent; english: the paths of "
                       "texts shown in English for want of a current translation"})


class DecklistCodeIn(Schema):
    code = Text(32, required=True, metadata={"description": "the player's decklist code, as the organiser handed it"})


class DecklistIn(DecklistCodeIn):
    text = Text(200_000, multiline=True, required=True, metadata={"description": "the list as written"})
    format = fields.String(validate=validate.OneOf(sorted(FORMATS)), metadata={
        "description": "the list's format (absent: recognised from the text)"})


class DecklistPlayerOut(Schema):
    id = fields.Integer()
    name = fields.String()


class DecklistOut(Schema):
    player = fields.Nested(DecklistPlayerOut)
    deadline_ms = fields.Integer(allow_none=True, metadata={"description": "null: players do not submit"})
    open = fields.Boolean(metadata={"description": "whether the player may submit now (server clock)"})
    now_ms = fields.Integer()
    versions = fields.Integer(metadata={"description": "versions of the player's list stored"})
    list = fields.Dict(allow_none=True, metadata={
        "description": "the registered list: {record, format, by: player | organiser, late, created_ms, seq, "
                       "sections: [{id, name, count, cards: [{count, name?, code?}]}], total, problems: "
                       "[{section, problem: too_few | too_many, count, minimum | maximum}]}"})
    sections = fields.List(fields.Dict(), metadata={
        "description": "the decklist sections with the sizes the event asks: {id, minimum, maximum, stated}"})


class HistoryOut(Schema):
    player = fields.Raw()
    history = fields.List(fields.Dict(), metadata={
        "description": "the engine's facts.history (shared_rules.history): {infraction, penalty "
                       "(an id, null or a list of ids, as recorded), stage, round?, and the facts the "
                       "event's ruleset keeps in a history item}"})
    as_of_ms = fields.Integer()
    cursor = fields.Integer()

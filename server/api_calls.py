"""Judge calls API and the push stream.

Anonymous (players at a table): make a call, read the table's latest call, read who may
call. Judges (bearer token; roles.ACTIONS "read_calls", "answer_calls"): list, take, close.
The stream (`/stream`, Server-Sent Events) carries only the event's change counters.
"""

from flask import Response, current_app, request
from limits import parse_many
from marshmallow import RAISE, Schema, fields, validate

from . import timeutil
from .auth import authorize, client_limiter
from .calls import (
    call_json,
    callers,
    check_caller,
    check_table,
    close_call,
    create_call,
    get_call,
    latest_call,
    list_calls,
    open_call,
    policy,
    reasons,
    take_call,
)
from .errors import ApiError, documented_errors
from .events import get_event
from .fields import Int, Text
from .jsonbody import Blueprint
from .records import MAX_TABLE
from .schemas import LanguageQuery
from .stream import hub, read_counters

bp = Blueprint("calls", __name__, url_prefix="/api/events", description="Judge calls and the push stream")
BEARER = [{"bearer": []}]


class CallIn(Schema):
    table = Int(1, MAX_TABLE, required=True)
    reason = fields.String(allow_none=True, load_default=None,
                           validate=validate.OneOf([r["id"] for r in reasons()]))
    caller = fields.String(load_default="player", validate=validate.OneOf(callers()))


class CallCreatedOut(Schema):
    id = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(("open", "taken")))


class CallOut(Schema):
    id = fields.String()
    table = fields.Integer()
    reason = fields.String(allow_none=True)
    status = fields.String(validate=validate.OneOf(("open", "taken", "closed")))
    created_ms = fields.Integer()
    taken_by = fields.String(allow_none=True, metadata={"description": "the judge's name"})
    taken_ms = fields.Integer(allow_none=True)
    closed_ms = fields.Integer(allow_none=True)
    closed_by = fields.String(allow_none=True, metadata={"description": "the judge who closed it"})
    ruling = fields.String(allow_none=True)
    escalated = fields.Boolean(metadata={"description": "open longer than the event's call_escalate_seconds"})


class CallsQuery(Schema):
    class Meta:
        unknown = RAISE  # a misspelt parameter is a 400, not silently the open calls

    closed = fields.String(load_default="0", validate=validate.OneOf(("0", "1")),
                           metadata={"description": "1: closed calls too"})


class CallsOut(Schema):
    calls = fields.List(fields.Nested(CallOut))
    calls_seq = fields.Integer()
    escalate_seconds = fields.Integer(metadata={
        "description": "the organiser's setting: an open call is escalated this long after created_ms"})


class CloseIn(Schema):
    ruling = Text(2000, min_length=0, multiline=True, allow_none=True, load_default=None)


# what the players' page sees of a call: no judge names, no ruling
TableCallBody = Schema.from_dict({k: CallOut._declared_fields[k] for k in ("id", "status", "created_ms", "taken_ms")},
                                 name="TableCallBody")


class TableCallOut(Schema):
    call = fields.Nested(TableCallBody, allow_none=True,
                         metadata={"description": "the table's latest call (no judge names), or null"})


class CallerPolicyOut(Schema):
    caller = fields.String()
    name = fields.String(metadata={"description": "the caller's name in the language asked for"})
    allowed = fields.Boolean()
    explain = fields.String()
    stated = fields.Boolean(metadata={"description": "false: the event's ruleset does not say who may call"})
    source = fields.String(allow_none=True)


class ReasonOut(Schema):
    id = fields.String()
    label = fields.String()


class PolicyOut(Schema):
    callers = fields.List(fields.Nested(CallerPolicyOut))
    reasons = fields.List(fields.Nested(ReasonOut))
    english = fields.List(fields.String(), metadata={
        "description": "the texts shown in English for want of a current translation (callers[1].explain)"})


def _check_call_limits(slug: str, table: int) -> None:
    """Count a new call against CALL_TABLE_LIMITS (per `slug:table`) and CALL_ADDRESS_LIMITS
    (per client address); ApiError 429 when either is used up (then neither counts)."""
    limiter = client_limiter()
    keys = [("CALL_TABLE_LIMITS", f"calls-table/{slug}:{table}"),
            ("CALL_ADDRESS_LIMITS", f"calls-address/{request.remote_addr}")]
    checks = [(item, key, setting) for setting, key in keys for item in parse_many(current_app.config[setting])]
    try:
        for item, key, setting in checks:
            if not limiter.test(item, key):
                raise ApiError.rate_limited(f"too many judge calls (at most {current_app.config[setting]} "
                                            f"{'for this table' if 'TABLE' in setting else 'from this address'}); "
                                            "raise a hand and call a judge")
        for item, key, _ in checks:
            limiter.hit(item, key)
    except ApiError:
        raise
    except Exception:  # noqa: BLE001 - the counts' storage is down: a call still goes through
        current_app.logger.exception("judge call limits: storage unavailable")


@bp.post("/<slug>/calls")
@bp.arguments(CallIn)
@bp.response(201, CallCreatedOut)
@bp.alt_response(200, schema=CallCreatedOut, description="the table's call that is not closed yet")
@documented_errors(bp, 400, 403, 404, 413, 429)
def make_call(body, slug):
    """Call a judge to a table (anonymous: no login; nothing personal is stored). Body
    `{"table": 1..9999, "reason"?: "rules_question" | "dispute" | "emergency" | "leaving_table",
    "caller"?: "player" | "spectator"}` → 201 `{"id", "status": "open"}`. While the table has a
    call that is not closed, 200 with that call (repeated taps make one call, and do not
    count toward the limits). 400 when the event has tables for its latest round and this is
    not one of them. 403 with the policy's explanation where the event's ruleset says
    this caller may not call (its `judge_call` query, by the event's level; rule source e.g.
    004_348b1a1435ac9899.txt §3.9). 429 over CALL_TABLE_LIMITS (per table) or CALL_ADDRESS_LIMITS (per address)."""
    event = get_event(slug)
    check_table(event, body["table"])
    check_caller(event, body["caller"])
    existing = open_call(event, body["table"])
    if existing is not None:
        return {"id": existing.id, "status": existing.status}, 200
    _check_call_limits(slug, body["table"])
    call, new = create_call(event, body["table"], body["reason"], body["caller"])
    return {"id": call.id, "status": call.status}, 201 if new else 200


@bp.get("/<slug>/calls/policy")
@bp.arguments(LanguageQuery, location="query")
@bp.response(200, PolicyOut)
@documented_errors(bp, 400, 404)
def call_policy(args, slug):
    """Who may call a judge at this event and the reasons offered, in `?language=` (default
    en; another → 400): `{"callers": [{"caller", "name", "allowed", "explain", "stated",
    "source"}], "reasons": [{"id", "label"}], "english": [path]}` (the engine's `judge_call`
    answer for the event's ruleset and level; stated false, "not stated" and source null where
    the ruleset is silent; `english` lists the texts shown in English for want of a current
    translation, e.g. "callers[1].explain")."""
    return policy(get_event(slug), args["language"])


@bp.get("/<slug>/calls/table/<int:table>")
@bp.response(200, TableCallOut)
@documented_errors(bp, 400, 404)
def table_call(slug, table):
    """The table's latest call for the players' page: `{"call": {"id", "status", "created_ms",
    "taken_ms"} | null}` (no judge names). 400 (field "table") for a table number outside
    1..9999, which no table's page has."""
    event = get_event(slug)
    if not 1 <= table <= MAX_TABLE:
        raise ApiError.bad_request(f"must be a whole number from 1 to {MAX_TABLE}", field="table")
    call = latest_call(event, table)
    if call is None:
        return {"call": None}
    return {"call": {"id": call.id, "status": call.status, "created_ms": call.created_ms,
                     "taken_ms": call.taken_ms}}


@bp.get("/<slug>/calls")
@bp.arguments(CallsQuery, location="query", unknown=RAISE)
@bp.response(200, CallsOut)
@documented_errors(bp, 400, 401, 403, 404)
@bp.doc(security=BEARER)
def calls_list(query, slug):
    """The event's calls that are not closed, oldest first (`?closed=1`: every call):
    `{"calls": [{"id", "table", "reason", "status", "created_ms", "taken_by", "taken_ms",
    "closed_ms", "closed_by", "ruling", "escalated"}], "calls_seq", "escalate_seconds"}`; `escalated`: open for
    longer than the event's `call_escalate_seconds` (the organiser's setting, given as
    `escalate_seconds` so a phone can tell when an open call will escalate). Judges only (floor judge, head
    judge, organiser): 401 without a token of this event, 403 for a scorekeeper."""
    event = get_event(slug)
    authorize(event, "read_calls")
    now = timeutil.now_ms()
    rows = list_calls(event, closed=query["closed"] == "1")
    return {"calls": [call_json(event, c, now) for c in rows], "calls_seq": event.calls_seq,
            "escalate_seconds": event.call_escalate_seconds}


@bp.post("/<slug>/calls/<call_id>/take")
@bp.response(200, CallOut)
@documented_errors(bp, 401, 403, 404, 409)
@bp.doc(security=BEARER)
def take(slug, call_id):
    """This device's judge takes the call ("on my way"): the call with status "taken" and
    `taken_by` the judge's name. 409 when another judge took it or it is closed."""
    event = get_event(slug)
    device = authorize(event, "answer_calls")
    call = take_call(event, get_call(event, call_id), device)
    return call_json(event, call, timeutil.now_ms())


@bp.post("/<slug>/calls/<call_id>/close")
@bp.arguments(CloseIn)
@bp.response(200, CallOut)
@documented_errors(bp, 400, 401, 403, 404, 409, 413)
@bp.doc(security=BEARER)
def close(body, slug, call_id):
    """Close the call, optionally with the ruling (`{"ruling"?: text up to 2000 characters}`);
    a call nobody took is taken by this judge at the same moment. 409 when already closed, or
    when another judge took it and this one is not a head judge or the organiser."""
    event = get_event(slug)
    device = authorize(event, "answer_calls")
    call = close_call(event, get_call(event, call_id), device, body["ruling"] or None)
    return call_json(event, call, timeutil.now_ms())


@bp.get("/<slug>/stream")
@bp.response(200, description="text/event-stream: `event: change` with the counters")
@documented_errors(bp, 404, 503)
def stream(slug):
    """Server-Sent Events (anonymous; counters only): on connect and on every change
    `event: change` / `data: {"clock_version", "records_seq", "calls_seq", "review_seq"}`; a
    comment ping every STREAM_PING_SECONDS (15 s); `retry: 1000`; the stream ends after
    STREAM_SECONDS (60 s) and the client reconnects. 503 when this process holds STREAM_MAX
    streams (the client polls instead). See stream.py for the fan-out across processes."""
    event = get_event(slug)
    first = read_counters([event.id])[event.id]
    h = hub(current_app._get_current_object())
    if not h.join(event.id, first):
        raise ApiError(503, "too many open streams on this server: poll instead")
    response = Response(h.stream(event.id, first), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response

"""Public API (no token): server time, rulesets and the engine, an event's clock, joining.

Nothing here shows player names or penalties.
"""

import json

from flask import current_app, jsonify

from . import rules, timeutil
from .api_account import joined
from .auth import hash_token, new_token
from .clock import cached_clock_state
from .errors import ApiError, documented_errors
from .events import get_event
from .extensions import db
from .http_cache import cached_json, etag_of
from .jsonbody import Blueprint
from .models import Device, Event
from .schemas import ClockOut, EngineIn, EngineOut, EvaluateIn, JoinIn, JoinOut, RulesetOut, RulesetsQuery, TimeOut

bp = Blueprint("public", __name__, url_prefix="/api", description="Public endpoints")


@bp.get("/time")
@bp.response(200, TimeOut)
def server_time():
    """The server clock `{"now_ms"}` (epoch ms), never cached: devices estimate their
    offset from the round trip."""
    response = jsonify({"now_ms": timeutil.now_ms()})
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/rulesets")
@bp.arguments(RulesetsQuery, location="query")
@bp.response(200, RulesetOut(many=True))
@documented_errors(bp, 304, 400)
def list_rulesets(args):
    """Every ruleset: `[{"id", "title", "version", "levels": [{"id", "name"}], "queries"}]`;
    with `?language=de`, titles and level names in that language where translated, plus
    `language` and `english` (what is shown in English). Unknown language → 400.
    ETag; clients revalidate (Cache-Control: no-cache)."""
    try:
        data = rules.rulesets(args.get("language"))
    except rules.RuleError as err:
        raise ApiError.bad_request(str(err), err.field) from None
    return cached_json(json.dumps(data).encode(), etag_of(data), "no-cache")


@bp.get("/rulesets/<ruleset_id>")
@bp.response(200)
@documented_errors(bp, 304, 404)
def get_ruleset(ruleset_id):
    """The ruleset JSON file as it is, with an ETag of its bytes; If-None-Match → 304.
    Unknown id → 404."""
    try:
        data, etag = rules.ruleset_file(ruleset_id)
    except rules.RuleError:
        raise ApiError.not_found(f"ruleset {ruleset_id!r}") from None
    return cached_json(data, etag, "no-cache")


@bp.post("/rulesets/<ruleset_id>/evaluate")
@bp.arguments(EvaluateIn)
@bp.response(200)
@documented_errors(bp, 400, 413)
def evaluate(body, ruleset_id):
    """The engine's answer to `{"query", "event", "facts", "language"?}` for this ruleset:
    the same dict as `python -m shared_rules eval` (with a language: its texts translated
    where current, and `english` listing those shown in English). Engine errors (an unknown
    language among them) → 400 with its message and field."""
    try:
        answer = rules.evaluate({"ruleset": ruleset_id, **body})
    except rules.RuleError as err:
        raise ApiError.bad_request(str(err), err.field) from None
    return jsonify(answer)


@bp.post("/engine/<action>")
@bp.arguments(EngineIn)
@bp.response(200, EngineOut)
@documented_errors(bp, 400, 404, 413)
def engine_action(body, action):
    """`{"result": ...}`: one of the judge app's engine actions (shared_rules.worker.ACTIONS,
    the one list of them), run here exactly as the app's
    worker runs it; the app asks here while its own Python loads. The body is the action's
    request object. Unknown action → 404; an engine error → 400 with its message and field."""
    if action not in rules.ENGINE_ACTIONS:
        raise ApiError.not_found(f"engine action {action!r}")
    reply = rules.engine_action(action, body)
    if "error" in reply:
        raise ApiError.bad_request(reply["error"]["message"], reply["error"].get("field"))
    return reply


@bp.get("/events/<slug>/clock")
@bp.response(200, ClockOut)
@documented_errors(bp, 304, 404)
def clock(slug):
    """The event's clock: `{"server_ms", "event", "round", "tables"}` (see clock.clock_state).
    The ETag covers everything but `server_ms`; Cache-Control allows a few seconds."""
    state, etag = cached_clock_state(get_event(slug))
    body = json.dumps({"server_ms": timeutil.now_ms(), **state}).encode()
    max_age = current_app.config["CLOCK_MAX_AGE"]
    return cached_json(body, etag, f"public, max-age={max_age}")


@bp.post("/join")
@bp.arguments(JoinIn)
@bp.response(200, JoinOut)
@documented_errors(bp, 400, 404, 413, 429)
def join(body):
    """Join an event with its current join code: a new device (role floor_judge) and its
    bearer token, shown only here. Unknown code → 404. Wrong codes are counted per client
    address (JOIN_LIMITS, e.g. 60 per 10 minutes and 300 per day); over them, every join
    from that address → 429 until the count falls. Successful joins do not count, so a
    room of judges behind one address can join at once."""
    code = body["code"].strip().upper()
    event = db.session.scalar(db.select(Event).where(Event.join_code == code))
    if event is None:
        raise ApiError.not_found("join code")
    token = new_token()
    device = Device(event_id=event.id, name=body["device_name"], judge_name=body["judge_name"],
                    role="floor_judge", token_hash=hash_token(token), created_ms=timeutil.now_ms())
    db.session.add(device)
    db.session.commit()
    return joined(device, token, event, "code")

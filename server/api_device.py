"""Device API (header `Authorization: Bearer <token>`): the event's detail, sync, and a
player's penalty history."""

from flask import current_app

from shared_rules.history import player_history as history_of
from shared_rules.history import player_key

from . import timeutil
from .auth import authorize
from .clock import event_summary
from .deck_checks import coverage
from .decklist_intake import limits
from .errors import ApiError, documented_errors
from .events import get_event
from .extensions import db
from .jsonbody import Blueprint
from .models import Player
from .reconcile import player_records, stored_items
from .records import plain
from .rules import for_api
from .schemas import DeckChecksOut, EventDetailOut, HistoryOut, LanguageQuery, ReviewOut, SyncIn, SyncOut
from .sync import pull, push, record_json

bp = Blueprint("device", __name__, url_prefix="/api/events",
               description="Endpoints for joined devices (bearer token)")
BEARER = [{"bearer": []}]  # the token POST /api/join gave (OpenAPI security requirement)


@bp.get("/<slug>")
@bp.response(200, EventDetailOut)
@documented_errors(bp, 401, 403, 404)
@bp.doc(security=BEARER)
def event_detail(slug):
    """The event with its players `[{"id", "name"}]`, rounds with tables `[{"number",
    "tables": [{"number", "player_a", "player_b"}]}]` (player ids), `me`, and `decklists`:
    `{"deadline_ms", "sections": [{"id", "minimum", "maximum", "stated", "setting"}]}` (the
    sizes a list is checked against: decklist_intake.limits). The lists themselves come with
    sync (records of type `decklist`, judges only)."""
    event = get_event(slug)
    device = authorize(event, "read_event")
    rounds: dict[int, list] = {}
    for p in event.pairings:
        rounds.setdefault(p.round_number, []).append(
            {"number": p.number, "player_a": p.player_a_id, "player_b": p.player_b_id})
    for r in event.rounds:
        rounds.setdefault(r.number, [])
    return {"id": event.id, **event_summary(event), "game": event.game,
            "players": [{"id": p.id, "name": p.name} for p in event.players],
            "rounds": [{"number": n, "tables": t} for n, t in sorted(rounds.items())],
            "me": {"device_id": device.id, "role": device.role, "judge_name": device.judge_name},
            "decklists": {"deadline_ms": event.decklist_deadline_ms, "sections": [
                {k: s[k] for k in ("id", "minimum", "maximum", "stated", "setting")} for s in limits(event)]}}


@bp.post("/<slug>/sync")
@bp.arguments(SyncIn)
@bp.response(200, SyncOut)
@documented_errors(bp, 400, 401, 403, 404, 413)
@bp.doc(security=BEARER)
def sync(body, slug):
    """Push the outbox and pull what is new, in one request.

    Body `{"device", "cursor", "records": [RECORD...]}` → `{"results": [{"id", "status",
    "reason"?}], "records": [RECORD + seq, received_ms], "cursor", "more", "server_ms"}`.
    More than SYNC_MAX_RECORDS (500) records → 413; a `device` other than the token's → 403.
    A record's `judge` is stored as the name the device joined with. The pull holds the
    records the device's role may read (roles.RECORDS: a scorekeeper gets no penalties or
    approvals, nor the voids of them).
    """
    event = get_event(slug)
    device = authorize(event, "sync")
    if body["device"] != device.id:
        raise ApiError.forbidden(f"this token belongs to device {device.id}")
    limit = current_app.config["SYNC_MAX_RECORDS"]
    if len(body["records"]) > limit:
        raise ApiError.too_large(f"at most {limit} records per sync request")
    if body["records"]:
        results = push(event, device, body["records"])  # also notes when the device was seen
    else:
        results = []
        device.last_seen_ms = timeutil.now_ms()
        db.session.commit()
    rows, cursor, more = pull(event, device.role, body["cursor"], current_app.config["SYNC_PULL_LIMIT"])
    return {"results": results, "records": [record_json(r, slug) for r in rows],
            "cursor": cursor, "more": more, "server_ms": timeutil.now_ms()}


@bp.get("/<slug>/players/<player>/history")
@bp.response(200, HistoryOut)
@documented_errors(bp, 401, 403, 404)
@bp.doc(security=BEARER)
def player_history(slug, player):
    """A player's earlier penalties at this event, from every device, as the engine's
    `facts.history` (shared_rules.history.player_history: oldest first; voided penalties and
    those the head judge refused left out; what an item holds is the ruleset's vocabulary).
    `player` is a player id or a free-text name (compared ignoring letter case, runs of spaces
    and compatibility forms: shared_rules.history.player_key). Judges only (403 for a
    scorekeeper). 404 for an id that is not a player of this event, or a name no penalty of
    this event was recorded under."""
    event = get_event(slug)
    authorize(event, "read_history")
    key = int(player) if player.isascii() and player.isdigit() and len(player) <= 18 else player
    # read by the records.player index: the player's penalties and what names them
    records = player_records(event, {player_key(key)})[player_key(key)]
    if isinstance(key, int):
        known = key < 2**31 and db.session.scalar(db.select(Player.id).where(
            Player.id == key, Player.event_id == event.id)) is not None
    else:
        known = any(r.type == "penalty" for r in records)
    if not known:
        raise ApiError.not_found(f"player {player!r} of event {slug!r}")
    history = history_of([plain(r) for r in records], key, event.ruleset)
    return {"player": key, "history": history, "as_of_ms": timeutil.now_ms(),
            "cursor": event.last_seq}


@bp.get("/<slug>/review")
@bp.response(200, ReviewOut)
@documented_errors(bp, 401, 403, 404)
@bp.doc(security=BEARER)
def review_list(slug):
    """The head judge's review list (shared_rules.review, kept current by reconcile.py):
    `{"items": [{"kind": "approval" | "conflict" | "appeal", "record", "player", "player_name", "judge",
    "created_ms", "infraction", "penalty", "table", "round", "notes", "open_facts", ...}], "kept": [...],
    "as_of_ms"}`, oldest first; `open_facts` names the facts a penalty was recorded without
    (its remedy or head-judge step still open, shared_rules.history.penalty_payload). A
    conflict item adds `expected` (the penalty the policy gives
    with every judge's records), `needs`, `unseen` and `history` (record ids); `kept` lists the
    conflicts the head judge kept as issued, with their `resolution`. An appeal item (a
    ruling appealed, no decision yet; WotF §3.9) adds `ruling`, `ruled_by`, `call` and
    `penalty` (the appealed penalty's record id or null). Head judges (and the organiser's
    device) only: 403 for floor judges and scorekeepers."""
    event = get_event(slug)
    authorize(event, "read_review")
    names = {str(p.id): p.name for p in event.players}
    items, kept = [], []
    for row in stored_items(event):
        item = {**row.item, "player_name": names.get(str(row.item.get("player")), str(row.item.get("player")))}
        (items if item["waiting"] else kept).append(item)
    return {"items": items, "kept": kept, "as_of_ms": timeutil.now_ms()}


@bp.get("/<slug>/deck-checks")
@bp.arguments(LanguageQuery, location="query")
@bp.response(200, DeckChecksOut)
@documented_errors(bp, 400, 401, 403, 404)
@bp.doc(security=BEARER)
def deck_check_coverage(args, slug):
    """Deck-check coverage (server/deck_checks.py): `{"players": [{"player", "player_name",
    "checks": [{"record", "round", "table", "stage", "judge", "started_ms", "finished_ms",
    "outcome"}]}], "top_cut_unchecked": [{"player", "player_name"}], "top_cut_players",
    "policy"}`; `policy` is the engine's `deck_checks` answer at the event's level with its
    label and source (e.g. WotF §3.8), "not stated" where the ruleset is silent. Times in
    epoch ms. The policy's texts in `?language=` (default en; another → 400), with
    `policy.english` listing those shown in English for want of a current translation (its
    `label`, `expectation_label`, `top_cut_field`, `explain[i]`, `notes[i]`); its words "not
    stated", "advised", "not asked" stay English (a client words them from `stated`, `covered`
    and `top_cut_checked`). Head judges (and the organiser's device) only: 403 for floor judges
    and scorekeepers."""
    event = get_event(slug)
    authorize(event, "read_deck_checks")
    found = coverage(event, args["language"])
    return {**found, "policy": for_api(found["policy"])}

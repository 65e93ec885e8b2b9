"""Players' decklists on the players' page (no login): a player reads and submits their own
list with the code the organiser handed them, until the organiser's deadline (the server's
clock). Wrong codes are counted per client address (DECKLIST_LIMITS, auth.LIMITED); over the
limit, every try from that address is 429. Judges get the lists through sync, never here."""

from . import timeutil
from .decklist_intake import limits, player_for_code, submissions_open, submit, versions, view
from .errors import documented_errors
from .events import get_event
from .jsonbody import Blueprint
from .models import Event, Player
from .schemas import DecklistCodeIn, DecklistIn, DecklistOut

bp = Blueprint("decklists", __name__, url_prefix="/api/events",
               description="A player's own decklist, with their code (players' page)")


def _reply(event: Event, player: Player) -> dict:
    sizes = limits(event)
    own = versions(event, player.id)
    return {"player": {"id": player.id, "name": player.name}, "deadline_ms": event.decklist_deadline_ms,
            "open": submissions_open(event), "now_ms": timeutil.now_ms(), "versions": len(own),
            "list": view(own[-1], sizes) if own else None,
            "sections": [{k: s[k] for k in ("id", "minimum", "maximum", "stated")} for s in sizes]}


@bp.post("/<slug>/decklist/mine")
@bp.arguments(DecklistCodeIn)
@bp.response(200, DecklistOut)
@documented_errors(bp, 400, 404, 413, 429)
def my_decklist(body, slug):
    """The player's registered list: `{"player": {"id", "name"}, "deadline_ms" (null: players do
    not submit), "open", "now_ms", "versions", "list": {"format", "by", "late", "created_ms",
    "sections": [{"id", "name", "count", "cards"}], "problems", "total"} | null, "sections":
    [{"id", "minimum", "maximum", "stated"}]}` (the sizes the event asks; null: no bound).
    Wrong code → 404, counted per address (DECKLIST_LIMITS; over it → 429)."""
    event = get_event(slug)
    return _reply(event, player_for_code(event, body["code"]))


@bp.post("/<slug>/decklist")
@bp.arguments(DecklistIn)
@bp.response(201, DecklistOut)
@documented_errors(bp, 400, 403, 404, 413, 429)
def submit_decklist(body, slug):
    """Submit the player's list: `{"code", "text", "format"?}` (format: one of
    server/decklists FORMATS; absent: recognised from the text) → 201 and the reply of
    `POST .../decklist/mine` with the new version (the latest counts). A list that does not
    read → 400 with `error.lines`, one per bad line ({"line", "text", "problem", "message"}),
    and nothing stored; sizes the list breaks are `list.problems` (stored, the organiser
    sees them). Players do not submit, or the deadline (server clock) has passed → 403.
    Wrong code → 404, counted per address (DECKLIST_LIMITS; over it → 429)."""
    event = get_event(slug)
    player, _ = submit(event, body["code"], body["text"], body.get("format"))
    return _reply(event, player), 201

"""The head judge's review list as the server keeps it: shared_rules.review run over the
records of the players a change touched, stored in `review_items`.

Cost stays flat as the event grows: a push reconciles only the players its records touch
(the player of each new penalty or appeal, and of each penalty or appeal a new void,
approval, resolution or appeal decision names), reading their records by the
`records.player` and `records.target` indexes; three queries whatever the number of
players. `events.review_seq` says up to which record the stored items are current, so an
event whose items were never worked out (records from before this existed) is brought up
to date on its first read.
"""

from __future__ import annotations

from sqlalchemy import update

from shared_rules.review import review

from .extensions import db
from .models import Event, Record, ReviewItem
from .records import PLAYER_TYPES, plain, readable

# the types that name a review item's record (or one of these)
TARGETING = ("void", "approval", "resolution", "appeal_decision")


def player_records(event: Event, players: set[str]) -> dict[str, list[Record]]:
    """`{player: [the player's penalty and appeal records, and every readable record naming
    one of them or naming such a record]}`: everything shared_rules.history and .review read for these
    players. Raises nothing; unreadable rows are left out (records.readable)."""
    if not players:
        return {}
    # only penalties and appeals have a player; filtering on the player alone keeps the query on its index
    penalties = [r for r in readable(db.session.scalars(db.select(Record).where(
        Record.event_id == event.id, Record.player.in_(players))).all()) if r.type in PLAYER_TYPES]
    by_id = {r.id: r for r in penalties}
    first = _naming(event, set(by_id))
    second = _naming(event, {r.id for r in first})
    out: dict[str, list[Record]] = {p: [] for p in players}
    for r in penalties:
        out[r.player].append(r)
    named_player = {r.id: r.player for r in penalties}
    for r in first:
        named_player[r.id] = named_player.get(r.target)
    for r in first + second:
        player = named_player.get(r.target)
        if player in out:
            out[player].append(r)
    return out


def _naming(event: Event, ids: set[str]) -> list[Record]:
    if not ids:
        return []
    # by the target index alone: with the event or the type in the query, SQLite's planner
    # takes the (event, type) index and reads every record of the event
    return [r for r in readable(db.session.scalars(db.select(Record).where(Record.target.in_(ids))).all())
            if r.type in TARGETING and r.event_id == event.id]


def touched_players(event: Event, since: int) -> set[str]:
    """The players whose penalties or appeals records after sequence number `since` add to or decide."""
    rows = db.session.scalars(db.select(Record).where(Record.event_id == event.id, Record.seq > since)).all()
    players = {r.player for r in rows if r.type in PLAYER_TYPES and r.player is not None}
    targets = {r.target for r in rows if r.type in TARGETING and r.target}
    while targets:
        named = db.session.scalars(db.select(Record).where(
            Record.event_id == event.id, Record.id.in_(targets))).all()
        players |= {r.player for r in named if r.type in PLAYER_TYPES and r.player is not None}
        targets = {r.target for r in named if r.type in TARGETING and r.target} - targets
    return players


def reconcile(event: Event, upto: int | None = None) -> None:
    """Bring the event's stored review items up to record `upto` (default: its last). Call it
    inside the transaction that stored the records, or under the event row's lock."""
    from .events import engine_event  # events imports sync, which imports this module

    if upto is None:
        upto = db.session.scalar(db.select(Event.last_seq).where(Event.id == event.id)) or 0
    since = db.session.scalar(db.select(Event.review_seq).where(Event.id == event.id)) or 0
    if since >= upto:
        return
    players = touched_players(event, since)
    context = engine_event(event)
    items: list[ReviewItem] = []
    for player, rows in player_records(event, players).items():
        for item in review([plain(r) for r in rows], event.ruleset, context):
            items.append(ReviewItem(event_id=event.id, player=player, kind=item["kind"], record_id=item["record"],
                                    created_ms=item["created_ms"], item=item))
    if players:
        db.session.execute(db.delete(ReviewItem).where(ReviewItem.event_id == event.id,
                                                       ReviewItem.player.in_(players)))
    db.session.add_all(items)
    db.session.execute(update(Event).where(Event.id == event.id).values(review_seq=upto))


def rework(event: Event) -> None:
    """Work out every stored item of the event again (inside the caller's transaction): for a
    change of what the list reads besides the records (the event's head-judge setting)."""
    db.session.execute(db.delete(ReviewItem).where(ReviewItem.event_id == event.id))
    db.session.execute(update(Event).where(Event.id == event.id).values(review_seq=0))
    reconcile(event)


def stored_items(event: Event) -> list[ReviewItem]:
    """The event's review items, current (reconciled first, under the event row's lock),
    oldest first. Items stored in an older shape (without `waiting`) are worked out again."""
    db.session.execute(db.select(Event.id).where(Event.id == event.id).with_for_update())
    reconcile(event)
    items = _items(event)
    if any("waiting" not in i.item for i in items):
        rework(event)
        items = _items(event)
    db.session.commit()
    return items


def _items(event: Event) -> list[ReviewItem]:
    return db.session.scalars(db.select(ReviewItem).where(ReviewItem.event_id == event.id)
                              .order_by(ReviewItem.created_ms, ReviewItem.record_id, ReviewItem.kind)).all()

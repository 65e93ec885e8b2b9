"""Database tables.

Times are epoch milliseconds (`*_ms`, server clock unless named `created_ms`, which is the
device's clock); durations are minutes (`*_minutes`). Records are immutable: a correction is
a new record (`void`) that points at the old one.
"""

from sqlalchemy import JSON, BigInteger, ForeignKey, Index, String, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from shared_rules.vocabulary import stages

from .extensions import db

ROLES = ("floor_judge", "head_judge", "scorekeeper", "organiser")  # a device's role (roles.py)
STAGES = tuple(stages())  # the stages every ruleset shares (shared_rules/queries.json)


class Event(db.Model):
    __tablename__ = "events"

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(16), unique=True)
    join_code: Mapped[str] = mapped_column(String(16), unique=True)
    name: Mapped[str] = mapped_column(String(200))
    ruleset: Mapped[str] = mapped_column(String(64))
    level: Mapped[str | None] = mapped_column(String(64))
    stage: Mapped[str] = mapped_column(String(16), default="swiss")
    games_per_match: Mapped[int | None]
    round_minutes: Mapped[float | None]
    game: Mapped[str | None] = mapped_column(String(64))
    # the highest record sequence number handed out in this event (see sync.assign_seq)
    last_seq: Mapped[int] = mapped_column(BigInteger, default=0)
    # bumped by every change to rounds, pauses, tables or stage (see clock.bump)
    clock_version: Mapped[int] = mapped_column(default=0, server_default="0")
    # the last record sequence number the stored review items account for (reconcile.py)
    review_seq: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    # the organiser's setting: from this penalty of the ruleset up, the head judge confirms
    # (on top of what the policy itself reserves); null: the policy alone decides
    head_judge_from: Mapped[str | None] = mapped_column(String(64))
    # the organiser's setting: a judge call nobody takes within this many seconds is flagged
    # for the head judge (the policies state no time)
    call_escalate_seconds: Mapped[int] = mapped_column(default=120, server_default="120")
    # bumped by every change to the event's judge calls (see calls.bump_calls)
    calls_seq: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    # the organiser's setting: players submit their own decklists until then (server clock);
    # null: players do not submit (the organiser enters the lists)
    decklist_deadline_ms: Mapped[int | None] = mapped_column(BigInteger)
    # the organiser's setting, for the sections whose size the ruleset does not state:
    # {section id: {"minimum": int | null, "maximum": int | null}} (decklist_intake.set_sizes)
    decklist_sizes: Mapped[dict | None] = mapped_column(JSON)
    created_ms: Mapped[int] = mapped_column(BigInteger)

    players: Mapped[list["Player"]] = relationship(
        back_populates="event", order_by="Player.id", cascade="all, delete-orphan")
    rounds: Mapped[list["Round"]] = relationship(
        back_populates="event", order_by="Round.number", cascade="all, delete-orphan")
    pairings: Mapped[list["Pairing"]] = relationship(
        order_by="(Pairing.round_number, Pairing.number)", cascade="all, delete-orphan")
    devices: Mapped[list["Device"]] = relationship(
        back_populates="event", order_by="Device.id", cascade="all, delete-orphan")


class Player(db.Model):
    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("event_id", "name"),
                      UniqueConstraint("decklist_code", name="uq_players_decklist_code"))

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    external_id: Mapped[str | None] = mapped_column(String(64))  # e.g. a membership number
    # the player's own decklist code (the players' page; decklist_intake.ensure_codes), unique
    decklist_code: Mapped[str | None] = mapped_column(String(16))

    event: Mapped[Event] = relationship(back_populates="players")


class Round(db.Model):
    """A started round. `round_minutes` null means untimed (e.g. a top-cut round)."""

    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("event_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    number: Mapped[int]
    stage: Mapped[str] = mapped_column(String(16))
    round_minutes: Mapped[float | None]
    started_ms: Mapped[int] = mapped_column(BigInteger)
    ended_ms: Mapped[int | None] = mapped_column(BigInteger)

    event: Mapped[Event] = relationship(back_populates="rounds")
    pauses: Mapped[list["Pause"]] = relationship(
        order_by="Pause.start_ms", cascade="all, delete-orphan")


class Pause(db.Model):
    __tablename__ = "pauses"

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"), index=True)
    start_ms: Mapped[int] = mapped_column(BigInteger)
    end_ms: Mapped[int | None] = mapped_column(BigInteger)


class Pairing(db.Model):
    """A table of a round: who plays whom (player ids; `player_b_id` null for a bye)."""

    __tablename__ = "pairings"
    __table_args__ = (UniqueConstraint("event_id", "round_number", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    round_number: Mapped[int]
    number: Mapped[int]
    player_a_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    player_b_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))


class Device(db.Model):
    """A phone or laptop that joined an event. Only the SHA-256 of its token is kept."""

    __tablename__ = "devices"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    judge_name: Mapped[str] = mapped_column(String(100))
    role: Mapped[str] = mapped_column(String(16), default="floor_judge")
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    last_seen_ms: Mapped[int | None] = mapped_column(BigInteger)
    revoked_ms: Mapped[int | None] = mapped_column(BigInteger)

    event: Mapped[Event] = relationship(back_populates="devices")


class Record(db.Model):
    """One immutable record a device made, numbered by the event's sequence on arrival."""

    __tablename__ = "records"
    __table_args__ = (
        UniqueConstraint("event_id", "seq"),
        Index("ix_records_event_type", "event_id", "type"),
        Index("ix_records_event_player", "event_id", "player"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True)  # the phone's UUID
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(BigInteger)
    type: Mapped[str] = mapped_column(String(32))
    device_id: Mapped[int] = mapped_column(ForeignKey("devices.id"))
    judge: Mapped[str] = mapped_column(String(100))
    created_ms: Mapped[int] = mapped_column(BigInteger)
    received_ms: Mapped[int] = mapped_column(BigInteger)
    payload: Mapped[dict] = mapped_column(JSON)
    # the record a void or an approval points at (copied out of the payload for look-ups)
    target: Mapped[str | None] = mapped_column(String(36), index=True)
    # a penalty's or an appeal's player key (shared_rules.history.player_key), so a
    # player's history is read by an index and not by scanning the event's records
    player: Mapped[str | None] = mapped_column(String(200))


class ReviewItem(db.Model):
    """What the head judge's review list holds for one penalty record, worked out from the
    records by shared_rules.review and kept up to date by reconcile.py: `kind` "approval"
    (waiting for the head judge) or "conflict" (flagged; `item.resolution` set once kept)."""

    __tablename__ = "review_items"
    __table_args__ = (Index("ix_review_items_event_player", "event_id", "player"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    player: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(16))
    record_id: Mapped[str] = mapped_column(String(36))
    created_ms: Mapped[int | None] = mapped_column(BigInteger)
    item: Mapped[dict] = mapped_column(JSON)


class Call(db.Model):
    """A judge call from a table: no personal data (no name, no address), only the table,
    the reason, who called (player or spectator), and the judge who took it."""

    __tablename__ = "calls"
    __table_args__ = (
        Index("ix_calls_event_table", "event_id", "table_number"),
        # one call per table while it is not closed, whichever process stores it
        Index("uq_calls_open_table", "event_id", "table_number", unique=True,
              sqlite_where=text("status != 'closed'"), postgresql_where=text("status != 'closed'")),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True)  # a UUID
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    table_number: Mapped[int]
    reason: Mapped[str | None] = mapped_column(String(32))
    caller: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(8))  # open, taken, closed
    created_ms: Mapped[int] = mapped_column(BigInteger)
    taken_ms: Mapped[int | None] = mapped_column(BigInteger)
    taken_by: Mapped[str | None] = mapped_column(String(100))  # the judge's name
    taken_device_id: Mapped[int | None] = mapped_column(ForeignKey("devices.id", ondelete="SET NULL"))
    closed_ms: Mapped[int | None] = mapped_column(BigInteger)
    ruling: Mapped[str | None] = mapped_column(String(2000))
    closed_by: Mapped[str | None] = mapped_column(String(100))  # the judge who closed it (and gave the ruling)


class OrganiserSession(db.Model):
    """A logged-in organiser session: the SHA-256 of the id its cookie holds, and until
    when it lasts. Logging out deletes the row."""

    __tablename__ = "organiser_sessions"

    sid_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    expires_ms: Mapped[int] = mapped_column(BigInteger, index=True)

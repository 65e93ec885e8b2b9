"""Database tables.

Times are epoch milliseconds (`*_ms`, server clock unless named `created_ms`, which is the
device's clock); durations are minutes (`*_minutes`). Records are immutable: a correction is
a new record (`void`) that points at the old one.
"""

from sqlalchemy import JSON, BigInteger, Boolean, ForeignKey, Index, String, UniqueConstraint, text
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
    # the staff account the device joined through (its judge name and role follow it); null
    # for a device joined with the event's code and a typed name
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"), index=True)

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


class Account(db.Model):
    """A person's own login to the organiser pages (accounts.py). `login` is the name typed
    to log in, kept case-folded; `name` is shown, and is the judge name of the devices joined
    through the account. `password_hash` (werkzeug's scrypt) is null until the person sets a
    password through their one-time link. An `admin` account (the first one, made from
    ORGANISER_PASSWORD) is organiser of every event, creates events and manages people. A
    revoked account can no longer log in and its devices are revoked."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(primary_key=True)
    login: Mapped[str | None] = mapped_column(String(64), unique=True)
    name: Mapped[str] = mapped_column(String(100))
    password_hash: Mapped[str | None] = mapped_column(String(256))
    admin: Mapped[bool] = mapped_column(Boolean, default=False)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    revoked_ms: Mapped[int | None] = mapped_column(BigInteger)


class StaffRole(db.Model):
    """A person's role in one event (roles.ACCOUNT_ROLES): what the organiser pages let them
    do there, and the role of the devices they join through their account."""

    __tablename__ = "staff_roles"
    __table_args__ = (UniqueConstraint("account_id", "event_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(16))


class AccountLink(db.Model):
    """A one-time link of an account (only the SHA-256 of its token is kept): `kind`
    "password" sets the account's password (an invitation, or a new password), "device"
    joins one phone to `event_id` as the account's person. Used once, or never after
    `expires_ms`."""

    __tablename__ = "account_links"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    event_id: Mapped[int | None] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    created_ms: Mapped[int] = mapped_column(BigInteger)
    expires_ms: Mapped[int] = mapped_column(BigInteger)
    used_ms: Mapped[int | None] = mapped_column(BigInteger)


class OrganiserSession(db.Model):
    """A logged-in account's session on the organiser pages: the SHA-256 of the id its
    cookie holds, whose account it is, and until when it lasts. Logging out deletes the row;
    a password change deletes every row of the account."""

    __tablename__ = "organiser_sessions"

    sid_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    expires_ms: Mapped[int] = mapped_column(BigInteger, index=True)


class AuditEntry(db.Model):
    """One line of an event's audit log (audit.py): who (`account_id` and/or `device_id`,
    and their name then, `actor`), when (server clock), what (`kind`, an id of
    audit.KINDS) and what changed (`changes`, a JSON object). Append-only: the ORM refuses
    to change or delete a row (audit.py), and no page or endpoint offers to."""

    __tablename__ = "audit_entries"
    __table_args__ = (Index("ix_audit_entries_event_id", "event_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    at_ms: Mapped[int] = mapped_column(BigInteger)
    kind: Mapped[str] = mapped_column(String(32))
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"))
    device_id: Mapped[int | None] = mapped_column(ForeignKey("devices.id", ondelete="SET NULL"))
    actor: Mapped[str] = mapped_column(String(100))
    changes: Mapped[dict] = mapped_column(JSON)


class CsvMapping(db.Model):
    """How the organiser mapped the columns of a pairings CSV with these headers (imports.py),
    so the next file from the same software is read without asking: `headers_key` is the
    SHA-256 of the case-folded header names, `mapping` {"table": column, "a_name": column, ...}."""

    __tablename__ = "csv_mappings"

    headers_key: Mapped[str] = mapped_column(String(64), primary_key=True)
    headers: Mapped[list] = mapped_column(JSON)
    mapping: Mapped[dict] = mapped_column(JSON)
    updated_ms: Mapped[int] = mapped_column(BigInteger)

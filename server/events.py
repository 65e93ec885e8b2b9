"""Events, players and pairings: creating an event, importing players and tables from CSV,
devices' roles, and the penalty list with its approval state (for pages and export)."""

import csv
import io
from datetime import UTC, datetime, timedelta

from . import timeutil
from .auth import new_join_code, new_slug
from .clock import bump, check_round_minutes, event_summary
from .errors import ApiError
from .extensions import db
from .models import ROLES, Device, Event, Pairing, Player, Record
from .records import approval_state, effective
from .rules import check_event_settings


def get_event(slug: str) -> Event:
    """The event with this slug; ApiError 404 otherwise."""
    event = db.session.scalar(db.select(Event).where(Event.slug == slug))
    if event is None:
        raise ApiError.not_found(f"event {slug!r}")
    return event


def create_event(name: str, ruleset: str, level: str | None = None, stage: str = "swiss",
                 games_per_match: int | None = None, round_minutes: float | None = None,
                 game: str | None = None) -> Event:
    """A new event with a fresh public slug and join code. The settings are checked by the
    engine's own check (shared_rules.check_event_settings), which also fills in the
    ruleset's defaults for games per match and round minutes (none where it states none).

    Raises RuleError naming the field (`ruleset`, `event.level`, `event.stage`,
    `event.games_per_match`, ...) for a setting the ruleset does not allow; a level is required
    where the ruleset has levels. Raises ApiError 400 for round minutes outside 1 to 600
    (clock.ROUND_MINUTES).
    """
    check_round_minutes(round_minutes)
    settings = check_event_settings(ruleset, {
        "level": level or None, "stage": stage or None, "games_per_match": games_per_match,
        "round_minutes": round_minutes, "game": game or None})
    event = Event(slug=new_slug(), join_code=new_join_code(), name=name, ruleset=ruleset,
                  level=settings.get("level"), stage=settings["stage"],
                  games_per_match=settings.get("games_per_match"),
                  round_minutes=settings.get("round_minutes"), game=settings.get("game"),
                  created_ms=timeutil.now_ms())
    db.session.add(event)
    db.session.commit()
    return event


def set_stage(event: Event, stage: str) -> None:
    """Move the event to another stage (swiss rounds, top cut), checked by the engine like
    any setting; raises RuleError (field `event.stage`) for a stage the engine does not know."""
    settings = check_event_settings(event.ruleset, {**engine_event(event), "stage": stage})
    event.stage = settings["stage"]
    bump(event)
    db.session.commit()


def engine_event(event: Event) -> dict:
    """The engine's event context for this event (absent values left out)."""
    context = {"level": event.level, "stage": event.stage,
               "games_per_match": event.games_per_match, "round_minutes": event.round_minutes,
               "game": event.game}
    return {k: v for k, v in context.items() if v is not None}


def _rows(text: str) -> list[tuple[int, dict]]:
    """(line number, row) of each CSV row that is not blank, values stripped."""
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    if not reader.fieldnames:
        raise ApiError.bad_request("the CSV is empty", "csv")
    reader.fieldnames = [f.strip().lower() for f in reader.fieldnames]
    rows = []
    for row in reader:
        values = {k: (v or "").strip() for k, v in row.items() if k}
        if any(values.values()):
            rows.append((reader.line_num, values))
    return rows


def import_players(event: Event, text: str) -> tuple[int, list[str]]:
    """Add players from CSV with a `name` column (optional `id`: an outside id such as a
    membership number). Blank lines are skipped. Returns (how many were added, what was
    skipped: `"Ada Brook (already in the event)"` or `"... (twice in the CSV)"`).
    Raises ApiError 400 naming the line of a row without a name."""
    rows = _rows(text)
    if rows and "name" not in rows[0][1]:
        raise ApiError.bad_request("the CSV needs a 'name' column", "csv")
    existing = {p.name for p in event.players}
    seen: set[str] = set()
    added, skipped = 0, []
    for line, row in rows:
        name = row.get("name")
        if not name:
            raise ApiError.bad_request(f"line {line}: no name", "csv")
        if name in existing:
            skipped.append(f"{name} (already in the event)")
            continue
        if name in seen:
            skipped.append(f"{name} (twice in the CSV)")
            continue
        seen.add(name)
        event.players.append(Player(name=name, external_id=row.get("id") or None))
        added += 1
    db.session.commit()
    return added, skipped


def import_pairings(event: Event, round_number: int, text: str) -> int:
    """Replace round `round_number`'s tables from CSV with columns `table`, `player_a`,
    `player_b` (player names as imported; `player_b` empty for a bye). Returns the number of
    tables. Raises ApiError 400 naming the line of an unknown player or a bad table number."""
    rows = _rows(text)
    by_name = {p.name: p.id for p in event.players}
    tables = []
    for line, row in rows:
        try:
            number = int(row.get("table", ""))
        except ValueError:
            raise ApiError.bad_request(f"line {line}: table must be a number", "csv") from None
        ids = []
        for key in ("player_a", "player_b"):
            name = row.get(key) or ""
            if name and name not in by_name:
                raise ApiError.bad_request(f"line {line}: no player named {name!r}", "csv")
            ids.append(by_name.get(name))
        if ids[0] is None:
            raise ApiError.bad_request(f"line {line}: player_a is required", "csv")
        tables.append(Pairing(event_id=event.id, round_number=round_number, number=number,
                              player_a_id=ids[0], player_b_id=ids[1]))
    if len({t.number for t in tables}) != len(tables):
        raise ApiError.bad_request("a table number appears twice", "csv")
    for old in [p for p in event.pairings if p.round_number == round_number]:
        event.pairings.remove(old)
    db.session.flush()
    event.pairings.extend(tables)
    bump(event)
    db.session.commit()
    return len(tables)


def set_role(device: Device, role: str) -> None:
    if role not in ROLES or role == "organiser":
        raise ApiError.bad_request("role must be one of floor_judge, head_judge, scorekeeper",
                                   "role")
    device.role = role
    db.session.commit()


def revoke(device: Device) -> None:
    """Revoke a device's token now: its next request gets 401."""
    if device.revoked_ms is None:
        device.revoked_ms = timeutil.now_ms()
        db.session.commit()


def organiser_device(event: Event) -> Device:
    """The event's organiser pseudo-device: records made on the organiser pages (approvals)
    are pushed as this device, so they sync like any judge's."""
    device = db.session.scalar(db.select(Device).where(
        Device.event_id == event.id, Device.role == "organiser"))
    if device is None:
        device = Device(event_id=event.id, name="organiser pages", judge_name="organiser",
                        role="organiser", created_ms=timeutil.now_ms())
        db.session.add(device)
        db.session.commit()
    return device


def penalty_rows(event: Event) -> list[dict]:
    """Every penalty of the event, oldest first, with who recorded it and its approval
    state: `{"id", "seq", "player", "player_name", "round", "table", "infraction",
    "penalty", "head_judge", "approval", "voided", "judge", "device", "device_id",
    "created_ms", "received_ms", "notes"}`."""
    records = db.session.scalars(db.select(Record).where(
        Record.event_id == event.id, Record.type.in_(("penalty", "approval", "void")))
        .order_by(Record.seq)).all()
    live = effective(records)
    live_ids = {r.id for r in live}
    approvals = [r for r in live if r.type == "approval"]
    names = {p.id: p.name for p in event.players}
    devices = {d.id: d.name for d in event.devices}
    rows = []
    for r in records:
        if r.type != "penalty":
            continue
        p = r.payload
        player = p["player"]
        rows.append({
            "id": r.id, "seq": r.seq, "player": player,
            "player_name": names.get(player, str(player)) if isinstance(player, int) else player,
            "round": p.get("round"), "table": p.get("table"), "infraction": p["infraction"],
            "penalty": p["penalty"], "head_judge": bool(p.get("head_judge")),
            "approval": approval_state(r, approvals), "voided": r.id not in live_ids,
            "judge": r.judge, "device": devices.get(r.device_id), "device_id": r.device_id,
            "created_ms": r.created_ms,
            "received_ms": r.received_ms, "notes": p.get("notes")})
    return rows


CSV_COLUMNS = ["seq", "id", "round", "table", "player", "player_name", "infraction", "penalty",
               "head_judge", "approval", "voided", "judge", "device", "created_utc",
               "received_utc", "created_ms", "received_ms", "notes"]
# a spreadsheet runs a cell starting with one of these as a formula
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value):
    """A value as safe to open in a spreadsheet: text starting like a formula gets a leading
    single quote (the OWASP advice for CSV injection); other values are left as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def utc_iso(ms: int | None) -> str:
    """Epoch ms as UTC ISO 8601 to the second (`2027-01-15T08:00:00Z`); empty when absent or
    out of range."""
    if ms is None:
        return ""
    try:
        moment = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=ms)
    except OverflowError:
        return ""
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def write_csv(columns: list[str], rows) -> str:
    """Rows (dicts) as CSV text with a header, every cell made safe by `csv_cell`."""
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: csv_cell(v) for k, v in row.items()})
    return out.getvalue()


def penalties_csv(event: Event) -> str:
    """The penalty list as CSV (columns CSV_COLUMNS; a list of penalties joined with '+';
    times both as UTC ISO 8601 and as epoch ms; formula-like text quoted, see csv_cell)."""
    rows = []
    for row in penalty_rows(event):
        penalty = row["penalty"]
        rows.append({**row, "penalty": "+".join(penalty) if isinstance(penalty, list)
                     else (penalty or ""),
                     "created_utc": utc_iso(row["created_ms"]),
                     "received_utc": utc_iso(row["received_ms"])})
    return write_csv(CSV_COLUMNS, rows)


def export_json(event: Event) -> dict:
    """`{"event": {...public summary}, "penalties": [penalty rows]}` (see penalty_rows)."""
    return {"event": event_summary(event), "penalties": penalty_rows(event)}

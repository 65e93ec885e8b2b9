"""Events and players: creating an event, importing players from CSV (tables: imports.py),
devices' roles, and the penalty list with its approval state (for pages and export)."""

import csv
import io
from datetime import UTC, datetime, timedelta

from flask_babel import lazy_gettext as _l

from shared_rules import review as review_texts
from shared_rules.history import decisions, ordered
from shared_rules.translations import ENGLISH
from shared_rules.vocabulary import shared_in, words

from . import timeutil
from .auth import new_join_code, new_slug
from .clock import bump, check_round_minutes, event_summary
from .errors import ApiError
from .extensions import db
from .fields import clean_text, text_problem
from .models import Device, Event, Player, Record
from .records import MAX_NAME, approval_state, effective, plain, stored_problem
from .roles import DEVICE_ROLES
from .rules import RuleError, check_event_settings, load_ruleset


def get_event(slug: str) -> Event:
    """The event with this slug; ApiError 404 otherwise (also for text no slug can be,
    which the database is never asked about)."""
    if len(slug) > 16 or text_problem(slug):
        raise ApiError.not_found("event")
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
    (clock.ROUND_MINUTES), a name over 200 or a game over 64 characters, or either holding
    control characters.
    """
    check_text(name, "the name", 200, "name")
    check_text(game or "", "the game", 64, "game")
    check_round_minutes(round_minutes)
    settings = check_event_settings(ruleset, {
        "level": level or None, "stage": stage or None, "games_per_match": games_per_match,
        "round_minutes": round_minutes, "game": game or None})
    event = Event(slug=new_slug(), join_code=new_join_code(), name=name, ruleset=ruleset,
                  level=settings.get("level"), stage=settings["stage"],
                  games_per_match=settings.get("games_per_match"),
                  round_minutes=settings.get("round_minutes"), game=settings.get("game"),
                  head_judge_from=settings.get("head_judge_from"), created_ms=timeutil.now_ms())
    db.session.add(event)
    db.session.commit()
    return event


def event_problems(name: str, ruleset: str, settings: dict) -> dict[str, str]:
    """Every problem `create_event` would refuse, one per field, for a form to name them all
    at once: {field: message}, fields "name", "game", "round_minutes", "ruleset", "level",
    "stage", "games_per_match", ... (the engine's field without its "event." prefix). The
    engine's check names one field at a time, so it is asked again without each field it
    refused until it agrees (or refuses the same field twice: a required one)."""
    problems = {}
    for field, check in (("name", lambda: check_text(name, _l("the name"), 200, "name")),
                         ("game", lambda: check_text(settings.get("game") or "", _l("the game"), 64, "game")),
                         ("round_minutes", lambda: check_round_minutes(settings.get("round_minutes")))):
        try:
            check()
        except ApiError as err:
            problems[field] = str(err)
    trial = {k: v for k, v in settings.items() if k not in problems}
    while True:
        try:
            check_event_settings(ruleset, trial)
            return problems
        except RuleError as err:
            field = (err.field or "ruleset").removeprefix("event.")
            if field in problems or field == "ruleset" or trial.get(field) is None:
                problems.setdefault(field, str(err))
                return problems
            problems[field] = str(err)
            trial[field] = None


def set_stage(event: Event, stage: str) -> None:
    """Move the event to another stage (swiss rounds, top cut), checked by the engine like
    any setting; raises RuleError (field `event.stage`) for a stage the engine does not know."""
    settings = check_event_settings(event.ruleset, {**engine_event(event), "stage": stage})
    event.stage = settings["stage"]
    bump(event)
    db.session.commit()


def set_head_judge_from(event: Event, penalty: str | None) -> None:
    """The organiser's setting: from `penalty` (a penalty id of the ruleset) up the head judge
    confirms; None or "" for the policy alone (where the ruleset states no default). Checked
    by the engine like any setting; raises RuleError (field `event.head_judge_from`). The
    stored review list is worked out again under the new setting (reconcile.rework)."""
    settings = check_event_settings(event.ruleset, {**engine_event(event), "head_judge_from": penalty or None})
    event.head_judge_from = settings.get("head_judge_from")
    bump(event)
    db.session.flush()
    # the review list reads the setting: penalties recorded under the old one are looked at again
    from .reconcile import rework  # reconcile imports this module
    rework(event)
    db.session.commit()


def engine_event(event: Event) -> dict:
    """The engine's event context for this event (absent values left out)."""
    context = {"level": event.level, "stage": event.stage,
               "games_per_match": event.games_per_match, "round_minutes": event.round_minutes,
               "game": event.game, "head_judge_from": event.head_judge_from}
    return {k: v for k, v in context.items() if v is not None}


MAX_CSV_ROWS = 5000  # rows one import may hold


def csv_rows(text: str) -> list[tuple[int, dict]]:
    """(line number, row) of each CSV row that is not blank, values stripped. Raises
    ApiError 400 for text no spreadsheet would write (NUL, a broken quote, a cell over the
    csv module's limit) or more than MAX_CSV_ROWS rows."""
    if "\0" in text:
        raise ApiError.bad_request(_l("the CSV holds a NUL character: is it a spreadsheet file rather than CSV?"),
                                   "csv")
    # strict: a quote never closed is refused, not read as one cell running to the end
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")), strict=True)
    rows = []
    try:
        if not reader.fieldnames:
            raise ApiError.bad_request(_l("the CSV is empty"), "csv")
        reader.fieldnames = [f.strip().lower() for f in reader.fieldnames]
        for row in reader:
            values = {k: (v or "").strip() for k, v in row.items() if isinstance(k, str) and k}
            if any(values.values()):
                rows.append((reader.line_num, values))
            if len(rows) > MAX_CSV_ROWS:
                raise ApiError.bad_request(_l("the CSV has more than %(rows)s rows", rows=MAX_CSV_ROWS), "csv")
    except csv.Error as err:
        # a quote never closed: the csv module has counted only the lines before its row
        line = reader.line_num + 1 if "unexpected end of data" in str(err) else reader.line_num
        raise ApiError.bad_request(_l("line %(line)s: not readable as CSV (%(problem)s)", line=line,
                                      problem=str(err)), "csv") from None
    return rows


def check_text(value: str, label: str, max_length: int, field: str | None = None) -> str:
    """`value` when it is text of at most `max_length` characters without control
    characters; ApiError 400 naming `label` otherwise."""
    problem = text_problem(value)
    if problem:
        raise ApiError.bad_request(f"{label} {problem}", field)
    if len(value) > max_length:
        raise ApiError.bad_request(_l("%(label)s is longer than %(length)s characters", label=label,
                                      length=max_length), field)
    return value


def import_players(event: Event, text: str) -> tuple[int, list[str]]:
    """Add players from CSV with a `name` column (optional `id`: an outside id such as a
    membership number). Blank lines are skipped. Returns (how many were added, what was
    skipped: `"Ada Brook (already in the event)"` or `"... (twice in the CSV)"`).
    Raises ApiError 400 naming the line of a row without a name, or with a name over
    MAX_NAME or an id over 64 characters, or holding control characters; nothing is added
    then."""
    rows = csv_rows(text)
    if rows and "name" not in rows[0][1]:
        raise ApiError.bad_request(_l("the CSV needs a %(column)r column", column="name"), "csv")
    existing = {p.name for p in event.players}
    seen: set[str] = set()
    added, skipped = 0, []
    for line, row in rows:
        name = row.get("name")
        if not name:
            raise ApiError.bad_request(_l("line %(line)s: no name", line=line), "csv")
        check_text(name, _l("line %(line)s: the name", line=line), MAX_NAME, "csv")
        check_text(row.get("id") or "", _l("line %(line)s: the id", line=line), 64, "csv")
        if name in existing:
            skipped.append(_l("%(name)s (already in the event)", name=name))
            continue
        if name in seen:
            skipped.append(_l("%(name)s (twice in the CSV)", name=name))
            continue
        seen.add(name)
        event.players.append(Player(name=name, external_id=row.get("id") or None))
        added += 1
    db.session.commit()
    return added, skipped


def check_number(text: str, label, low: int, high: int, field: str | None = None) -> int:
    """The whole number written in `text`, from `low` to `high`; ApiError 400 naming
    `label` otherwise (a fraction, a sign, digits past the range, or no number)."""
    text = text.strip()
    if not (text.isascii() and text.isdigit()):
        shown = text if len(text) <= 20 else text[:20] + "…"
        raise ApiError.bad_request(_l("%(label)s must be a whole number from %(low)s to %(high)s, not %(text)r",
                                      label=label, low=low, high=high, text=shown), field)
    if len(text) > 20 or not low <= int(text) <= high:
        raise ApiError.bad_request(_l("%(label)s must be from %(low)s to %(high)s", label=label, low=low, high=high),
                                   field)
    return int(text)


def set_role(device: Device, role: str) -> None:
    """Give `device` the role `role` (roles.DEVICE_ROLES; ApiError 400 naming `role` otherwise).
    The event's clock counter moves too, so the phones following its stream read the event
    again at once (their role with it) rather than at their next sync."""
    if role not in DEVICE_ROLES:
        raise ApiError.bad_request("role must be one of " + ", ".join(DEVICE_ROLES), "role")
    device.role = role
    bump(device.event)
    db.session.commit()


def new_code(event: Event) -> str:
    """Give the event a new join code now; the old one stops working at once (devices that
    joined keep their tokens). Returns the new code."""
    event.join_code = new_join_code()
    db.session.commit()
    return event.join_code


def revoke(device: Device) -> str | None:
    """Revoke a device's token now (its next request gets 401) and change the event's join
    code, so its judge cannot join again with the code they know; other devices keep
    working. Returns the new join code (None when the device was already revoked)."""
    if device.revoked_ms is not None:
        return None
    device.revoked_ms = timeutil.now_ms()
    return new_code(device.event)


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


def stored_records(event: Event, types: tuple[str, ...]) -> tuple[list[Record], list[dict]]:
    """The event's records of `types` in seq order, split into those that can be read and
    `[{"id", "seq", "type", "problem"}]` for those that cannot (records.stored_problem):
    every view reads records through here, so no stored value can break it."""
    good, bad = [], []
    for r in db.session.scalars(db.select(Record).where(
            Record.event_id == event.id, Record.type.in_(types)).order_by(Record.seq)):
        problem = stored_problem(r)
        if problem is None:
            good.append(r)
        else:
            bad.append({"id": r.id, "seq": r.seq, "type": r.type, "problem": problem})
    return good, bad


def unreadable_records(event: Event) -> list[dict]:
    """Every record of the event that cannot be read (see stored_records)."""
    types = db.session.scalars(db.select(Record.type).where(Record.event_id == event.id).distinct())
    return stored_records(event, tuple(types))[1]


def rule_names(ruleset_id: str, language: str = ENGLISH) -> tuple[dict[str, str], dict[str, str]]:
    """(infraction id → name, penalty id → name) of the ruleset (rules.load_ruleset) in
    `language`: a name with no current translation is its English with translations.MARK in
    front (i18n.rule_text shows it). Both empty for a ruleset the engine no longer finds."""
    try:
        data = load_ruleset(ruleset_id, language)
    except RuleError:
        return {}, {}
    return ({i["id"]: i.get("name") or i["id"] for i in data.get("infractions", [])},
            {p["id"]: p.get("name") or p["id"] for p in data.get("penalties", [])})


def ruleset_label(ruleset_id: str, level: str | None, language: str = ENGLISH) -> tuple[str, str | None]:
    """(the ruleset's title, the level's name) for people in `language` (rules.load_ruleset:
    a text with no current translation carries translations.MARK), for an event's
    `ruleset` and `level` ids. The ids themselves where the engine no longer finds the
    ruleset or the level; None for an event with no level."""
    try:
        data = load_ruleset(ruleset_id, language)
    except RuleError:
        return ruleset_id, level
    names = {lv["id"]: lv.get("name") or lv["id"] for lv in data.get("levels", [])}
    return data.get("title") or ruleset_id, names.get(level, level) if level else None


def _readable(rule_id: str) -> str:
    return rule_id.replace("_", " ")


def penalty_rows(event: Event, items: list | None = None, language: str = ENGLISH) -> list[dict]:
    """Every readable penalty of the event, in the engine's order (shared_rules.history.ordered:
    by when each was made, a replacement where the penalty it replaces stood), with who recorded it, its
    approval state and the ruleset's names: `{"id", "seq", "player", "player_name",
    "round", "table", "infraction", "infraction_name", "penalty", "penalty_name",
    "head_judge", "approval", "voided", "judge", "device", "device_id", "created_ms",
    "received_ms", "notes", "flag", "kept", "replaces", "open_facts", "open_text"}`
    (`infraction_name` and `penalty_name` in `language`, see rule_names; `penalty_name` the
    engine's word for no penalty for null; several joined by " + "; `items`: the event's
    review items when the caller has them (reconcile.stored_items); `flag` says what the
    policy gives with every judge's records for a flagged penalty (shared_rules.review),
    `kept` the head judge's reason for keeping it, `replaces` the flagged penalty's id this
    one was issued in place of; `open_facts` the fact paths it was recorded without (its
    remedy or head-judge step still open) and `open_text` their questions in `language`,
    joined with "; " (null for none); `flag` in `language` too). Exports ask in English."""
    from .reconcile import stored_items  # reconcile reads records through this module's helpers

    items = stored_items(event) if items is None else items
    flags = {i.record_id: i.item for i in items if i.kind == "conflict"}
    # waiting for the head judge by the review list (the policy, or the event's setting now)
    awaiting = {i.record_id for i in items if i.kind == "approval"}
    records, _ = stored_records(event, ("penalty", "approval", "void"))
    live = effective(records)
    live_ids = {r.id for r in live}
    decided = decisions([plain(r) for r in records])
    names = {p.id: p.name for p in event.players}
    devices = {d.id: d.name for d in event.devices}
    infractions, penalty_names = rule_names(event.ruleset, language)
    no_penalty = words(shared_in(language))["no_penalty"]
    rows = []
    # in the engine's order (the order the upgrade path reads them: when each was made, a
    # replacement where the penalty it replaces stood), not the order they reached the server
    by_id = {r.id: r for r in records}
    for r in (by_id[str(o["id"])] for o in ordered([plain(r) for r in records])):
        if r.type != "penalty":
            continue
        p = r.payload
        player = p["player"]
        issued = p["penalty"] if isinstance(p["penalty"], list) else [p["penalty"]] if p["penalty"] else []
        rows.append({
            "id": r.id, "seq": r.seq, "player": player,
            "player_name": names.get(player, str(player)) if isinstance(player, int) else player,
            "round": p.get("round"), "table": p.get("table"), "infraction": p["infraction"],
            "infraction_name": infractions.get(p["infraction"], _readable(p["infraction"])),
            "penalty": p["penalty"],
            "penalty_name": " + ".join(penalty_names.get(i, _readable(i)) for i in issued) or no_penalty,
            "head_judge": bool(p.get("head_judge")) or r.id in awaiting,
            "approval": approval_state(r, decided, awaiting), "voided": r.id not in live_ids,
            "judge": r.judge, "device": devices.get(r.device_id), "device_id": r.device_id,
            "created_ms": r.created_ms,
            "received_ms": r.received_ms, "notes": p.get("notes"),
            "flag": review_texts.flag_text(flags[r.id], event.ruleset, language) if r.id in flags else None,
            "kept": (flags[r.id].get("resolution") or {}).get("reason") if r.id in flags else None,
            "replaces": p.get("replaces"), "open_facts": list(p.get("open_facts") or []),
            "open_text": review_texts.open_text(p.get("open_facts") or [], event.ruleset, language)})
    return rows


CSV_COLUMNS = ["seq", "id", "round", "table", "player", "player_name", "infraction",
               "infraction_name", "penalty", "penalty_name", "head_judge", "approval", "voided",
               "judge", "device", "created_utc", "received_utc", "created_ms", "received_ms", "notes",
               "flag", "kept", "replaces", "open_facts"]
# a spreadsheet runs a cell starting with one of these as a formula (also after leading
# spaces or control characters, which some spreadsheets skip)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")
SKIPPED_BEFORE_FORMULA = "".join(chr(c) for c in range(33)) + "\x7f\u00a0\u3000"


def csv_cell(value):
    """A value as safe to open in a spreadsheet: text whose first character, after any
    spaces and control characters, starts a formula gets a leading single quote (the OWASP
    advice for CSV injection); text that cannot be written as UTF-8 (lone surrogates, NUL)
    has those characters replaced by U+FFFD. Other values are left as they are."""
    if not isinstance(value, str):
        return value
    value = clean_text(value)
    if value.startswith(FORMULA_STARTS) or value.lstrip(SKIPPED_BEFORE_FORMULA).startswith(FORMULA_STARTS):
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
    """Rows (dicts) as CSV text with a header, every cell quoted (so a line break or quote
    inside a cell never starts a row) and made safe by `csv_cell`."""
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, extrasaction="ignore", lineterminator="\r\n",
                            quoting=csv.QUOTE_ALL)
    writer.writeheader()
    for row in rows:
        writer.writerow({k: csv_cell(v) for k, v in row.items()})
    return out.getvalue()


def penalties_csv(event: Event) -> str:
    """The penalty list as CSV, one row per penalty (columns CSV_COLUMNS; a list of
    penalties joined with '+', and the ruleset's names beside the ids; times both as UTC
    ISO 8601 and as epoch ms; every cell quoted; formula-like text neutralised, see
    csv_cell)."""
    rows = []
    for row in penalty_rows(event):
        penalty = row["penalty"]
        rows.append({**row, "penalty": "+".join(penalty) if isinstance(penalty, list)
                     else (penalty or ""), "open_facts": "; ".join(row["open_facts"]),
                     "created_utc": utc_iso(row["created_ms"]),
                     "received_utc": utc_iso(row["received_ms"])})
    return write_csv(CSV_COLUMNS, rows)


def export_json(event: Event) -> dict:
    """`{"event": {...public summary}, "penalties": [penalty rows], "unreadable": [records
    that cannot be read: {"id", "seq", "type", "problem"}]}` (see penalty_rows,
    stored_records)."""
    return {"event": event_summary(event), "penalties": penalty_rows(event),
            "unreadable": unreadable_records(event)}

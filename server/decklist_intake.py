"""Registered decklists: taking them in (the organiser's pages, a bulk file, the players'
page with a player's code), the deadline and deck sizes the organiser sets, and reading them
back (each player's list, its versions, the CSV export, the print order).

A decklist is a record of type `decklist` (records.DecklistPayload), one per version, pushed
as the organiser's pseudo-device like the organiser's approvals: numbered in the event's
sequence, so judges' phones get every version in their sync (roles.RECORDS: judges and the
organiser read them; scorekeepers and the public do not) and keep them offline. Nothing is
edited: a change is a new version with who (`by`: the player with their code, or the
organiser) and when (`created_ms`, the server's clock); the latest counts
(shared_rules.decklists.current). A list whose text does not read is refused whole, each bad
line named (server/decklists), and nothing stored changes.

Players submit until the organiser's deadline (`events.decklist_deadline_ms`, the server's
clock); no deadline set means players do not submit. After it only the organiser adds a
version, marked `late`. A player's code is 10 symbols from the join codes' alphabet (32^10 =
2^50), made once per player; wrong codes are counted per client address (auth.LIMITED,
DECKLIST_LIMITS).
"""

from __future__ import annotations

import secrets
import unicodedata
import uuid

from flask_babel import LazyString
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from shared_rules import decklists as rules_lists
from shared_rules.translations import ENGLISH

from . import decklists, timeutil
from .auth import CODE_ALPHABET
from .errors import ApiError
from .events import csv_rows, engine_event, organiser_device, stored_records, utc_iso, write_csv
from .extensions import db
from .models import Event, Player, Record
from .records import MAX_NAME
from .rules import RuleError, evaluate, load_ruleset, queries_of

CODE_LENGTH = 10
MAX_SIZE = 999  # the largest deck size an organiser may set
QUERY = "decklist_problem"


# --- codes -------------------------------------------------------------------------------


def ensure_codes(event: Event) -> None:
    """Give every player of the event without a decklist code one (made once, kept)."""
    missing = [p for p in event.players if not p.decklist_code]
    if not missing:
        return
    for player in missing:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if db.session.scalar(db.select(Player.id).where(Player.decklist_code == code)) is None:
                break
        player.decklist_code = code
    db.session.commit()


def shown_code(code: str | None) -> str:
    """A code as printed: two groups of five ("ABCDE-FGHJK")."""
    return f"{code[:5]}-{code[5:]}" if code else ""


def player_for_code(event: Event, code: str) -> Player:
    """The event's player whose code this is (spaces, dashes and case ignored); ApiError 404
    otherwise (a wrong code counts toward the address's limit)."""
    typed = "".join(ch for ch in code.upper() if ch not in " -")
    player = db.session.scalar(db.select(Player).where(Player.decklist_code == typed)) \
        if len(typed) == CODE_LENGTH and typed.isascii() and typed.isalnum() else None
    if player is None or player.event_id != event.id:
        raise ApiError.not_found("decklist code")
    return player


# --- the organiser's settings -------------------------------------------------------------


def limits(event: Event, language: str = ENGLISH) -> list[dict]:
    """The event's decklist sections with their sizes (shared_rules.decklists.sizes: the
    ruleset's where it states them, else the organiser's setting), names in `language`; []
    for a ruleset the rule data no longer has."""
    try:
        ruleset = load_ruleset(event.ruleset, language)
    except RuleError:
        return []
    return rules_lists.sizes(ruleset, event.decklist_sizes)


def set_sizes(event: Event, values: dict[str, tuple[int | None, int | None]]) -> None:
    """The organiser's sizes `{section: (minimum, maximum)}` (None: no bound) for sections whose
    size the ruleset does not state; ApiError 400 naming the section for a number outside 0
    to MAX_SIZE, a minimum above the maximum, or a section the ruleset states or does not name."""
    known = {s["id"]: s for s in limits(event)}
    kept = {}
    for section, (low, high) in values.items():
        if section not in known or known[section]["stated"]:
            raise ApiError.bad_request(_l("%(section)s: the policy states this size, or names no such part",
                                          section=section), section)
        for value in (low, high):
            if value is not None and not 0 <= value <= MAX_SIZE:
                raise ApiError.bad_request(_l("%(section)s: a size is from 0 to %(high)s", section=section,
                                              high=MAX_SIZE), section)
        if low is not None and high is not None and low > high:
            raise ApiError.bad_request(_l("%(section)s: the minimum %(low)s is above the maximum %(high)s",
                                          section=section, low=low, high=high), section)
        if low is not None or high is not None:
            kept[section] = {"minimum": low, "maximum": high}
    event.decklist_sizes = kept or None
    db.session.commit()


def set_deadline(event: Event, deadline_ms: int | None) -> None:
    """The players' deadline (epoch ms, the server's clock), or None: players do not submit."""
    event.decklist_deadline_ms = deadline_ms
    db.session.commit()


def submissions_open(event: Event, now: int | None = None) -> bool:
    """Whether players may submit now: a deadline is set and not yet reached."""
    deadline = event.decklist_deadline_ms
    return deadline is not None and (timeutil.now_ms() if now is None else now) < deadline


# --- taking lists in ---------------------------------------------------------------------


class ListRefused(ApiError):
    """A list whose text does not read: 400 naming each bad line (`lines`: [{"line", "text",
    "problem", "message", ...}]; the messages in the page's language on the pages, in
    English in the API, as every message)."""

    def __init__(self, problems: list[dict]):
        lines = [{**p, "message": LazyString(decklists.message, p)} for p in problems]
        words = LazyString(lambda: "; ".join(str(line["message"]) for line in lines[:5])
                           + (" …" if len(lines) > 5 else ""))
        super().__init__(400, _l("the list was not stored: %(problems)s", problems=words), "text", lines)


def read(text: str, fmt: str | None = None) -> dict:
    """The list in `text` (server/decklists.parse; `fmt` None or "" to recognise it); raises
    ListRefused naming each bad line."""
    found = decklists.parse(text, fmt or None)
    if found["problems"]:
        raise ListRefused(found["problems"])
    return found


def store(event: Event, player: Player, found: dict, by: str) -> Record:
    """Store a read list (see `read`) as the player's new version, made `by` "player" or
    "organiser" now; returns the stored record. A version the organiser adds
    after the deadline is marked late. ApiError 400 when the record is refused (a list too
    large to keep: more than records.MAX_PAYLOAD_CHARS of JSON)."""
    from .sync import push  # sync imports records, which this module's callers also import

    device = organiser_device(event)
    now = timeutil.now_ms()
    late = by == "organiser" and event.decklist_deadline_ms is not None and now >= event.decklist_deadline_ms
    record = {"id": str(uuid.uuid4()), "type": "decklist", "device": device.id, "judge": device.judge_name,
              "event": event.slug, "created_ms": now,
              "payload": {"player": player.id, "format": found["format"], "sections": found["sections"],
                          "by": by, "late": late}}
    result = push(event, device, [record])[0]
    if result["status"] != "accepted":
        raise ApiError.bad_request(_l("the list was not stored: %(problems)s", problems=result.get("reason", "")),
                                   "text")
    return db.session.get(Record, record["id"])


def register(event: Event, player: Player, text: str, fmt: str | None, by: str) -> Record:
    """Read and store a player's list (`read`, then `store`); returns the stored record."""
    return store(event, player, read(text, fmt), by)


def submit(event: Event, code: str, text: str, fmt: str | None = None) -> tuple[Player, Record]:
    """A player's own submission with their code, before the deadline: (player, record).
    ApiError 404 for a wrong code, 403 when players do not submit or the deadline has passed
    (the server's clock), ListRefused for a list that does not read."""
    player = player_for_code(event, code)
    if event.decklist_deadline_ms is None:
        raise ApiError.forbidden("this event takes no decklists from players: hand yours to the organiser")
    if not submissions_open(event):
        raise ApiError.forbidden("the deadline for decklists has passed: only the organiser can change a list now")
    return player, register(event, player, text, fmt, "player")


BULK_COLUMNS = ("name", "decklist")


def bulk(event: Event, text: str) -> tuple[list[str], list[str]]:
    """Lists from CSV with columns `name` (a player of the event), `decklist` (the list's
    text, several lines inside its quoted cell) and optional `format`: (the names stored, a
    message per row refused). A row naming no player of the event, or whose list does not
    read, is refused with its row (as a spreadsheet numbers it: the header is row 1) and
    reason; the other rows are stored. ApiError 400 for a
    CSV without those columns (nothing stored)."""
    rows = csv_rows(text)
    if rows and not all(column in rows[0][1] for column in BULK_COLUMNS):
        raise ApiError.bad_request(_l("the CSV needs the columns %(columns)s", columns=", ".join(BULK_COLUMNS)), "csv")
    by_name = {p.name: p for p in event.players}
    stored, refused = [], []
    for number, (_line, row) in enumerate(rows, start=2):
        name = row.get("name", "")
        player = by_name.get(name)
        if player is None:
            refused.append(_("row %(row)s: no player named %(name)r", row=number, name=name[:MAX_NAME]))
            continue
        try:
            register(event, player, row.get("decklist", ""), row.get("format") or None, "organiser")
        except ListRefused as err:
            refused.append(_("row %(row)s (%(name)s): %(problems)s", row=number, name=name,
                             problems="; ".join(str(x["message"]) for x in err.lines[:5])))
            continue
        except ApiError as err:
            refused.append(_("row %(row)s (%(name)s): %(problems)s", row=number, name=name, problems=str(err)))
            continue
        stored.append(name)
    return stored, refused


# --- reading lists back -------------------------------------------------------------------


def versions(event: Event, player_id: int | None = None) -> list:
    """The event's readable decklist records (every version), oldest first; with
    `player_id`, that player's only."""
    records, _ = stored_records(event, ("decklist",))
    return [r for r in records if player_id is None or r.payload.get("player") == player_id]


def current_lists(event: Event) -> dict[int, object]:
    """`{player id: the record of their registered list}` (the latest version of each)."""
    rows = {r.id: r for r in versions(event)}
    latest = rules_lists.current([{"id": r.id, "type": r.type, "seq": r.seq, "payload": r.payload}
                                  for r in rows.values()])
    return {int(key): rows[record["id"]] for key, record in latest.items()}


def view(record, sizes: list[dict]) -> dict:
    """A list for people: `{"record", "format", "by", "late", "created_ms", "seq", "sections":
    [{"id", "name", "count", "cards"}], "problems": [size problems], "total"}` (`sizes` as
    `limits` gives them: their names, and the problems against them)."""
    names = {s["id"]: s["name"] for s in sizes}
    sections = record.payload["sections"]
    return {"record": record.id, "format": record.payload.get("format"), "by": record.payload.get("by"),
            "late": bool(record.payload.get("late")), "created_ms": record.created_ms, "seq": record.seq,
            "sections": [{"id": s["id"], "name": names.get(s["id"], s["id"]),
                          "count": sum(c["count"] for c in s["cards"]), "cards": s["cards"]} for s in sections],
            "total": sum(c["count"] for s in sections for c in s["cards"]),
            "problems": rules_lists.size_problems(sections, sizes)}


def last_name_key(name: str) -> tuple[str, str]:
    """How judges file lists: by the last word of the name (the last name), then the whole
    name; accents and case folded. A name written "Last, First" files by the part before the
    comma."""
    folded = "".join(ch for ch in unicodedata.normalize("NFKD", name) if not unicodedata.combining(ch)).casefold()
    last = folded.split(",")[0].strip() if "," in folded else (folded.split() or [""])[-1]
    return last, folded


def by_last_name(players) -> list:
    return sorted(players, key=lambda p: last_name_key(p.name))


def problem_infraction(event: Event, problem: str, section: str | None = None, language: str = ENGLISH) -> dict:
    """What the policy calls a decklist problem (the engine's decklist_problem query):
    `{"infraction": id | null, "stated": bool, "explain", "notes", "sources"}` with texts in
    `language`; a ruleset without the query says not stated."""
    if QUERY not in queries_of(event.ruleset):
        return {"infraction": None, "stated": False, "explain": [], "notes": [], "sources": []}
    facts = {"problem": problem, **({"section": section} if section else {})}
    answer = evaluate({"ruleset": event.ruleset, "query": QUERY, "event": engine_event(event), "facts": facts,
                       "language": language}, marked=True)
    return {"infraction": answer.get("infraction"), "stated": answer.get("stated", True) is not False
            and answer.get("infraction") is not None, "explain": answer.get("explain", []),
            "notes": answer.get("notes", []), "sources": answer.get("sources", [])}


CSV_COLUMNS = ["player", "player_name", "version", "by", "late", "submitted_utc", "submitted_ms", "format",
               "section", "count", "card", "code"]


def lists_csv(event: Event) -> str:
    """Every registered list (the version that counts) as CSV, one row per card line, players
    by last name: columns CSV_COLUMNS (`version`: how many versions the player has; times UTC
    ISO 8601 and epoch ms; cells quoted and made safe as events.write_csv does)."""
    lists = current_lists(event)
    counts: dict[int, int] = {}
    for r in versions(event):
        counts[r.payload["player"]] = counts.get(r.payload["player"], 0) + 1
    rows = []
    for player in by_last_name(p for p in event.players if p.id in lists):
        record = lists[player.id]
        for section in record.payload["sections"]:
            for card in section["cards"]:
                rows.append({"player": player.id, "player_name": player.name, "version": counts[player.id],
                             "by": record.payload.get("by"), "late": bool(record.payload.get("late")),
                             "submitted_utc": utc_iso(record.created_ms), "submitted_ms": record.created_ms,
                             "format": record.payload.get("format"), "section": section["id"],
                             "count": card["count"], "card": card.get("name") or "", "code": card.get("code") or ""})
    return write_csv(CSV_COLUMNS, rows)

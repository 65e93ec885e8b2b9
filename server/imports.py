"""Replacing a round's tables from the pairing software's files: our own CSV, any CSV whose
columns the organiser maps once, and `.tdf` (the XML that Play! Pokémon's TOM and TTO write).

One way for all three: a file is read into `Pairings` (entrants and tables, each naming where
in the file it came from); `plan` matches the entrants to the event's players (by outside id
first, then by name, ignoring case and runs of spaces), checks everything and works out what
changes (tables changed, added, gone; players to add; ids to fill in); the organiser sees
that preview and confirms; `apply` makes exactly that change. Nothing changes before the
confirmation, and a bad file is refused naming its line (CSV) or element (`.tdf`).

`.tdf` is parsed with defusedxml only: a DTD, entity or external reference is refused, the
file is bounded by the upload limit (8 MiB) and its players and matches by MAX_ROWS.
"""

import csv
import hashlib
import io
import json
from dataclasses import dataclass, field

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import ParseError, fromstring
from flask_babel import lazy_gettext as _l

from . import timeutil
from .clock import bump
from .errors import ApiError
from .events import MAX_CSV_ROWS, check_number, check_text, csv_rows
from .extensions import db
from .models import CsvMapping, Event, Pairing, Player
from .records import MAX_NAME, MAX_ROUND, MAX_TABLE

MAX_ROWS = MAX_CSV_ROWS  # players, and tables, one file may hold
MAX_ID = 64  # an outside id (membership number, POP ID)
OWN_COLUMNS = {"table": "table", "a_name": "player_a", "b_name": "player_b"}  # our own CSV
# what a mapped CSV's columns may be; the table and one of player 1's name or id are needed
MAPPED = ("table", "a_name", "a_id", "b_name", "b_id")
MAPPED_LABELS = {"table": _l("table number"), "a_name": _l("player 1's name"), "a_id": _l("player 1's id"),
                 "b_name": _l("player 2's name (empty for a bye)"), "b_id": _l("player 2's id")}


@dataclass
class Entrant:
    """A player as the file names them: an outside id and/or a name, and where."""

    id: str | None
    name: str | None
    where: str


@dataclass
class Table:
    """A table of the file's round: its number (None: a bye without a table) and its
    entrants (indexes into Pairings.entrants; `b` None for a bye)."""

    number: int | None
    a: int
    b: int | None
    where: str


@dataclass
class Pairings:
    """What a file says about one round."""

    source: str  # "csv", "mapped" or "tdf"
    entrants: list[Entrant] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    listed_twice: int = 0  # rows that repeated a table from the other player's side
    index: dict = field(default_factory=dict, repr=False)  # ("id", id) or ("name", name_key) -> entrant

    def entrant(self, ident: str | None, name: str | None, where: str) -> int:
        """The index of the entrant with this id (else this name), added when new."""
        key = ("id", ident) if ident else ("name", name_key(name or ""))
        index = self.index.get(key)
        if index is None:
            self.entrants.append(Entrant(ident, name, where))
            index = self.index[key] = len(self.entrants) - 1
        elif name and not self.entrants[index].name:
            self.entrants[index].name = name
        return index


def name_key(name: str) -> str:
    """How names are compared: runs of spaces as one, letter case ignored."""
    return " ".join(name.split()).casefold()


# --- reading files ------------------------------------------------------------------------

def headers_key(headers: list[str]) -> str:
    return hashlib.sha256("\n".join(headers).encode()).hexdigest()


def csv_headers(text: str) -> list[str]:
    """The CSV's header names as csv_rows reads them (stripped, lower case), in order; none
    for text that is not CSV (csv_rows then says why)."""
    try:
        first = next(csv.reader(io.StringIO(text.lstrip("\ufeff")), strict=True), [])
    except csv.Error:
        return []
    return [h.strip().lower() for h in first]


def saved_mapping(headers: list[str]) -> dict | None:
    """The mapping to read a CSV with these headers: our own format's, else the one the
    organiser saved for them, else None (ask)."""
    if set(OWN_COLUMNS.values()) <= set(headers):
        return dict(OWN_COLUMNS)
    row = db.session.get(CsvMapping, headers_key(headers))
    return dict(row.mapping) if row else None


def save_mapping(headers: list[str], form: dict) -> dict:
    """Check and keep the organiser's mapping of these headers (`form`: MAPPED key → a header
    name or ""); returns it. ApiError 400 when the table or both of player 1's columns are
    missing, or a column is not one of the headers."""
    mapping = {}
    for key in MAPPED:
        column = (form.get(key) or "").strip().lower()
        if column and column not in headers:
            raise ApiError.bad_request(_l("the column %(column)r is not in the file", column=column), key)
        if column:
            mapping[key] = column
    if "table" not in mapping:
        raise ApiError.bad_request(_l("choose the column of the table number"), "table")
    if "a_name" not in mapping and "a_id" not in mapping:
        raise ApiError.bad_request(_l("choose the column of player 1's name or id"), "a_name")
    key = headers_key(headers)
    row = db.session.get(CsvMapping, key)
    if row is None:
        db.session.add(CsvMapping(headers_key=key, headers=headers, mapping=mapping, updated_ms=timeutil.now_ms()))
    else:
        row.mapping, row.updated_ms = mapping, timeutil.now_ms()
    db.session.commit()
    return mapping


def read_csv(text: str, mapping: dict) -> Pairings:
    """A CSV's tables read with `mapping` (MAPPED key → header). Each row is one table; a row
    that repeats a table with the same two players the other way round (exports that list
    every match from both sides) is skipped. ApiError 400 naming the line otherwise."""
    rows = csv_rows(text)
    found = Pairings("csv" if mapping == OWN_COLUMNS else "mapped")
    seen: dict[int, tuple] = {}
    for line, row in rows:
        where = _l("line %(line)s", line=line)
        number = check_number(row.get(mapping["table"], ""), _l("%(where)s: table", where=where), 1, MAX_TABLE,
                              "file")
        sides = []
        for side in "ab":
            ident = _cell(row, mapping.get(f"{side}_id"), MAX_ID, where)
            name = _cell(row, mapping.get(f"{side}_name"), MAX_NAME, where)
            sides.append(found.entrant(ident, name, str(where)) if ident or name else None)
        if sides[0] is None:
            if sides[1] is None:
                raise ApiError.bad_request(_l("%(where)s: no player", where=where), "file")
            sides.reverse()
        pair = (sides[0], sides[1])
        if number in seen:
            if set(seen[number][0]) == set(pair):
                found.listed_twice += 1
                continue
            raise ApiError.bad_request(_l("%(where)s: table %(table)s is already on %(other)s", where=where,
                                          table=number, other=seen[number][1]), "file")
        seen[number] = (pair, where)
        found.tables.append(Table(number, pair[0], pair[1], str(where)))
    return found


def _cell(row: dict, column: str | None, length: int, where) -> str | None:
    value = (row.get(column) or "").strip() if column else ""
    if not value:
        return None
    check_text(value, _l("%(where)s: %(column)s", where=where, column=column), length, "file")
    return value


def read_tdf(text: str, round_number: int) -> Pairings:
    """Round `round_number`'s tables and every player of a `.tdf` file (TOM/TTO): players
    `<players><player userid=..><firstname/><lastname/>`, matches
    `<pods><pod><rounds><round number=N><matches><match><tablenumber/><player1 userid=/>
    <player2 userid=/>`; a bye is a match with one `<player>` (or one side), without a table
    when its table number is 0 or missing. ApiError 400 naming the element for anything
    else, a DTD or entity among them; for a round the file does not hold, naming those it
    does."""
    try:
        root = fromstring(text.lstrip("\ufeff").encode("utf-8"), forbid_dtd=True, forbid_entities=True,
                          forbid_external=True)
    except DefusedXmlException:
        raise ApiError.bad_request(_l("the .tdf file declares a DTD or entities, which are refused"), "file") from None
    except ParseError as err:
        line, column = getattr(err, "position", (0, 0))
        raise ApiError.bad_request(_l("the .tdf file is not well-formed XML (line %(line)s, column %(column)s)",
                                      line=line, column=column), "file") from None
    if root.tag != "tournament":
        raise ApiError.bad_request(_l("the file's root element is <%(tag)s>, not <tournament>: is it a .tdf from "
                                      "TOM or TTO?", tag=str(root.tag)[:40]), "file")
    found = Pairings("tdf")
    ids: dict[str, int] = {}
    players = root.findall("players/player")
    if len(players) > MAX_ROWS:
        raise ApiError.bad_request(_l("the file has more than %(rows)s players", rows=MAX_ROWS), "file")
    for i, element in enumerate(players, 1):
        where = f"players/player[{i}]"
        ident = _attribute(element, "userid", where)
        parts = [(element.findtext(tag) or "").strip() for tag in ("firstname", "lastname")]
        name = " ".join(p for p in parts if p)
        if not name:
            raise ApiError.bad_request(_l("%(where)s: no <firstname> or <lastname>", where=where), "file")
        check_text(name, _l("%(where)s: the name", where=where), MAX_NAME, "file")
        if ident in ids:
            raise ApiError.bad_request(_l("%(where)s: userid %(id)r is listed twice", where=where, id=ident), "file")
        ids[ident] = found.entrant(ident, name, where)
    numbers, matches = set(), []
    for p, pod in enumerate(root.findall("pods/pod"), 1):
        for element in pod.findall("rounds/round"):
            where = f"pods/pod[{p}]/rounds/round[number={element.get('number')!r}]"
            number = check_number(element.get("number") or "", where, 1, MAX_ROUND, "file")
            numbers.add(number)
            if number == round_number:
                matches += [(f"{where}/matches/match[{m}]", match)
                            for m, match in enumerate(element.findall("matches/match"), 1)]
    if round_number not in numbers:
        held = ", ".join(str(n) for n in sorted(numbers)) or _l("none")
        raise ApiError.bad_request(_l("the file has no round %(number)s (its rounds: %(held)s)", number=round_number,
                                      held=held), "file")
    if len(matches) > MAX_ROWS:
        raise ApiError.bad_request(_l("the file's round has more than %(rows)s matches", rows=MAX_ROWS), "file")
    for where, match in matches:
        sides = [match.find(tag) for tag in ("player1", "player2", "player")]
        seated = [s for s in sides if s is not None]
        if not seated or len(seated) > 2:
            raise ApiError.bad_request(_l("%(where)s: a match needs one or two players", where=where), "file")
        entrants = []
        for side in seated:
            ident = _attribute(side, "userid", f"{where}/{side.tag}")
            if ident not in ids:
                raise ApiError.bad_request(_l("%(where)s: userid %(id)r is not among the file's players",
                                              where=f"{where}/{side.tag}", id=ident), "file")
            entrants.append(ids[ident])
        table_text = (match.findtext("tablenumber") or "").strip()
        number = None if len(entrants) == 1 and table_text in ("", "0") else check_number(
            table_text, _l("%(where)s: tablenumber", where=where), 1, MAX_TABLE, "file")
        found.tables.append(Table(number, entrants[0], entrants[1] if len(entrants) > 1 else None, where))
    return found


def _attribute(element, name: str, where: str) -> str:
    value = (element.get(name) or "").strip()
    if not value:
        raise ApiError.bad_request(_l("%(where)s: no %(attribute)s", where=where, attribute=name), "file")
    check_text(value, _l("%(where)s: %(attribute)s", where=where, attribute=name), MAX_ID, "file")
    return value


def is_tdf(text: str) -> bool:
    """Whether the text is XML (a `.tdf`) rather than CSV."""
    return text.lstrip("\ufeff \t\r\n").startswith("<")


# --- what changes -------------------------------------------------------------------------

def plan(event: Event, round_number: int, found: Pairings) -> dict:
    """What replacing round `round_number`'s tables with `found` changes, checked:
    `{"round", "source", "tables": [{"number", "a", "b"}] (player keys: an id as "p<id>" or a
    new player as "n<index>"), "new_players": [{"name", "id"}], "ids_added": [{"player", "name",
    "id"}], "rows": [{"number", "before", "after", "state": "same" | "changed" | "new" |
    "gone"}], "byes": [names of byes without a table], "listed_twice", "digest"}` (`digest`:
    the round's tables now, so a confirmation after someone else changed them is refused).
    ApiError 400 naming the line or element: a player seated twice or against themself, a
    table number twice, a new player without a name or with the name of another, an id that
    names one player in the event and another in the file."""
    if not 1 <= round_number <= MAX_ROUND:
        raise ApiError.bad_request(_l("round must be from 1 to %(high)s", high=MAX_ROUND), "round")
    players = list(event.players)
    by_id = {p.external_id.strip(): p for p in players if p.external_id}
    by_name = {name_key(p.name): p for p in players}
    keys, new_players, ids_added, new_names = [], [], [], {}
    for entrant in found.entrants:
        player = by_id.get(entrant.id) if entrant.id else None
        if player is None and entrant.name:
            player = by_name.get(name_key(entrant.name))
            if player is not None and entrant.id:
                if player.external_id:
                    raise ApiError.bad_request(_l("%(where)s: %(name)s has id %(id)r in the file but %(other)r in "
                                                  "the event", where=entrant.where, name=player.name, id=entrant.id,
                                                  other=player.external_id), "file")
                ids_added.append({"player": player.id, "name": player.name, "id": entrant.id})
        if player is not None:
            keys.append(f"p{player.id}")
            continue
        if not entrant.name:
            raise ApiError.bad_request(_l("%(where)s: no player has id %(id)r in the event, and the file gives no "
                                          "name to add them", where=entrant.where, id=entrant.id), "file")
        if name_key(entrant.name) in new_names:
            raise ApiError.bad_request(_l("%(where)s: two new players are named %(name)r", where=entrant.where,
                                          name=entrant.name), "file")
        new_names[name_key(entrant.name)] = len(new_players)
        keys.append(f"n{len(new_players)}")
        new_players.append({"name": " ".join(entrant.name.split()), "id": entrant.id})
    names = {f"p{p.id}": p.name for p in players} | {f"n{i}": p["name"] for i, p in enumerate(new_players)}
    tables, seated, byes = [], {}, []
    for table in found.tables:
        a, b = keys[table.a], keys[table.b] if table.b is not None else None
        if a == b:
            raise ApiError.bad_request(_l("%(where)s: %(name)r is paired with themself", where=table.where,
                                          name=names[a]), "file")
        for key in (a, b):
            if key is None:
                continue
            if key in seated:
                raise ApiError.bad_request(_l("%(where)s: %(name)r is already at table %(table)s", where=table.where,
                                              name=names[key], table=seated[key]), "file")
            seated[key] = table.number if table.number is not None else table.where
        if table.number is None:
            byes.append(names[a])
            continue
        tables.append({"number": table.number, "a": a, "b": b})
    if len({t["number"] for t in tables}) != len(tables):
        raise ApiError.bad_request(_l("a table number appears twice"), "file")
    before = {p.number: (f"p{p.player_a_id}" if p.player_a_id else None,
                         f"p{p.player_b_id}" if p.player_b_id else None)
              for p in event.pairings if p.round_number == round_number}
    after = {t["number"]: (t["a"], t["b"]) for t in tables}
    rows = []
    for number in sorted(before.keys() | after.keys()):
        old, new = before.get(number), after.get(number)
        state = "new" if old is None else "gone" if new is None else "same" if old == new else "changed"
        rows.append({"number": number, "state": state, "before": _pair(old, names), "after": _pair(new, names)})
    return {"round": round_number, "source": found.source, "tables": tables, "new_players": new_players,
            "ids_added": ids_added, "rows": rows, "byes": byes, "listed_twice": found.listed_twice,
            "digest": digest(before)}


def _pair(pair, names) -> str | None:
    if pair is None:
        return None
    return " – ".join(names.get(k, "?") for k in pair if k is not None)


def digest(tables: dict) -> str:
    return hashlib.sha256(json.dumps(sorted(tables.items())).encode()).hexdigest()[:16]


# --- the preview's form, and applying it ---------------------------------------------------

def plan_form(found: Pairings) -> str:
    """`found` as the compact JSON the preview's Confirm sends back (read by `from_form`)."""
    return json.dumps({"source": found.source, "listed_twice": found.listed_twice,
                       "entrants": [[e.id, e.name] for e in found.entrants],
                       "tables": [[t.number, t.a, t.b] for t in found.tables]}, ensure_ascii=False,
                      separators=(",", ":"))


def from_form(text: str) -> Pairings:
    """The Pairings a preview's form sent back (plan_form); every value is checked again
    by `plan`, and its shape here. ApiError 400 for anything else."""
    bad = ApiError.bad_request(_l("the preview's data is damaged: import the file again"), "plan")
    try:
        data = json.loads(text)
        found = Pairings(data["source"], listed_twice=int(data["listed_twice"]))
        if found.source not in ("csv", "mapped", "tdf") or len(data["entrants"]) > MAX_ROWS \
                or len(data["tables"]) > MAX_ROWS:
            raise bad
        for i, (ident, name) in enumerate(data["entrants"]):
            for value, length in ((ident, MAX_ID), (name, MAX_NAME)):
                if value is not None and (not isinstance(value, str) or len(value) > length):
                    raise bad
                if value is not None:
                    check_text(value, _l("player %(number)s", number=i + 1), length, "plan")
            found.entrants.append(Entrant(ident, name, f"#{i + 1}"))
        count = len(found.entrants)
        for number, a, b in data["tables"]:
            if not (number is None or type(number) is int) or type(a) is not int or not (b is None or type(b) is int) \
                    or not 0 <= a < count or not (b is None or 0 <= b < count):
                raise bad
            found.tables.append(Table(number, a, b, str(_l("table %(number)s", number=number))))
            if number is not None and not 1 <= number <= MAX_TABLE:
                raise bad
    except (ValueError, TypeError, KeyError, AttributeError):
        raise bad from None
    return found


def apply(event: Event, round_number: int, found: Pairings, expected_digest: str | None = None) -> dict:
    """Replace round `round_number`'s tables as `plan` says (new players added, ids filled
    in), and return that plan. ApiError 409 when the round's tables are no longer those the
    preview showed (`expected_digest`), 400 as `plan`."""
    planned = plan(event, round_number, found)
    if expected_digest is not None and planned["digest"] != expected_digest:
        raise ApiError.conflict(_l("round %(number)s's tables changed since the preview: import the file again",
                                   number=round_number))
    ids = {}
    for i, new in enumerate(planned["new_players"]):
        player = Player(name=new["name"], external_id=new["id"])
        event.players.append(player)
        ids[f"n{i}"] = player
    for added in planned["ids_added"]:
        db.session.get(Player, added["player"]).external_id = added["id"]
    db.session.flush()
    ids |= {f"p{p.id}": p for p in event.players}
    for old in [p for p in event.pairings if p.round_number == round_number]:
        event.pairings.remove(old)
    db.session.flush()
    event.pairings.extend(Pairing(event_id=event.id, round_number=round_number, number=t["number"],
                                  player_a_id=ids[t["a"]].id, player_b_id=ids[t["b"]].id if t["b"] else None)
                          for t in planned["tables"])
    bump(event)
    db.session.commit()
    return planned


def import_pairings(event: Event, round_number: int, text: str) -> int:
    """Replace round `round_number`'s tables from our own CSV (`table,player_a,player_b`,
    player names; `player_b` empty for a bye) at once, without a preview (the demo and
    scripts); players not in the event are added. Returns the number of tables. ApiError
    400 as `read_csv` and `plan`."""
    return len(apply(event, round_number, read_csv(text, OWN_COLUMNS))["tables"])

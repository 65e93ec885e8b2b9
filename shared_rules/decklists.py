"""Decklists: a deck counted against its registered list, a list against the deck sizes, and
which registered list counts. The server (checking a deck check's record, flagging lists at
intake) and the judge app's worker (the deck check screen, offline) run these same functions.

A LIST is ``[{"id": section id, "cards": [{"count", "name"?, "code"?}]}]`` (the sections of a
decklist record's payload: names as the player wrote them, codes such as a Yu-Gi-Oh! passcode
where the format gives one). A COUNT is what the judge counted: ``counts`` ``{section id:
[int, ...]}``, one number per card line of that section of the list, in its order; and
``found`` ``[{"section", "name", "count"}]``, cards counted in a section whose list does not
have them (a name, or a code, as the judge typed it).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from .errors import RuleError

MAX_COUNT = 999  # copies one line or one found card may count
MAX_FOUND = 100  # found cards one count may hold
MAX_TEXT = 200  # characters of a found card's name


def fold(text: str) -> str:
    """A card's name as compared: compatibility forms, case and runs of spaces folded."""
    return " ".join(unicodedata.normalize("NFKC", text).split()).casefold()


def card_key(card: dict) -> str:
    """What tells two cards apart: the folded name, else the code (a passcode)."""
    return "name:" + fold(card["name"]) if card.get("name") else "code:" + str(card.get("code", "")).strip()


def card_label(card: dict) -> str:
    """How a card is shown: its name as written, else its code."""
    return card.get("name") or str(card.get("code", ""))


def _number(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        raise RuleError(f"must be a whole number from 0 to {MAX_COUNT}", field=field)
    return value


def _listed(sections: Any) -> list[tuple[str, list[dict]]]:
    if not isinstance(sections, list) or not all(isinstance(s, dict) and isinstance(s.get("id"), str)
                                                  and isinstance(s.get("cards"), list) for s in sections):
        raise RuleError("must be a list of sections, each {id, cards}", field="sections")
    return [(s["id"], s["cards"]) for s in sections]


def _keys(sections: list[tuple[str, list[dict]]]) -> dict[str, dict]:
    """Every card of the list by key, with what matches it: its folded name and its code."""
    out: dict[str, dict] = {}
    for _, cards in sections:
        for card in cards:
            out.setdefault(card_key(card), card)
    return out


def _found_key(text: str, known: dict[str, dict]) -> tuple[str, dict]:
    """The key of a card the judge typed: a card of the list whose name or code it is, else
    itself as a name."""
    typed = fold(text)
    for key, card in known.items():
        by_name = card.get("name") and fold(card["name"]) == typed
        if by_name or (card.get("code") and str(card["code"]) == text.strip()):
            return key, card
    return "name:" + typed, {"name": text.strip()}


def compare(sections: Any, counts: Any, found: Any = None) -> dict:
    """The deck as counted against its list: ``{"differences": [{"kind": "missing" | "extra" |
    "wrong_section", "card" (name or code as shown), "name"?, "code"?, "count", "section" (where
    missing from, or where found), "listed_section"? (for wrong_section: where the list has
    them)}], "sections": [{"id", "listed", "counted"}], "matches": bool}``.

    Per card and section the count is compared with the list; cards short in one section and
    over in another are in the wrong section (as many as both allow), the rest are missing or
    extra. Differences come in the order of the list: by section (for cards in the wrong
    section, the one the list has them in), then by line, cards the list lacks last.
    Raises RuleError naming the field for input of the wrong shape: a section of ``counts``
    the list does not have or a count per line that does not match its lines, numbers outside
    0 to 999, more than 100 found cards, a found card without a name or with a section the list
    and the counts do not know."""
    listed = _listed(sections)
    order = [sid for sid, _ in listed]
    if not isinstance(counts, dict):
        raise RuleError("must be an object {section: [count per line]}", field="counts")
    known = _keys(listed)
    want: dict[str, dict[str, int]] = {}
    have: dict[str, dict[str, int]] = {}
    shown: dict[str, dict] = dict(known)
    for sid, cards in listed:
        per_line = counts.get(sid, [0] * len(cards))
        if not isinstance(per_line, list) or len(per_line) != len(cards):
            raise RuleError(f"needs one count for each of the {len(cards)} lines of {sid}", field=f"counts.{sid}")
        for i, (card, n) in enumerate(zip(cards, per_line, strict=True)):
            key = card_key(card)
            want.setdefault(key, {}).setdefault(sid, 0)
            want[key][sid] += card["count"]
            have.setdefault(key, {}).setdefault(sid, 0)
            have[key][sid] += _number(n, f"counts.{sid}[{i}]")
    unknown = sorted(set(counts) - set(order))
    if unknown:
        raise RuleError(f"the list has no section {unknown[0]!r}", field=f"counts.{unknown[0]}", allowed=order)
    found = found or []
    if not isinstance(found, list) or len(found) > MAX_FOUND:
        raise RuleError(f"must be a list of at most {MAX_FOUND} cards", field="found")
    extra_sections: list[str] = []
    for i, item in enumerate(found):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not item["name"].strip() \
                or len(item["name"]) > MAX_TEXT:
            raise RuleError(f"a found card has a name of 1 to {MAX_TEXT} characters", field=f"found[{i}].name")
        section = item.get("section")
        if not isinstance(section, str) or not section or len(section) > 32:
            raise RuleError("a found card names its section", field=f"found[{i}].section")
        count = _number(item.get("count"), f"found[{i}].count")
        key, card = _found_key(item["name"], known)
        shown.setdefault(key, card)
        have.setdefault(key, {}).setdefault(section, 0)
        have[key][section] += count
        if section not in order and section not in extra_sections:
            extra_sections.append(section)
    all_sections = order + extra_sections
    differences = []
    for key in list(dict.fromkeys([*want, *have])):
        differences += _card_differences(shown[key], want.get(key, {}), have.get(key, {}), all_sections)
    rank = {sid: i for i, sid in enumerate(all_sections)}
    line = {(sid, card_key(card)): i for sid, cards in listed for i, card in reversed(list(enumerate(cards)))}
    kinds = ("wrong_section", "missing", "extra")

    def place(d: dict) -> tuple:
        """In the list's order: the section (where the list has them, for a wrong section), the
        card's line in it (cards the list does not have last), then the kind."""
        section = d.get("listed_section", d["section"])
        key = "name:" + fold(d["name"]) if d.get("name") else "code:" + d.get("code", "")
        return rank[section], line.get((section, key), len(line)), kinds.index(d["kind"])

    differences.sort(key=place)
    totals = [{"id": sid, "listed": sum(w.get(sid, 0) for w in want.values()),
               "counted": sum(h.get(sid, 0) for h in have.values())} for sid in all_sections]
    return {"differences": differences, "sections": totals, "matches": not differences}


def _card_differences(card: dict, want: dict[str, int], have: dict[str, int], order: list[str]) -> list[dict]:
    short = {s: want.get(s, 0) - have.get(s, 0) for s in order if want.get(s, 0) > have.get(s, 0)}
    over = {s: have.get(s, 0) - want.get(s, 0) for s in order if have.get(s, 0) > want.get(s, 0)}
    base = {"card": card_label(card), **{k: card[k] for k in ("name", "code") if card.get(k)}}
    out = []
    for to in list(over):
        for frm in list(short):
            moved = min(over[to], short[frm])
            if moved:
                out.append({**base, "kind": "wrong_section", "count": moved, "section": to, "listed_section": frm})
                over[to] -= moved
                short[frm] -= moved
    out += [{**base, "kind": "missing", "count": n, "section": s} for s, n in short.items() if n]
    out += [{**base, "kind": "extra", "count": n, "section": s} for s, n in over.items() if n]
    return out


def sizes(ruleset: dict, settings: dict | None = None) -> list[dict]:
    """Each decklist section of a ruleset (its rule data, any language) with the number of
    cards it may hold: ``[{"id", "name", "minimum", "maximum", "stated", "source", "note",
    "setting"}]``. Where the document states the size (``size.stated``) its numbers hold;
    otherwise the organiser's ``settings`` ``{section id: {"minimum", "maximum"}}`` (null:
    no bound), and ``setting`` is true. A ruleset naming no sections gives []."""
    out = []
    for section in ruleset.get("sections", []):
        size = section.get("size") or {}
        stated = bool(size.get("stated"))
        own = (settings or {}).get(section["id"]) or {}
        source = size.get("source") or section.get("source")
        out.append({"id": section["id"], "name": section.get("name", section["id"]),
                    "minimum": size.get("minimum") if stated else own.get("minimum"),
                    "maximum": size.get("maximum") if stated else own.get("maximum"),
                    "stated": stated, "source": source, "note": size.get("note"),
                    "setting": not stated and bool(own)})
    return out


def size_problems(sections: Any, limits: list[dict]) -> list[dict]:
    """Where a list breaks the deck sizes (``limits`` as ``sizes`` gives them): ``[{"section",
    "problem": "too_few" | "too_many", "count", "minimum" | "maximum"}]``, in the order of the
    limits; a section with no bound, or no limits, gives nothing."""
    counted = {sid: sum(c.get("count", 0) for c in cards) for sid, cards in _listed(sections)}
    out = []
    for limit in limits:
        n = counted.get(limit["id"], 0)
        if limit.get("minimum") is not None and n < limit["minimum"]:
            out.append({"section": limit["id"], "problem": "too_few", "count": n, "minimum": limit["minimum"]})
        if limit.get("maximum") is not None and n > limit["maximum"]:
            out.append({"section": limit["id"], "problem": "too_many", "count": n, "maximum": limit["maximum"]})
    return out


def current(records: list[dict]) -> dict[str, dict]:
    """``{str(player): record}``: each player's registered list among decklist records (plain
    dicts with ``payload.player`` and ``seq``), the latest the server numbered. Every version
    is kept; the latest counts (after the deadline only the organiser can add one)."""
    out: dict[str, dict] = {}
    for record in records:
        payload = record.get("payload") if isinstance(record, dict) else None
        if record.get("type") != "decklist" or not isinstance(payload, dict) or payload.get("player") is None:
            continue
        key = str(payload["player"])
        if key not in out or (record.get("seq") or 0) > (out[key].get("seq") or 0):
            out[key] = record
    return out

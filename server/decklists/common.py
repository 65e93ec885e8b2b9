"""What every decklist format shares: the list structure a parser builds, its limits, and the
per-line problems it reports.

A list is `{"sections": [{"id": "main" | "side" | "extra", "cards": [{"count", "name"?,
"code"?}]}]}`, sections in the order main, side, extra and only those holding cards; cards in
the order written. `name` is the card's name as written (no card database is read); `code` is
what the format adds to identify a printing or a card (a set code and number, a Yu-Gi-Oh!
passcode). A card has a name, a code, or both.

A problem is `{"line": int | None, "text": the line as written (cut at 120 characters),
"problem": code, ...}` with the code's values (`count`, `header`, `expected`, `found`,
`limit`); the registry (`__init__.py`) words them. A list with any problem is refused whole.
"""

from __future__ import annotations

import re

from ..fields import text_problem

SECTIONS = ("main", "side", "extra")  # the section ids every format maps its own words to
MAX_TEXT = 200_000  # characters of one list's text
MAX_LINES = 2000  # lines of one list's text
MAX_ENTRIES = 250  # card lines (entries) of one list
MAX_COUNT = 999  # copies one line may name
MAX_NAME = 200  # characters of a card's name
MAX_CODE = 64  # characters of a card's code
SHOWN = 120  # characters of a line a problem quotes

# "4 Lightning Bolt", "4x Lightning Bolt", "4 x Lightning Bolt"
CARD_LINE = re.compile(r"^(\d+)(?:\s*[xX])?\s+(\S.*)$")


def problem(line: int | None, text: str, code: str, **values) -> dict:
    """One problem of a list (see the module docstring)."""
    shown = text if len(text) <= SHOWN else text[:SHOWN] + "…"
    return {"line": line, "text": shown, "problem": code, **values}


class Builder:
    """Collects a list's cards section by section and its problems, line by line."""

    def __init__(self):
        self.cards: dict[str, list[dict]] = {s: [] for s in SECTIONS}
        self.problems: list[dict] = []
        self.entries = 0

    def add(self, section: str, count: int, name: str | None, code: str | None, line: int, text: str) -> None:
        """Add `count` of a card to `section`, or the problem that stops it: a count outside 1 to
        MAX_COUNT, a name or code too long or holding characters text cannot hold, too many
        entries."""
        if not 1 <= count <= MAX_COUNT:
            self.problems.append(problem(line, text, "count_range", count=count, limit=MAX_COUNT))
            return
        for value, limit in ((name, MAX_NAME), (code, MAX_CODE)):
            if value is None:
                continue
            if text_problem(value):
                self.problems.append(problem(line, text, "characters"))
                return
            if len(value) > limit:
                self.problems.append(problem(line, text, "too_long", limit=limit))
                return
        self.entries += 1
        if self.entries == MAX_ENTRIES + 1:
            self.problems.append(problem(line, text, "too_many_entries", limit=MAX_ENTRIES))
        card = {"count": count}
        if name:
            card["name"] = name
        if code:
            card["code"] = code
        self.cards[section].append(card)

    def bad(self, line: int | None, text: str, code: str, **values) -> None:
        self.problems.append(problem(line, text, code, **values))

    def result(self) -> dict:
        """`{"sections": [...], "problems": [...]}`; a list with no card at all is a problem."""
        sections = [{"id": s, "cards": cards} for s, cards in self.cards.items() if cards]
        if not sections and not self.problems:
            self.problems.append(problem(None, "", "empty"))
        return {"sections": sections, "problems": self.problems}


def lines(text: str, builder: Builder) -> list[tuple[int, str]]:
    """`(number, line)` of the text's lines, ends stripped, numbered from 1; a line holding
    characters no text may hold (NUL, control characters) is a problem and left out. More
    than MAX_LINES lines is one problem and nothing more is read."""
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if number > MAX_LINES:
            builder.bad(None, "", "too_many_lines", limit=MAX_LINES)
            break
        line = raw.strip().lstrip("\ufeff")
        if text_problem(line):
            builder.bad(number, line.encode("unicode_escape").decode("ascii"), "characters")
            continue
        out.append((number, line))
    return out


def card_line(line: str) -> tuple[int, str] | None:
    """`(count, rest)` of a "4 Card Name" line ("4x Card Name" too), or None."""
    match = CARD_LINE.match(line)
    if not match or len(match.group(1)) > 6:
        return None
    return int(match.group(1)), match.group(2).strip()


def header_name(line: str) -> str:
    """A header line's words, lower case, without a trailing colon or count ("Sideboard (15):" ->
    "sideboard")."""
    return re.sub(r"[\s:]*(\(\d+\)|\d+)?[\s:]*$", "", line).strip().casefold()

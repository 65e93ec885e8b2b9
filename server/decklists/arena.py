"""MTG Arena export: `4 Lightning Bolt (M11) 149` under the headers `Deck` and `Sideboard`.

`Commander` lines belong to the main deck. The `Companion` block names a card the export
also lists in the sideboard, so it is read but not counted twice; an `About` block (`Name
...`) is the deck's own name and is skipped. A line without the printing (`4 Lightning Bolt`)
is taken as written. The printing is kept as the card's code (`M11 149`).
"""

from __future__ import annotations

import re

from .common import Builder, card_line, header_name, lines

HEADERS = {"deck": "main", "commander": "main", "sideboard": "side", "companion": None, "about": None}
PRINTING = re.compile(r"^(.*?)\s+\(([A-Za-z0-9_]{1,8})\)(?:\s+(\S{1,12}))?$")


def parse(text: str) -> dict:
    """The list (common.py) of an MTG Arena export, with its problems."""
    out = Builder()
    section: str | None = "main"
    for number, line in lines(text, out):
        if not line:
            continue
        name = header_name(line)
        if name in HEADERS and card_line(line) is None:
            section = HEADERS[name]
            continue
        if section is None:  # the companion and about blocks are not counted
            continue
        parsed = card_line(line)
        if parsed is None:
            out.bad(number, line, "no_count" if line[:1].isdigit() or " " in line else "unknown_header")
            continue
        count, rest = parsed
        printing = PRINTING.match(rest)
        card, code = (printing.group(1), " ".join(filter(None, printing.group(2, 3)))) if printing else (rest, None)
        out.add(section, count, card.strip(), code, number, line)
    return out.result()

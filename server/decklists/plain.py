"""Plain text: one card a line, `4 Card Name` (or `4x Card Name`), the main deck first.

The side (sideboard, side deck) follows a blank line or a header line; headers may also open
the main deck and an extra deck: `Deck`, `Main`, `Main deck`, `Maindeck`, `Mainboard`;
`Sideboard`, `Side`, `Side deck`, `SB`; `Extra`, `Extra deck` (any case, with an optional colon
and count: `Sideboard (15):`). `SB: 2 Negate` puts one line in the side. `//` starts a comment
line. Once headers are used, blank lines are only spacing; without them, a second blank line
followed by cards is a problem (a third part with no header).
"""

from __future__ import annotations

from .common import Builder, card_line, header_name, lines

HEADERS = {
    "deck": "main", "main": "main", "main deck": "main", "maindeck": "main", "mainboard": "main",
    "sideboard": "side", "side": "side", "side deck": "side", "sb": "side",
    "extra": "extra", "extra deck": "extra",
}


def parse(text: str) -> dict:
    """The list (common.py) of a plain-text decklist, with its problems."""
    out = Builder()
    section, headed, gap = "main", False, False
    for number, line in lines(text, out):
        if not line or line.startswith("//"):
            gap = gap or (not line and bool(out.cards[section]))
            continue
        header = HEADERS.get(header_name(line))
        if header is not None and card_line(line) is None:
            section, headed, gap = header, True, False
            continue
        target = section
        if line[:3].casefold() == "sb:":
            target, line = "side", line[3:].strip()
        elif gap and not headed:
            if section == "main":
                section = target = "side"
            else:  # said once; the part's lines are still read for their own problems
                out.bad(number, line, "third_part")
        gap = False
        parsed = card_line(line)
        if parsed is None:
            out.bad(number, line, "no_count")
            continue
        count, name = parsed
        out.add(target, count, name, None, number, line)
    return out.result()

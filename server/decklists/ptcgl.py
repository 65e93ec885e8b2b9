"""Pokémon TCG Live text: `Pokémon: 12`, `Trainer: 36` and `Energy: 12` each head the cards of
that kind, `4 Pikachu ex SVI 57` (count, name, set code and number); `Total Cards: 60` may end
it. Every card is in the main deck. The count a heading or the total gives must be the sum of
the lines it covers, else the list is refused naming the heading (it was changed by hand).
The set code and number are kept as the card's code (`SVI 57`).
"""

from __future__ import annotations

import re

from .common import Builder, card_line, lines

GROUP = re.compile(r"^(Pok[eé]mon|Trainer|Energy)\s*:\s*(\d{1,6})$", re.IGNORECASE)
TOTAL = re.compile(r"^Total\s+Cards\s*:\s*(\d{1,6})$", re.IGNORECASE)
PRINTING = re.compile(r"^(.*?)\s+([A-Z][A-Za-z0-9]{1,5}(?:-[A-Za-z0-9]{1,5})?)\s+([A-Za-z0-9]{1,8})$")


def parse(text: str) -> dict:
    """The list (common.py) of a Pokémon TCG Live export, with its problems."""
    out = Builder()
    group: list | None = None  # [stated count, line number, text, counted]
    groups: list[list] = []
    total = None
    for number, line in lines(text, out):
        if not line:
            continue
        heading, stated_total = GROUP.match(line), TOTAL.match(line)
        if heading:
            group = [int(heading.group(2)), number, line, 0]
            groups.append(group)
            continue
        if stated_total:
            total = (int(stated_total.group(1)), number, line)
            continue
        parsed = card_line(line)
        if parsed is None:
            out.bad(number, line, "no_count")
            continue
        if group is None:
            out.bad(number, line, "no_section")
            continue
        count, rest = parsed
        printing = PRINTING.match(rest)
        name, code = (printing.group(1), f"{printing.group(2)} {printing.group(3)}") if printing else (rest, None)
        out.add("main", count, name.strip(), code, number, line)
        group[3] += count
    for stated, number, line, counted in groups:
        if stated != counted:
            out.bad(number, line, "group_count", expected=stated, found=counted)
    if total is not None and total[0] != sum(g[3] for g in groups):
        out.bad(total[1], total[2], "group_count", expected=total[0], found=sum(g[3] for g in groups))
    return out.result()

"""Decklist formats: one small module per format, each a pure function from a list's text to
its structure, and this registry that picks one.

`parse(text, fmt=None)` -> `{"format", "sections": [{"id", "cards": [{"count", "name"?,
"code"?}]}], "problems": [{"line", "text", "problem", ...}]}` (common.py); a list with
problems is refused whole by the callers, each problem naming its line. Without `fmt` the
format is recognised from the text (`detect`). File formats are not policy: the section ids
they fill (main, side, extra) are the shared ones every ruleset names in its own words
(shared_rules/queries.json `decklists`).
"""

from __future__ import annotations

import re

from flask_babel import lazy_gettext as _l

from . import arena, mtgo, plain, ptcgl, ydk
from .common import MAX_TEXT, Builder, problem

# format id -> (parser, what people call it, how it looks)
FORMATS = {
    "plain": (plain.parse, _l("Plain text"), _l("4 Card Name a line; the side after a blank line or a Sideboard line")),
    "arena": (arena.parse, _l("MTG Arena export"), _l("4 Card Name (SET) 123 under Deck and Sideboard")),
    "mtgo": (mtgo.parse, _l("MTGO .dek file"), _l("the XML file MTGO saves")),
    "ydk": (ydk.parse, _l("YDK file"), _l("#main, #extra and !side, one passcode a line")),
    "ydke": (ydk.parse_url, _l("ydke:// URL"), _l("the three parts of a Yu-Gi-Oh! list in one link")),
    "ptcgl": (ptcgl.parse, _l("Pokémon TCG Live"), _l("Pokémon:, Trainer: and Energy: each heading its cards")),
}
ARENA_LINE = re.compile(r"^\d+\s*x?\s+.+\s\([A-Za-z0-9_]{1,8}\)(\s+\S+)?$")
ARENA_HEADERS = ("commander", "companion", "about")

# problem code -> its words (values filled from the problem)
MESSAGES = {
    "no_count": _l("not a card line: write the number of copies first, as in 4 Card Name"),
    "count_range": _l("%(count)s copies: a line names 1 to %(limit)s copies"),
    "no_name": _l("a card without a name"),
    "characters": _l("holds characters that are not text (a control character or NUL)"),
    "too_long": _l("longer than %(limit)s characters"),
    "too_many_entries": _l("more than %(limit)s card lines: the list stops here"),
    "too_many_lines": _l("more than %(limit)s lines"),
    "too_large": _l("more than %(limit)s characters"),
    "empty": _l("no card in the list"),
    "third_part": _l("a third part after a second blank line: name it with a header (Sideboard, Extra deck)"),
    "unknown_header": _l("not a card line or a header this format knows (Deck, Sideboard)"),
    "passcode": _l("not a passcode: one number of up to %(limit)s digits a line"),
    "no_section": _l("a card before any section header"),
    "ydke": _l("not a ydke:// URL: it holds three parts, main!extra!side!"),
    "ydke_part": _l("the %(section)s part of the URL is not base64 of passcodes"),
    "xml": _l("not readable as XML: %(detail)s"),
    "xml_unsafe": _l("XML with a DTD or entities, which is refused"),
    "xml_root": _l("an MTGO .dek file starts with <Deck>, not <%(found)s>"),
    "xml_quantity": _l("Quantity must be a whole number of copies"),
    "xml_sideboard": _l("Sideboard must be true or false, not %(found)s"),
    "group_count": _l("the heading says %(expected)s cards, the lines under it hold %(found)s"),
    "unknown_format": _l("unknown format %(found)s"),
}


def detect(text: str) -> str:
    """The format `text` is written in (a key of FORMATS); plain text when nothing else fits."""
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped[:7].casefold() == ydk.URL:
        return "ydke"
    if stripped.startswith(("<?xml", "<Deck")):
        return "mtgo"
    found = [line.strip() for line in stripped.splitlines()[:2000]]
    if any(line.casefold() in ydk.HEADERS for line in found):
        return "ydk"
    if any(ptcgl.GROUP.match(line) for line in found):
        return "ptcgl"
    if any(ARENA_LINE.match(line) for line in found) or any(line.casefold() in ARENA_HEADERS for line in found):
        return "arena"
    return "plain"


def parse(text: str, fmt: str | None = None) -> dict:
    """The list in `text` (see the module docstring); `fmt` one of FORMATS or None to detect it.
    An unknown format or a text over MAX_TEXT characters is one problem."""
    if fmt and fmt not in FORMATS:
        return {"format": fmt, "sections": [], "problems": [problem(None, "", "unknown_format", found=fmt[:40])]}
    if len(text) > MAX_TEXT:
        return {"format": fmt, "sections": [], "problems": [problem(None, "", "too_large", limit=MAX_TEXT)]}
    fmt = fmt or detect(text)
    return {"format": fmt, **FORMATS[fmt][0](text)}


def message(found: dict) -> str:
    """A problem (see parse) in words, in the current language: "line 3: not a card line ..."."""
    from flask_babel import gettext

    words = MESSAGES.get(found["problem"], found["problem"]) % found
    if found.get("line"):
        return gettext("line %(line)s (%(text)s): %(problem)s", line=found["line"], text=found["text"], problem=words)
    return str(words)


__all__ = ["FORMATS", "Builder", "detect", "message", "parse"]

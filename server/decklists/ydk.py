"""Yu-Gi-Oh! lists: YDK files and `ydke://` URLs, cards as passcodes.

YDK: `#main`, `#extra` and `!side` open the sections; each other line is one card's passcode
(the number printed on the card), repeated once per copy; other `#` lines are comments. A
`ydke://` URL holds the three sections as base64 of little-endian 32-bit passcodes,
`ydke://<main>!<extra>!<side>!`. No card database is read: each card is kept with its
passcode as its code and no name, and shown as its passcode.
"""

from __future__ import annotations

import base64
import binascii
import struct

from .common import Builder, lines

HEADERS = {"#main": "main", "#extra": "extra", "!side": "side"}
MAX_PASSCODE = 10  # digits
URL = "ydke://"


def _add_counted(out: Builder, section: str, codes: list[tuple[str, int, str]]) -> None:
    """Each passcode of a section once, with how many times it came, at its first line."""
    counts: dict[str, list] = {}
    for code, number, text in codes:
        if code in counts:
            counts[code][0] += 1
        else:
            counts[code] = [1, number, text]
    for code, (count, number, text) in counts.items():
        out.add(section, count, None, code, number, text)


def parse(text: str) -> dict:
    """The list (common.py) of a YDK file, with its problems."""
    out = Builder()
    section: str | None = None
    codes: dict[str, list[tuple[str, int, str]]] = {s: [] for s in HEADERS.values()}
    for number, line in lines(text, out):
        if not line:
            continue
        if line.casefold() in HEADERS:
            section = HEADERS[line.casefold()]
            continue
        if line.startswith("#"):
            continue
        if not (line.isascii() and line.isdigit() and len(line) <= MAX_PASSCODE):
            out.bad(number, line, "passcode", limit=MAX_PASSCODE)
        elif section is None:
            out.bad(number, line, "no_section")
        else:
            codes[section].append((str(int(line)), number, line))
    for name, found in codes.items():
        _add_counted(out, name, found)
    return out.result()


def parse_url(text: str) -> dict:
    """The list (common.py) of a `ydke://` URL, with its problems (all on line 1)."""
    out = Builder()
    url = text.strip()
    shown = url
    parts = url[len(URL):].split("!") if url.casefold().startswith(URL) else None
    if parts is None or len(parts) < 3 or any(parts[3:]):
        out.bad(1, shown, "ydke")
        return out.result()
    for name, part in zip(("main", "extra", "side"), parts[:3], strict=True):
        try:
            raw = base64.b64decode(part, validate=True)
        except (binascii.Error, ValueError):
            out.bad(1, shown, "ydke_part", section=name)
            continue
        if len(raw) % 4:
            out.bad(1, shown, "ydke_part", section=name)
            continue
        passcodes = [str(code) for (code,) in struct.iter_unpack("<I", raw)]
        _add_counted(out, name, [(code, 1, shown) for code in passcodes])
    return out.result()

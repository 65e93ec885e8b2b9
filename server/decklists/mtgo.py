"""MTGO `.dek` files: XML, one `<Cards Quantity="4" Sideboard="false" Name="..."/>` element per
card under `<Deck>`.

Uploaded XML is read with defusedxml (entity expansion, external entities and DTDs are
refused), through SAX so each problem names its line. `Sideboard="true"` puts the card in the
side; other elements (`NetDeckID`, `PreconstructedDeckID`) are skipped.
"""

from __future__ import annotations

import xml.sax
import xml.sax.handler

import defusedxml.sax
from defusedxml import DefusedXmlException

from .common import Builder, lines

TRUE, FALSE = "true", "false"


class _Cards(xml.sax.handler.ContentHandler):
    def __init__(self, out: Builder, source: list[str]):
        super().__init__()
        self.out, self.source, self.locator, self.root = out, source, None, None

    def setDocumentLocator(self, locator):  # noqa: N802 (SAX's name)
        self.locator = locator

    def _line(self) -> tuple[int | None, str]:
        number = self.locator.getLineNumber() if self.locator else None
        text = self.source[number - 1].strip() if number and number <= len(self.source) else ""
        return number, text

    def startElement(self, name, attrs):  # noqa: N802 (SAX's name)
        if self.root is None:
            self.root = name
            if name != "Deck":
                self.out.bad(*self._line(), "xml_root", found=name[:40])
            return
        if name != "Cards":
            return
        number, text = self._line()
        quantity, card = (attrs.get("Quantity") or "").strip(), (attrs.get("Name") or "").strip()
        side = (attrs.get("Sideboard") or FALSE).strip().casefold()
        if not card:
            self.out.bad(number, text, "no_name")
        elif not (quantity.isascii() and quantity.isdigit() and len(quantity) <= 6):
            self.out.bad(number, text, "xml_quantity")
        elif side not in (TRUE, FALSE):
            self.out.bad(number, text, "xml_sideboard", found=side[:20])
        else:
            self.out.add("side" if side == TRUE else "main", int(quantity), card, None, number, text)


def parse(text: str) -> dict:
    """The list (common.py) of an MTGO `.dek` file, with its problems (XML that cannot be read
    is one problem naming the line where reading stopped)."""
    out = Builder()
    lines(text, out)  # characters no text may hold, too many lines
    if out.problems or not text.strip():
        return out.result()
    source = text.splitlines()
    handler = _Cards(out, source)
    try:
        defusedxml.sax.parseString(text.encode("utf-8"), handler, forbid_dtd=True)
    except xml.sax.SAXParseException as err:
        number = err.getLineNumber()
        line = source[number - 1].strip() if 0 < number <= len(source) else ""
        out.bad(number, line, "xml", detail=err.getMessage()[:120])
    except DefusedXmlException:
        out.bad(None, "", "xml_unsafe")
    return out.result()

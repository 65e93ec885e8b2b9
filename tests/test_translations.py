"""The organiser pages' message catalogs (server/translations): each language's .po has
every message of the template, none fuzzy or empty, with the English placeholders; the
template holds what the sources say (babel.cfg); the compiled .mo files match their .po."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from server.i18n import DEFAULT, LANGUAGES

ROOT = Path(__file__).resolve().parents[1]
TRANSLATIONS = ROOT / "server" / "translations"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdr]|\{(\w+)\}")
TRANSLATED = sorted(set(LANGUAGES) - {DEFAULT})


def catalog(path: Path):
    with path.open("rb") as f:
        return read_po(f)


def messages(cat) -> dict:
    """msgid (the singular for a plural) → message, without the header."""
    return {(m.id[0] if isinstance(m.id, tuple) else m.id): m for m in cat if m.id}


def placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}


def test_every_language_of_the_picker_has_a_catalog():
    assert sorted(p.name for p in TRANSLATIONS.iterdir() if p.is_dir()) == TRANSLATED
    assert TRANSLATED == ["de", "es", "fr", "it", "pt"]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_catalog_translates_every_message_of_the_template_with_its_placeholders(lang):
    template = messages(catalog(TRANSLATIONS / "messages.pot"))
    po = messages(catalog(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"))
    assert len(template) > 150
    assert sorted(set(template) - set(po)) == [], "missing"
    assert sorted(set(po) - set(template)) == [], "no longer in the template"
    for key, message in po.items():
        assert not message.fuzzy, key
        english = message.id if isinstance(message.id, tuple) else (message.id,)
        assert template[key].id == message.id, key
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(s.strip() for s in strings), f"untranslated: {key}"
        wanted = set().union(*(placeholders(e) for e in english))
        for s in strings:
            # a plural's singular may spell the count out ("one table") only where English does
            assert placeholders(s) == wanted, f"{lang}: {key!r} → {s!r}"


def test_the_template_holds_every_message_the_sources_mark(tmp_path):
    fresh = tmp_path / "messages.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "-q", "extract", "-F", "babel.cfg",
                    "-k", "_l", "--no-location", "--sort-output", "--omit-header", "-o", str(fresh), "."],
                   cwd=ROOT, check=True)
    assert sorted(messages(catalog(fresh))) == sorted(messages(catalog(TRANSLATIONS / "messages.pot")))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalog_is_that_of_its_po(lang):
    """.ci/setup compiles them (`pybabel compile -d server/translations`); a stale .mo would
    show old words."""
    folder = TRANSLATIONS / lang / "LC_MESSAGES"
    if not (folder / "messages.mo").exists():
        pytest.fail(f"{folder / 'messages.mo'} is missing: run bash .ci/setup")
    with (folder / "messages.mo").open("rb") as f:
        compiled = {plain(m.id): plain(m.string) for m in read_mo(f) if m.id}
    assert compiled == {plain(m.id): plain(m.string) for m in catalog(folder / "messages.po") if m.id}


def plain(text):
    """A message's id or string as a tuple for a plural (the .mo reader gives lists)."""
    return text if isinstance(text, str) else tuple(text)

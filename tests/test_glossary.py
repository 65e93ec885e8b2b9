"""One term per language for the field's words (shared_rules/glossary): every translated text
whose English holds a glossary term (whole word, any case, each form the term takes in
terms.json; the longest term first, so "Match Point penalty" is that term and not "penalty";
a phrase of the term's other_senses is not the term) says it with one of that language's
forms, and no text of the language uses a refused variant. The texts: the app's catalogs
(pwa/src/i18n/<lang>.json), the organiser pages' catalogs
(server/translations/<lang>/LC_MESSAGES/messages.po) and the rule texts
(shared_rules/translations/<name>.<lang>.json, the shared words of queries.json among them)."""

import json
import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "shared_rules" / "glossary"
APP = ROOT / "pwa" / "src" / "i18n"
PAGES = ROOT / "server" / "translations"
RULES = ROOT / "shared_rules" / "translations"
# placeholders ({table}, %(n)s) and markup are filled in or drawn, never read as words
NOT_WORDS = re.compile(r"\{[^{}]*\}|%\(\w+\)[sdr]|<[^<>]*>")
TERM_KEYS = {"forms", "refused"}


def languages_with_catalogs() -> set[str]:
    app = {p.stem for p in APP.glob("*.json")}
    pages = {p.name for p in PAGES.iterdir() if (p / "LC_MESSAGES" / "messages.po").exists()}
    rules = {p.name[:-len(".json")].rsplit(".", 1)[1] for p in RULES.glob("*.*.json")}
    return app | pages | rules


LANGUAGES = sorted(languages_with_catalogs())


@cache
def english_terms() -> dict[str, dict]:
    return json.loads((GLOSSARY / "terms.json").read_text(encoding="utf-8"))["terms"]


@cache
def glossary(lang: str) -> dict:
    return json.loads((GLOSSARY / f"{lang}.json").read_text(encoding="utf-8"))


def plain(text: str) -> str:
    return NOT_WORDS.sub(" ", text).replace("\u2019", "'")


def phrase(form: str, inside_words: bool = False) -> re.Pattern:
    """A form as a pattern: any case, any run of spaces between its words; whole words
    unless ``inside_words`` (a German compound: "Strafendatenbank" holds "Strafe")."""
    body = r"\s+".join(re.escape(word) for word in form.split())
    return re.compile(body if inside_words else rf"(?<!\w){body}(?!\w)", re.IGNORECASE)


def entries(lang: str) -> list[tuple[str, str, str]]:
    """``(file, English, translation)`` of every translated text of ``lang`` (each plural form)."""
    out = []
    app = APP / f"{lang}.json"
    for english, text in json.loads(app.read_text(encoding="utf-8"))["messages"].items():
        for form in text.values() if isinstance(text, dict) else [text]:
            if form:
                out.append((app.relative_to(ROOT).as_posix(), english, form))
    po = PAGES / lang / "LC_MESSAGES" / "messages.po"
    with po.open("rb") as f:
        catalog = read_po(f)
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for n, text in enumerate(strings):
            if text:
                out.append((po.relative_to(ROOT).as_posix(), ids[min(n, len(ids) - 1)], text))
    for rules in sorted(RULES.glob(f"*.{lang}.json")):
        for line in json.loads(rules.read_text(encoding="utf-8"))["lines"].values():
            if line.get("text"):
                out.append((rules.relative_to(ROOT).as_posix(), line["en"], line["text"]))
    return out


def test_every_language_with_catalogs_has_a_glossary_and_each_glossary_a_language():
    glossaries = {p.stem for p in GLOSSARY.glob("*.json")} - {"terms"}
    assert glossaries == set(LANGUAGES)
    assert {"de", "es", "fr", "it", "pt"} <= set(LANGUAGES)


def test_the_english_terms_are_well_formed():
    terms = english_terms()
    assert len(terms) >= 20
    for term, entry in terms.items():
        assert entry.keys() == {"forms", "other_senses"}, term
        forms, others = entry["forms"], entry["other_senses"]
        assert forms and all(isinstance(f, str) and f.strip() for f in forms + others), term
        assert term.lower() in (f.lower() for f in forms), f"{term}: its own name is not among its forms"
        for other in others:
            assert any(phrase(f).search(other) for f in forms), f"{term}: other sense {other!r} holds none of its forms"


def terms_of(english: str) -> set[str]:
    """The glossary terms an English text holds: longest form first, each match taken out of
    the text before shorter forms are looked for; other senses taken out first."""
    text = plain(english)
    for entry in english_terms().values():
        for other in entry["other_senses"]:
            text = text.replace(other, " ")
    found = set()
    forms = sorted(((f, t) for t, e in english_terms().items() for f in e["forms"]), key=lambda ft: -len(ft[0]))
    for form, term in forms:
        text, n = phrase(form).subn(" ", text)
        if n:
            found.add(term)
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_glossary_is_well_formed_and_gives_every_term_one_use(lang):
    data = glossary(lang)
    assert data.keys() == {"language", "compounds", "terms"}, lang
    assert data["language"] == lang
    assert isinstance(data["compounds"], bool)
    assert data["terms"].keys() == english_terms().keys(), f"{lang}: terms differ from terms.json"
    for term, entry in data["terms"].items():
        assert entry.keys() == TERM_KEYS, f"{lang}: {term}"
        forms, refused = entry["forms"], entry["refused"]
        assert forms and all(isinstance(f, str) and f.strip() for f in forms + refused), f"{lang}: {term}"
        clash = {f.lower() for f in forms} & {r.lower() for r in refused}
        assert not clash, f"{lang}: {term}: {sorted(clash)} both accepted and refused"


def problems(lang: str, texts: list[tuple[str, str, str]]) -> list[str]:
    """What the glossary of ``lang`` finds in ``(file, English, translation)`` texts."""
    data = glossary(lang)
    accepted = {term: [phrase(f, data["compounds"]) for f in entry["forms"]]
                for term, entry in data["terms"].items()}
    refused = {term: [(r, phrase(r)) for r in entry["refused"]] for term, entry in data["terms"].items()}
    problems = []
    for file, source, text in texts:
        words = plain(text)
        wanted = terms_of(source)
        for term in accepted:
            if term in wanted and not any(p.search(words) for p in accepted[term]):
                problems.append(f"{file}: {source!r} → {text!r}: term {term!r} wants one of "
                                f"{data['terms'][term]['forms']}")
            for variant, pattern in refused[term]:
                if pattern.search(words):
                    problems.append(f"{file}: {source!r} → {text!r}: refused {variant!r} for term {term!r}")
    return problems


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_translation_says_each_term_of_its_english_the_glossary_way(lang):
    found = problems(lang, entries(lang))
    assert not found, f"{len(found)} in {lang}:\n" + "\n".join(found)


def test_terms_are_found_longest_first_whole_word_and_plural_and_not_in_their_other_senses():
    assert terms_of("Two Match Point penalties and a Game Loss") == {"Match Point penalty", "Game Loss"}
    assert terms_of("The game reached Round 7; the next round starts at {table}") == {"round"}
    assert terms_of("Deck checks, decklists and dropped players") == {"deck check", "decklist", "drop"}
    assert terms_of("a warningless roundabout") == set()


def test_a_translation_saying_a_term_otherwise_is_named_with_its_file_english_and_term():
    found = problems("de", [("x.json", "Three Warnings", "Drei Warnungen"),
                            ("x.json", "Penalty database", "Strafendatenbank")])
    assert found == ["x.json: 'Three Warnings' → 'Drei Warnungen': term 'Warning' wants one of "
                     "['Verwarnung', 'Verwarnungen']",
                     "x.json: 'Three Warnings' → 'Drei Warnungen': refused 'Warnungen' for term 'Warning'"]

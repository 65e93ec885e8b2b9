"""Rule texts in other languages (shared_rules/translations.py): every translation keeps its
English's placeholders, a line whose English changed shows the English and is listed as
English, and the decisions are the same in every language."""

import json
from pathlib import Path

import pytest

from shared_rules import library, translations, worker
from shared_rules.__main__ import main
from shared_rules.cases import load_case_files
from shared_rules.engine import evaluate, list_rulesets
from shared_rules.errors import RuleError
from shared_rules.vocabulary import shared

OTHER_LANGUAGES = translations.LANGUAGES[1:]
FILES = sorted(translations.files().items())
TEXT_KEYS = ("explain", "notes", "language", "english")


def decisions(answer: dict) -> dict:
    """The answer without its texts for people: what must be the same in every language."""
    out = {k: v for k, v in answer.items() if k not in TEXT_KEYS}
    out["options"] = [{k: v for k, v in o.items() if k != "condition"} for o in answer.get("options", [])]
    if "pending" in out:  # each pending field's sentence is text; its facts and outcomes decide
        out["pending"] = {f: {k: v for k, v in e.items() if k != "text"} for f, e in out["pending"].items()}
    for kind in ("needs", "not_needed"):
        if kind in out:
            out[kind] = [{**{k: v for k, v in e.items() if k not in ("label", "values")},
                          "values": [v["id"] for v in e.get("values", [])]} for e in out[kind]]
    return out


def test_translation_files_exist_for_every_ruleset_language_pair_written():
    names = {name for name, _ in translations.files()}
    assert {"yugioh", "queries"} <= names
    assert {lang for name, lang in translations.files() if name == "yugioh"} == set(OTHER_LANGUAGES)


@pytest.mark.parametrize("key", [k for k, _ in FILES], ids=[f"{n}.{lang}" for (n, lang), _ in FILES])
def test_every_translation_keeps_the_placeholders_of_its_english(key):
    name, language = key
    assert translations.placeholder_problems(name, language) == []
    data = translations.read(translations.files()[key])
    assert (data["ruleset"], data["language"]) == key
    english = shared() if name == translations.SHARED else library.load_ruleset(name)
    # every line addresses a text the data has now
    assert translations.status(name, english, language)["unknown"] == []


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_every_case_decides_the_same_in_every_language(language):
    cases = [case for case in load_case_files(library.case_files()) if "refused" not in case.data["expect"]]
    assert len(cases) > 300
    for case in cases:  # (refusals in every language: test_impossible_facts.py)
        english = evaluate(case.request)
        translated = evaluate({**case.request, "language": language})
        assert translated["language"] == language
        assert decisions(translated) == decisions(english), case.id
        assert len(translated["explain"]) == len(english["explain"]), case.id


def test_a_german_answer_reads_german_with_numbers_and_penalty_names_from_the_data():
    answer = evaluate({"ruleset": "yugioh", "query": "penalty", "language": "de",
                       "event": {"level": "tier2"}, "facts": {"infraction": "slow_play", "history": []}})
    english = evaluate({"ruleset": "yugioh", "query": "penalty",
                        "event": {"level": "tier2"}, "facts": {"infraction": "slow_play", "history": []}})
    assert answer["penalty"] == english["penalty"] == "warning"
    assert answer["english"] == []
    assert answer["explain"] != english["explain"]
    assert "english" not in english and "language" not in english
    assert any("Verwarnung" in line for line in answer["explain"])


def test_an_unknown_language_is_refused_naming_the_known_ones():
    with pytest.raises(RuleError) as error:
        evaluate({"ruleset": "yugioh", "query": "penalty", "language": "xx", "facts": {"infraction": "slow_play"}})
    assert error.value.field == "language"
    assert error.value.allowed == list(translations.LANGUAGES)


@pytest.fixture()
def changed_english(tmp_path, monkeypatch):
    """A copy of yugioh (as ``yugioh-changed``) whose offensive-language explain line has new
    English, with the German translation of the original: that one line is now stale."""
    data = json.loads(json.dumps(library.load_ruleset("yugioh")))
    data["id"] = "yugioh-changed"
    rule = next(i for i in data["infractions"] if i["id"] == "offensive_language")["rules"][0]
    rule["explain"] = "Inappropriate language: a warning the first time, upgraded when it happens again."
    (tmp_path / "rulesets").mkdir()
    (tmp_path / "rulesets" / "yugioh-changed.json").write_text(json.dumps(data), encoding="utf-8")
    german = translations.read(translations.files()["yugioh", "de"])
    (tmp_path / "translations").mkdir()
    (tmp_path / "translations" / "yugioh-changed.de.json").write_text(
        json.dumps({**german, "ruleset": "yugioh-changed"}), encoding="utf-8")
    monkeypatch.setenv(library.PATH_VARIABLE, str(tmp_path))
    yield rule["explain"]
    library.clear_caches()


def test_a_line_whose_english_changed_shows_the_english_and_is_listed(changed_english, capsys):
    request = {"ruleset": "yugioh-changed", "query": "penalty", "language": "de", "event": {"level": "tier2"},
               "facts": {"infraction": "offensive_language", "history": []}}
    answer = evaluate(request)
    at = answer["explain"].index(changed_english)
    assert answer["english"] == [f"explain[{at}]"]
    # the other lines are German
    assert all(translations.MARK not in line for line in answer["explain"])
    assert answer["explain"][0] != evaluate({**request, "language": None} | {"language": "en"})["explain"][0]
    # for pages that mark English themselves: the same line keeps the mark in front, the others as they were
    marked = evaluate(request, marked=True)
    assert marked["explain"][at] == translations.MARK + changed_english and "english" not in marked
    assert [line for i, line in enumerate(marked["explain"]) if i != at] == \
        [line for i, line in enumerate(answer["explain"]) if i != at]
    assert main(["translations", "yugioh-changed"]) == 0
    assert "TRANSLATIONS yugioh-changed.de: " in capsys.readouterr().out
    state = translations.status("yugioh-changed", library.load_ruleset("yugioh-changed"), "de")
    assert state["stale"] == ["infractions[offensive_language].rules[offensive_language].explain"]


def test_the_template_keeps_translations_and_adds_new_english(tmp_path, monkeypatch):
    monkeypatch.setenv(library.PATH_VARIABLE, str(tmp_path))
    data = {"id": "x", "title": "A title", "levels": [{"id": "one", "name": "One"}]}
    (tmp_path / "translations").mkdir()
    (tmp_path / "translations" / "x.de.json").write_text(json.dumps(
        {"ruleset": "x", "language": "de", "lines": {"title": {"en": "Old title", "text": "Ein Titel"}}}))
    path = translations.template("x", data, "de")
    assert path == Path(tmp_path / "translations" / "x.de.json")
    assert json.loads(path.read_text())["lines"] == {
        "title": {"en": "Old title", "text": "Ein Titel"}, "levels[one].name": {"en": "One", "text": ""}}
    state = translations.status("x", data, "de")
    assert (state["stale"], state["missing"]) == (["title"], ["levels[one].name"])
    library.clear_caches()


def test_the_rulesets_list_names_levels_in_the_language_asked():
    german = {r["id"]: r for r in list_rulesets("de")}["yugioh"]
    english = {r["id"]: r for r in list_rulesets()}["yugioh"]
    assert [lv["id"] for lv in german["levels"]] == [lv["id"] for lv in english["levels"]]
    assert german["language"] == "de" and german["english"] == []
    assert german["levels"][0]["name"] == "Tier 1 (lokal)" != english["levels"][0]["name"]


def test_texts_writes_every_ruleset_and_the_shared_words_in_each_language(tmp_path):
    assert main(["texts", "--out", str(tmp_path)]) == 0
    names = [translations.SHARED, *library.ruleset_ids()]
    others = [lang for lang in translations.LANGUAGES if lang != translations.ENGLISH]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["mark.json", *(f"{n}.{lang}.json" for n in names for lang in others)])
    german = json.loads((tmp_path / "yugioh.de.json").read_text(encoding="utf-8"))
    lines = translations.lines("yugioh", "de")
    assert german["title"] == lines["title"]["text"] != library.load_ruleset("yugioh")["title"]
    first = library.load_ruleset("yugioh")["infractions"][0]
    assert german["infractions"][0]["name"] == lines[f"infractions[{first['id']}].name"]["text"]
    # data stays data: ids, expressions and sources are the English file's
    assert german["infractions"][0]["id"] == first["id"]
    assert german["infractions"][0].get("source") == first.get("source")
    # each file is the data as the engine translates it: a text with no current translation
    # keeps MARK in front (the app strips it for its screens and hands it to the engine whole)
    for name in names:
        assert json.loads((tmp_path / f"{name}.de.json").read_text(encoding="utf-8")) == json.loads(json.dumps(
            translations.translated(shared() if name == translations.SHARED else library.load_ruleset(name),
                                    name, "de")))
    assert json.loads((tmp_path / "mark.json").read_text(encoding="utf-8")) == {"mark": translations.MARK}


def test_a_line_written_outside_lines_is_refused_naming_the_key(tmp_path):
    """A translation's lines live under "lines"; one written beside them would be ignored and
    its text shown in English without a word, so the file is refused naming the key."""
    german = translations.read(translations.files()["queries", "de"])
    path = tmp_path / "queries.de.json"
    path.write_text(json.dumps({**german, "words.flag_gives.text": {"en": "x", "text": "y"}}), encoding="utf-8")
    with pytest.raises(RuleError) as error:
        translations.read(path)
    assert "unknown key 'words.flag_gives.text'" in str(error.value)


def answer_or_error(request: dict) -> dict:
    try:
        return {"answer": json.loads(json.dumps(evaluate(request)))}
    except RuleError as error:
        return {"error": str(error)}


def given_texts(folder: Path, language: str) -> dict:
    """``{name: data}`` of one language from what ``texts --out folder`` wrote."""
    suffix = f".{language}.json"
    return {p.name[:-len(suffix)]: json.loads(p.read_text(encoding="utf-8")) for p in folder.glob(f"*{suffix}")}


def test_texts_given_in_place_of_the_files_give_the_same_answers(tmp_path, monkeypatch):
    """The app's worker has no translation file: it is handed the texts of the app's catalogs
    (``texts``, translations.give). Every case answers as with the files, in every language."""
    requests = [{**case.request, "language": language}
                for case in load_case_files(library.case_files()) for language in OTHER_LANGUAGES]
    assert len(requests) > 1500
    from_files = [answer_or_error(request) for request in requests]
    lists = {language: list_rulesets(language) for language in OTHER_LANGUAGES}
    assert main(["texts", "--out", str(tmp_path)]) == 0
    monkeypatch.setattr(translations, "_given", {})
    monkeypatch.setattr(translations, "files", lambda: {})
    library.clear_caches()
    try:
        for language in OTHER_LANGUAGES:
            reply = worker.handle("rule_texts", json.dumps({"language": language,
                                                            "texts": given_texts(tmp_path, language)}))
            assert json.loads(reply) == {"result": True}
        assert [answer_or_error(request) for request in requests] == from_files
        assert {language: list_rulesets(language) for language in OTHER_LANGUAGES} == lists
        # the same texts again change nothing
        assert json.loads(worker.handle("rule_texts", json.dumps(
            {"language": "de", "texts": given_texts(tmp_path, "de")}))) == {"result": False}
    finally:
        library.clear_caches()


def test_texts_given_after_answering_replace_the_compiled_ruleset(tmp_path, monkeypatch):
    monkeypatch.setattr(translations, "_given", {})
    library.clear_caches()
    request = {"ruleset": "yugioh", "query": "penalty", "language": "de", "event": {"level": "tier2"},
               "facts": {"infraction": "slow_play", "history": []}}
    try:
        german = evaluate(request)
        texts = {"yugioh": json.loads(json.dumps(translations.translated(
            library.load_ruleset("yugioh"), "yugioh", "de")))}
        texts["yugioh"]["title"] = "Ein anderer Titel"
        assert translations.give("de", texts) is True
        # the German ruleset compiled for the first answer was dropped: the given title shows
        assert {r["id"]: r for r in list_rulesets("de")}["yugioh"]["title"] == "Ein anderer Titel"
        assert evaluate(request)["penalty"] == german["penalty"] == "warning"
    finally:
        library.clear_caches()


def test_given_texts_of_other_data_or_in_english_are_refused(monkeypatch):
    monkeypatch.setattr(translations, "_given", {})
    library.clear_caches()
    try:
        with pytest.raises(RuleError) as error:
            translations.give("en", {"yugioh": {}})
        assert error.value.field == "language"
        translations.give("de", {"yugioh": {"id": "yugioh", "title": "Nur ein Titel"}})
        with pytest.raises(RuleError) as error:
            evaluate({"ruleset": "yugioh", "query": "penalty", "language": "de",
                      "facts": {"infraction": "slow_play", "history": []}})
        assert "do not fit its data" in str(error.value)
    finally:
        library.clear_caches()

"""Rule data on the organiser pages in the page's language: ruleset titles, level, penalty and
infraction names, call reasons and the deck-check policy come translated from the rule data
(server.rules.load_ruleset, the engine's answers in the language); a text whose translation is
stale or missing shows its English with lang="en" and a mark; the exports stay English.

Every expected string is read from the rule data and its translation files, none is written
here."""

import csv
import html
import io
import json
import re

import pytest
from markupsafe import Markup
from server_helpers import Phone, add_event

from server.i18n import rule_lang, rule_text, unmarked
from shared_rules import library, translations
from shared_rules.engine import compiled_ruleset
from shared_rules.translations import MARK, translated
from shared_rules.vocabulary import shared_in

GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}
FRENCH = {"Accept-Language": "fr"}


def in_language(ruleset: str, language: str) -> dict:
    """The ruleset's data translated as the engine translates it (MARK where English)."""
    return translated(library.load_ruleset(ruleset), ruleset, language)


def by_id(items: list[dict]) -> dict[str, dict]:
    return {i["id"]: i for i in items}


def penalties_table(page: str) -> str:
    table = page[page.index('<table class="stack" id="penalties">'):]
    return table[:table.index("</table>")]


def head_judge_select(page: str) -> str:
    return re.search(r'<select name="head_judge_from">(.*?)</select>', page, re.S).group(1)


def english_mark(language: str) -> str:
    """What rule_text writes after an English text, read from the page's own catalogue."""
    from babel.support import Translations

    return Translations.load("server/translations", [language]).gettext("(English)")


@pytest.fixture
def yugioh(app):
    return add_event(app, ruleset="yugioh", level="tier2", players=("Ada Brook", "Ben Carter"))


def test_the_german_event_page_names_penalties_and_infractions_as_the_german_rule_data_does(
        organiser, client, yugioh):
    german, english = in_language("yugioh", "de"), library.load_ruleset("yugioh")
    penalties, infractions = by_id(german["penalties"]), by_id(german["infractions"])
    phone = Phone(client, yugioh, judge="Jo Judge")
    phone.sync([phone.penalty("Ada Brook", infraction="offensive_language", penalty="warning"),
                phone.penalty("Ben Carter", infraction="offensive_language", penalty=["game_loss", "match_loss"]),
                phone.penalty("Ada Brook", infraction="offensive_language", penalty=None)])
    page = html.unescape(organiser.get(f"/organiser/events/{yugioh['slug']}", headers=GERMAN).get_data(as_text=True))
    table = penalties_table(page)
    assert f">{penalties['warning']['name']}<" in table
    assert f">{penalties['game_loss']['name']} + {penalties['match_loss']['name']}<" in table
    assert f">{shared_in('de')['words']['no_penalty']['text']}<" in table
    assert f">{infractions['offensive_language']['name']}</td>" in table
    # every name is German (different from the English), nothing is marked English
    assert penalties["warning"]["name"] != by_id(english["penalties"])["warning"]["name"]
    assert by_id(english["penalties"])["warning"]["name"] not in table
    assert MARK not in page and "data-english" not in page
    # the head judge's setting names every penalty in German
    options = head_judge_select(page)
    for penalty in german["penalties"]:
        assert f'<option value="{penalty["id"]}" >ab {penalty["name"]}</option>' in options


def test_the_head_judge_setting_is_confirmed_in_the_pages_language(organiser, yugioh):
    name = by_id(in_language("yugioh", "fr")["penalties"])["game_loss"]["name"]
    page = organiser.post(f"/organiser/events/{yugioh['slug']}/head-judge", headers=FRENCH, follow_redirects=True,
                          data={"csrf": _token(organiser), "head_judge_from": "game_loss"}).get_data(as_text=True)
    flash = re.search(r'<p class="flash ok" role="status">(.*?)</p>', page).group(1)
    assert html.unescape(name) in html.unescape(flash) and "Game Loss" not in flash


def test_the_index_pages_ruleset_picker_shows_translated_titles_and_level_names(organiser):
    page = organiser.get("/organiser/", headers=FRENCH).get_data(as_text=True)
    picker = html.unescape(re.search(r'<select name="ruleset_level"[^>]*>(.*?)</select>', page, re.S).group(1))
    options = dict(re.findall(r'<option value="([^"]+)"\s*>([^<]*)</option>', picker))
    for ruleset in library.ruleset_ids():
        french, english = in_language(ruleset, "fr"), library.load_ruleset(ruleset)
        assert french["title"] != english["title"], ruleset
        for level in french.get("levels", []):
            assert options[f"{ruleset}|{level['id']}"] == f"{french['title']} — {level['name']}"
        if not french.get("levels"):
            assert options[f"{ruleset}|"] == french["title"]
    # the titles of the policies that name their own best-of values are French as well
    own = [in_language(r, "fr")["title"] for r in library.ruleset_ids() if library.load_ruleset(r).get("best_of")]
    assert own and all(html.escape(t, quote=False) in page for t in own)
    assert "data-english" not in page


def test_the_exports_stay_english_whatever_the_pages_language(organiser, client, yugioh):
    phone = Phone(client, yugioh)
    phone.sync([phone.penalty("Ada Brook", infraction="offensive_language", penalty="warning")])
    organiser.get(f"/organiser/events/{yugioh['slug']}", headers=GERMAN)
    text = organiser.get(f"/organiser/events/{yugioh['slug']}/penalties.csv", headers=GERMAN).get_data(as_text=True)
    row = next(csv.DictReader(io.StringIO(text)))
    english = library.load_ruleset("yugioh")
    assert row["penalty_name"] == by_id(english["penalties"])["warning"]["name"]
    assert row["infraction_name"] == by_id(english["infractions"])["offensive_language"]["name"]
    body = organiser.get(f"/organiser/events/{yugioh['slug']}/penalties.json", headers=GERMAN).get_json()
    assert body["penalties"][0]["penalty_name"] == row["penalty_name"]


def test_call_reasons_on_the_event_page_are_in_its_language(app, organiser, client):
    wotf = add_event(app, ruleset="wotf", level="competitive")
    assert client.post(f"/api/events/{wotf['slug']}/calls", json={"table": 3, "reason": "dispute"}).status_code < 300
    page = html.unescape(organiser.get(f"/organiser/events/{wotf['slug']}", headers=GERMAN).get_data(as_text=True))
    calls = page[page.index('<section id="calls"'):]
    calls = calls[:calls.index("</section>")]
    reason = shared_in("de")["queries"]["judge_call"]["facts"]["reason"]["names"]["dispute"]
    assert MARK not in reason and reason in calls


@pytest.fixture
def stale(tmp_path, monkeypatch):
    """Copies of yugioh and wotf (as `<id>-changed`) in a SHARED_RULES_PATH folder, each with
    its German translation; some English changed since, so those lines are stale: yugioh's
    title and the warning's name, wotf's top-cut deck-check advice. Gives the new English."""
    changed = {}
    for source in ("yugioh", "wotf"):
        data = json.loads(json.dumps(library.load_ruleset(source)))
        data["id"] = f"{source}-changed"
        if source == "yugioh":
            data["title"] += " (second edition)"
            warning = by_id(data["penalties"])["warning"]
            warning["name"] = "Formal Warning"
            changed |= {"title": data["title"], "warning": warning["name"]}
        else:
            step = next(s for s in data["queries"]["deck_checks"]["steps"] if s.get("id") == "deck_check_top_cut")
            step["explain"] = "Check every top-cut player at least once during the Swiss rounds."
            changed["top_cut"] = step["explain"]
        for kind, text in (("rulesets", data), ("translations", {
                **translations.read(translations.files()[source, "de"]), "ruleset": data["id"]})):
            (tmp_path / kind).mkdir(exist_ok=True)
            (tmp_path / kind / (f"{data['id']}.json" if kind == "rulesets" else f"{data['id']}.de.json")).write_text(
                json.dumps(text, ensure_ascii=False), encoding="utf-8")
    monkeypatch.setenv(library.PATH_VARIABLE, str(tmp_path))
    yield changed
    library.clear_caches()


def marked_english(text: str, language: str = "de") -> str:
    return (f'<span lang="en" data-english>{html.escape(text)}</span> '
            f'<span class="muted english-mark">{html.escape(english_mark(language))}</span>')


def test_a_stale_penalty_name_shows_its_english_with_lang_en(app, organiser, client, stale):
    event = add_event(app, ruleset="yugioh-changed", level="tier2")
    german = by_id(in_language("yugioh-changed", "de")["penalties"])
    assert german["warning"]["name"] == MARK + stale["warning"]  # the data says it is stale
    phone = Phone(client, event)
    phone.sync([phone.penalty("Ada Brook", infraction="offensive_language", penalty="warning"),
                phone.penalty("Ben Carter", infraction="offensive_language", penalty="game_loss")])
    page = organiser.get(f"/organiser/events/{event['slug']}", headers=GERMAN).get_data(as_text=True)
    table = penalties_table(page)
    assert f"<td data-label=\"Strafe\">{marked_english(stale['warning'])}</td>" in table
    assert f">{html.escape(german['game_loss']['name'])}</td>" in table  # still current: German, unmarked
    assert MARK not in page
    # an <option> holds text only: the option itself says it is English
    options = head_judge_select(page)
    assert f'<option value="warning" lang="en" data-english >ab {html.escape(stale["warning"])}</option>' in options
    assert f'<option value="game_loss" >ab {html.escape(german["game_loss"]["name"])}</option>' in options
    # so does the message confirming the setting (kept in the session as markup)
    page = organiser.post(f"/organiser/events/{event['slug']}/head-judge", headers=GERMAN, follow_redirects=True,
                          data={"csrf": _token(organiser), "head_judge_from": "warning"}).get_data(as_text=True)
    flash = re.search(r'<p class="flash ok" role="status">(.*?)</p>', page).group(1)
    assert marked_english(stale["warning"]) in flash and "&lt;span" not in flash


def test_a_stale_title_is_marked_english_in_the_ruleset_picker(organiser, stale):
    page = organiser.get("/organiser/", headers=GERMAN).get_data(as_text=True)
    levels = in_language("yugioh-changed", "de")["levels"]
    for level in levels:
        option = re.search(rf'<option value="yugioh-changed\|{level["id"]}"([^>]*)>([^<]*)</option>', page)
        assert option.group(1) == ' lang="en" data-english'
        assert html.unescape(option.group(2)) == f"{stale['title']} — {unmarked(level['name'])}"
    assert re.search(r'<option value="yugioh\|tier2"\s*>', page)  # the original stays German
    assert MARK not in page


def test_a_stale_deck_check_line_shows_its_english_with_lang_en(app, organiser, stale):
    event = add_event(app, ruleset="wotf-changed", level="competitive")
    page = organiser.get(f"/organiser/events/{event['slug']}", headers=GERMAN).get_data(as_text=True)
    section = page[page.index('<section id="deck-checks"'):]
    section = section[:section.index("</section>")]
    assert marked_english(stale["top_cut"]) in section
    words = compiled_ruleset("wotf-changed", "de").words["queries"]["deck_checks"]["answer"]["expectation"]
    assert f"<strong>{html.escape(words['values']['recommended'])}</strong>" in section
    assert section.count("data-english") == 1 and MARK not in page


def test_rule_text_escapes_and_marks_only_english_texts(app):
    with app.test_request_context(headers=GERMAN):
        app.preprocess_request()
        assert rule_text("<b>Verwarnung</b>") == Markup("&lt;b&gt;Verwarnung&lt;/b&gt;")
        assert rule_text(MARK + "Warning & more") == Markup(marked_english("Warning & more"))
        assert rule_text(None) == "" and unmarked(None) == "" and unmarked(MARK + "x") == "x"
        assert rule_lang("Verwarnung", None) == "" and rule_lang("a", MARK + "b") == ' lang="en" data-english'


def _token(client) -> str:
    with client.session_transaction() as session:
        return session["csrf"]


def test_the_event_list_and_the_event_page_name_the_ruleset_and_level_in_the_pages_language(organiser, client, app,
                                                                                             yugioh):
    german = in_language("yugioh", "de")
    level = by_id(german["levels"])["tier2"]["name"]
    gone = add_event(app, ruleset="no-such-policy", level="tier9")  # rule data removed since
    index = html.unescape(organiser.get("/organiser/", headers=GERMAN).get_data(as_text=True))
    shown = dict(re.findall(r'/organiser/events/([^"]+)">[^<]*</a> <span class="muted">([^<]*)</span>', index))
    assert shown[yugioh["slug"]] == f"{german['title']} · {level}"
    assert german["title"] != library.load_ruleset("yugioh")["title"]
    assert shown[gone["slug"]] == "no-such-policy · tier9"
    page = html.unescape(organiser.get(f"/organiser/events/{yugioh['slug']}", headers=GERMAN).get_data(as_text=True))
    assert f'<p class="muted">{german["title"]} · {level} · ' in page
    broken = organiser.get(f"/organiser/events/{gone['slug']}", headers=GERMAN)
    assert broken.status_code == 200
    assert '<p class="muted">no-such-policy · tier9 · ' in broken.get_data(as_text=True)
    # what the event's policy would say of judge calls reads as not stated
    policy = client.get(f"/api/events/{gone['slug']}/calls/policy?language=de")
    assert policy.status_code == 200
    assert [(c["allowed"], c["stated"]) for c in policy.get_json()["callers"]] == [(True, False), (True, False)]


def test_a_flag_that_needs_more_facts_names_them_as_the_app_asks_them():
    """The flag's sentence has one home (shared_rules.review.flag_text): the organiser's pages,
    the exports and the app all show what it gives, the facts named by their questions."""
    from shared_rules.review import flag_text

    german = compiled_ruleset("yugioh", "de").words["queries"]["penalty"]["facts"]
    paths = ["facts.intentional", "facts.no_such_fact"]
    text = flag_text({"penalty": "warning", "needs": paths, "unseen": ["r1"]}, "yugioh", "de")
    assert unmarked(german["intentional"]["summary"]) in text and "no such fact" in text and "facts." not in text
    assert by_id(in_language("yugioh", "de")["penalties"])["warning"]["name"] in text
    assert text.startswith("Erfasst: ") and "(frühere Strafen, die es nicht kannte: 1)" in text

"""The organiser pages' languages: the browser's Accept-Language picks one of six, the
picker's cookie overrides it, `<html lang>` names the one shown, the server's messages on
the pages follow it, rule data comes in it from its translation files (more in
test_organiser_rule_languages.py), and the API stays English."""

import re

import pytest
from flask_babel import lazy_gettext

from server.errors import error_response
from server.i18n import LANG_COOKIE
from shared_rules import library
from shared_rules.translations import translated

GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}


def html_lang(page: str) -> str:
    return re.search(r'<html lang="([^"]+)">', page).group(1)


@pytest.fixture
def event_slug(organiser):
    organiser.form("/organiser/events", name="Herbstturnier", ruleset_level="dci-upg|competitive",
                   stage="swiss", games_per_match="3", round_minutes="50")
    page = organiser.get("/organiser/").get_data(as_text=True)
    return re.search(r'/organiser/events/(\w+)"', page).group(1)


def test_accept_language_de_gives_the_login_page_in_german(client):
    page = client.get("/organiser/login", headers=GERMAN).get_data(as_text=True)
    assert html_lang(page) == "de"
    assert ">Anmeldename <input" in page and ">Passwort <input" in page and ">Anmelden</button>" in page
    assert ">Password <input" not in page


@pytest.mark.parametrize(("header", "lang", "word"), [
    ("fr-CA,fr;q=0.8", "fr", ">Identifiant <input"),
    ("it", "it", ">Nome utente <input"),
    ("es-419", "es", ">Contraseña <input"),
    ("pt-BR,pt;q=0.9", "pt", ">Senha <input"),
    ("nl,sv;q=0.5", "en", ">Password <input"),  # none of the six: English
])
def test_each_language_is_chosen_by_the_browser(client, header, lang, word):
    page = client.get("/organiser/login", headers={"Accept-Language": header}).get_data(as_text=True)
    assert (html_lang(page), word in page) == (lang, True)


def test_the_event_page_is_german_and_so_are_the_rule_datas_words(organiser, event_slug):
    page = organiser.get(f"/organiser/events/{event_slug}", headers=GERMAN).get_data(as_text=True)
    assert html_lang(page) == "de"
    for words in ("Rundenuhr", "Strafen", "Geräte", "Judge-Rufe (0)", "Deck-Checks", "Runde 1 starten",
                  "Keine Strafen erfasst.", "Best of 3", "50 Minuten", 'aria-label="QR-Code des Beitrittslinks"'):
        assert words in page, words
    # the penalty names come from the rule data's German translation
    german = {p["id"]: p["name"] for p in translated(library.load_ruleset("dci-upg"), "dci-upg", "de")["penalties"]}
    english = {p["id"]: p["name"] for p in library.load_ruleset("dci-upg")["penalties"]}
    assert f'<option value="game_loss" >ab {german["game_loss"]}</option>' in page
    assert f">ab {english['game_loss']}</option>" not in page
    # the event's stage is the server's own setting: its words are translated, its value is not
    assert '<option value="swiss" selected>Schweizer Runden</option>' in page
    assert '<option value="elimination" >Top Cut (K.-o.-Runden)</option>' in page
    board = organiser.get(f"/organiser/events/{event_slug}/board", headers=GERMAN).get_data(as_text=True)
    assert "Rundenübersicht" in board and "Noch keine Runde gestartet." in board


def test_the_servers_messages_on_the_pages_follow_the_language(organiser, event_slug):
    path = f"/organiser/events/{event_slug}/round"
    started = organiser.post(path, data={"csrf": _token(organiser), "action": "start"}, headers=GERMAN,
                             follow_redirects=True).get_data(as_text=True)
    assert "Runde 1 gestartet." in started
    refused = organiser.post(path, data={"csrf": _token(organiser), "action": "start"}, headers=GERMAN,
                             follow_redirects=True).get_data(as_text=True)
    assert "Runde 1 ist noch nicht beendet" in refused
    bad = organiser.post(f"/organiser/events/{event_slug}/pairings", headers={"Accept-Language": "es"},
                         data={"csrf": _token(organiser), "round": "x", "csv": ""},
                         follow_redirects=True).get_data(as_text=True)
    assert "la ronda debe ser un número entero de 1 a" in bad


def _token(client) -> str:
    with client.session_transaction() as session:
        return session["csrf"]


def test_the_pickers_choice_is_kept_in_a_cookie_over_the_browsers_language(client):
    res = client.get("/organiser/language?lang=es&next=/organiser/login", headers=GERMAN)
    assert (res.status_code, res.headers["Location"]) == (302, "/organiser/login")
    assert client.get_cookie(LANG_COOKIE, path="/organiser").value == "es"
    page = client.get("/organiser/login", headers=GERMAN).get_data(as_text=True)
    assert html_lang(page) == "es" and ">Contraseña <input" in page
    picker = re.search(r'<select name="lang">(.*?)</select>', page).group(1)
    assert re.findall(r'value="(\w+)"', picker) == ["en", "de", "fr", "it", "es", "pt"]
    assert '<option value="es" lang="es" selected>Español</option>' in picker


def test_the_picker_ignores_an_unknown_language_and_goes_nowhere_but_the_organiser_pages(client):
    res = client.get("/organiser/language?lang=xx&next=https://elsewhere.example/")
    assert res.headers["Location"] == "/organiser/"
    assert client.get_cookie(LANG_COOKIE, path="/organiser") is None


def test_the_api_answers_in_english_whatever_the_browser_asks(app):
    with app.test_request_context("/api/x", headers=GERMAN):
        body = error_response(409, lazy_gettext("round %(number)s has not ended", number=2)).get_json()
    assert body == {"error": {"code": "conflict", "message": "round 2 has not ended"}}


@pytest.mark.parametrize("language", ["de", "fr", "it", "es", "pt"])
def test_translated_sentences_with_markup_keep_it(organiser, event_slug, language):
    page = organiser.get(f"/organiser/events/{event_slug}",
                         headers={"Accept-Language": language}).get_data(as_text=True)
    assert html_lang(page) == language
    for tag in ("strong", "code"):
        assert f"&lt;{tag}&gt;" not in page, tag
    assert "<strong>" in page

"""The app speaks the phone's language (js/lang.js, js/i18n.js): a German phone gets German
screens and <html lang="de">; a language chosen on the Event screen is kept across a restart
and overrides the browser's; every text checked here is read from the catalogs, not typed in."""

import json

from .conftest import DIST, PHONE
from .helpers import axe_violations, standalone

CATALOGS = DIST / "i18n"


def catalog(code: str) -> dict:
    return json.loads((CATALOGS / f"{code}.json").read_text(encoding="utf-8"))["messages"]


def nav_texts(page) -> dict:
    return {a.get_attribute("data-screen"): a.inner_text().strip()
            for a in page.locator("#nav a").all()}


def open_event_screen(ctx, url):
    """A page of `ctx` on the Event screen, drawn in German (the context's browser language)."""
    page = ctx.new_page()
    page.goto(url + "/#/join")
    page.wait_for_function("document.documentElement.lang === 'de'")
    page.wait_for_selector("main[data-screen=join] h1")
    return page


def test_a_german_phone_gets_german_screens_and_lang_de(browser, static_server):
    de = catalog("de")
    ctx = browser.new_context(viewport=PHONE, locale="de-DE")
    try:
        page = open_event_screen(ctx, static_server.url)
        assert page.text_content("main h1") == de["Event"] != "Event"
        assert nav_texts(page) == {
            "clock": de["Clock"], "time": de["Time!"], "penalty": de["Penalty"],
            "history": de["Players"], "review": de["Review"], "join": de["Event"]}
        assert page.get_attribute("#nav", "aria-label") == de["Screens"]
        assert page.text_content("#sync") == de["Not joined"]
        assert page.text_content("label[for=language]") == de["Language"]
        # the choice follows the browser and names the language that gives
        assert page.input_value("#language") == "browser"
        assert page.locator("#language option[value=browser]").text_content() == \
            de["As the browser ({language})"].replace("{language}", "Deutsch")
        # the German screen keeps the accessibility checks (names, lang of each language's option)
        assert axe_violations(page) == []
    finally:
        ctx.close()


def test_a_switch_to_spanish_sticks_across_a_restart(browser, static_server):
    es = catalog("es")
    ctx = browser.new_context(viewport=PHONE, locale="de-DE")
    try:
        page = open_event_screen(ctx, static_server.url)
        page.select_option("#language", "es")
        page.wait_for_function("document.documentElement.lang === 'es'")
        page.wait_for_function("(t) => document.querySelector('main h1')?.textContent === t", arg=es["Event"])
        assert nav_texts(page)["penalty"] == es["Penalty"] != "Penalty"
        assert page.input_value("#language") == "es"
        page.close()
        # a restart: a new page of the same phone (its storage kept), on another screen
        again = ctx.new_page()
        again.goto(static_server.url + "/#/join")
        again.wait_for_selector("main[data-screen=join] h1")
        assert again.evaluate("document.documentElement.lang") == "es"
        assert again.text_content("main h1") == es["Event"]
        assert nav_texts(again)["clock"] == es["Clock"]
        assert again.input_value("#language") == "es"
        # back to the browser's language
        again.select_option("#language", "browser")
        again.wait_for_function("document.documentElement.lang === 'de'")
        again.wait_for_function("(t) => document.querySelector('main h1')?.textContent === t",
                                arg=catalog("de")["Event"])
        assert again.input_value("#language") == "browser"
    finally:
        ctx.close()


def test_a_german_phone_lists_the_policy_s_infractions_in_german(browser, static_server):
    from shared_rules import library, translations

    lines = translations.lines("yugioh", "de")
    ctx = browser.new_context(viewport=PHONE, locale="de-DE")
    try:
        page = ctx.new_page()
        standalone(page, static_server.url, "yugioh", "tier2")
        for infraction in library.load_ruleset("yugioh")["infractions"][:5]:
            german = lines[f"infractions[{infraction['id']}].name"]["text"]
            button = page.locator(f"[data-infraction={infraction['id']}]")
            assert german in button.inner_text(), (german, button.inner_text())
            assert infraction["name"] not in button.inner_text()
        assert axe_violations(page) == []
    finally:
        ctx.close()


def test_a_german_players_page_reads_german_with_the_engine_s_german_lines(browser, flask_server):
    from shared_rules import evaluate

    de = catalog("de")
    event = flask_server.make_event("yugioh", "tier1", round_minutes=45)
    flask_server.start_round(event["slug"])
    ctx = browser.new_context(viewport=PHONE, locale="de-DE")
    try:
        page = ctx.new_page()
        page.goto(flask_server.url + f"/#/event/{event['slug']}")
        label = de["Round {round} · {state}"].replace("{round}", "1").replace("{state}", de["time left"])
        page.wait_for_function("(t) => document.querySelector('#pub-label')?.textContent === t", arg=label)
        assert page.evaluate("document.documentElement.lang") == "de"
        page.wait_for_selector("#pub-at-time li")
        want = evaluate({"ruleset": "yugioh", "query": "time_call", "language": "de",
                         "event": {"level": "tier1", "stage": "swiss", "games_per_match": 3, "round_minutes": 45},
                         "facts": {}})
        assert page.locator("#pub-at-time li").all_text_contents() == want["explain"]
        english = evaluate({"ruleset": "yugioh", "query": "time_call",
                            "event": {"level": "tier1", "stage": "swiss", "games_per_match": 3, "round_minutes": 45},
                            "facts": {}})
        assert want["explain"] != english["explain"]
    finally:
        ctx.close()

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
    ctx = browser.returning(static_server.url, viewport=PHONE, locale="de-DE")
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
    ctx = browser.returning(static_server.url, viewport=PHONE, locale="de-DE")
    try:
        page = open_event_screen(ctx, static_server.url)
        page.focus("#language")
        page.select_option("#language", "es")
        page.wait_for_function("document.documentElement.lang === 'es'")
        page.wait_for_function("(t) => document.querySelector('main h1')?.textContent === t", arg=es["Event"])
        assert nav_texts(page)["penalty"] == es["Penalty"] != "Penalty"
        assert page.input_value("#language") == "es"
        # the keyboard stays where it was: on the language choice, drawn again in Spanish
        page.wait_for_function("document.activeElement?.id === 'language'")
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
    ctx = browser.returning(static_server.url, viewport=PHONE, locale="de-DE")
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
        # while the round runs it ends at a time; once ended, it ended then (past tense)
        ends_at, ended_at = (de[m].split("{time}")[0] for m in ("Ends at {time}", "Ended at {time}"))
        assert ends_at != ended_at
        page.wait_for_function("(t) => document.querySelector('#pub-ends').textContent.startsWith(t)", arg=ends_at)
        flask_server.end_round(event["slug"])
        page.wait_for_function("(t) => document.querySelector('#pub-ends').textContent.startsWith(t)", arg=ended_at)
    finally:
        ctx.close()


def test_a_german_table_page_offers_the_call_reasons_and_who_may_call_in_german(browser, flask_server):
    from shared_rules import evaluate, translations, vocabulary

    shared = translations.translated(vocabulary.shared(), translations.SHARED, "de")
    facts = shared["queries"]["judge_call"]["facts"]
    event = flask_server.make_event("wotf", "competitive")
    ctx = browser.new_context(viewport=PHONE, locale="de-DE")
    try:
        page = ctx.new_page()
        page.goto(flask_server.url + f"/#/event/{event['slug']}/table/3")
        page.wait_for_selector("#call-policy li")
        reasons = page.locator("#call-reason option").all_text_contents()
        assert reasons[1:] == [facts["reason"]["names"][r] for r in facts["reason"]["values"]]
        assert page.locator("#call-caller option").all_text_contents() == [
            facts["caller"]["names"][c] for c in facts["caller"]["values"]]
        spectator = page.locator("#call-policy li[data-caller=spectator]").text_content()
        answer = evaluate({"ruleset": "wotf", "query": "judge_call", "language": "de",
                           "event": {"level": "competitive"}, "facts": {"caller": "spectator"}})
        assert " ".join(answer["explain"]) in spectator and facts["caller"]["names"]["spectator"] in spectator
        assert page.locator("#call-policy [data-english]").count() == 0
    finally:
        ctx.close()


def _folded(text: str) -> str:
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c)).lower()


def test_german_infractions_carry_german_category_names_and_are_found_without_accents(browser, static_server):
    import re

    from shared_rules import library, translations

    english = library.load_ruleset("yugioh")
    data = translations.translated(english, "yugioh", "de")
    categories = {c["id"]: c["name"] for c in data["categories"]}
    assert set(categories.values()).isdisjoint({c["name"] for c in english["categories"]})
    ctx = browser.returning(static_server.url, viewport=PHONE, locale="de-DE")
    try:
        page = ctx.new_page()
        page.goto(static_server.url + "/#/join")
        page.wait_for_function("document.documentElement.lang === 'de'")
        standalone(page, static_server.url, "yugioh", "tier1")
        page.wait_for_selector("#pen-results [data-infraction]")
        shown = {b.get_attribute("data-infraction"): b.locator(".tag").text_content()
                 for b in page.locator("#pen-results [data-infraction]").all()}
        assert shown == {i["id"]: categories[i["category"]] for i in data["infractions"]}
        # typed without its umlaut, a word of a German name still finds that infraction first
        accented = next(i for i in data["infractions"] if re.search("[äöü]", i["name"]))
        word = next(w for w in accented["name"].split() if re.search("[äöü]", w))
        page.fill("#pen-search", _folded(word))
        page.wait_for_function("(id) => document.querySelector('#pen-results [data-infraction]')"
                               "?.dataset.infraction === id", arg=accented["id"])
        # a word of some names that other infractions hold only in their summary: names first
        names = {i["id"]: _folded(i["name"]) for i in data["infractions"]}
        word = next(w for i in data["infractions"] for w in re.findall(r"\w{5,}", names[i["id"]])
                    if any(w not in names[j["id"]] and w in _folded(j["summary"]) for j in data["infractions"]))
        page.fill("#pen-search", word)
        page.wait_for_function("(n) => document.querySelectorAll('#pen-results [data-infraction]').length === n",
                               arg=sum(word in names[i["id"]] or word in _folded(i["summary"]) or word in i["id"]
                                       or any(word in k for k in i.get("keywords", []))
                                       or word in _folded(categories[i["category"]]) for i in data["infractions"]))
        order = [b.get_attribute("data-infraction") for b in page.locator("#pen-results [data-infraction]").all()]
        in_name = [word in names[x] for x in order]
        assert True in in_name and False in in_name and in_name == sorted(in_name, reverse=True)
    finally:
        ctx.close()

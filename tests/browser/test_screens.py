"""The screens a judge and a player use, driven as a person would; phone-size screenshots of
each go to test-artifacts/."""

import json
import re

from shared_rules.engine import compiled_ruleset

from .conftest import PHONE, SMALL_PHONE, shoot, wait_python
from .helpers import join, settled, wait_synced

NAV_TEXT_GAPS = """() => {
  const boxes = [...document.querySelectorAll('#nav a:not([hidden])')].map((a) => {
    const range = document.createRange();
    range.selectNodeContents(a);
    return range.getBoundingClientRect();
  });
  return boxes.slice(1).map((box, i) => Math.round(box.left - boxes[i].right));
}"""


def test_time_call_walks_the_procedure_to_a_result_and_records_it(browser, flask_server):
    event = flask_server.make_event("yugioh", "tier2", round_minutes=45)
    flask_server.start_round(event["slug"])
    ctx = browser.returning(flask_server.url)
    try:
        page = ctx.new_page()
        page.goto(flask_server.url + "/#/join")
        page.wait_for_selector("#join-code")
        shoot(page, "join")
        page.fill("#join-code", "WRONGCODE")
        page.fill("#judge-name", "Erin")
        page.click("#join-btn")
        page.wait_for_function(
            "() => /No event has that join code/.test(document.querySelector('#join-status').textContent)")
        assert page.text_content("#sync") == "Not joined"
        # names the server would refuse are said on the phone, by field, before anything is sent
        sent = []
        page.on("request", lambda r: sent.append(r.url) if r.url.endswith("/api/join") else None)
        for field, typed, said in (("#judge-name", "Erin\u202e", "Your name (judge): contains a mark that turns"),
                                   ("#device-name", "Phone\u200b", "This device: contains an invisible character"),
                                   ("#judge-name", "   ", "Your name (judge): is needed")):
            page.fill("#join-code", event["code"])
            page.fill("#judge-name", "Erin")
            page.fill("#device-name", "Phone")
            page.fill(field, typed)
            page.click("#join-btn")
            page.wait_for_function("(t) => document.querySelector('#join-status').textContent.startsWith(t)", arg=said)
            assert page.evaluate("() => document.activeElement.id") == field[1:]
        assert sent == []
        assert page.get_attribute("#judge-name", "maxlength") == "100"
        join(page, flask_server, event, "Erin")
        page.goto(flask_server.url + "/#/time")
        page.select_option("#tc-table", "1")
        page.fill("#tc-wins-a", "1")
        page.fill("#tc-wins-b", "0")
        page.click("#tc-start")
        page.wait_for_selector(".question[data-fact='current_game.winner']")
        assert "5 more turns after the current one" in page.text_content("#tc-steps")
        page.click(".question [data-answer=none]")
        page.wait_for_selector(".question[data-fact='current_game.life_points']")
        page.fill(".question input >> nth=0", "1000")
        page.fill(".question input >> nth=1", "6000")
        page.click(".question button[type=submit]")
        page.wait_for_selector("#tc-result")
        assert page.get_attribute("#tc-result [data-match]", "data-match") == "draw"
        assert page.text_content("#tc-match") == "The match is a draw, 1–1"
        # Each step shows only its new lines; earlier steps are folded, one tap away.
        lines = page.locator("#tc-steps .readout li").all_text_contents()
        assert lines[0].startswith("Time: finish the current turn, then play 5 more turns")
        assert len(lines) == len(set(lines)) == 4
        assert page.locator("#tc-steps .source").count() == 1
        assert page.eval_on_selector_all("#tc-steps details.step", "ds => ds.map(d => d.open)") == [
            False, True]
        # Each answer stays with its step, under the question's words from the ruleset.
        fields = compiled_ruleset("yugioh").words["queries"]["time_call"]["facts"]["current_game"]["fields"]
        winner, points = (fields[f]["summary"] for f in ("winner", "life_points"))
        names = [p["name"] for p in event["players"]]
        assert page.locator("#tc-steps .answered").all_text_contents() == [
            f"{winner[0].upper()}{winner[1:]} — neither",
            f"{points[0].upper()}{points[1:]} — {names[0]} (A) 1000, {names[2]} (B) 6000"]
        assert page.text_content("#tc-steps details.step >> nth=0 >> summary") == \
            "Step 1: 5 more turns after the current one"
        shoot(page, "time-call", at="#tc-steps")
        # At 320 px the six screen names of the bottom bar keep clear of each other.
        page.set_viewport_size(SMALL_PHONE)
        gaps = page.evaluate(NAV_TEXT_GAPS)
        page.set_viewport_size(PHONE)
        assert len(gaps) == 5 and min(gaps) >= 8, gaps
        page.click("#tc-steps details.step >> nth=0 >> summary")
        assert page.eval_on_selector("#tc-steps details.step", "d => d.open")
        page.click("#tc-record")
        page.wait_for_selector("#tc-result [role=status]")
        wait_synced(page)
        records = flask_server.records(event["slug"])
        assert [(r["type"], r["payload"]["table"], r["payload"]["result"], r["payload"]["games"]) for r in records] == [
            ("time_call", 1, "draw", {"A": 1, "B": 1})]
        assert records[0]["payload"]["facts"] == {
            "game_wins": {"A": 1, "B": 0}, "current_game": {"winner": None,
                                                           "life_points": {"A": 1000, "B": 6000}}}
    finally:
        ctx.close()


def test_extension_from_the_engine_moves_the_table_end_and_reaches_the_server(browser,
                                                                               flask_server):
    event = flask_server.make_event("wotf", "competitive", round_minutes=50, games_per_match=1)
    flask_server.start_round(event["slug"])
    ctx = browser.returning(flask_server.url)
    try:
        page = ctx.new_page()
        join(page, flask_server, event, "Finn")
        page.click("[aria-label='Add time to table 2']")
        page.select_option("#ext-reason", "deck_check")
        page.fill("#ext-minutes", "6")
        page.click("#ext-work")
        page.wait_for_selector("#ext-result")
        assert page.text_content("#ext-result") == "+9 min"
        shoot(page, "extension", at="#ext-answer")
        page.click("#ext-add")
        page.wait_for_function("() => document.querySelector('li[data-table=\"2\"] .ext')?.textContent === '+9 min'")
        wait_synced(page)
        clock = flask_server.clock(event["slug"])
        table = next(t for t in clock["tables"] if t["number"] == 2)
        assert table["extension_minutes"] == 9
        assert table["end_ms"] == clock["round"]["end_ms"] + 9 * 60_000
        # Once the server's clock carrying the extension is on the phone, the table shows the
        # extension once (the local copy is not added on top of the server's).
        page.evaluate("() => window.judgeApp.refreshClock()")
        page.wait_for_function("""() => {
            const clock = window.judgeApp.app.clock;
            return (clock?.tables || []).some((t) => t.number === 2 && t.extension_minutes === 9)
              && document.querySelector('#tables').dataset.newsMs === String(clock.news_ms);
        }""")
        assert page.text_content("li[data-table=\"2\"] .ext") == "+9 min"
        assert page.get_attribute("#alert-10", "aria-pressed") == "false"
        page.click("#alert-10")
        page.wait_for_function(
            "() => document.querySelector('#alert-10').getAttribute('aria-pressed') === 'true'")
        shoot(page, "clock-tables", at="#tables")
    finally:
        ctx.close()


def test_players_page_shows_the_clock_and_time_rules_without_names(browser, flask_server):
    event = flask_server.make_event("yugioh", "tier1", round_minutes=45)
    flask_server.start_round(event["slug"])
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = ctx.new_page()
        page.goto(flask_server.url + f"/#/event/{event['slug']}")
        page.wait_for_function("() => /Round 1/.test(document.querySelector('#pub-label')?.textContent)")
        page.wait_for_selector("#pub-rules h3")
        text = page.text_content("main")
        assert "What happens at time" in text
        assert "Sudden" in text or "sudden" in text
        page.wait_for_selector("#pub-at-time li")
        from shared_rules import evaluate

        want = evaluate({"ruleset": "yugioh", "query": "time_call",
                         "event": {"level": "tier1", "stage": "swiss", "games_per_match": 3,
                                   "round_minutes": 45}, "facts": {}})
        assert page.locator("#pub-at-time li").all_text_contents() == want["explain"]
        assert all(p["name"] not in page.content() for p in event["players"])
        assert page.is_hidden("#nav")
        assert page.is_hidden("#sync")
        settled(page)
        assert page.evaluate("() => navigator.serviceWorker.getRegistration()") is None, \
            "a player's phone does not install the judge app"
        left = int(page.get_attribute("#pub-left", "data-remaining-ms"))
        assert 44 * 60_000 < left <= 45 * 60_000
        shoot(page, "players-page")
        shoot(page, "players-page-rules", at="#pub-rules")
    finally:
        ctx.close()


def test_players_page_says_when_the_policy_has_no_time_procedure(browser, flask_server):
    event = flask_server.make_event("dci-upg", "competitive", round_minutes=50)
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = ctx.new_page()
        page.goto(flask_server.url + f"/#/event/{event['slug']}")
        page.wait_for_selector("#pub-no-procedure")
        assert page.text_content("#pub-no-procedure") == (
            "This policy does not describe an end-of-match procedure. If time runs out, ask a judge.")
        assert "More about time" not in page.text_content("#pub-rules")
        assert page.locator("#pub-rules .card").count() == 0
    finally:
        ctx.close()


def test_standalone_policy_without_a_server_answers_and_keeps_records(browser, static_server):
    ctx = browser.returning(static_server.url)
    try:
        page = ctx.new_page()
        page.goto(static_server.url + "/#/join")
        page.select_option("#standalone-ruleset", "wotf")
        page.select_option("#standalone-level", "casual")
        page.fill("#judge-name", "Gus")
        page.click("#standalone-btn")
        page.wait_for_selector("main[data-screen=penalty]")
        assert page.text_content("#sync") == "Not syncing (standalone)"
        wait_python(page)
        page.fill("#pen-search", "slow")
        first = page.locator("#pen-results [data-infraction]").first
        first.click()
        page.fill("#pen-player", "Table 4 player")
        page.click("#pen-decide")
        page.wait_for_selector("#pen-card")
        assert page.text_content("#pen-history").endswith("history on this phone only")
        page.click("#pen-record")
        page.wait_for_selector("#pen-recorded")
        records = page.evaluate("() => window.judgeApp.records()")
        assert [(r["type"], r["payload"]["player"], r["sync"]) for r in records] == [
            ("penalty", "Table 4 player", "local")]
        fallback = page.evaluate("""async () => {
            const state = await import('/js/state.js');
            crypto.randomUUID = undefined;  // as on a plain-http venue address
            return [state.uuid4(), state.uuid4()];
        }""")
        uuid_v4 = r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"
        assert all(re.match(uuid_v4, u) for u in fallback) and fallback[0] != fallback[1]
        page.goto(static_server.url + "/#/sync")
        page.wait_for_selector("main[data-screen=sync] h1")
        shoot(page, "sync")
    finally:
        ctx.close()


def test_penalty_asks_what_the_engine_needs_and_a_record_can_be_voided(browser, static_server):
    ctx = browser.returning(static_server.url)
    try:
        page = ctx.new_page()
        page.goto(static_server.url + "/#/join")
        page.select_option("#standalone-ruleset", "yugioh")
        page.select_option("#standalone-level", "tier2")
        page.click("#standalone-btn")
        wait_python(page)
        page.fill("#pen-search", "late")
        page.click("[data-infraction=tardiness]")
        page.fill("#pen-player", "Ivy")
        page.click("#pen-decide")
        page.wait_for_selector(".question[data-fact=minutes_late]")
        shoot(page, "penalty-question", at=".question")
        page.fill(".question input", "4")
        page.click(".question button[type=submit]")
        page.wait_for_selector("#pen-card #pen-penalty:not([data-penalty=pending])")
        penalty = page.get_attribute("#pen-penalty", "data-penalty")
        want = page.evaluate("""() => window.judge.evaluate({ruleset: 'yugioh', query: 'penalty',
            event: {level: 'tier2', stage: 'swiss'},
            facts: {infraction: 'tardiness', history: [], minutes_late: 4}})""")
        assert penalty == json.dumps(want["penalty"], separators=(",", ":"))
        page.fill("#pen-notes", "arrived after pairings went up")
        page.click("#pen-record")
        page.wait_for_selector("#pen-recorded")

        page.goto(static_server.url + "/#/history/Ivy")
        page.wait_for_selector("#history-records [data-void]")
        # Void asks first, in the page: "Keep it" leaves the penalty as it was.
        page.click("#history-records [data-void]")
        page.wait_for_selector("#void-step")
        assert len(page.evaluate("() => window.judgeApp.records()")) == 1
        page.click("#void-cancel")
        assert page.locator("#void-step").count() == 0 and page.is_visible("#history-records [data-void]")
        page.click("#history-records [data-void]")
        page.click("#void-confirm")  # no reason given: not voided, and the step says why
        page.wait_for_selector("#void-error:not([hidden])")
        assert page.locator("#history-records li.voided").count() == 0
        assert len(page.evaluate("() => window.judgeApp.records()")) == 1
        page.fill("#void-reason", "wrong player")
        page.click("#void-confirm")
        page.wait_for_selector("#history-records li.voided")
        records = page.evaluate("() => window.judgeApp.records()")
        assert [(r["type"], r["payload"].get("reason") or r["payload"].get("notes"))
                for r in records] == [("penalty", "arrived after pairings went up"),
                                      ("void", "wrong player")]
        assert records[1]["payload"]["record"] == records[0]["id"]
    finally:
        ctx.close()

"""Time!: a double tap on Start or on an answer acts once (one step, one answer)."""

from .helpers import double_tap, join, settled


def test_double_taps_in_time_call_act_once(browser, flask_server):
    event = flask_server.make_event("yugioh", "tier2", round_minutes=45)
    flask_server.start_round(event["slug"])
    ctx = browser.returning(flask_server.url)
    try:
        page = ctx.new_page()
        join(page, flask_server, event, "Tove")
        page.goto(flask_server.url + "/#/time")
        page.select_option("#tc-table", "1")
        page.fill("#tc-wins-a", "1")
        page.fill("#tc-wins-b", "0")
        double_tap(page, "#tc-start")
        page.wait_for_selector(".question[data-fact='current_game.winner']")
        settled(page)
        assert page.locator("#tc-steps .question").count() == 1
        assert page.locator("#tc-steps details.step").count() == 1
        double_tap(page, ".question [data-answer=none]")
        page.wait_for_selector(".question[data-fact='current_game.life_points']")
        settled(page)
        assert page.locator("#tc-steps .question").count() == 1
        assert page.locator("#tc-steps .answered").count() == 1
    finally:
        ctx.close()

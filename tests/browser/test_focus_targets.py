"""Keyboard use of the judge app: focus moves to what an action produced (the infraction
chosen, its decision card, the record; the next question of Time! and its result; a table
row once its panel closes), and every visible control is a target of at least 44 px."""

from .conftest import SMALL_PHONE, wait_python
from .helpers import join, look_up_penalty, standalone

FOCUSED = "() => document.activeElement?.id || document.activeElement?.tagName"

# Every visible control (buttons, fields, summaries, the bottom bar's and the status line's
# links): what it is and its box, rounded to a tenth of a pixel.
CONTROL_BOXES = """() => [...document.querySelectorAll(
    'button, input, select, textarea, summary, .nav a, a.pill, a.button')]
  .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
  .map((el) => {
    const box = el.getBoundingClientRect();
    const name = el.id || el.getAttribute('aria-label') || el.textContent.trim().slice(0, 30);
    return { name: `${el.tagName.toLowerCase()} ${name}`, width: Math.round(box.width * 10) / 10,
             height: Math.round(box.height * 10) / 10 };
  })"""


def small_targets(page):
    """The controls `page` shows that are narrower or lower than 44 px, and how many it shows."""
    boxes = page.evaluate(CONTROL_BOXES)
    return [b for b in boxes if b["width"] < 44 or b["height"] < 44], len(boxes)


def test_choosing_an_infraction_and_deciding_move_focus_to_what_they_show(context, static_server):
    page = context.new_page()
    standalone(page, static_server.url, "dci-upg", "competitive")
    wait_python(page)
    page.fill("#pen-search", "slow")
    # Chosen with the keyboard, the infraction's button goes away: focus is on its name.
    page.focus("[data-infraction=slow_play]")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.id === 'pen-detail-h'")
    assert page.evaluate("() => document.activeElement.textContent") == "Tournament Error — Slow Play"
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED) == "pen-player"
    page.keyboard.type("Pia")
    page.keyboard.press("Enter")
    page.wait_for_selector("#pen-card")
    page.wait_for_function("() => document.activeElement.id === 'pen-card-h'")
    assert page.evaluate("() => document.activeElement.textContent") == "Tournament Error — Slow Play — Pia"
    page.click("#pen-record")
    page.wait_for_selector("#pen-recorded")
    assert page.evaluate(FOCUSED) == "pen-recorded"


def test_answering_a_time_question_moves_focus_to_the_next_question_then_the_result(context, static_server):
    page = context.new_page()
    standalone(page, static_server.url, "yugioh", "tier2")
    wait_python(page)
    page.goto(static_server.url + "/#/time")
    page.fill("#tc-wins-a", "1")
    page.click("#tc-start")
    page.wait_for_selector(".question[data-fact='current_game.winner']")
    page.wait_for_function("() => document.activeElement.matches("
                           "\".question[data-fact='current_game.winner'] [data-answer=A]\")")
    page.focus(".question [data-answer=none]")
    page.keyboard.press("Enter")
    page.wait_for_selector(".question[data-fact='current_game.life_points']")
    page.wait_for_function("() => document.activeElement.matches("
                           "\".question[data-fact='current_game.life_points'] input\")")
    page.keyboard.type("1000")
    page.keyboard.press("Tab")
    page.keyboard.type("6000")
    page.keyboard.press("Enter")
    page.wait_for_selector("#tc-result")
    page.wait_for_function("() => document.activeElement.id === 'tc-match'")
    assert page.evaluate("() => document.activeElement.dataset.match") == "draw"


def test_every_control_on_the_clock_and_penalty_screens_is_at_least_44_px(browser, flask_server):
    event = flask_server.make_event("wotf", "competitive", round_minutes=50)
    flask_server.start_round(event["slug"])
    assert flask_server.app.test_client().post(
        f"/api/events/{event['slug']}/calls", json={"table": 1}).status_code == 201
    ctx = browser.returning(flask_server.url, viewport=SMALL_PHONE)
    try:
        page = ctx.new_page()
        join(page, flask_server, event, "Ada")
        page.wait_for_selector("#tables li[data-table] button")
        page.wait_for_selector("#calls .call-take")
        small, shown = small_targets(page)
        assert small == [] and shown >= 20, (small, shown)

        # The extension panel, then back: focus returns to the table's row once it closes.
        page.click("[aria-label='Add time to table 2']")
        page.wait_for_selector("#ext-minutes")
        small, shown = small_targets(page)
        assert small == [] and shown >= 25, (small, shown)
        assert page.evaluate(FOCUSED) == "ext-minutes"
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Shift+Tab")
        assert page.evaluate(FOCUSED) == "ext-table"
        page.click("#extension button:text('Cancel')")
        page.wait_for_function("() => document.activeElement.dataset.table === '2'")
        # The clock's news redraws the tables: the keyboard stays on the same table's button.
        page.focus("[aria-label='Deck check at table 1']")
        drawn = page.get_attribute("#tables", "data-news-ms")
        flask_server.move_round_start(event["slug"], 60_000)
        page.wait_for_function("(drawn) => document.querySelector('#tables').dataset.newsMs !== drawn"
                               " && /4[0-8]:/.test(document.querySelector('#round-left').textContent)", arg=drawn)
        assert page.evaluate("() => document.activeElement.getAttribute('aria-label')") == "Deck check at table 1"

        look_up_penalty(page, "decklist", "late_decklist", event["players"][0]["id"])
        small, shown = small_targets(page)
        assert small == [] and shown >= 12, (small, shown)
        assert page.locator("#pen-record").is_visible()

        page.goto(flask_server.url + "/#/join")
        page.wait_for_selector("#theme-dark")
        small, shown = small_targets(page)
        assert small == [] and shown >= 15, (small, shown)
    finally:
        ctx.close()

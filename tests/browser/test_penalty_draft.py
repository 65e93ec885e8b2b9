"""Penalty: Back and Forward keep the card in progress (infraction, player, table, notes), and
recording it or "Start over" ends it."""

from .conftest import wait_python
from .helpers import pick, standalone


def picked(page, url):
    """A phone using the DCI policy on its own, on the clock and then on the Penalty screen
    with slow play picked for player Pia."""
    standalone(page, url, "dci-upg", "competitive")
    wait_python(page)
    page.click("#nav [data-screen=clock]")
    page.wait_for_selector("main[data-screen=clock]")
    pick(page, "slow", "slow_play", "Pia")


def away_and_back(page):
    """Back to the screen before, then Forward to the Penalty screen again."""
    page.go_back()
    page.wait_for_selector("main:not([data-screen=penalty])")
    page.go_forward()
    page.wait_for_selector("main[data-screen=penalty] #pen-search")


def test_back_and_forward_keep_the_penalty_card_until_it_is_recorded(browser, static_server):
    ctx = browser.returning(static_server.url)
    try:
        page = ctx.new_page()
        picked(page, static_server.url)
        page.fill("#pen-table", "7")
        name = page.input_value("#pen-search")
        away_and_back(page)
        page.wait_for_selector("#pen-player")
        assert (page.input_value("#pen-search"), page.input_value("#pen-player"),
                page.input_value("#pen-table")) == (name, "Pia", "7")
        assert page.locator("#pen-card").count() == 0  # not asked for yet

        page.click("#pen-decide")
        page.wait_for_selector("#pen-card")
        penalty = page.get_attribute("#pen-penalty", "data-penalty")
        page.fill("#pen-notes", "took two minutes over one attack")
        away_and_back(page)
        page.wait_for_selector("#pen-card")
        assert page.get_attribute("#pen-penalty", "data-penalty") == penalty
        assert page.text_content("#pen-card-h") == f"{name} — Pia"
        assert page.input_value("#pen-notes") == "took two minutes over one attack"

        page.click("#pen-record")
        page.wait_for_selector("#pen-recorded")
        [record] = page.evaluate("() => window.judgeApp.records()")
        assert (record["payload"]["player"], record["payload"]["table"], record["payload"]["notes"]) == (
            "Pia", 7, "took two minutes over one attack")
        away_and_back(page)
        assert page.input_value("#pen-search") == ""
        assert page.locator("#pen-player").count() == 0
    finally:
        ctx.close()


def test_start_over_forgets_the_penalty_card(browser, static_server):
    ctx = browser.returning(static_server.url)
    try:
        page = ctx.new_page()
        picked(page, static_server.url)
        page.click("#pen-decide")
        page.wait_for_selector("#pen-card")
        page.click("#pen-reset")
        assert page.locator("#pen-player").count() == 0 and page.input_value("#pen-search") == ""
        away_and_back(page)
        assert page.locator("#pen-player").count() == 0 and page.input_value("#pen-search") == ""
        assert page.evaluate("() => window.judgeApp.records()") == []
    finally:
        ctx.close()

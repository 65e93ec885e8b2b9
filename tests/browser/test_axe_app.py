"""axe-core (npm `axe-core`, run in the page) finds no accessibility violation on any screen
of the judge app or the players' pages, at 390 and 320 px wide, in the light and the dark
colour scheme (the Event screen also logged in to the organiser pages, and opened by a
one-time link). One browser context per width walks every screen; each screen is checked in
both schemes (the app follows the system's scheme)."""

import pytest

from .conftest import PHONE, SMALL_PHONE
from .helpers import axe_violations, join, look_up_penalty, standalone_pick, use_scheme, wait_resolved

# Screens reached by their address alone: (name, address, what shows once it is drawn).
PLAIN_SCREENS = [("players", "#/history", "#history-filter"),
                 ("review", "#/review", "#review-waiting, #review-empty"),
                 ("event", "#/join", "#leave-btn"), ("sync", "#/sync", "#sync-now")]


def registered_list(flask_server, slug):
    """A registered list for the event's first player, players' submissions open for an hour:
    that player's decklist code."""
    from server.decklist_intake import ensure_codes, register, set_deadline
    from server.events import get_event
    from server.timeutil import now_ms

    with flask_server.app.app_context():
        event = get_event(slug)
        ensure_codes(event)
        set_deadline(event, now_ms() + 3_600_000)
        register(event, event.players[0], "20 Wonder Card\n10 Other Card (ABC 12)\n", None, "organiser")
        return event.players[0].decklist_code


def check(page, screen, found):
    """Run axe on what `page` shows in both colour schemes; adds "<screen> (<scheme>): ..."
    lines to `found` for each violation."""
    for scheme in ("light", "dark"):
        use_scheme(page, scheme)
        for v in axe_violations(page):
            found.append(f"{screen} ({scheme}): {v['id']} [{v['impact']}] {', '.join(v['targets'])}")


@pytest.mark.parametrize("size", [PHONE, SMALL_PHONE], ids=["390px", "320px"])
def test_every_screen_has_no_axe_violation(browser, flask_server, size):
    event = flask_server.make_event("wotf", "competitive", round_minutes=50)
    slug = event["slug"]
    flask_server.start_round(slug)
    assert flask_server.app.test_client().post(
        f"/api/events/{slug}/calls", json={"table": 1}).status_code == 201
    code = registered_list(flask_server, slug)
    ctx = browser.returning(flask_server.url, viewport=size)
    found = []
    try:
        page = ctx.new_page()
        page.goto(flask_server.url + "/#/join")
        page.wait_for_selector("#join-code")
        check(page, "join", found)
        # logged in to the organiser pages on this browser: the card that joins as oneself
        page.goto(flask_server.url + "/organiser/login")
        page.fill("input[name=username]", "organiser")
        page.fill("input[name=password]", "browser-tests")
        page.click("main button")
        page.wait_for_url("**/organiser/")
        page.goto(flask_server.url + "/#/join")
        page.wait_for_selector(f"#join-mine button[data-event='{slug}']")
        check(page, "join (account)", found)
        page.goto(flask_server.url + "/#/join/link/a-one-time-token")
        page.wait_for_selector("#join-link-btn")
        check(page, "join (link)", found)

        join(page, flask_server, event, "Ada")
        flask_server.set_role(slug, "Ada", "head_judge")
        page.reload()
        page.wait_for_function("() => window.judgeApp.app.session?.role === 'head_judge'")
        page.wait_for_selector("main[data-screen=clock] #tables li[data-table]")
        page.wait_for_selector("#calls li[data-call]")
        check(page, "clock and calls", found)

        page.click("#calls .call-take")
        page.wait_for_selector("#calls .call-close")
        check(page, "calls (taken)", found)

        page.goto(flask_server.url + "/#/time")
        page.select_option("#tc-table", "1")
        page.click("#tc-start")
        page.wait_for_selector("#tc-steps .question")
        check(page, "time", found)

        look_up_penalty(page, "decklist", "late_decklist", event["players"][0]["id"])
        check(page, "penalty", found)

        wait_resolved(page, "async () => (await window.judgeApp.decklists()) === 1")
        page.goto(f"{flask_server.url}/#/history/{event['players'][0]['id']}")
        page.wait_for_selector("#player-list")
        page.click("#player-list summary")
        check(page, "players (a registered list)", found)

        page.goto(flask_server.url + "/#/clock")
        page.click('li[data-table="1"] button[aria-label="Deck check at table 1"]')
        page.click("#dc-start")
        page.wait_for_selector("main[data-screen=deck] .count-row")
        page.locator(".count-row button[data-all]").first.click()
        page.wait_for_selector("#dk-diff-list li")
        check(page, "deck count", found)

        for name, where, ready in PLAIN_SCREENS:
            page.goto(f"{flask_server.url}/{where}")
            page.wait_for_selector(ready)
            check(page, name, found)

        public = ctx.new_page()
        public.goto(flask_server.url + f"/#/event/{slug}")
        public.wait_for_selector("#pub-rules h2")
        public.wait_for_function("() => /Round 1/.test(document.querySelector('#pub-label').textContent)")
        check(public, "players' page", found)

        public.goto(flask_server.url + f"/#/event/{slug}/decklist/{code}")
        public.wait_for_selector("#dl-form")
        public.fill("#dl-text", "4 Lightning Bolt\nCounterspell\n")
        public.click("#dl-send")
        public.wait_for_selector("#dl-lines li")
        check(public, "a player's decklist", found)

        public.goto(flask_server.url + f"/#/event/{slug}/table/2")
        public.wait_for_selector("#call-btn:not([disabled])")
        public.wait_for_function("() => /table 2/.test(document.querySelector('#pub-label').textContent)")
        check(public, "table page", found)
    finally:
        ctx.close()
    assert found == [], "axe found:\n" + "\n".join(found)


@pytest.mark.parametrize("size", [PHONE, SMALL_PHONE], ids=["390px", "320px"])
def test_a_penalty_card_with_its_question_still_open_has_no_axe_violation(browser, static_server, size):
    """The decided part, what is still open and its question (a penalty decided with its fix
    open; then one that itself waits on a fact)."""
    ctx = browser.returning(static_server.url, viewport=size)
    found = []
    try:
        page = ctx.new_page()
        standalone_pick(page, static_server.url, "game rule", "gpe_game_rule_violation", "Pia")
        page.click("#pen-decide")
        page.wait_for_selector("#pen-card .question[data-fact=caught_quickly_and_simple]")
        page.select_option("#pen-issuing", "warning")
        page.wait_for_selector("#pen-penalty[data-penalty='\"warning\"'] ~ #pen-open .question")
        check(page, "penalty with an open question", found)
        standalone_pick(page, static_server.url, "other", "other", "Pia", ruleset="judicial-guidelines", level=None)
        page.click("#pen-decide")
        page.wait_for_selector("#pen-penalty[data-penalty=pending] ~ #pen-open .question")
        check(page, "penalty not decided yet", found)
    finally:
        ctx.close()
    assert found == [], "axe found:\n" + "\n".join(found)

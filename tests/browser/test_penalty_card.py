"""The decision card: notes, names and tables the server would refuse are never recorded, a changed player
never records the old one, the judge's chosen class is never shown when the policy sets
another, and a drop points at the conditions read out."""

from .conftest import wait_python
from .helpers import join, look_up_penalty, pick, standalone, standalone_pick


def records(page):
    return page.evaluate("() => window.judgeApp.records()")


def test_notes_over_2000_characters_are_not_recorded(browser, static_server):
    ctx = browser.returning(static_server.url)
    try:
        page = ctx.new_page()
        standalone_pick(page, static_server.url, "slow", "slow_play", "Pia")
        page.click("#pen-decide")
        page.wait_for_selector("#pen-card")
        assert page.get_attribute("#pen-notes", "maxlength") == "2000"
        # A value set by a script (or pasted by an old browser) is not cut by maxlength.
        page.eval_on_selector("#pen-notes", "el => { el.value = 'x'.repeat(2001); }")
        page.click("#pen-record")
        page.wait_for_selector("#pen-notes-error:not([hidden])")
        assert page.text_content("#pen-notes-error") == (
            "Notes: too long: 2001 characters, at most 2000. Change them to record.")
        assert records(page) == []
        # What the server would refuse at sync is refused here, before a record exists.
        for typed, why in (("a\u0000b", "contains a NUL character, which cannot be recorded"),
                           ("x\ud800", "contains a broken character (half of a pair): type it again"),
                           ("bell\u0007", "contains a control character, which cannot be recorded")):
            page.eval_on_selector("#pen-notes", "(el, v) => { el.value = v; }", typed)
            page.click("#pen-record")
            page.wait_for_function("(why) => document.querySelector('#pen-notes-error').textContent"
                                   " === `Notes: ${why}. Change them to record.`", arg=why)
            assert records(page) == []
        assert page.locator("#pen-recorded").count() == 0
        page.eval_on_selector("#pen-notes", "el => { el.value = '  ' + 'y'.repeat(2000) + '  '; }")
        page.click("#pen-record")
        page.wait_for_selector("#pen-recorded")
        [record] = records(page)
        assert record["payload"]["notes"] == "y" * 2000
    finally:
        ctx.close()


def test_a_table_or_name_the_server_refuses_is_refused_on_screen(browser, static_server):
    ctx = browser.returning(static_server.url)
    try:
        page = ctx.new_page()
        standalone_pick(page, static_server.url, "slow", "slow_play", "Pia")
        for table in ("99999", "-1", "1.5", "0", "1e3"):
            page.fill("#pen-table", table)
            page.click("#pen-decide")
            page.wait_for_function("() => document.querySelector('main').textContent.includes("
                                   "'Table: must be a whole number from 1 to 9999.')")
            assert page.locator("#pen-card").count() == 0
            assert page.evaluate("() => document.activeElement.id") == "pen-table"
        page.fill("#pen-table", "")
        page.fill("#pen-player", "Pia\u0000")
        page.click("#pen-decide")
        page.wait_for_function("() => document.querySelector('main').textContent.includes("
                               "\"Player's name: contains a NUL character, which cannot be recorded.\")")
        page.fill("#pen-player", "P" * 201)
        page.click("#pen-decide")
        page.wait_for_function("() => document.querySelector('main').textContent.includes("
                               "\"Player's name: too long: 201 characters, at most 200.\")")
        page.fill("#pen-player", "Pia")
        page.fill("#pen-table", "12")
        page.click("#pen-decide")
        page.wait_for_selector("#pen-card")
        page.click("#pen-record")
        page.wait_for_selector("#pen-recorded")
        [record] = records(page)
        assert (record["payload"]["player"], record["payload"]["table"]) == ("Pia", 12)
    finally:
        ctx.close()


def test_changing_the_player_takes_the_old_card_away(browser, flask_server):
    event = flask_server.make_event("dci-upg", "competitive")
    flask_server.start_round(event["slug"])
    first, second = event["players"][0], event["players"][1]
    ctx = browser.returning(flask_server.url)
    try:
        page = ctx.new_page()
        join(page, flask_server, event, "Ivo")
        look_up_penalty(page, "slow", "slow_play", first["id"])
        assert page.text_content("#pen-card-h") == f"Tournament Error — Slow Play — {first['name']}"
        page.select_option("#pen-player", str(second["id"]))
        assert page.locator("#pen-card").count() == 0
        assert page.locator("#pen-record").count() == 0
        page.click("#pen-decide")
        page.wait_for_selector("#pen-card")
        assert page.text_content("#pen-card-h") == f"Tournament Error — Slow Play — {second['name']}"
        page.fill("#pen-table", "7")
        assert page.locator("#pen-record").count() == 0
        page.click("#pen-decide")
        page.wait_for_selector("#pen-record")
        page.click("#pen-record")
        page.wait_for_selector("#pen-recorded")
        [record] = records(page)
        assert (record["payload"]["player"], record["payload"]["table"]) == (second["id"], 7)
    finally:
        ctx.close()


def test_a_chosen_class_the_policy_does_not_leave_open_is_not_shown(browser, static_server):
    ctx = browser.returning(static_server.url)
    try:
        page = ctx.new_page()
        standalone_pick(page, static_server.url, "slow", "slow_play", "Pia")
        page.click("#pen-decide")
        page.wait_for_selector("#pen-card")
        assert page.get_attribute("#pen-penalty", "data-penalty") == '"warning"'
        assert page.locator("#pen-issuing-note").count() == 0
        page.select_option("#pen-issuing", "caution")
        page.wait_for_selector("#pen-issuing-note")
        assert page.text_content("#pen-issuing-note") == \
            "This policy sets the penalty; a different class needs the head judge."
        assert page.get_attribute("#pen-penalty", "data-penalty") == '"warning"'
        assert page.input_value("#pen-issuing") == "warning"
        page.click("#pen-record")
        page.wait_for_selector("#pen-recorded")
        [record] = records(page)
        assert record["payload"]["penalty"] == "warning"
    finally:
        ctx.close()


def test_a_drop_points_at_the_conditions_read_out(browser, static_server):
    ctx = browser.returning(static_server.url)
    try:
        page = ctx.new_page()
        standalone(page, static_server.url, "yugioh", "tier2")
        wait_python(page)
        pick(page, "late", "tardiness", "Rui")
        page.click("#pen-decide")
        page.fill(".question[data-fact=minutes_late] input", "12")
        page.click(".question button[type=submit]")
        page.wait_for_selector("#pen-card")
        assert page.text_content("#pen-drop") == \
            "Drop from the event — see the conditions read out below"
        assert "Player is removed from the event" not in page.text_content("#pen-card")
        assert ("The player had not arrived until after the 10-minute mark: match loss, and the"
                " player is dropped from the tournament.") in \
            page.locator("#pen-card .readout li").all_text_contents()
    finally:
        ctx.close()


def test_a_penalty_left_open_waits_as_one_for_the_head_judge(browser, flask_server):
    event = flask_server.make_event("dci-upg", "competitive")
    flask_server.start_round(event["slug"])
    player = event["players"][0]
    ctx = browser.returning(flask_server.url)
    try:
        page = ctx.new_page()
        join(page, flask_server, event, "Uma")
        ctx.set_offline(True)
        look_up_penalty(page, "missed trigger", "gpe_missed_trigger", player["id"])
        page.click("#pen-record")
        page.wait_for_selector("#pen-recorded")
        page.goto(flask_server.url + "/#/sync")
        page.wait_for_selector("#sync-waiting li")
        text = page.text_content("#sync-waiting li")
        assert text.startswith(f"Penalty · {player['name']} · Game Play Error — Missed Trigger"
                               " · penalty for the head judge to decide · ")
        assert "No penalty" not in text
    finally:
        ctx.close()

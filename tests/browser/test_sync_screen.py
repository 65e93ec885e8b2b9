"""The Sync screen follows the sync while it is shown: a phone that comes back online sees
its waiting records go out on the screen it is on, without leaving it, and a tap on its
"Sync now" is not lost to that redraw."""

from .helpers import join, look_up_penalty, settled


def test_the_sync_screen_empties_its_waiting_list_when_the_network_returns(browser, flask_server):
    event = flask_server.make_event("dci-upg", "competitive")
    flask_server.start_round(event["slug"])
    player = event["players"][0]
    ctx = browser.returning(flask_server.url)
    try:
        page = ctx.new_page()
        join(page, flask_server, event, "Vera")
        ctx.set_offline(True)
        look_up_penalty(page, "missed trigger", "gpe_missed_trigger", player["id"])
        page.click("#pen-record")
        page.wait_for_selector("#pen-recorded")
        page.goto(flask_server.url + "/#/sync")
        page.wait_for_selector("#sync-waiting li")
        assert page.locator("#sync-waiting li").count() == 1
        assert page.text_content("h2") == "Waiting to send (1)"
        page.focus("#sync-now")
        ctx.set_offline(False)
        page.wait_for_function("() => document.querySelector('h2').textContent === 'Waiting to send (0)'")
        assert page.locator("#sync-waiting").count() == 0
        assert page.text_content("main").count("Last successful sync at") == 1
        assert page.evaluate("() => document.activeElement.id") == "sync-now"  # the redraw kept the keyboard
        penalties = [r for r in flask_server.records(event["slug"]) if r["type"] == "penalty"]
        assert [(r["payload"]["player"], r["judge"]) for r in penalties] == [(player["id"], "Vera")]
        # a press on "Sync now" held while a sync draws the screen again reaches the button
        button = page.locator("#sync-now")
        # read in one go: the screen may be drawn again at any moment before the press
        box = page.evaluate("() => document.getElementById('sync-now').getBoundingClientRect().toJSON()")
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        button.evaluate("el => { el.dataset.pressed = 'yes';"
                        " el.addEventListener('click', () => { window.__syncTapped = true; }); }")
        page.evaluate("() => window.judgeApp.syncNow()")
        settled(page)
        assert button.get_attribute("data-pressed") == "yes"  # the same button, not a new one
        page.mouse.up()
        page.wait_for_function("() => window.__syncTapped === true")
        # and the screen is drawn once the tap is over
        page.wait_for_function("() => !document.getElementById('sync-now').dataset.pressed")
    finally:
        ctx.close()

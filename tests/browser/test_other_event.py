"""Records of another event wait for that event: a phone revoked at one event that joins a
second never pushes the first event's records to the second (they would be refused); they
show as waiting for their event and go out when the phone joins it again. Standalone use is
refused like leaving while the joined event's records wait."""

from .helpers import join
from .test_sync_failures import ADD_RECORD

OUTBOX = """async () => (await (await import('/js/store.js')).outbox(Infinity))
  .map((r) => [r.id, r.event])"""


def test_records_of_another_event_wait_for_it(browser, flask_server):
    first = flask_server.make_event("wotf", "competitive", games_per_match=1)
    second = flask_server.make_event("dci-upg", "competitive")
    flask_server.start_round(first["slug"])
    flask_server.start_round(second["slug"])
    ctx = browser.returning(flask_server.url)
    try:
        page = ctx.new_page()
        join(page, flask_server, first, "Nia")
        first_code = flask_server.revoke(first["slug"], "Nia")  # revoking changes the join code
        kept = page.evaluate(ADD_RECORD, ["time_extension", {
            "table": 1, "round": 1, "minutes": 2, "reason": "judge_pause"}])
        page.wait_for_function("() => /join again/.test(document.querySelector('#sync').textContent)")

        page.goto(flask_server.url + "/#/join")
        page.fill("#join-code", second["code"])
        page.fill("#judge-name", "Nia")
        page.click("#join-btn")
        page.wait_for_selector("main[data-screen=clock]")
        page.wait_for_function(
            """() => /^0 waiting here · \\d.* · 1 waiting for event Test wotf$/
                   .test(document.querySelector('#sync').textContent)""", timeout=20_000)
        assert page.get_attribute("#sync", "data-waiting") == "0"
        assert flask_server.records(second["slug"]) == []
        assert flask_server.records(first["slug"]) == []
        assert page.evaluate(OUTBOX) == [[kept, first["slug"]]]

        page.goto(flask_server.url + "/#/sync")
        section = page.locator(f"[data-waiting-event='{first['slug']}']")
        assert section.locator("h2").text_content() == "Waiting for event Test wotf (1)"
        assert section.locator(f"[data-record='{kept}']").count() == 1
        assert page.locator("#sync-rejected").count() == 0

        # Standalone use while this event's records wait is refused like leaving.
        ctx.set_offline(True)
        page.evaluate(ADD_RECORD, ["time_extension", {
            "table": 1, "round": 1, "minutes": 3, "reason": "judge_pause"}])
        page.goto(flask_server.url + "/#/join")
        page.click("#standalone-btn")
        page.wait_for_function(
            "() => /1 record is still waiting to sync/.test(document.querySelector('#standalone-status').textContent)")
        assert page.evaluate("() => window.judgeApp.app.session.event.slug") == second["slug"]

        # Back online: this event's record goes out; joining the first event again sends its own.
        ctx.set_offline(False)
        page.evaluate("() => window.dispatchEvent(new Event('online'))")
        page.wait_for_function("() => document.querySelector('#sync').dataset.waiting === '0'",
                               timeout=20_000)
        assert [r["payload"]["minutes"] for r in flask_server.records(second["slug"])] == [3]
        page.fill("#join-code", first_code)
        page.fill("#judge-name", "Nia")
        page.click("#join-btn")
        page.wait_for_selector("main[data-screen=clock]")
        page.wait_for_function(
            "() => /^All sent · \\d/.test(document.querySelector('#sync').textContent)", timeout=20_000)
        assert [r["id"] for r in flask_server.records(first["slug"])] == [kept]
        assert page.evaluate(OUTBOX) == []
    finally:
        ctx.close()

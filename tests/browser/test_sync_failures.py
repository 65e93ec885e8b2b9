"""Sync under failure: a lost reply makes the phone send again and the server answers
"duplicate" (one row); a tab closed mid-sync loses nothing; a record the server refuses
stays on the phone, shown with the server's reason."""

from .helpers import join, wait_synced

ADD_RECORD = """async ([type, payload]) => {
  const state = await import('/js/state.js');
  return (await state.addRecord(type, payload)).id;
}"""
EXTENSION = {"table": 1, "round": 1, "minutes": 3, "reason": "judge_pause"}


def test_lost_replies_closed_tabs_and_refused_records(browser, flask_server):
    event = flask_server.make_event("wotf", "competitive", games_per_match=1)
    flask_server.start_round(event["slug"])
    ctx = browser.returning(flask_server.url)
    try:
        page = ctx.new_page()
        join(page, flask_server, event, "Hana")
        wait_synced(page)

        # The server stores the batch but its reply never reaches the phone.
        lost = []

        def drop_first_reply(route):
            if not lost:
                lost.append(route.fetch().status)
                route.abort()
            else:
                route.continue_()

        page.route("**/sync", drop_first_reply)
        first = page.evaluate(ADD_RECORD, ["time_extension", EXTENSION])
        page.wait_for_function("() => document.querySelector('#sync').dataset.waiting === '1'")
        wait_synced(page, timeout_ms=30_000)
        assert lost == [200]
        assert [r["id"] for r in flask_server.records(event["slug"])] == [first]
        page.unroute("**/sync")

        # The tab is closed while its sync request is on the way (it never reaches the server:
        # a request left hanging may be let through when the page closes); a new tab sends it.
        hung = []

        def cut(route):
            hung.append(route.request.url)
            route.abort()

        page.route("**/sync", cut)
        with page.expect_event("requestfailed", lambda req: req.url.endswith("/sync")):
            second = page.evaluate(ADD_RECORD, ["time_extension", {**EXTENSION, "table": 2}])
        assert hung, "the sync request was made"
        page.close()
        assert [r["id"] for r in flask_server.records(event["slug"])] == [first]
        page = ctx.new_page()
        page.goto(flask_server.url + "/#/clock")
        wait_synced(page)
        assert [r["id"] for r in flask_server.records(event["slug"])] == [first, second]

        # A floor judge may not approve: the server refuses, the phone keeps and shows it.
        refused = page.evaluate(ADD_RECORD, ["approval", {"record": first, "approved": True}])
        page.wait_for_function("() => /1 rejected/.test(document.querySelector('#sync').textContent)")
        assert page.get_attribute("#sync", "data-waiting") == "0"
        page.click("#sync")
        page.wait_for_selector(f"#sync-rejected [data-record='{refused}']")
        assert "head_judge" in page.text_content("#sync-rejected")
        assert refused not in [r["id"] for r in flask_server.records(event["slug"])]

        # The organiser revokes this phone: it says so, and keeps what it could not send.
        flask_server.revoke(event["slug"], "Hana")
        kept = page.evaluate(ADD_RECORD, ["time_extension", {**EXTENSION, "table": 3}])
        page.wait_for_function("() => /join again/.test(document.querySelector('#sync').textContent)")
        assert page.get_attribute("#sync", "data-waiting") == "1"
        assert kept not in [r["id"] for r in flask_server.records(event["slug"])]
    finally:
        ctx.close()

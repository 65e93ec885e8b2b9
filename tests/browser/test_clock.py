"""Clock: with the phone's clock set wrong by minutes, the time left on screen matches the
server's within half a second; it keeps running from the kept end time after a reload."""

import time

import pytest

from .conftest import shoot
from .helpers import join, local_round

SHIFT_SCRIPT = """(() => {
  const shift = %d;
  const RealDate = Date;
  class ShiftedDate extends RealDate {
    constructor(...args) { if (args.length === 0) super(RealDate.now() + shift); else super(...args); }
    static now() { return RealDate.now() + shift; }
  }
  globalThis.Date = ShiftedDate;
})();"""


def shown_vs_server(page, end_ms):
    """(time left the page shows in ms, the server's time left in ms at the same moment)."""
    before = time.time() * 1000
    shown = int(page.get_attribute("#round-left", "data-remaining-ms"))
    after = time.time() * 1000
    return shown, end_ms - (before + after) / 2


@pytest.mark.parametrize("shift_minutes", [7, -4])
def test_time_left_matches_the_server_with_the_phone_clock_wrong(browser, flask_server,
                                                                   shift_minutes):
    event = flask_server.make_event("dci-upg", "competitive", round_minutes=50)
    clock = flask_server.start_round(event["slug"])
    end_ms = clock["round"]["end_ms"]
    ctx = browser.returning(flask_server.url)
    ctx.add_init_script(SHIFT_SCRIPT % (shift_minutes * 60_000))
    try:
        page = ctx.new_page()
        join(page, flask_server, event, "Carol")
        page.wait_for_function("() => /Round 1/.test(document.querySelector('#round-label')?.textContent)")
        wrong = page.evaluate("() => Date.now()") - time.time() * 1000
        assert abs(wrong - shift_minutes * 60_000) < 2000, "the phone clock really is wrong"
        for _ in range(3):
            shown, truth = shown_vs_server(page, end_ms)
            assert abs(shown - truth) < 500, (shown, truth)
            assert 49 * 60_000 < shown <= 50 * 60_000
            # the next reading is of a later tick of the clock
            page.wait_for_function("v => document.querySelector('#round-left').dataset.remainingMs !== v",
                                   arg=str(int(page.get_attribute("#round-left", "data-remaining-ms"))))
        text = page.text_content("#round-left")
        assert text in {f"{m}:{s:02d}" for m in (49, 50) for s in range(60)}
        shoot(page, "clock")

        page.reload()
        page.wait_for_function("() => /Round 1/.test(document.querySelector('#round-label')?.textContent)")
        shown, truth = shown_vs_server(page, end_ms)
        assert abs(shown - truth) < 500, (shown, truth)

        paused = flask_server.pause_round(event["slug"])["round"]
        frozen = paused["round_minutes"] * 60_000 - (
            paused["pauses"][-1]["start_ms"] - paused["started_ms"])
        page.evaluate("() => window.judgeApp.refreshClock()")
        page.wait_for_function("() => /paused/.test(document.querySelector('#round-label').textContent)")
        first = int(page.get_attribute("#round-left", "data-remaining-ms"))
        # a paused clock stays still while more than a second passes on the phone
        page.wait_for_function("t0 => performance.now() - t0 > 1200", arg=page.evaluate("() => performance.now()"))
        assert int(page.get_attribute("#round-left", "data-remaining-ms")) == first == frozen
    finally:
        ctx.close()


def test_the_alert_the_judge_picked_fires_before_time(browser, flask_server):
    event = flask_server.make_event("wotf", "competitive", games_per_match=1)
    flask_server.start_round(event["slug"], minutes=5 + 20 / 60)  # 5 minutes 20 seconds
    ctx = browser.returning(flask_server.url)
    try:
        page = ctx.new_page()
        join(page, flask_server, event, "Ivo")
        assert page.get_attribute("#alert-5", "aria-pressed") == "true"
        remaining = int(page.wait_for_selector("#round-left[data-remaining-ms]").get_attribute("data-remaining-ms"))
        if remaining > 5 * 60_000 + 500:
            assert page.is_hidden("#alert")
            # the organiser's clock moves on to 2 s before the 5-minute mark; the phone hears of it
            flask_server.move_round_start(event["slug"], remaining - 5 * 60_000 - 2000)
            page.wait_for_function("() => document.querySelector('#round-left').dataset.remainingMs < 5 * 60000 + 2500")
            assert page.is_hidden("#alert")
        page.wait_for_selector("#alert", state="visible", timeout=40_000)
        assert page.text_content("#alert") == "5 minutes left in round 1."
        assert page.get_attribute("#alert", "role") == "alert"
        left = int(page.get_attribute("#round-left", "data-remaining-ms"))
        assert 4 * 60_000 < left <= 5 * 60_000
    finally:
        ctx.close()


def test_once_time_is_up_the_clock_says_time_was_called_not_time_left(browser, static_server):
    ctx = browser.returning(static_server.url)
    try:
        page = ctx.new_page()
        local_round(page, static_server.url, 1)
        page.wait_for_function("() => /time left/.test(document.querySelector('#round-label')?.textContent)")
        assert page.text_content("#round-ends").startswith("Ends at ")
        page.evaluate(SHIFT_SCRIPT % 90_000)  # the round's minute is over
        page.wait_for_function("() => document.querySelector('#round-label').textContent === 'Round 1 · time called'")
        assert page.text_content("#round-ends").startswith("Time was called at ")
        assert page.text_content("#round-left") == "0:00"
    finally:
        ctx.close()


def test_a_table_with_a_bye_says_bye_on_the_judges_clock(browser, flask_server):
    from server.events import get_event
    from server.imports import import_pairings

    event = flask_server.make_event("dci-upg", "competitive", players=5)
    names = [p["name"] for p in event["players"]]
    with flask_server.app.app_context():
        import_pairings(get_event(event["slug"]), 1, "table,player_a,player_b\n"
                        f"1,{names[0]},{names[1]}\n2,{names[2]},{names[3]}\n3,{names[4]},\n")
    flask_server.start_round(event["slug"])
    ctx = browser.returning(flask_server.url)
    try:
        page = ctx.new_page()
        join(page, flask_server, event, "Bea")
        page.wait_for_selector("li[data-table='3']")
        assert page.text_content("li[data-table='3'] .info > div").endswith(f" · {names[4]} – bye")
        assert page.text_content("li[data-table='1'] .info > div").endswith(f" · {names[0]} – {names[1]}")
    finally:
        ctx.close()

"""Judge calls from a table's page to the judges' phones, alerts on every screen (tone and
system notification), the clock's paused and "time has been called" states, all over the
push stream."""

import contextlib

from .conftest import PHONE
from .helpers import join, settled, wait_resolved

# Records every system notification the app shows, by either path, in window.__notes.
NOTIFICATION_STUB = """(() => {
  window.__notes = [];
  class RecordedNotification {
    constructor(title, options) { window.__notes.push({ via: "page", title, body: options && options.body }); }
    static get permission() { return "granted"; }
    static requestPermission() { return Promise.resolve("granted"); }
  }
  window.Notification = RecordedNotification;
  if (window.ServiceWorkerRegistration) {
    ServiceWorkerRegistration.prototype.showNotification = function (title, options) {
      window.__notes.push({ via: "worker", title, body: options && options.body });
      return Promise.resolve();
    };
  }
})();"""


@contextlib.contextmanager
def judge_and_player(browser, server, event, judge_name):
    """A judge's phone (notifications allowed and recorded) joined to `event` with its push
    stream live, and a player's phone with no page yet; yields (judge page, player page)."""
    judge_ctx = browser.returning(server.url)
    judge_ctx.grant_permissions(["notifications"])
    judge_ctx.add_init_script(NOTIFICATION_STUB)
    player_ctx = browser.new_context(viewport=PHONE)
    try:
        judge = judge_ctx.new_page()
        join(judge, server, event, judge_name)
        judge.wait_for_selector("#net[data-push=live]", timeout=10_000)
        yield judge, player_ctx.new_page()
    finally:
        player_ctx.close()
        judge_ctx.close()


def test_table_page_call_reaches_a_judge_who_takes_and_closes_it(browser, flask_server):
    event = flask_server.make_event("wotf", "competitive")
    flask_server.start_round(event["slug"])
    with judge_and_player(browser, flask_server, event, "Dana") as (judge, player):
        judge.goto(flask_server.url + "/#/penalty")
        judge.wait_for_selector("main[data-screen=penalty]")

        # The event's page (the link players are given) leads to a table's page by its number.
        player.goto(flask_server.url + f"/#/event/{event['slug']}")
        player.wait_for_selector("#pub-call h2")
        assert player.locator("#call-btn").count() == 0
        for typed, problem in (("", "a table number is needed"), ("0", "must be a whole number from 1 to 9999"),
                               ("99999999999999999999", "must be a whole number from 1 to 9999"),
                               ("2a", "must be a whole number from 1 to 9999")):
            player.fill("#pub-table-input", typed)
            player.click("#pub-table-open")
            player.wait_for_function("([p]) => document.querySelector('#pub-table-error').textContent"
                                     " === 'Table number: ' + p", arg=[problem])
            assert player.url.endswith(f"/#/event/{event['slug']}")
        player.fill("#pub-table-input", " 2 ")
        player.click("#pub-table-open")
        player.wait_for_selector("#call-btn")
        assert player.url.endswith(f"/#/event/{event['slug']}/table/2")
        assert player.locator("#pub-call").count() == 0

        player.goto(flask_server.url + f"/#/event/{event['slug']}/table/1.5")
        player.wait_for_selector("#pub-bad-table")
        assert player.locator("#call-btn").count() == 0
        # A table the round's pairings do not hold cannot call, and the page says so at once.
        player.goto(flask_server.url + f"/#/event/{event['slug']}/table/7")
        player.wait_for_selector("#call-table-missing:not([hidden])")
        assert player.text_content("#call-table-missing") == ("Table 7 does not play in the current round: check the "
                                                              "number on your table, or raise your hand for a judge.")
        assert player.is_disabled("#call-btn")
        player.goto(flask_server.url + f"/#/event/{event['slug']}/table/2")
        player.wait_for_function("() => document.querySelector('#call-h')?.textContent === 'Table 2'")
        assert player.is_hidden("#call-table-missing")
        # The policy refuses spectators at this level: the page offers the choice and says so.
        player.wait_for_selector("#call-policy li[data-caller=spectator][data-allowed=false]")
        assert player.is_visible("#call-caller")
        player.select_option("#call-reason", "dispute")
        player.click("#call-btn")
        player.wait_for_function(
            "() => document.querySelector('#call-status').dataset.status === 'open'")
        assert "A judge has been called" in player.text_content("#call-status")
        assert player.is_disabled("#call-btn")  # repeated taps make no second call

        # The judge's phone, on another screen, shows the call within 5 s, with an alert.
        judge.wait_for_selector("#calls li[data-status=open]", timeout=5_000)
        assert "Table 2" in judge.text_content("#calls li")
        assert "We disagree" in judge.text_content("#calls li")
        notes = judge.evaluate("() => window.__notes")
        assert any(n["title"] == "Judge call" and "table 2" in n["body"] for n in notes)
        assert judge.evaluate("() => window.judgeApp.alerts.tones") >= 1

        judge.click("#calls .call-take")
        player.wait_for_function(
            "() => document.querySelector('#call-status').dataset.status === 'taken'", timeout=5_000)
        assert player.text_content("#call-status") == "A judge is on the way."
        assert "Dana" not in player.content()  # no judge name on the players' page

        judge.click("#calls .call-close")
        judge.fill("#calls textarea", "The attack happened; the game goes on.")
        judge.click("#calls .call-close-done")
        judge.wait_for_selector("#call-closed")
        judge.click("#call-appeal")  # the player appeals: the appeal form has the call's ruling
        judge.wait_for_selector("#appeal-dialog")
        assert judge.input_value("#appeal-ruling") == "The attack happened; the game goes on."
        assert judge.input_value("#appeal-table") == "2"
        judge.select_option("#appeal-player", index=1) if judge.locator("select#appeal-player").count() \
            else judge.fill("#appeal-player", "Table 2 player")
        table = judge.input_value("#appeal-table")  # the chosen player's table
        judge.click("#appeal-record")
        judge.wait_for_function("() => document.activeElement?.matches('#call-closed [data-appealed]')")
        assert f"(table {table})" in judge.text_content("#call-closed [data-appealed]")
        player.wait_for_function(
            "() => document.querySelector('#call-status').dataset.status === 'closed'", timeout=5_000)
        with flask_server.app.app_context():
            from server.events import get_event
            from server.extensions import db
            from server.models import Call

            calls = db.session.scalars(db.select(Call).where(
                Call.event_id == get_event(event["slug"]).id)).all()
        assert [(c.table_number, c.reason, c.status, c.ruling) for c in calls] == [
            (2, "dispute", "closed", "The attack happened; the game goes on.")]


def test_time_alert_on_penalty_screen_pause_and_time_called(browser, flask_server):
    event = flask_server.make_event("dci-upg", "competitive")
    slug = event["slug"]
    flask_server.start_round(slug, minutes=1)
    with judge_and_player(browser, flask_server, event, "Erik") as (page, player):
        player.goto(flask_server.url + f"/#/event/{slug}/table/1")
        player.wait_for_function("() => /Round 1/.test(document.querySelector('#pub-label')?.textContent)")

        # A pause by the organiser reaches the online phone through its push stream (while the
        # stream is live the phone does not poll; bench/push_latency.py measures how soon) and
        # the table's page.
        page.wait_for_function("() => window.judgeApp.push.mode === 'live'")
        flask_server.pause_round(slug)
        page.wait_for_selector("section.clock[data-phase=paused]")
        player.wait_for_selector("section.clock[data-phase=paused]")
        assert page.evaluate("() => window.judgeApp.push.mode") == "live"
        assert page.text_content("#round-state") == "Paused: the clock is stopped"
        from server.clock import resume_round
        from server.events import get_event

        with flask_server.app.app_context():
            resume_round(get_event(slug))
        page.wait_for_selector("section.clock[data-phase=running]")

        # On the Penalty screen, a pause and a resume alert too.
        page.goto(flask_server.url + "/#/penalty")
        page.wait_for_selector("main[data-screen=penalty]")
        flask_server.pause_round(slug)
        page.wait_for_function("() => document.querySelector('#alert').textContent"
                               " === 'Round 1 is paused: the clock is stopped.'")
        with flask_server.app.app_context():
            resume_round(get_event(slug))
        page.wait_for_function("() => document.querySelector('#alert').textContent === 'Round 1 runs again.'")

        # On the Penalty screen, the "at time" alert fires when the round's time runs out.
        tones = page.evaluate("() => window.judgeApp.alerts.tones")
        flask_server.move_round_start(slug, 58_000)
        page.wait_for_function(
            "() => window.__notes.some((n) => n.title === 'Round clock' && /Time! Round 1/.test(n.body))",
            timeout=10_000)
        assert "Time! Round 1 is over." in page.text_content("#alert")
        assert page.evaluate("() => window.judgeApp.alerts.tones") > tones

        # Over time, the clock and the players' page say time has been called.
        page.goto(flask_server.url + "/#/clock")
        page.wait_for_selector("section.clock[data-phase=over]")
        assert page.text_content("#round-state").startswith("Time has been called")
        assert page.text_content("#round-left") == "0:00"
        player.wait_for_selector("section.clock[data-phase=over]", timeout=5_000)
        assert player.text_content("#pub-state").startswith("Time has been called")


def test_many_calls_keep_the_screen_usable_and_the_full_list_opens(browser, flask_server):
    event = flask_server.make_event("wotf", "competitive", players=10)  # tables 1 to 5
    flask_server.start_round(event["slug"])
    with judge_and_player(browser, flask_server, event, "Remy") as (judge, _):
        judge.goto(flask_server.url + "/#/penalty")
        client = flask_server.app.test_client()
        for table in range(1, 5):
            assert client.post(f"/api/events/{event['slug']}/calls", json={"table": table}).status_code == 201
        judge.wait_for_function("() => document.querySelector('#calls-h')?.textContent === 'Judge calls: 4 waiting'",
                                timeout=5_000)
        # the keyboard on a call's "On my way" stays there when a new call draws the panel again
        call = judge.get_attribute("#calls li[data-call] >> nth=1", "data-call")
        judge.focus(f"#calls li[data-call='{call}'] .call-take")
        assert client.post(f"/api/events/{event['slug']}/calls", json={"table": 5}).status_code == 201
        judge.wait_for_function("() => document.querySelector('#calls-h')?.textContent === 'Judge calls: 5 waiting'",
                                timeout=5_000)
        assert judge.evaluate("() => [document.activeElement.className,"
                              " document.activeElement.closest('li[data-call]')?.dataset.call]") == ["call-take", call]
        assert judge.locator("#calls li[data-call]").count() == 3
        assert judge.text_content("#calls-more") == "Show all 5 calls"
        judge.click("#calls-more")
        assert judge.locator("#calls li[data-call]").count() == 5
        assert judge.get_attribute("#calls-more", "aria-expanded") == "true"
        # one system notification for calls, each new call replacing the one before
        tags = judge.evaluate("() => window.judgeApp.alerts.notifications.map((n) => n.tag)")
        assert tags and set(tags) == {"judge-calls"}


# The browsers' rule for sound, which headless Chromium does not apply: a page's audio stays
# suspended until it is resumed during a tap on the page.
AUTOPLAY_RULE = """(() => {
  let tapping = false;
  for (const type of ["pointerdown", "click"]) {
    addEventListener(type, () => { tapping = true; setTimeout(() => { tapping = false; }); }, true);
  }
  window.AudioContext = class {
    constructor() { this.state = "suspended"; this.onstatechange = null; this.currentTime = 0; this.destination = {}; }
    resume() {
      if (tapping && this.state !== "running") { this.state = "running"; this.onstatechange?.(); }
      return Promise.resolve();
    }
    createOscillator() { return { frequency: {}, connect: (n) => n, start() {}, stop() {} }; }
    createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (n) => n }; }
  };
})();"""


def test_after_a_reload_the_phone_says_its_alert_sounds_wait_for_a_tap(browser, flask_server):
    """Browsers start sound only after the page was touched: a phone reloaded on the floor would
    stay silent for the next call without saying so. It says so, on every screen, with a button
    that is that tap; a phone whose judge silenced alerts says nothing."""
    event = flask_server.make_event("wotf", "competitive")
    flask_server.start_round(event["slug"])
    ctx = browser.returning(flask_server.url)
    ctx.add_init_script(AUTOPLAY_RULE)
    try:
        page = ctx.new_page()
        join(page, flask_server, event, "Saul")
        page.reload()
        page.wait_for_selector("#sound-note:not([hidden])")
        assert page.text_content("#sound-note span") == \
            "Alert sounds start once this page has been tapped (the browser's rule)."
        page.goto(flask_server.url + "/#/penalty")  # on every screen
        page.wait_for_selector("main[data-screen=penalty]")
        assert page.is_visible("#sound-note")
        # The first tap, anywhere, starts the sound; the note goes once the tap is over, so what
        # was tapped below it is not moved away under the finger (the tap was lost).
        page.fill("#pen-search", "slow play")
        button = page.locator("#pen-results [data-infraction]").first
        box = button.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        assert page.get_attribute("#sound-note", "data-audio") == "running"
        assert page.is_visible("#sound-note")
        page.mouse.up()
        page.wait_for_selector("#pen-player")
        page.wait_for_selector("#sound-note", state="hidden")
        # after another reload, the note's own button is that tap
        page.reload()
        page.wait_for_selector("#sound-note:not([hidden])")
        page.click("#sound-on")
        page.wait_for_selector("#sound-note", state="hidden")
        # silenced on the Event screen: no note after a reload
        page.goto(flask_server.url + "/#/join")
        page.uncheck("#alert-sound")
        # the choice is kept on the device before the reload (a reload while it is being
        # written would find the old one)
        wait_resolved(page, "async () => (await window.judgeApp.setting('alert_sound')) === false")
        page.reload()
        page.wait_for_selector("main[data-screen=join]")
        settled(page)
        assert page.is_hidden("#sound-note")
    finally:
        ctx.close()

"""The head judge's review on the phones: a penalty decided without another judge's earlier
penalties for the same player (recorded on a phone that was offline) is flagged on the phone
of the judge who issued it, in the head judge's list (the same list the server gives) and on
the organiser's page; the head judge issues the right penalty instead and every list empties.
A penalty the head judge refuses does not count toward the next look-up; one kept as issued
shows the head judge's reason. A round without pairings has no tables."""

import json

from .conftest import PHONE, SMALL_PHONE, shoot, wait_controlled
from .helpers import join, look_up_penalty, settled, wait_resolved, wait_synced

# Each bottom-bar link whose name (with its count) wraps onto a second line or overflows it.
NAV_WRAPPED = """() => [...document.querySelectorAll('#nav a:not([hidden])')].filter((a) => {
  const range = document.createRange();
  range.selectNodeContents(a);
  const lines = range.getBoundingClientRect().height / parseFloat(getComputedStyle(a).fontSize);
  return lines > 1.6 || a.scrollWidth > a.clientWidth;
}).map((a) => a.textContent)"""

ISSUED_INSTEAD = ("Recorded Warning; with every judge's records (earlier penalties it did not see: 2) the policy gives"
                  " Match Loss.")


def record_penalty(page, player_id, notes=None):
    """Look up slow play for the player and record what the card says; returns the penalty."""
    card = look_up_penalty(page, "slow", "slow_play", player_id)
    if notes:
        page.fill("#pen-notes", notes)
    page.click("#pen-record")
    page.wait_for_selector("#pen-recorded")
    return json.loads(card["penalty"])


def synced(page):
    """Sync now and wait until it worked with nothing left to send."""
    page.evaluate("() => window.judgeApp.syncNow()")
    wait_synced(page)


def open_review(page):
    page.goto(page.url.split("#")[0] + "#/review")
    page.wait_for_selector("#review-waiting, #review-empty")


def badge(page):
    link = page.locator("#nav [data-screen=review]")
    return link.get_attribute("data-count"), link.get_attribute("aria-label")


def wait_badge(page, count):
    page.wait_for_function(
        "n => document.querySelector('#nav [data-screen=review]').dataset.count === n", arg=str(count))


def head_judge(browser, server, event, name):
    """A phone joined as `name`, made head judge by the organiser."""
    ctx = browser.returning(server.url)
    page = ctx.new_page()
    join(page, server, event, name)
    server.set_role(event["slug"], name, "head_judge")
    page.reload()
    page.wait_for_function("() => window.judgeApp.app.session?.role === 'head_judge'")
    return ctx, page


def server_review(page, slug):
    """GET /api/events/<slug>/review with the phone's token: [(kind, record)]."""
    reply = page.evaluate("""async (slug) => {
        const r = await fetch(`/api/events/${slug}/review`,
            {headers: {Authorization: `Bearer ${window.judgeApp.app.session.token}`}});
        return r.json();
    }""", slug)
    return [(i["kind"], i["record"]) for i in reply["items"]]


def test_a_penalty_decided_without_an_offline_judges_records_is_flagged_and_issued_again(browser, flask_server):
    event = flask_server.make_event("dci-upg", "competitive")
    slug = event["slug"]
    flask_server.start_round(slug)
    player = event["players"][0]
    ann_ctx = browser.returning(flask_server.url)
    ben_ctx = browser.returning(flask_server.url)
    hal_ctx = None
    try:
        ann = ann_ctx.new_page()
        join(ann, flask_server, event, "Ann")
        wait_controlled(ann)
        wait_synced(ann)
        ben = ben_ctx.new_page()
        join(ben, flask_server, event, "Ben")
        hal_ctx, hal = head_judge(browser, flask_server, event, "Hal")

        # Ann, offline, records slow play twice; Ben, online, once (without Ann's two).
        ann_ctx.set_offline(True)
        assert record_penalty(ann, player["id"]) == "warning"
        assert record_penalty(ann, player["id"], notes="Second time this round") == "game_loss"
        assert record_penalty(ben, player["id"]) == "warning"
        wait_synced(ben)
        ann_ctx.set_offline(False)
        ann.evaluate("() => window.dispatchEvent(new Event('online'))")
        wait_synced(ann)
        records = flask_server.records(slug)
        w1, gl1 = [r for r in records if r["type"] == "penalty" and r["judge"] == "Ann"]
        [w2] = [r for r in records if r["type"] == "penalty" and r["judge"] == "Ben"]
        assert (w1["payload"]["penalty"], gl1["payload"]["penalty"], w2["payload"]["penalty"]) == (
            "warning", "game_loss", "warning")
        assert gl1["payload"]["history_seen"] == [w1["id"]]
        assert w2["payload"]["history_seen"] == []

        # Ben's phone: his warning is flagged, read-only, the head judge decides.
        synced(ben)
        wait_badge(ben, 1)
        assert badge(ben) == ("1", "Review: 1 waiting")
        open_review(ben)
        [flag] = ben.locator("#review-waiting li").all()
        assert flag.get_attribute("data-record") == w2["id"]
        assert ISSUED_INSTEAD in flag.text_content()
        assert flag.locator("button").count() == 0
        assert "The head judge decides these" in ben.text_content("#review-list")
        shoot(ben, "review-floor-judge")
        ben.set_viewport_size(SMALL_PHONE)
        assert ben.evaluate(NAV_WRAPPED) == []
        ben.set_viewport_size(PHONE)
        open_review(ann)
        assert ann.locator("#review-empty").count() == 1
        assert badge(ann)[0] in ("", "0")

        # The head judge's list: Ann's game loss waits for approval, Ben's warning is flagged.
        synced(hal)
        open_review(hal)
        hal.wait_for_selector("#review-waiting li[data-kind=conflict]")
        rows = hal.locator("#review-waiting li")
        assert [(r.get_attribute("data-kind"), r.get_attribute("data-record")) for r in rows.all()] == \
            server_review(hal, slug) == [("approval", gl1["id"]), ("conflict", w2["id"])]
        approval = hal.locator("#review-waiting li[data-kind=approval]")
        text = approval.text_content()
        for part in (player["name"], "Game Loss", "Tournament Error — Slow Play", "Recorded by Ann",
                     "table 1", "round 1", "Notes: Second time this round"):
            assert part in text, (part, text)
        assert ISSUED_INSTEAD in hal.text_content("#review-waiting li[data-kind=conflict]")
        wait_badge(hal, 2)
        shoot(hal, "review-head-judge")

        # The organiser's event page says the same.
        organiser = hal_ctx.new_page()
        organiser.goto(flask_server.url + "/organiser/login")
        organiser.fill("input[name=username]", "organiser")
        organiser.fill("input[name=password]", "browser-tests")
        organiser.click("text=Log in")
        organiser.goto(flask_server.url + f"/organiser/events/{slug}")
        section = organiser.text_content("#review")
        assert "the policy gives Match Loss" in section
        assert "waits for approval: Game Loss" in section
        organiser.close()

        # Approve Ann's game loss, then issue the match loss in place of Ben's warning.
        hal.click("#review-waiting li[data-kind=approval] [data-decide=true]")
        hal.wait_for_selector("#review-waiting li[data-kind=approval]", state="detached")
        hal.click(f"[data-issue='{w2['id']}']")
        hal.wait_for_selector("#review-empty")
        # the list is drawn again as soon as the void is stored; the status once all is recorded
        hal.wait_for_function("() => document.getElementById('review-status').textContent"
                              " === 'Match Loss issued instead.'")
        wait_badge(hal, 0)
        wait_synced(hal)
        records = flask_server.records(slug)
        [void] = [r for r in records if r["type"] == "void"]
        assert void["payload"]["record"] == w2["id"]
        [ml] = [r for r in records if r["type"] == "penalty" and r["payload"].get("replaces")]
        assert (ml["judge"], ml["payload"]["penalty"], ml["payload"]["replaces"], ml["payload"]["history_seen"]) == \
            ("Hal", "match_loss", w2["id"], [w1["id"], gl1["id"]])
        approvals = [(r["payload"]["record"], r["payload"]["approved"]) for r in records if r["type"] == "approval"]
        assert sorted(approvals) == sorted([(gl1["id"], True), (ml["id"], True)])
        assert server_review(hal, slug) == []

        # Every phone's list is empty after its next sync; Ann's history has all three.
        for page in (ann, ben):
            synced(page)
            wait_badge(page, 0)
            open_review(page)
            assert page.locator("#review-empty").count() == 1
        ann.goto(flask_server.url + f"/#/history/{player['id']}")
        ann.wait_for_selector("#history-records li")
        counted = ann.locator("#history-records li:not(.voided) > strong").all_text_contents()
        assert counted == ["Warning", "Game Loss", "Match Loss"]
        assert "Notes: Second time this round" in ann.text_content("#history-records")
        history = ann.evaluate(
            "async (p) => window.judge.history(await window.judgeApp.records(), p, 'dci-upg')", player["id"])
        assert [h["penalty"] for h in history] == ["warning", "game_loss", "match_loss"]
    finally:
        ann_ctx.close()
        ben_ctx.close()
        if hal_ctx:
            hal_ctx.close()


def test_a_refused_penalty_does_not_count_and_a_flagged_one_can_be_kept(browser, flask_server):
    event = flask_server.make_event("dci-upg", "competitive")
    slug = event["slug"]
    flask_server.start_round(slug)
    player = event["players"][1]
    kim_ctx = browser.returning(flask_server.url)
    hal_ctx = None
    try:
        kim = kim_ctx.new_page()
        join(kim, flask_server, event, "Kim")
        assert record_penalty(kim, player["id"]) == "warning"
        assert record_penalty(kim, player["id"], notes="Looked at the clock") == "game_loss"
        wait_synced(kim)
        hal_ctx, hal = head_judge(browser, flask_server, event, "Hal")
        synced(hal)
        open_review(hal)
        hal.wait_for_selector("#review-waiting li[data-kind=approval]")
        assert "Notes: Looked at the clock" in hal.text_content("#review-waiting")
        first = hal.get_attribute("#review-waiting li[data-kind=approval]", "data-record")
        # Hal holds Refuse on it while two more game losses of Kim's, for other players, reach
        # the list: the list is drawn again once the tap is over, so the tap refuses the
        # penalty pressed, not what took its place
        third, fourth = event["players"][3], event["players"][0]
        kim_ctx.set_offline(True)
        for other_player in (third, fourth):
            assert record_penalty(kim, other_player["id"]) == "warning"
            assert record_penalty(kim, other_player["id"]) == "game_loss"
        refuse = hal.locator(f"#review-waiting li[data-record='{first}'] [data-decide=false]")
        box = refuse.bounding_box()
        read = int(hal.get_attribute("#review-list", "data-read"))
        hal.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        hal.mouse.down()
        refuse.evaluate("el => { el.dataset.pressed = 'yes'; }")
        kim_ctx.set_offline(False)
        kim.evaluate("() => window.dispatchEvent(new Event('online'))")
        wait_synced(kim)
        synced(hal)
        wait_resolved(hal, "async () => (await window.judgeApp.records()).filter((r) => r.type === 'penalty')"
                           ".length === 6")
        settled(hal)
        assert refuse.get_attribute("data-pressed") == "yes"  # the same button, where the finger is
        assert refuse.bounding_box() == box
        assert int(hal.get_attribute("#review-list", "data-read")) == read  # not drawn during the tap
        hal.mouse.up()
        hal.wait_for_selector(f"#review-waiting li[data-record='{first}']", state="detached")
        rows = hal.locator("#review-waiting li[data-kind=approval]")
        rows.nth(1).wait_for()
        assert rows.count() == 2 and "Game Loss" in rows.nth(0).text_content()
        [refusal] = [r for r in hal.evaluate("() => window.judgeApp.records()") if r["type"] == "approval"]
        assert (refusal["payload"]["record"], refusal["payload"]["approved"]) == (first, False)
        top, second = rows.nth(0).get_attribute("data-record"), rows.nth(1).get_attribute("data-record")
        # the keyboard on the second's Approve stays there when another item draws the list again
        hal.focus(f"#review-waiting li[data-record='{second}'] [data-decide=true]")
        assert record_penalty(kim, third["id"]) != "warning"
        wait_synced(kim)
        synced(hal)
        hal.wait_for_function("() => document.querySelectorAll('#review-waiting li[data-kind=approval]').length === 3")
        assert hal.evaluate("() => [document.activeElement.dataset.decide,"
                            " document.activeElement.closest('li[data-record]')?.dataset.record]") == ["true", second]
        last = rows.nth(2).get_attribute("data-record")
        assert last not in (top, second)
        # Hal presses Approve on the second while the first is approved (by the keyboard): the
        # decided row goes once that press is over, not from under the finger
        approve = hal.locator(f"#review-waiting li[data-record='{second}'] [data-decide=true]")
        box = approve.bounding_box()
        hal.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        hal.mouse.down()
        hal.locator(f"#review-waiting li[data-record='{top}'] [data-decide=true]").press("Enter")
        wait_resolved(hal, "async () => (await window.judgeApp.records()).filter((r) => r.type === 'approval')"
                           ".length === 2")
        settled(hal)
        assert approve.bounding_box() == box
        hal.mouse.up()
        wait_resolved(hal, "async () => (await window.judgeApp.records()).filter((r) => r.type === 'approval')"
                           ".length === 3")
        hal.locator(f"#review-waiting li[data-record='{last}'] [data-decide=true]").press("Enter")
        wait_resolved(hal, "async () => (await window.judgeApp.records()).filter((r) => r.type === 'approval')"
                           ".length === 4")
        approvals = [r["payload"] for r in hal.evaluate("() => window.judgeApp.records()") if r["type"] == "approval"]
        assert sorted((a["record"], a["approved"]) for a in approvals) == sorted(
            [(first, False), (top, True), (second, True), (last, True)])
        hal.wait_for_selector("#review-empty")
        wait_badge(hal, 0)
        wait_synced(hal)

        # On the Players screen the decision shows and the buttons are gone.
        hal.goto(flask_server.url + f"/#/history/{player['id']}")
        hal.wait_for_function(
            "() => /not approved by Hal/.test(document.querySelector('#history-records')?.textContent)")
        assert hal.locator("#history-records [data-approve]").count() == 0
        assert "Notes: Looked at the clock" in hal.text_content("#history-records")

        synced(kim)
        again = look_up_penalty(kim, "slow", "slow_play", player["id"])
        assert json.loads(again["penalty"]) == "game_loss"
        assert again["history"].startswith("1 earlier penalty")

        # A flagged penalty the head judge keeps as issued, with a reason (required).
        other = event["players"][2]
        wait_controlled(kim)
        kim_ctx.set_offline(True)
        assert record_penalty(kim, other["id"]) == "warning"
        assert record_penalty(hal, other["id"]) == "warning"
        wait_synced(hal)
        kim_ctx.set_offline(False)
        kim.evaluate("() => window.dispatchEvent(new Event('online'))")
        wait_synced(kim)
        synced(hal)
        open_review(hal)
        wait_badge(hal, 1)
        flag = hal.locator("#review-waiting li[data-kind=conflict]")
        assert "Recorded Warning; with every judge's records (earlier penalties it did not see: 1) the policy gives" \
            " Game Loss." in flag.text_content()
        flag.locator("[data-keep]").click()
        assert flag.locator("[role=alert]").text_content() == \
            "Say why it is kept as issued: the reason goes with the record."
        # a sync that changes nothing in the list reads it again and leaves its rows in place:
        # the refusal shown stays (it vanished when a sync came just after the tap), and a tap
        # that lands meanwhile is not lost with its button
        drawn = hal.evaluate_handle("() => document.querySelector('#review-waiting li[data-kind=conflict]')")
        read = int(hal.get_attribute("#review-list", "data-read"))
        synced(hal)
        hal.wait_for_function("(n) => Number(document.getElementById('review-list').dataset.read) > n", arg=read)
        assert hal.evaluate("(old) => document.querySelector('#review-waiting li[data-kind=conflict]') === old",
                            drawn)
        assert flag.locator("[role=alert]").is_visible()
        assert flag.locator("[role=alert]").text_content() == \
            "Say why it is kept as issued: the reason goes with the record."
        flag.locator("textarea").fill("Spoke to the player myself")
        flag.locator("textarea").press("Tab")
        hal.keyboard.press("Enter")
        hal.wait_for_selector("#review-kept li")
        assert "Kept as issued: Spoke to the player myself" in hal.text_content("#review-kept")
        assert hal.locator("#review-empty").count() == 1
        wait_badge(hal, 0)
        wait_synced(hal)
        [kept] = [r for r in flask_server.records(slug) if r["type"] == "resolution"]
        assert kept["payload"]["reason"] == "Spoke to the player myself"
        synced(kim)
        kim.goto(flask_server.url + f"/#/history/{other['id']}")
        kim.wait_for_selector("#history-records [data-flag=kept]")
        assert kim.text_content("#history-records [data-flag=kept]") == "Kept as issued: Spoke to the player myself"
    finally:
        kim_ctx.close()
        if hal_ctx:
            hal_ctx.close()


def test_a_round_without_pairings_has_no_tables(browser, flask_server):
    event = flask_server.make_event("dci-upg", "competitive", players=5)
    slug = event["slug"]
    flask_server.start_round(slug)
    seated, unseated = event["players"][0], event["players"][4]
    ctx = browser.returning(flask_server.url)
    try:
        page = ctx.new_page()
        join(page, flask_server, event, "Ivo")
        page.wait_for_function("() => window.judgeApp.app.clock?.round?.number === 1")
        look_up_penalty(page, "slow", "slow_play", seated["id"])
        assert page.input_value("#pen-table") == "1"
        page.select_option("#pen-player", str(unseated["id"]))
        assert page.input_value("#pen-table") == ""
        page.select_option("#pen-player", str(seated["id"]))
        assert page.input_value("#pen-table") == "1"

        # Round 2 has started without pairings: no player has a table.
        flask_server.end_round(slug)
        flask_server.start_round(slug)
        page.evaluate("() => window.judgeApp.refreshClock()")
        synced(page)
        page.wait_for_function("""() => window.judgeApp.app.clock?.round?.number === 2
            && window.judgeApp.app.detail?.rounds?.length === 2""")
        look_up_penalty(page, "slow", "slow_play", seated["id"])
        assert page.input_value("#pen-table") == ""
        page.click("#pen-record")
        page.wait_for_selector("#pen-recorded")
        [record] = page.evaluate("() => window.judgeApp.records()")
        assert (record["payload"]["table"], record["payload"]["round"]) == (None, 2)
    finally:
        ctx.close()


def test_a_penalty_the_policy_leaves_to_the_head_judge_is_chosen_not_approved(browser, flask_server):
    event = flask_server.make_event("dci-upg", "competitive")
    flask_server.start_round(event["slug"])
    player = event["players"][0]
    ctx, head = head_judge(browser, flask_server, event, "Hana")
    try:
        card = look_up_penalty(head, "decklist", "deck_decklist_mismatch", player["id"])
        assert card["penalty"] in (None, "null")
        head.click("#pen-record")
        head.wait_for_selector("#pen-recorded")
        open_review(head)
        row = head.wait_for_selector("#review-waiting li[data-kind=approval]")
        record = row.get_attribute("data-record")
        # nothing to approve: the head judge chooses the penalty, or refuses this one
        assert head.locator(f"li[data-record='{record}'] [data-decide=true]").count() == 0
        assert head.locator(f"li[data-record='{record}'] [data-decide=false]").count() == 1
        head.click(f"li[data-record='{record}'] [data-choose]")
        head.wait_for_selector("main[data-screen=penalty] #pen-player")
        head.wait_for_function("(id) => document.querySelector('#pen-player').value === id", arg=str(player["id"]))
        assert "deck_decklist_mismatch" in head.url
    finally:
        ctx.close()

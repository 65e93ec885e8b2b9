"""Two staff members with their own accounts run an event in the browser: the organiser invites
a scorekeeper, who sets a password on the one-time link, starts a round and replaces a
round's tables from a TOM `.tdf` (preview, then Confirm) but cannot change the event's
settings; the audit page shows both people's actions, filters them and exports them. A
phone then joins as its person, through the account or a one-time link."""

import csv
import io
import re

from .conftest import PHONE, ROOT, shoot

TDF = ROOT / "tests" / "data" / "pairings" / "league-cup.tdf"
PASSWORD = "a long enough password"


def log_in(page, url, username="organiser", password="browser-tests"):
    page.goto(url + "/organiser/login")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main button")
    page.wait_for_url("**/organiser/")


def invite(admin, url, slug, name, role):
    """The organiser invites `name` as `role` on the event page; returns the one-time link."""
    admin.goto(url + f"/organiser/events/{slug}")
    admin.fill("#invite-form input[name=name]", name)
    admin.select_option("#invite-form select[name=role]", role)
    admin.click("#invite-form button")
    return admin.text_content(".flash.ok code.link")


def test_two_staff_members_run_an_event_and_the_audit_log_shows_both(browser, flask_server, tmp_path):
    url = flask_server.url
    event = flask_server.make_event("wotf", "competitive")
    slug = event["slug"]
    admin_ctx, keeper_ctx = browser.new_context(viewport=PHONE), browser.new_context(viewport=PHONE)
    try:
        admin, keeper = admin_ctx.new_page(), keeper_ctx.new_page()
        log_in(admin, url)
        link = invite(admin, url, slug, "Sam Score", "scorekeeper")
        assert "Sam Score is invited as scorekeeper." in admin.text_content(".flash.ok")

        keeper.goto(link)
        assert keeper.text_content("main h2") == "Welcome, Sam Score"
        keeper.fill("input[name=username]", "sam")
        keeper.fill("input[name=password]", PASSWORD)
        keeper.fill("input[name=repeat]", PASSWORD)
        keeper.click("main button")
        keeper.wait_for_selector("text=Welcome, Sam Score: your password is set.")
        keeper.click(f"#events a[href$='{slug}']")
        keeper.wait_for_selector("#board")
        # a scorekeeper sees the event but none of its settings, devices, staff or audit log
        assert keeper.is_visible("#settings-read-only")
        for absent in ("#stage-setting", "#head-judge-setting", "#call-escalation", "#staff", "#new-join-code",
                       "#audit-link"):
            assert keeper.locator(absent).count() == 0, absent
        keeper.fill("input[name=round_minutes]", "30")
        keeper.click("button[value=start]")
        keeper.wait_for_selector("text=Round 1 started.")

        # round 2's tables from TOM's .tdf: the preview first, nothing changed until Confirm
        keeper.fill("#pairings-form input[name=round]", "2")
        keeper.set_input_files("#pairings-form input[type=file]", str(TDF))
        keeper.click("#pairings-form button")
        keeper.wait_for_selector("#preview")
        assert [r.get_attribute("data-state") for r in keeper.locator("#preview tbody tr").all()] == ["new"] * 3
        assert keeper.locator("#new-players li").count() == 7
        assert keeper.text_content("#byes").strip() == "Dev Evans"
        shoot(keeper, "import-preview", sizes=(PHONE,))
        assert [t["tables"] for t in _rounds(flask_server, slug) if t["number"] == 2] == []
        keeper.click("#confirm-tables")
        keeper.wait_for_selector("text=Round 2: 3 tables. 7 players added.")
        assert [len(t["tables"]) for t in _rounds(flask_server, slug)] == [2, 3]

        # settings are refused even when posted by hand
        token = keeper.get_attribute("input[name=csrf]", "value")
        refused = keeper.request.post(url + f"/organiser/events/{slug}/stage",
                                      form={"csrf": token, "stage": "elimination"})
        assert refused.status == 403 and "does not allow this" in refused.text()
        assert flask_server.clock(slug)["event"]["stage"] == "swiss"
        keeper.goto(url + f"/organiser/events/{slug}/audit")
        assert "Your role in this event (scorekeeper) does not allow this." in keeper.text_content("#refused")

        # the organiser's audit page: both people's actions, newest first
        admin.goto(url + f"/organiser/events/{slug}")
        admin.click("#audit-link")
        admin.wait_for_selector("#audit")
        rows = [(r.get_attribute("data-kind"), r.locator("td.lead").text_content().split(" (")[0].strip())
                for r in admin.locator("#audit tbody tr").all()]
        assert rows[:3] == [("tables.import", "Sam Score"), ("round.start", "Sam Score"),
                            ("staff.invite", "Organiser")]
        shoot(admin, "audit-log", sizes=(PHONE,))
        admin.select_option("#person", label="Sam Score")
        admin.click("#audit-filter button")
        admin.wait_for_url("**person=a*")
        assert {r.locator("td.lead").text_content().split(" (")[0].strip()
                for r in admin.locator("#audit tbody tr").all()} == {"Sam Score"}
        with admin.expect_download() as download:
            admin.click("#audit-csv")
        saved = tmp_path / "audit.csv"
        download.value.save_as(saved)
        exported = list(csv.DictReader(io.StringIO(saved.read_text(encoding="utf-8"))))
        assert [(r["kind"], r["person"]) for r in exported] == [("round.start", "Sam Score"),
                                                                ("tables.import", "Sam Score")]
        assert '"players_added": ["Ada Brook"' in exported[1]["changes"]

        # Sam's phone (this browser, logged in) joins as Sam, with Sam's role
        keeper.goto(url + "/#/join")
        keeper.click(f"#join-mine button[data-event='{slug}']")
        keeper.wait_for_selector("main[data-screen=clock]")
        keeper.goto(url + "/#/join")
        keeper.wait_for_selector("text=Joined as Sam Score (scorekeeper).")
    finally:
        admin_ctx.close()
        keeper_ctx.close()


def test_a_one_time_link_from_the_account_page_joins_a_phone_as_its_person(browser, flask_server):
    url = flask_server.url
    event = flask_server.make_event("dci-upg", "competitive")
    laptop_ctx, phone_ctx = browser.new_context(viewport=PHONE), browser.new_context(viewport=PHONE)
    try:
        laptop = laptop_ctx.new_page()
        log_in(laptop, url)
        link = invite(laptop, url, event["slug"], "Hana Head", "head_judge")
        hana = phone_ctx.new_page()
        hana.goto(link)
        hana.fill("input[name=username]", "hana")
        hana.fill("input[name=password]", PASSWORD)
        hana.fill("input[name=repeat]", PASSWORD)
        hana.click("main button")
        hana.wait_for_selector("text=Welcome, Hana Head: your password is set.")
        hana.click("#me")
        hana.click(f"button[aria-label='Join a phone to {_name(flask_server, event)}']")
        phone_link = hana.text_content("#phone-url")
        assert re.fullmatch(re.escape(url) + r"/#/join/link/[\w-]{40,}", phone_link)
        shoot(hana, "account-phone-link", sizes=(PHONE,))
        # another phone (no session) opens the link: it joins as Hana, head judge
        other_ctx = browser.new_context(viewport=PHONE)
        try:
            phone = other_ctx.new_page()
            phone.goto(phone_link)
            phone.click("#join-link-btn")
            phone.wait_for_selector("main[data-screen=clock]")
            phone.goto(url + "/#/join")
            phone.wait_for_selector("text=Joined as Hana Head (head judge).")
            # the link was used up
            again = other_ctx.new_page()
            again.goto(phone_link)
            again.fill("#device-name", "Second")
            again.click("#join-link-btn")
            again.wait_for_selector("text=This link no longer works (used, expired or replaced).", timeout=10_000)
        finally:
            other_ctx.close()
    finally:
        laptop_ctx.close()
        phone_ctx.close()


def _rounds(server, slug):
    from server.events import get_event

    with server.app.app_context():
        event = get_event(slug)
        numbers = sorted({p.round_number for p in event.pairings})
        return [{"number": n, "tables": [p.number for p in event.pairings if p.round_number == n]} for n in numbers]


def _name(server, event):
    from server.events import get_event

    with server.app.app_context():
        return get_event(event["slug"]).name


"""Organiser pages: login, events, join code and QR, round controls, players and tables,
devices and roles, penalties with approval, exports."""

import csv
import html
import io
import re

import pytest
from conftest import LOGIN, replace_tables
from server_helpers import T0, Phone

from server.extensions import db
from server.models import Device, Event


@pytest.fixture
def event(app, organiser, now):
    page = organiser.form("/organiser/events", name="Spring Open", ruleset_level="dci-upg|competitive",
                          stage="swiss", games_per_match="3", round_minutes="50")
    assert page.status_code == 200
    with app.app_context():
        ev = db.session.scalar(db.select(Event).where(Event.name == "Spring Open"))
        return {"slug": ev.slug, "code": ev.join_code, "id": ev.id, "players": {}}


def test_pages_need_the_password(client):
    res = client.get("/organiser/")
    assert res.status_code == 302 and "/organiser/login" in res.headers["Location"]
    wrong = client.post("/organiser/login", data={"username": "organiser", "password": "nope"})
    assert b"Wrong login or password." in wrong.data
    assert client.get("/organiser/").status_code == 302


def test_password_guesses_are_rate_limited(app, client, now):
    app.config["LOGIN_LIMITS"] = "3 per minute"
    codes = [client.post("/organiser/login", data={**LOGIN, "password": f"guess{i}"}).status_code for i in range(3)]
    assert codes == [401, 401, 401]
    res = client.post("/organiser/login", data=LOGIN)
    assert res.status_code == 429
    assert "Too many wrong passwords from this address (at most 3 per minute)" in res.get_data(as_text=True)
    assert client.post("/organiser/login", data=LOGIN,
                       environ_base={"REMOTE_ADDR": "10.2.2.2"}).status_code == 302


def test_a_form_without_its_token_is_refused(organiser):
    res = organiser.post("/organiser/events", data={"name": "X", "ruleset_level": "wotf|casual"})
    assert res.status_code == 400


def test_creating_an_event_shows_its_join_code_and_qr(app, organiser, event):
    page = organiser.get(f"/organiser/events/{event['slug']}").get_data(as_text=True)
    assert event["code"] in page
    assert "<svg" in page
    assert f"#/join/{event['code']}" in page
    with app.app_context():
        ev = db.session.get(Event, event["id"])
        assert (ev.ruleset, ev.level, ev.games_per_match, ev.round_minutes) == ("dci-upg", "competitive", 3, 50.0)


def test_an_unknown_level_is_refused_with_the_allowed_ones(organiser):
    page = organiser.form("/organiser/events", name="Bad", ruleset_level="dci-upg|casual")
    assert "event.level has an unknown value 'casual' (allowed: regular, competitive, professional)" \
        in html.unescape(page.get_data(as_text=True))


@pytest.mark.parametrize(("ruleset_level", "form", "message"), [
    ("wotf|casual", {"stage": "final"}, "event.stage has an unknown value 'final' (allowed: swiss, elimination)"),
    ("dci-upg|regular", {"games_per_match": "5"}, "event.games_per_match has an unknown value 5 (allowed: 1, 3)"),
])
def test_event_settings_the_engine_refuses_are_refused_with_its_message(app, organiser, ruleset_level, form, message):
    page = organiser.form("/organiser/events", name="Odd", ruleset_level=ruleset_level, **form)
    assert message in html.unescape(page.get_data(as_text=True))
    with app.app_context():
        assert db.session.scalar(db.select(Event).where(Event.name == "Odd")) is None


def test_a_stage_the_engine_does_not_know_is_refused_and_the_event_keeps_its_own(app, organiser, event):
    page = organiser.form(f"/organiser/events/{event['slug']}/stage", stage="final")
    assert "event.stage has an unknown value 'final' (allowed: swiss, elimination)" \
        in html.unescape(page.get_data(as_text=True))
    page = organiser.form(f"/organiser/events/{event['slug']}/stage", stage="elimination")
    assert "Stage: elimination." in page.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(Event, event["id"]).stage == "elimination"


def test_games_per_match_the_policy_leaves_to_the_organiser_take_any_whole_number(app, organiser):
    # Wonders of the First: one game unless the organiser announces otherwise (§3.1), so 5 is taken.
    organiser.form("/organiser/events", name="Five", ruleset_level="wotf|competitive", games_per_match="5")
    with app.app_context():
        assert db.session.scalar(db.select(Event.games_per_match).where(Event.name == "Five")) == 5


@pytest.mark.parametrize(("ruleset_level", "games", "minutes"), [
    ("wotf|casual", 1, 50.0),  # wotf states best of one and 50-minute rounds
    ("yugioh|tier2", 3, None),  # yugioh states best of three, no round length
    ("judicial-guidelines|", None, None),  # states neither
])
def test_an_event_takes_the_rulesets_stated_defaults(app, organiser, ruleset_level, games, minutes):
    organiser.form("/organiser/events", name="Defaults", ruleset_level=ruleset_level)
    with app.app_context():
        ev = db.session.scalar(db.select(Event).where(Event.name == "Defaults"))
        assert (ev.games_per_match, ev.round_minutes) == (games, minutes)
        slug = ev.slug
    if minutes is None:
        page = organiser.form(f"/organiser/events/{slug}/round", action="start")
        assert "give the round&#39;s minutes" in page.get_data(as_text=True)
        page = organiser.form(f"/organiser/events/{slug}/round", action="start", untimed="1")
        assert "Round 1 started." in page.get_data(as_text=True)


def test_round_controls_drive_the_public_clock(organiser, event, now):
    organiser.form(f"/organiser/events/{event['slug']}/round", action="start", round_minutes="40")
    now.advance(60_000)
    organiser.form(f"/organiser/events/{event['slug']}/round", action="pause")
    now.advance(30_000)
    page = organiser.form(f"/organiser/events/{event['slug']}/round", action="resume")
    assert "Round 1 resumed." in page.get_data(as_text=True)
    rnd = organiser.get(f"/api/events/{event['slug']}/clock").get_json()["round"]
    assert (rnd["state"], rnd["end_ms"]) == ("running", T0 + 40 * 60_000 + 30_000)
    page = organiser.form(f"/organiser/events/{event['slug']}/round", action="start")
    assert "round 1 has not ended" in page.get_data(as_text=True)


def test_players_and_tables_import_from_csv(app, organiser, event, client):
    page = organiser.form(f"/organiser/events/{event['slug']}/players",
                          csv="name,id\nAda Brook,1001\nBen Carter,\nChloe Diaz,1003\nAda Brook,1001\n")
    assert "3 players added." in page.get_data(as_text=True)
    page = replace_tables(organiser, event["slug"], 1,
                          "table,player_a,player_b\n1,Ada Brook,Ben Carter\n2,Chloe Diaz,\n")
    assert "Round 1: 2 tables." in page.get_data(as_text=True)
    bad = organiser.form(f"/organiser/events/{event['slug']}/pairings", round="1",
                         csv="table,player_a,player_b\n1,Ada Brook,Ada Brook\n")
    assert "line 2: 'Ada Brook' is paired with themself" in html.unescape(bad.get_data(as_text=True))
    phone = Phone(client, event)
    detail = client.get(f"/api/events/{event['slug']}", headers=phone.headers).get_json()
    ids = {p["name"]: p["id"] for p in detail["players"]}
    assert detail["rounds"] == [{"number": 1, "tables": [
        {"number": 1, "player_a": ids["Ada Brook"], "player_b": ids["Ben Carter"]},
        {"number": 2, "player_a": ids["Chloe Diaz"], "player_b": None}]}]


def test_the_organiser_sets_roles_and_revokes_devices(app, organiser, event, client):
    phone = Phone(client, event)
    organiser.form(f"/organiser/events/{event['slug']}/devices/{phone.id}", action="role", role="head_judge")
    with app.app_context():
        assert db.session.get(Device, phone.id).role == "head_judge"
    organiser.form(f"/organiser/events/{event['slug']}/devices/{phone.id}", action="revoke")
    assert client.get(f"/api/events/{event['slug']}", headers=phone.headers).status_code == 401


def test_penalties_show_judge_and_approval_and_can_be_approved_and_exported(app, organiser, event, client):
    organiser.form(f"/organiser/events/{event['slug']}/players", csv="name\nAda Brook\n")
    phone = Phone(client, event, judge="Jo Judge")
    detail = client.get(f"/api/events/{event['slug']}", headers=phone.headers).get_json()
    ada = detail["players"][0]["id"]
    needs_hj = phone.penalty(ada, infraction="usc_minor", penalty="game_loss", head_judge=True)
    plain = {**phone.penalty("Walk-in Wally", infraction="slow_play", penalty="warning"), "created_ms": T0 + 1}
    phone.sync([needs_hj, plain])
    page = organiser.get(f"/organiser/events/{event['slug']}").get_data(as_text=True)
    assert "Jo Judge" in page and "pending" in page and "Walk-in Wally" in page
    organiser.form(f"/organiser/events/{event['slug']}/penalties/{needs_hj['id']}/approval", approved="1")
    pulled = phone.sync()["records"]
    assert [(r["type"], r["payload"]["record"], r["payload"]["approved"]) for r in pulled] == \
        [("approval", needs_hj["id"], True)]

    rows = list(csv.DictReader(io.StringIO(
        organiser.get(f"/organiser/events/{event['slug']}/penalties.csv").get_data(as_text=True))))
    assert [(r["player_name"], r["penalty"], r["approval"], r["judge"]) for r in rows] == [
        ("Ada Brook", "game_loss", "approved", "Jo Judge"), ("Walk-in Wally", "warning", "", "Jo Judge")]
    data = organiser.get(f"/organiser/events/{event['slug']}/penalties.json").get_json()
    assert data["event"]["slug"] == event["slug"]
    assert [p["id"] for p in data["penalties"]] == [needs_hj["id"], plain["id"]]


def test_the_event_list_links_every_event(organiser, event):
    page = organiser.get("/organiser/").get_data(as_text=True)
    assert re.search(rf'href="/organiser/events/{event["slug"]}">Spring Open<', page)


def test_the_csv_export_neutralises_formulas_and_gives_utc_times(organiser, event, client, now):
    phone = Phone(client, event, judge="=HYPERLINK(\"http://x\")", name="@SUM(A1)")
    now.advance(90_500)
    first = phone.penalty("+Wally", notes="=1+2")
    first["created_ms"] = T0 + 1_000
    phone.sync([first, {**phone.penalty("Tab", notes="\tlead"), "created_ms": T0 + 2_000},
                {**phone.penalty("-Ann", notes="plain note"), "created_ms": T0 + 3_000}])
    text = organiser.get(f"/organiser/events/{event['slug']}/penalties.csv").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [(r["player_name"], r["judge"], r["device"], r["notes"]) for r in rows] == [
        ("'+Wally", "'=HYPERLINK(\"http://x\")", "'@SUM(A1)", "'=1+2"),
        ("Tab", "'=HYPERLINK(\"http://x\")", "'@SUM(A1)", "'\tlead"),
        ("'-Ann", "'=HYPERLINK(\"http://x\")", "'@SUM(A1)", "plain note")]
    assert (rows[0]["created_utc"], rows[0]["received_utc"]) == (
        "2027-01-15T08:00:01Z", "2027-01-15T08:01:30Z")
    assert (rows[0]["created_ms"], rows[0]["received_ms"]) == (str(T0 + 1_000), str(T0 + 90_500))
    # no cell of the file starts like a formula
    for row in csv.reader(io.StringIO(text)):
        assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in row)


def _event_page(organiser, event):
    return html.unescape(organiser.get(f"/organiser/events/{event['slug']}").get_data(as_text=True))


def test_penalties_show_infraction_and_penalty_names_with_the_actions_in_a_stacked_table(
        organiser, event, client):
    phone = Phone(client, event, judge="Jo Judge", name="Phone")
    phone.sync([phone.penalty("Ada Brook", infraction="usc_minor", penalty="game_loss",
                              head_judge=True),
                phone.penalty("Ben Carter", infraction="tardiness",
                              penalty=["game_loss", "game_loss"]),
                phone.penalty("Chloe Diaz", infraction="slow_play", penalty=None)])
    page = _event_page(organiser, event)
    table = page[page.index('<table class="stack" id="penalties">'):]
    table = table[:table.index("</table>")]
    assert "Unsporting Conduct — Minor" in table and "usc_minor<" not in table
    assert ">Game Loss<" in table and "game_loss<" not in table
    assert ">Game Loss + Game Loss<" in table
    assert "Tournament Error — Slow Play" in table and ">no penalty<" in table
    assert f"Jo Judge <span class=\"muted\">(Phone #{phone.id})</span>" in table
    # on a phone the row is a card with the approval cell (class actions) on top
    assert '<td data-label="Head judge" class="actions">pending' in table
    assert "table.stack td.actions { order: -1; }" in page


def test_devices_are_named_by_judge_and_a_rejoin_shows_which_is_current(organiser, event, client, now):
    first = Phone(client, event, judge="Jo Judge", name="Phone")
    first.sync()
    now.advance(5 * 60_000)
    second = Phone(client, event, judge="Jo Judge", name="Phone")
    other = Phone(client, event, judge="Max Mills", name="Phone")
    now.advance(60_000)
    second.sync()
    page = _event_page(organiser, event)
    table = page[page.index('<table class="stack" id="devices">'):]
    rows = re.findall(r"<tr[^>]*>\s*<td data-label=\"Judge\" class=\"lead\">(.*?)</td>\s*"
                      r"<td data-label=\"Device\">(.*?)</td>\s*<td data-label=\"Joined\">(.*?)</td>\s*"
                      r"<td data-label=\"Last sync\">(.*?)</td>", table)
    assert rows == [
        ("Jo Judge <span class=\"muted\">(earlier join)</span>",
         f"Phone <span class=\"muted\">#{first.id}</span>", "6 min ago", "6 min ago"),
        ("Jo Judge <strong class=\"tag\">current</strong>",
         f"Phone <span class=\"muted\">#{second.id}</span>", "1 min ago", "just now"),
        ("Max Mills", f"Phone <span class=\"muted\">#{other.id}</span>", "1 min ago", "never")]


def test_a_paused_round_shows_its_time_left_once_and_controls_come_before_the_qr(organiser, event, now):
    organiser.form(f"/organiser/events/{event['slug']}/round", action="start", round_minutes="40")
    now.advance(60_000)
    page = _event_page(organiser, event)
    assert re.search(r'id="clock"[^>]*>39:00</p>', page)
    organiser.form(f"/organiser/events/{event['slug']}/round", action="pause")
    now.advance(5 * 60_000)
    page = _event_page(organiser, event)
    assert re.search(r'id="clock"[^>]*>39:00</p>', page)
    assert page.count("paused") == 1
    assert page.index("<h2>Round clock</h2>") < page.index('value="resume"') \
        < page.index("<h2>Join</h2>") < page.index("<svg")
    organiser.form(f"/organiser/events/{event['slug']}/round", action="end")
    page = _event_page(organiser, event)
    assert 'id="clock"' not in page and len(re.findall(r"\bended\b", page)) == 1  # not "recommended"


def test_the_favicon_is_the_apps_icon_or_no_content(tmp_path, request):
    from server_helpers import make_app

    dist = tmp_path / "dist"
    (dist / "icons").mkdir(parents=True)
    (dist / "index.html").write_text("<!doctype html>")
    client = make_app("sqlite", tmp_path, request, PWA_DIST=str(dist)).test_client()
    assert client.get("/favicon.ico").status_code == 204
    (dist / "icons" / "icon-192.png").write_bytes(b"\x89PNG\r\n\x1a\nicon")
    with client.get("/favicon.ico") as res:
        assert (res.status_code, res.mimetype, res.get_data()) == (200, "image/png", b"\x89PNG\r\n\x1a\nicon")
    assert '<link rel="icon" href="/favicon.ico">' in client.get("/organiser/login").get_data(as_text=True)


def test_player_import_skips_blank_lines_and_reports_duplicates(app, organiser, event):
    organiser.form(f"/organiser/events/{event['slug']}/players", csv="name\nAda Brook\n")
    page = organiser.form(f"/organiser/events/{event['slug']}/players",
                          csv="name,id\nBen Carter,7\n\n   \n,\nAda Brook,\nChloe Diaz,\nBen Carter,8\n")
    assert "2 players added. Skipped: Ada Brook (already in the event); Ben Carter (twice in the CSV)." \
        in html.unescape(page.get_data(as_text=True))
    with app.app_context():
        ev = db.session.get(Event, event["id"])
        assert [(p.name, p.external_id) for p in ev.players] == [
            ("Ada Brook", None), ("Ben Carter", "7"), ("Chloe Diaz", None)]
    bad = organiser.form(f"/organiser/events/{event['slug']}/players", csv="name,id\n\nDan Eve,1\n,5\n")
    assert "line 4: no name" in bad.get_data(as_text=True)


@pytest.mark.parametrize(("minutes", "message"), [
    ("0", "round minutes must be from 1 to 600"),
    ("601", "round minutes must be from 1 to 600"),
    ("-5", "round minutes must be a whole number from 1 to 600, not '-5'"),
    ("nan", "round minutes must be a whole number from 1 to 600, not 'nan'"),
    ("abc", "round minutes must be a whole number from 1 to 600, not 'abc'"),
    # what Python's float() would take: underscores, other scripts' digits, fractions, exponents
    ("1_0", "round minutes must be a whole number from 1 to 600, not '1_0'"),
    ("\uff11\uff12", "round minutes must be a whole number from 1 to 600, not '\uff11\uff12'"),
    ("5.5", "round minutes must be a whole number from 1 to 600, not '5.5'"),
    ("1e2", "round minutes must be a whole number from 1 to 600, not '1e2'"),
])
def test_round_minutes_outside_1_to_600_are_refused_clearly(app, organiser, event, minutes, message):
    page = organiser.form("/organiser/events", name="Odd", ruleset_level="wotf|casual",
                          round_minutes=minutes)
    assert message in html.unescape(page.get_data(as_text=True))
    page = organiser.form(f"/organiser/events/{event['slug']}/round", action="start",
                          round_minutes=minutes)
    assert message in html.unescape(page.get_data(as_text=True))
    with app.app_context():
        assert db.session.scalar(db.select(Event).where(Event.name == "Odd")) is None
    page = organiser.form("/organiser/events", name="Long", ruleset_level="wotf|casual",
                          round_minutes="600")
    with app.app_context():
        assert db.session.scalar(db.select(Event.round_minutes).where(Event.name == "Long")) == 600.0


def test_the_organiser_chooses_from_which_penalty_the_head_judge_confirms(app, organiser, client):
    # The Yu-Gi-Oh! guide names no head-judge step: the ruleset's default is Disqualification.
    organiser.form("/organiser/events", name="Locals", ruleset_level="yugioh|tier2")
    with app.app_context():
        ev = db.session.scalar(db.select(Event).where(Event.name == "Locals"))
        slug, setting = ev.slug, ev.head_judge_from
    assert setting == "disqualification_with_prizes"
    page = organiser.form(f"/organiser/events/{slug}/head-judge", head_judge_from="game_loss")
    assert "The head judge confirms from Game Loss up." in page.get_data(as_text=True)
    assert client.get(f"/api/events/{slug}/clock").get_json()["event"]["head_judge_from"] == "game_loss"
    page = organiser.form(f"/organiser/events/{slug}/head-judge", head_judge_from="yellow_card")
    assert "event.head_judge_from has an unknown value 'yellow_card'" in html.unescape(page.get_data(as_text=True))
    with app.app_context():
        assert db.session.scalar(db.select(Event.head_judge_from).where(Event.slug == slug)) == "game_loss"


def test_where_the_policy_says_who_confirms_the_setting_can_be_left_to_the_policy(app, organiser, event):
    page = organiser.get(f"/organiser/events/{event['slug']}").get_data(as_text=True)
    assert "the policy alone" in page
    organiser.form(f"/organiser/events/{event['slug']}/head-judge", head_judge_from="match_loss")
    organiser.form(f"/organiser/events/{event['slug']}/head-judge", head_judge_from="")
    with app.app_context():
        assert db.session.get(Event, event["id"]).head_judge_from is None


def test_the_latest_decision_by_when_it_was_made_wins_on_the_page_and_on_the_phones(app, organiser, event, client,
                                                                                     now):
    """A head judge approves offline; the organiser declines later, online; the approval
    arrives last. The organiser page, the export and the phones' history all say declined."""
    from shared_rules.history import decisions

    head = Phone(client, event, judge="Hana Head", name="head")
    with app.app_context():
        db.session.get(Device, head.id).role = "head_judge"
        db.session.commit()
    floor = Phone(client, event, judge="Jo Judge")
    needs_hj = floor.penalty("Ada Brook", infraction="usc_minor", penalty="game_loss", head_judge=True)
    needs_hj["created_ms"] = T0 - 60_000
    floor.sync([needs_hj])
    offline_ok = head.record("approval", {"record": needs_hj["id"], "approved": True}, created_ms=T0 - 30_000)
    now.advance(5_000)
    organiser.form(f"/organiser/events/{event['slug']}/penalties/{needs_hj['id']}/approval", approved="0")
    head.sync([offline_ok])
    rows = list(csv.DictReader(io.StringIO(
        organiser.get(f"/organiser/events/{event['slug']}/penalties.csv").get_data(as_text=True))))
    assert [r["approval"] for r in rows] == ["declined"]
    pulled = floor.sync_all()["records"]
    assert decisions(list(floor.held.values())) == {needs_hj["id"]: False}
    assert sorted(r["payload"]["approved"] for r in pulled if r["type"] == "approval") == [False, True]


def test_exports_list_penalties_in_the_order_they_were_given_not_received(organiser, event, client):
    """A phone that was offline sends its earlier penalty last; the list, CSV and JSON still
    put it first, and a penalty issued in place of a flagged one stands where that one stood."""
    online, offline = Phone(client, event, judge="Ann Online"), Phone(client, event, judge="Olaf Offline")
    later = {**online.penalty("Ada Brook", penalty="game_loss", infraction="usc_minor"), "created_ms": T0 + 60_000}
    last = {**online.penalty("Ada Brook", penalty="warning"), "created_ms": T0 + 120_000}
    online.sync([later, last])
    earlier = {**offline.penalty("Ada Brook", penalty="warning"), "created_ms": T0 + 1_000}
    offline.sync([earlier])
    instead = {**online.penalty("Ada Brook", penalty="match_loss", infraction="usc_minor", replaces=later["id"]),
               "created_ms": T0 + 600_000}
    online.sync([instead])
    want = [earlier["id"], later["id"], instead["id"], last["id"]]
    rows = list(csv.DictReader(io.StringIO(
        organiser.get(f"/organiser/events/{event['slug']}/penalties.csv").get_data(as_text=True))))
    assert [r["id"] for r in rows] == want
    assert [int(r["seq"]) for r in rows] == [3, 1, 4, 2]
    data = organiser.get(f"/organiser/events/{event['slug']}/penalties.json").get_json()
    assert [p["id"] for p in data["penalties"]] == want
    page = organiser.get(f"/organiser/events/{event['slug']}").get_data(as_text=True)
    table = page.split('id="penalties"', 1)[1].split("</table>", 1)[0]
    shown = re.findall(r'data-label="Penalty">([^<]+)<', table)
    assert shown == ["Warning", "Game Loss", "Match Loss", "Warning"]

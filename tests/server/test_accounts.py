"""People's own accounts (server/accounts.py, organiser_accounts.py, api_account.py): the first
account made from ORGANISER_PASSWORD, invitations by one-time link, what each role may do,
password changes ending sessions, phones joined as a person (their name, their role, revoked
with them), and bad input on every new field."""

import html
import re

import pytest
from conftest import log_in, staff_client
from server_helpers import Phone, add_event

from server.accounts import LINK_HOURS
from server.extensions import db
from server.models import Account, Device, Event, OrganiserSession


@pytest.fixture
def event(app):
    return add_event(app, players=("Ada Brook", "Ben Carter"))


def _page(res):
    return html.unescape(res.get_data(as_text=True))


def _code(app, event):
    with app.app_context():
        return db.session.get(Event, event["id"]).join_code


def test_the_first_login_makes_the_organiser_account_from_the_setting(app, client, now):
    app.config["PASSWORD_HASH_METHOD"] = None  # the server's own method (the suite sets a cheap one)
    with app.app_context():
        assert db.session.query(Account).count() == 0
    res = client.post("/organiser/login", data={"username": "Organiser ", "password": "letmein"})
    assert res.status_code == 302
    with app.app_context():
        [account] = db.session.scalars(db.select(Account)).all()
        assert (account.login, account.name, account.admin) == ("organiser", "Organiser", True)
        assert account.password_hash.startswith("scrypt:") and "letmein" not in account.password_hash
    # after that, the setting is not read again: a changed setting opens nothing
    app.config["ORGANISER_PASSWORD"] = "another one"
    assert app.test_client().post("/organiser/login", data={"username": "organiser",
                                                            "password": "another one"}).status_code == 401


def test_without_the_setting_and_accounts_the_login_page_says_how_to_begin(app, client):
    app.config["ORGANISER_PASSWORD"] = None
    page = _page(client.post("/organiser/login", data={"username": "organiser", "password": "x"}))
    assert "No account exists yet: set ORGANISER_PASSWORD to make the first organiser account (login organiser)." \
        in page


def test_a_password_change_ends_every_other_session_and_keeps_this_one(app, organiser, client):
    other = log_in(app.test_client())
    copied = organiser.get_cookie("session").value
    page = _page(organiser.form("/organiser/account/password", current="letmein", password="a new long one",
                                repeat="a new long one"))
    assert "Password changed: every other session of your account has ended." in page
    assert organiser.get("/organiser/").status_code == 200  # this browser has a new session
    assert other.get("/organiser/").status_code == 302  # the other one ended
    thief = app.test_client()
    thief.set_cookie("session", copied)
    assert thief.get("/organiser/").status_code == 302  # the old cookie of this browser too
    assert app.test_client().post("/organiser/login", data={"username": "organiser",
                                                            "password": "letmein"}).status_code == 401
    log_in(app.test_client(), password="a new long one")


@pytest.mark.parametrize(("fields", "message"), [
    ({"current": "wrong", "password": "a new long one", "repeat": "a new long one"}, "the current password is wrong"),
    ({"current": "letmein", "password": "short", "repeat": "short"}, "the password must have 10 to 200 characters"),
    ({"current": "letmein", "password": "a new long one", "repeat": "a new long 0ne"}, "the two passwords differ"),
    ({"current": "letmein", "password": "x" * 201, "repeat": "x" * 201}, "the password must have 10 to 200"),
    ({"current": "letmein", "password": "ten chars\0!", "repeat": "ten chars\0!"}, "holds a character that is not"),
])
def test_a_refused_password_change_says_why_and_keeps_the_old_one(app, organiser, fields, message):
    res = organiser.form("/organiser/account/password", **fields)
    assert res.status_code == 400 and message in _page(res)
    assert organiser.get("/organiser/").status_code == 200
    log_in(app.test_client())  # the old password still works


def test_an_invited_scorekeeper_sets_a_password_and_may_run_rounds_but_not_change_settings(app, organiser, event):
    keeper = staff_client(app, organiser, event, "Sam Score", "scorekeeper")
    slug = event["slug"]
    assert "Round 1 started." in _page(keeper.form(f"/organiser/events/{slug}/round", action="start",
                                                   round_minutes="40"))
    assert "1 player added." in _page(keeper.form(f"/organiser/events/{slug}/players", csv="name\nCy Dunn\n"))
    page = _page(keeper.get(f"/organiser/events/{slug}"))
    assert 'id="settings-read-only"' in page and 'id="stage-setting"' not in page
    assert 'id="staff"' not in page and 'id="new-join-code"' not in page and 'id="audit-link"' not in page
    for path, data in [("stage", {"stage": "elimination"}), ("head-judge", {"head_judge_from": "match_loss"}),
                       ("call-escalation", {"seconds": "90"}), ("join-code", {}),
                       ("staff", {"name": "Eve", "role": "organiser"})]:
        res = keeper.form(f"/organiser/events/{slug}/{path}", **data)
        assert res.status_code == 403, path
        assert "Your role in this event (scorekeeper) does not allow this." in _page(res)
    with app.app_context():
        assert db.session.get(Event, event["id"]).stage == "swiss"
    assert keeper.get(f"/organiser/events/{slug}/audit").status_code == 403
    assert keeper.get("/organiser/people").status_code == 403
    # another event: no role there
    other = add_event(app, ruleset="wotf")
    res = keeper.get(f"/organiser/events/{other['slug']}")
    assert res.status_code == 403 and "You have no role that allows this." in _page(res)
    assert other["slug"] not in _page(keeper.get("/organiser/"))


def test_an_invitation_link_works_once_and_not_after_seven_days(app, organiser, event, now):
    page = _page(organiser.form(f"/organiser/events/{event['slug']}/staff", name="Hana Head", role="head_judge"))
    assert "Hana Head is invited as head judge." in page
    link = re.search(r'<code class="link">[^<]*(/organiser/welcome/[^<]+)</code>', page).group(1)
    late = app.test_client()
    now.advance(LINK_HOURS["password"] * 3600_000)
    res = late.get(link)
    assert res.status_code == 404 and "This link no longer works" in _page(res)
    # a new link from the people page works, and only once
    organiser = log_in(app.test_client())  # the earlier session ended after 12 hours
    people = _page(organiser.get("/organiser/people"))
    account = re.search(r'data-account="(\d+)">\s*<td[^>]*>Hana Head', people).group(1)
    page = _page(organiser.form(f"/organiser/people/{account}", action="link"))
    assert "A new password link for Hana Head (it works once, for 7 days)" in page
    link = re.search(r'<code class="link">[^<]*(/organiser/welcome/[^<]+)</code>', page).group(1)
    first = app.test_client()
    first.get(link)
    with first.session_transaction() as session:
        token = session["csrf"]
    fields = {"csrf": token, "username": "hana", "password": "a long password", "repeat": "a long password"}
    assert first.post(link, data=fields).status_code == 302
    second = app.test_client()
    res = second.get(link)
    assert res.status_code == 404 and "used, expired or replaced by a newer one" in _page(res)


@pytest.mark.parametrize(("username", "password", "repeat", "message"), [
    ("ab", "a long password", "a long password", "the login must have 3 to 64 letters, digits or . _ - @"),
    ("has space", "a long password", "a long password", "the login must have 3 to 64"),
    ("x" * 65, "a long password", "a long password", "the login must have 3 to 64"),
    ("nul\0", "a long password", "a long password", "the login must have 3 to 64"),
    ("Organiser", "a long password", "a long password", "the login 'organiser' is taken: choose another"),
    ("fay", "short", "short", "the password must have 10 to 200 characters"),
    ("fay", "a long password", "another long one", "the two passwords differ"),
])
def test_a_refused_invitation_form_says_why_and_the_link_still_works(app, organiser, event, username, password,
                                                                      repeat, message):
    page = _page(organiser.form(f"/organiser/events/{event['slug']}/staff", name="Fay Floor", role="floor_judge"))
    link = re.search(r'<code class="link">[^<]*(/organiser/welcome/[^<]+)</code>', page).group(1)
    client = app.test_client()
    client.get(link)
    with client.session_transaction() as session:
        token = session["csrf"]
    res = client.post(link, data={"csrf": token, "username": username, "password": password, "repeat": repeat})
    assert res.status_code == 400 and message in _page(res)
    with app.app_context():
        fay = db.session.scalar(db.select(Account).where(Account.name == "Fay Floor"))
        assert (fay.login, fay.password_hash) == (None, None)
    assert client.get(link).status_code == 200


def test_a_welcome_form_without_its_token_changes_nothing(app, organiser, event):
    page = _page(organiser.form(f"/organiser/events/{event['slug']}/staff", name="Fay Floor", role="floor_judge"))
    link = re.search(r'<code class="link">[^<]*(/organiser/welcome/[^<]+)</code>', page).group(1)
    res = app.test_client().post(link, data={"username": "fay", "password": "a long password",
                                             "repeat": "a long password"})
    assert res.status_code == 400


@pytest.mark.parametrize(("name", "role", "message"), [
    ("", "floor_judge", "the name is needed"),
    ("   ", "floor_judge", "the name is needed"),
    ("A\0B", "floor_judge", "the name holds a NUL character"),
    ("x" * 101, "floor_judge", "the name is longer than 100 characters"),
    ("Fay", "admin", "the role must be one of organiser, head_judge, scorekeeper, floor_judge"),
    ("Fay", "9" * 30, "the role must be one of"),
])
def test_a_refused_invitation_says_why_and_makes_nobody(app, organiser, event, name, role, message):
    page = _page(organiser.form(f"/organiser/events/{event['slug']}/staff", name=name, role=role))
    assert message in page
    with app.app_context():
        assert db.session.query(Account).count() == 1  # the organiser only


def test_a_phone_joins_as_the_logged_in_person_and_follows_their_role(app, organiser, event):
    keeper = staff_client(app, organiser, event, "Sam Score", "scorekeeper")
    me = keeper.get("/api/me").get_json()
    assert me == {"name": "Sam Score", "events": [{"slug": event["slug"], "name": "Test Open",
                                                    "role": "scorekeeper", "device_role": "scorekeeper"}]}
    body = keeper.post("/api/me/devices", json={"event": event["slug"], "device_name": "Pixel"}).get_json()
    assert (body["role"], body["judge_name"], body["event"]["slug"]) == ("scorekeeper", "Sam Score", event["slug"])
    headers = {"Authorization": f"Bearer {body['token']}"}
    phone = app.test_client()  # the token alone works, without the session (offline as before)
    assert phone.get(f"/api/events/{event['slug']}", headers=headers).get_json()["me"] == {
        "device_id": body["device_id"], "role": "scorekeeper", "judge_name": "Sam Score"}
    # a role change reaches the phone; an organiser's phone joins as head judge
    organiser.form(f"/organiser/events/{event['slug']}/staff/{keeper.account}", action="role", role="organiser")
    assert phone.get(f"/api/events/{event['slug']}", headers=headers).get_json()["me"]["role"] == "head_judge"
    # the device's own role is not set apart from the person's
    page = _page(organiser.form(f"/organiser/events/{event['slug']}/devices/{body['device_id']}", action="role",
                                role="floor_judge"))
    assert "follows its person's role: change it under Staff" in page
    code = _code(app, event)
    organiser.form(f"/organiser/events/{event['slug']}/staff/{keeper.account}", action="remove")
    res = phone.post(f"/api/events/{event['slug']}/sync", headers=headers, json={"device": body["device_id"]})
    assert res.status_code == 401
    assert _code(app, event) != code  # they knew the code: a new one
    assert keeper.post("/api/me/devices", json={"event": event["slug"], "device_name": "Pixel"}).status_code == 403


def test_the_account_api_needs_a_session(app, client, event):
    assert client.get("/api/me").status_code == 401
    res = client.post("/api/me/devices", json={"event": event["slug"], "device_name": "Pixel"})
    assert res.status_code == 401 and res.get_json()["error"]["code"] == "unauthorized"


@pytest.mark.parametrize("body", [
    {}, {"event": "x"}, {"event": 5, "device_name": "p"}, {"event": "a\0b", "device_name": "p"},
    {"event": "x" * 17, "device_name": "p"}, {"event": "e", "device_name": "\ud800"},
    {"event": "e", "device_name": "p" * 101}, {"event": "e", "device_name": ["p"] * 1000},
])
def test_bad_account_join_bodies_are_400(app, organiser, body):
    res = organiser.post("/api/me/devices", json=body)
    assert res.status_code == 400 and res.get_json()["error"]["code"] == "bad_request"


def test_a_one_time_phone_link_joins_once_as_the_person(app, organiser, event, now):
    keeper = staff_client(app, organiser, event, "Sam Score", "scorekeeper")
    page = _page(keeper.form("/organiser/account/phone", event=event["slug"]))
    url = re.search(r'<code class="link" id="phone-url">([^<]+)</code>', page).group(1)
    assert url.startswith("http://localhost/#/join/link/") and 'role="img"' in page
    token = url.rsplit("/", 1)[1]
    phone = app.test_client()
    body = phone.post("/api/join/link", json={"link": token, "device_name": "Tablet"}).get_json()
    assert (body["judge_name"], body["role"]) == ("Sam Score", "scorekeeper")
    again = phone.post("/api/join/link", json={"link": token, "device_name": "Tablet"})
    assert again.status_code == 404
    # a fresh link stops working after 24 hours
    token = re.search(r"/#/join/link/([^<]+)</code>",
                      _page(keeper.form("/organiser/account/phone", event=event["slug"]))).group(1)
    now.advance(24 * 3600_000)
    assert phone.post("/api/join/link", json={"link": token, "device_name": "Tablet"}).status_code == 404
    # no phone link for an event one has no role in
    log_in(keeper, keeper.login, "correct horse battery")  # the earlier session ended after 12 hours
    other = add_event(app, ruleset="wotf")
    page = _page(keeper.form("/organiser/account/phone", event=other["slug"]))
    assert "you have no role in this event" in page and 'id="phone-url"' not in page


@pytest.mark.parametrize("link", ["", "x", "a\0b", "\ud800", "x" * 201, 5, None])
def test_bad_join_links_are_refused(app, client, link):
    res = client.post("/api/join/link", json={"link": link, "device_name": "p"})
    assert res.status_code in (400, 404)
    assert res.get_json()["error"]["code"] in ("bad_request", "not_found")


def test_wrong_join_links_are_rate_limited_like_join_codes(app, client):
    app.config["JOIN_LIMITS"] = "3 per minute"
    codes = [client.post("/api/join/link", json={"link": f"guess{i}", "device_name": "p"}).status_code
             for i in range(4)]
    assert codes == [404, 404, 404, 429]


def test_revoking_a_person_ends_their_sessions_and_revokes_their_phones(app, organiser, event):
    keeper = staff_client(app, organiser, event, "Sam Score", "scorekeeper")
    body = keeper.post("/api/me/devices", json={"event": event["slug"], "device_name": "Pixel"}).get_json()
    judge = Phone(app.test_client(), event, judge="Jo Judge")  # a phone joined by code: not touched
    code = _code(app, event)
    page = _page(organiser.form(f"/organiser/people/{keeper.account}", action="revoke"))
    assert "Sam Score is revoked: their sessions ended and their devices were revoked." in page
    assert keeper.get("/organiser/").status_code == 302
    assert app.test_client().post("/organiser/login", data={"username": keeper.login,
                                                            "password": "correct horse battery"}).status_code == 401
    with app.app_context():
        assert db.session.get(Device, body["device_id"]).revoked_ms is not None
        assert db.session.query(OrganiserSession).filter_by(account_id=keeper.account).count() == 0
    assert _code(app, event) != code
    assert judge.sync()["results"] == []


def test_the_last_administrator_cannot_be_revoked(app, organiser):
    with app.app_context():
        me = db.session.scalar(db.select(Account.id))
    page = _page(organiser.form(f"/organiser/people/{me}", action="revoke"))
    assert "the last administrator cannot be revoked" in page
    assert organiser.get("/organiser/").status_code == 200


@pytest.mark.parametrize("account_id", ["999", "99999999999999999999"])
def test_unknown_people_are_refused_without_a_server_error(app, organiser, event, account_id):
    assert "person not found" in _page(organiser.form(f"/organiser/people/{account_id}", action="link"))
    page = _page(organiser.form(f"/organiser/events/{event['slug']}/staff/{account_id}", action="role",
                                role="head_judge"))
    assert "person not found" in page
    page = _page(organiser.form(f"/organiser/events/{event['slug']}/staff-add", account=account_id, role="head_judge"))
    assert "person not found" in page


def test_an_admin_adds_someone_with_an_account_to_another_event(app, organiser, event):
    keeper = staff_client(app, organiser, event, "Sam Score", "scorekeeper")
    other = add_event(app, ruleset="wotf")
    page = _page(organiser.get(f"/organiser/events/{other['slug']}"))
    assert re.search(rf'<option value="{keeper.account}">Sam Score \(sam.score\)</option>', page)
    page = _page(organiser.form(f"/organiser/events/{other['slug']}/staff-add", account=str(keeper.account),
                                role="head_judge"))
    assert "Sam Score is now head judge." in page
    assert [e["role"] for e in keeper.get("/api/me").get_json()["events"]] == ["head_judge", "scorekeeper"]


def test_an_event_organiser_invites_but_does_not_pick_from_every_account(app, organiser, event):
    boss = staff_client(app, organiser, event, "Olga Org", "organiser")
    other = add_event(app, ruleset="wotf")
    outsider = staff_client(app, organiser, other, "Otto Out", "floor_judge")
    page = _page(boss.form(f"/organiser/events/{event['slug']}/staff-add", account=str(outsider.account),
                           role="head_judge"))
    assert "only an administrator adds an existing person to an event: invite them" in page
    assert "Otto Out" not in _page(boss.get(f"/organiser/events/{event['slug']}"))
    assert "Ivy Ink is invited as floor judge." in _page(boss.form(f"/organiser/events/{event['slug']}/staff",
                                                                   name="Ivy Ink", role="floor_judge"))


def test_the_password_link_command_lets_a_locked_out_person_in(app, organiser):
    runner = app.test_cli_runner()
    out = runner.invoke(args=["password-link", "ORGANISER"]).output.strip()
    assert re.fullmatch(r"http://127\.0\.0\.1:5000/organiser/welcome/[\w-]{40,}", out)
    path = out.removeprefix("http://127.0.0.1:5000")
    client = app.test_client()
    client.get(path)
    with client.session_transaction() as session:
        token = session["csrf"]
    assert client.post(path, data={"csrf": token, "password": "a brand new one", "repeat": "a brand new one"}
                       ).status_code == 302
    assert organiser.get("/organiser/").status_code == 302  # the sessions of the account ended
    log_in(app.test_client(), password="a brand new one")
    assert "no live account has the login 'nobody'" in runner.invoke(args=["password-link", "nobody"]).output


@pytest.mark.parametrize("token", ["x", "%00", "%ED%A0%80", "9" * 500])
def test_odd_welcome_tokens_are_a_page_saying_the_link_is_dead(client, token):
    res = client.get(f"/organiser/welcome/{token}")
    assert res.status_code == 404 and "This link no longer works" in _page(res)


@pytest.mark.parametrize("slug", ["", "\0", "x" * 500, "nope"])
def test_a_phone_link_for_an_odd_event_says_why(organiser, slug):
    page = _page(organiser.form("/organiser/account/phone", event=slug))
    assert "not found" in page and 'id="phone-url"' not in page

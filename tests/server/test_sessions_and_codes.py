"""The organiser's session (Secure over HTTPS, an expiry, logout ends it on the server) and
join codes (a new code stops the old one; revoking a device changes the code)."""

import html

import pytest
from conftest import LOGIN
from server_helpers import Phone, add_event, make_app

from server.extensions import db
from server.models import Event, OrganiserSession


def _cookie(res):
    [cookie] = [v for k, v in res.headers.items() if k == "Set-Cookie" and v.startswith("session=")]
    return cookie


def test_the_session_cookie_is_secure_over_https_only_with_an_expiry(app, client, now):
    plain = _cookie(client.post("/organiser/login", data=LOGIN))
    assert "Secure" not in plain and "HttpOnly" in plain and "SameSite=Lax" in plain
    assert "; Expires=" in plain  # the browser forgets it after 12 hours; the server does too:
    with app.app_context():
        assert db.session.scalar(db.select(OrganiserSession.expires_ms)) == now.ms + 12 * 3600_000
    https = _cookie(client.post("/organiser/login", data=LOGIN,
                                base_url="https://organiser.example"))
    assert "; Secure" in https


def test_behind_a_trusted_proxy_forwarded_https_makes_it_secure(tmp_path, request, now):
    app = make_app("sqlite", tmp_path, request, TRUST_PROXY=1)
    with app.app_context():
        db.create_all()
    client = app.test_client()
    res = client.post("/organiser/login", data=LOGIN,
                      headers={"X-Forwarded-Proto": "https"})
    assert "; Secure" in _cookie(res)
    untrusted = make_app("sqlite", tmp_path, request).test_client()
    res = untrusted.post("/organiser/login", data=LOGIN,
                         headers={"X-Forwarded-Proto": "https"})
    assert "Secure" not in _cookie(res)  # without TRUST_PROXY the header is not believed


def test_logout_ends_the_session_on_the_server_so_a_copied_cookie_stops_working(app, organiser):
    copied = organiser.get_cookie("session").value
    assert organiser.get("/organiser/").status_code == 200
    organiser.form("/organiser/logout")
    thief = app.test_client()
    thief.set_cookie("session", copied)
    res = thief.get("/organiser/")
    assert res.status_code == 302 and "/organiser/login" in res.headers["Location"]
    with app.app_context():
        assert db.session.query(OrganiserSession).count() == 0


def test_a_session_ends_after_its_lifetime(app, organiser, now):
    now.advance(12 * 3600_000 - 1)
    assert organiser.get("/organiser/").status_code == 200
    now.advance(1)
    assert organiser.get("/organiser/").status_code == 302


def test_a_new_login_drops_expired_sessions(app, client, now):
    client.post("/organiser/login", data=LOGIN)
    now.advance(13 * 3600_000)
    app.test_client().post("/organiser/login", data=LOGIN)
    with app.app_context():
        assert [s.expires_ms for s in db.session.scalars(db.select(OrganiserSession))] == [now.ms + 12 * 3600_000]


@pytest.fixture
def event(app):
    return add_event(app)


def _code(app, event):
    with app.app_context():
        return db.session.get(Event, event["id"]).join_code


def test_a_new_join_code_stops_the_old_one_at_once(app, organiser, client, event):
    joined = Phone(client, event)
    page = organiser.form(f"/organiser/events/{event['slug']}/join-code").get_data(as_text=True)
    code = _code(app, event)
    assert code != event["code"] and len(code) == 8
    assert f"New join code: {code}. The old code no longer works; phones that joined keep working." in page
    old = client.post("/api/join", json={"code": event["code"], "device_name": "p", "judge_name": "j"})
    assert old.status_code == 404
    assert Phone(client, {**event, "code": code}).id > joined.id
    assert joined.sync()["cursor"] == 0  # the phone that joined before still syncs


def test_a_revoked_judge_cannot_rejoin_with_the_code_they_know(app, organiser, client, event):
    revoked, other = Phone(client, event, judge="Rex"), Phone(client, event, judge="Olga")
    page = organiser.form(f"/organiser/events/{event['slug']}/devices/{revoked.id}", action="revoke")
    code = _code(app, event)
    assert code != event["code"]
    assert f"The join code is now {code}" in page.get_data(as_text=True)
    # the message names the judge first, not only the device (every phone may be "Phone")
    assert f"Rex · phone #{revoked.id} revoked." in html.unescape(page.get_data(as_text=True))
    assert revoked.sync(expect=401)["error"]["message"] == "this device was revoked by the organiser"
    again = client.post("/api/join", json={"code": event["code"], "device_name": "p", "judge_name": "Rex"})
    assert again.status_code == 404
    assert other.sync()["results"] == []
    assert client.get(f"/api/events/{event['slug']}", headers=other.headers).status_code == 200

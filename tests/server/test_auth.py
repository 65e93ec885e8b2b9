"""Joining, tokens and roles; what the public may see."""

import json

import pytest
from server_helpers import Phone, add_event, set_role

from server.auth import hash_token
from server.clock import start_round
from server.extensions import db
from server.models import Device, Event


@pytest.fixture
def event(app):
    return add_event(app, players=("Ada Brook", "Ben Carter"))


def test_joining_gives_a_floor_judge_token_stored_only_hashed(app, client, event):
    res = client.post("/api/join", json={"code": event["code"].lower(), "device_name": "pixel",
                                          "judge_name": "Jo Judge"})
    assert res.status_code == 200
    body = res.get_json()
    assert body["role"] == "floor_judge"
    assert body["event"]["slug"] == event["slug"] and body["event"]["id"] == event["id"]
    assert len(body["token"]) >= 40
    with app.app_context():
        device = db.session.get(Device, body["device_id"])
        assert device.token_hash == hash_token(body["token"]) != body["token"]
        assert (device.name, device.judge_name) == ("pixel", "Jo Judge")


def test_a_wrong_join_code_is_404(client, event):
    res = client.post("/api/join", json={"code": "WRONG123", "device_name": "p", "judge_name": "j"})
    assert res.status_code == 404
    assert res.get_json() == {"error": {"code": "not_found", "message": "join code not found"}}


def test_wrong_join_codes_are_rate_limited_per_address(app, client, event):
    app.config["JOIN_LIMITS"] = "3 per minute"
    codes = [client.post("/api/join", json={"code": f"GUESS{i:03d}", "device_name": "p",
                                            "judge_name": "j"}).status_code for i in range(4)]
    assert codes == [404, 404, 404, 429]
    right = {"code": event["code"], "device_name": "p", "judge_name": "j"}
    res = client.post("/api/join", json=right)
    assert res.status_code == 429  # over the limit even the right code is refused: no oracle
    assert res.get_json()["error"] == {
        "code": "rate_limited",
        "message": "too many wrong join codes from this address (at most 3 per minute); wait and try again"}
    assert client.post("/api/join", json=right,
                       environ_base={"REMOTE_ADDR": "10.9.9.9"}).status_code == 200


def test_a_briefing_of_60_judges_behind_one_address_joins_while_some_mistype(app, client, event):
    # the default limits: 60 wrong codes per 10 minutes, 300 per day
    right = {"code": event["code"], "device_name": "phone"}
    statuses = []
    for i in range(60):
        if i % 3 == 0:  # a third of them mistype once, a few twice
            statuses.append(client.post("/api/join", json={**right, "code": "WRONGCDE",
                                                           "judge_name": f"J{i}"}).status_code)
        if i % 9 == 0:
            statuses.append(client.post("/api/join", json={**right, "code": event["code"][:-1],
                                                           "judge_name": f"J{i}"}).status_code)
        statuses.append(client.post("/api/join", json={**right, "judge_name": f"J{i}"}).status_code)
    assert statuses.count(200) == 60 and statuses.count(404) == 27 and 429 not in statuses
    with app.app_context():
        assert db.session.query(Device).count() == 60


def test_a_guessing_address_is_stopped_and_others_are_not(app, client, event):
    guesses = [client.post("/api/join", json={"code": f"{i:08d}", "device_name": "p", "judge_name": "x"},
                           environ_base={"REMOTE_ADDR": "203.0.113.9"}).status_code for i in range(70)]
    assert guesses == [404] * 60 + [429] * 10
    right = {"code": event["code"], "device_name": "p", "judge_name": "j"}
    assert client.post("/api/join", json=right, environ_base={"REMOTE_ADDR": "203.0.113.9"}).status_code == 429
    assert client.post("/api/join", json=right, environ_base={"REMOTE_ADDR": "198.51.100.7"}).status_code == 200


def test_behind_a_trusted_proxy_the_forwarded_address_is_counted(tmp_path, request):
    from server_helpers import make_app

    app = make_app("sqlite", tmp_path, request, TRUST_PROXY=1, JOIN_LIMITS="2 per minute")
    client = app.test_client()
    with app.app_context():
        db.create_all()

    def join(forwarded, peer="10.0.0.1"):
        return client.post("/api/join", json={"code": "NOPE0000", "device_name": "p", "judge_name": "j"},
                           headers={"X-Forwarded-For": forwarded}, environ_base={"REMOTE_ADDR": peer}).status_code

    assert [join("1.1.1.1"), join("1.1.1.1"), join("1.1.1.1")] == [404, 404, 429]
    assert join("2.2.2.2") == 404  # another client behind the same proxy
    # only one hop is trusted: an address a client puts in front of the chain is not believed
    assert join("9.9.9.9, 1.1.1.1") == 429


@pytest.mark.parametrize("header", [None, "Bearer", "Bearer nonsense", "Basic abc"])
def test_a_missing_or_wrong_token_is_401(client, event, header):
    headers = {"Authorization": header} if header else {}
    for method, path in [("get", f"/api/events/{event['slug']}"),
                         ("post", f"/api/events/{event['slug']}/sync")]:
        res = getattr(client, method)(path, headers=headers, json={"device": 1})
        assert res.status_code == 401
        assert res.get_json()["error"]["code"] == "unauthorized"


def test_a_token_of_another_event_is_401(app, client, event):
    other = add_event(app)
    phone = Phone(client, other)
    res = client.get(f"/api/events/{event['slug']}", headers=phone.headers)
    assert res.status_code == 401


def test_a_revoked_device_is_401(app, client, event):
    phone = Phone(client, event)
    assert client.get(f"/api/events/{event['slug']}", headers=phone.headers).status_code == 200
    with app.app_context():
        db.session.get(Device, phone.id).revoked_ms = 1
        db.session.commit()
    res = client.get(f"/api/events/{event['slug']}", headers=phone.headers)
    assert res.status_code == 401
    assert res.get_json()["error"]["message"] == "this device was revoked by the organiser"


def test_a_scorekeeper_may_not_read_penalty_history(app, client, event):
    keeper = Phone(client, event)
    set_role(app, keeper.id, "scorekeeper")
    res = client.get(f"/api/events/{event['slug']}/players/1/history", headers=keeper.headers)
    assert res.status_code == 403
    assert res.get_json() == {"error": {"code": "forbidden",
                                        "message": "role floor_judge or head_judge or organiser required"}}


def test_event_detail_lists_players_tables_and_me(app, client, event):
    phone = Phone(client, event, judge="Jo Judge")
    body = client.get(f"/api/events/{event['slug']}", headers=phone.headers).get_json()
    assert body["players"] == [{"id": event["players"]["Ada Brook"], "name": "Ada Brook"},
                               {"id": event["players"]["Ben Carter"], "name": "Ben Carter"}]
    assert body["me"] == {"device_id": phone.id, "role": "floor_judge", "judge_name": "Jo Judge"}
    assert body["rounds"] == []


def test_public_endpoints_show_no_names_or_penalties(app, client, event, now):
    with app.app_context():
        start_round(db.session.scalar(db.select(Event).where(Event.slug == event["slug"])))
    phone = Phone(client, event, judge="Jo Judge")
    phone.sync([phone.penalty(event["players"]["Ada Brook"], notes="Ada Brook stalled"),
                phone.record("time_extension", {"table": 1, "round": 1, "minutes": 3,
                                                "reason": "deck_check"})])
    texts = [client.get(path).get_data(as_text=True) for path in
             (f"/api/events/{event['slug']}/clock", "/api/time", "/api/openapi.json")]
    for text in texts:
        for private in ("Ada Brook", "Ben Carter", "Jo Judge", "stalled", "slow_play", event["code"]):
            assert private not in text
    clock = json.loads(texts[0])
    assert clock["tables"] == [{"number": 1, "extension_minutes": 3.0, "end_ms": now.ms + 53 * 60_000}]

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


def test_join_attempts_are_rate_limited_per_address(app, client, event, now):
    app.config["JOIN_RATE_LIMIT"] = (3, 60)
    codes = [client.post("/api/join", json={"code": f"GUESS{i:03d}", "device_name": "p",
                                            "judge_name": "j"}).status_code for i in range(4)]
    assert codes == [404, 404, 404, 429]
    right = {"code": event["code"], "device_name": "p", "judge_name": "j"}
    assert client.post("/api/join", json=right).status_code == 429
    assert client.post("/api/join", json=right,
                       environ_base={"REMOTE_ADDR": "10.9.9.9"}).status_code == 200
    now.advance(61_000)
    assert client.post("/api/join", json=right).status_code == 200


def test_successful_joins_do_not_count_toward_the_limit(app, client, event, now):
    # a briefing: every judge joins from the venue's one address within a minute
    right = {"code": event["code"], "device_name": "p", "judge_name": "j"}
    codes = [client.post("/api/join", json={**right, "judge_name": f"Judge {i}"}).status_code
             for i in range(15)]
    assert codes == [200] * 15
    wrong = {**right, "code": "WRONG123"}
    codes = [client.post("/api/join", json=wrong).status_code for _ in range(11)]
    assert codes == [404] * 10 + [429]
    res = client.post("/api/join", json=right)
    assert res.status_code == 429
    assert res.get_json()["error"] == {
        "code": "rate_limited", "message": "too many wrong join codes: at most 10 per 60 seconds"}


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

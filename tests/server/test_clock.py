"""Round clocks: start, pause, resume, end on the server clock; table extensions; caching."""

import pytest
from server_helpers import T0, Phone, add_event

from server import clock as clocks
from server.extensions import db
from server.imports import import_pairings
from server.models import Event

MIN = 60_000


@pytest.fixture
def event(app):
    return add_event(app, ruleset="wotf", round_minutes=50.0)


def act(app, event, action, **kw):
    with app.app_context():
        ev = db.session.scalar(db.select(Event).where(Event.slug == event["slug"]))
        return getattr(clocks, f"{action}_round")(ev, **kw).number


def get_clock(client, event, **headers):
    return client.get(f"/api/events/{event['slug']}/clock", headers=headers)


def test_before_round_one_the_clock_has_no_round(client, event, now):
    body = get_clock(client, event).get_json()
    assert body["round"] is None and body["tables"] == []
    assert body["server_ms"] == T0
    assert body["event"] == {"slug": event["slug"], "name": "Test Open", "ruleset": "wotf",
                             "level": "competitive", "stage": "swiss", "games_per_match": 1,
                             "round_minutes": 50.0, "head_judge_from": None}


def test_a_running_round_ends_round_minutes_after_its_start(app, client, event, now):
    assert act(app, event, "start") == 1
    rnd = get_clock(client, event).get_json()["round"]
    assert rnd == {"number": 1, "state": "running", "round_minutes": 50.0, "started_ms": T0,
                   "pauses": [], "paused_ms": 0, "end_ms": T0 + 50 * MIN, "ended_ms": None}


def test_a_pause_moves_the_end_by_its_length(app, client, event, now):
    act(app, event, "start")
    now.advance(10 * MIN)
    act(app, event, "pause")
    paused = get_clock(client, event).get_json()["round"]
    assert (paused["state"], paused["end_ms"]) == ("paused", None)
    assert paused["pauses"] == [{"start_ms": T0 + 10 * MIN, "end_ms": None}]
    now.advance(2 * MIN + 30_000)
    act(app, event, "resume")
    rnd = get_clock(client, event).get_json()["round"]
    assert rnd["state"] == "running"
    assert rnd["paused_ms"] == 150_000
    assert rnd["end_ms"] == T0 + 50 * MIN + 150_000


def test_ending_a_paused_round_closes_the_pause(app, client, event, now):
    act(app, event, "start")
    now.advance(MIN)
    act(app, event, "pause")
    now.advance(MIN)
    act(app, event, "end")
    rnd = get_clock(client, event).get_json()["round"]
    assert (rnd["state"], rnd["ended_ms"], rnd["paused_ms"]) == ("ended", T0 + 2 * MIN, MIN)


def test_round_actions_out_of_order_are_refused(app, event, now):
    from server.errors import ApiError

    with pytest.raises(ApiError, match="no round is running"):
        act(app, event, "pause")
    act(app, event, "start")
    with pytest.raises(ApiError, match="round 1 has not ended"):
        act(app, event, "start")
    with pytest.raises(ApiError, match="round 1 is not paused"):
        act(app, event, "resume")
    act(app, event, "end")
    assert act(app, event, "start", round_minutes=40) == 2


def test_an_untimed_round_has_no_end(app, client, event, now):
    act(app, event, "start", untimed=True)
    rnd = get_clock(client, event).get_json()["round"]
    assert (rnd["round_minutes"], rnd["end_ms"]) == (None, None)


def test_each_table_ends_later_by_its_non_voided_extensions(app, client, event, now):
    act(app, event, "start")
    phone = Phone(client, event)
    ext = [phone.record("time_extension", {"table": t, "round": r, "minutes": m, "reason": "deck_check"})
           for t, r, m in [(4, 1, 3), (4, 1, 2), (7, 1, 5), (4, 2, 9)]]
    phone.sync(ext + [phone.record("void", {"record": ext[2]["id"], "reason": "wrong table"})])
    body = get_clock(client, event).get_json()
    end = T0 + 50 * MIN
    # table 7's only extension was voided and it has no pairing: it is not listed
    assert body["tables"] == [{"number": 4, "extension_minutes": 5, "end_ms": end + 300_000}]


def test_the_clock_is_cacheable_and_revalidates_to_304(app, client, event, now):
    act(app, event, "start")
    first = get_clock(client, event)
    assert first.headers["Cache-Control"] == "public, max-age=2"
    etag = first.headers["ETag"]
    now.advance(1000)  # server_ms changes but the clock does not
    same = get_clock(client, event, **{"If-None-Match": etag})
    assert same.status_code == 304 and same.get_data() == b""
    act(app, event, "pause")
    changed = get_clock(client, event, **{"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag


def test_a_new_extension_or_table_list_shows_on_the_next_poll(app, client, event, now):
    act(app, event, "start")
    assert get_clock(client, event).get_json()["tables"] == []
    phone = Phone(client, event)
    phone.sync([phone.record("time_extension", {"table": 2, "round": 1, "minutes": 4, "reason": "ruling"})])
    assert get_clock(client, event).get_json()["tables"] == [
        {"number": 2, "extension_minutes": 4.0, "end_ms": T0 + 54 * MIN}]
    with app.app_context():
        ev = db.session.get(Event, event["id"])
        import_pairings(ev, 1, "table,player_a,player_b\n1,Ada Brook,Ben Carter\n")
    assert [t["number"] for t in get_clock(client, event).get_json()["tables"]] == [1, 2]


def test_time_is_epoch_ms_and_never_cached(client, now):
    res = client.get("/api/time")
    assert res.get_json() == {"now_ms": T0}
    assert res.headers["Cache-Control"] == "no-store"


def test_an_unknown_event_is_404(client):
    res = client.get("/api/events/nope/clock")
    assert res.status_code == 404
    assert res.get_json() == {"error": {"code": "not_found", "message": "event 'nope' not found"}}

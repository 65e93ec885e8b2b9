"""Sync: push is idempotent, each record is judged on its own, the cursor pulls the rest."""

import uuid

import pytest
from server_helpers import T0, Phone, add_event, add_rounds, seated_event, set_role

from server.extensions import db
from server.models import Record


@pytest.fixture
def event(app):
    return add_event(app)


@pytest.fixture
def phone(client, event):
    return Phone(client, event)


def test_a_pushed_record_is_accepted_numbered_and_pulled_back(phone, event, now):
    rec = phone.penalty(event["players"]["Ada Brook"])
    body = phone.sync([rec])
    assert body["results"] == [{"id": rec["id"], "status": "accepted"}]
    assert body["cursor"] == 1
    [pulled] = body["records"]
    assert pulled == {**rec, "seq": 1, "received_ms": now.ms}


def test_pushing_the_same_record_again_is_a_harmless_duplicate(app, phone, event):
    rec = phone.penalty(event["players"]["Ada Brook"])
    phone.sync([rec])
    body = phone.sync([rec, rec])
    assert [r["status"] for r in body["results"]] == ["duplicate", "duplicate"]
    with app.app_context():
        assert db.session.query(Record).count() == 1


def test_a_reused_id_with_other_content_is_rejected(phone, event):
    rec = phone.penalty(event["players"]["Ada Brook"])
    phone.sync([rec])
    changed = {**rec, "payload": {**rec["payload"], "penalty": "game_loss"}}
    [result] = phone.sync([changed])["results"]
    assert result == {"id": rec["id"], "status": "rejected",
                      "reason": "id: already used by a different record"}


def test_one_bad_record_is_rejected_with_its_reason_and_the_rest_kept(phone, event):
    good = phone.penalty(event["players"]["Ada Brook"])
    no_infraction = phone.record("penalty", {"player": "Ben Carter", "penalty": "warning"})
    bad_penalty = phone.penalty("Ben Carter", penalty="yellow_card")
    bad_minutes = phone.record("time_extension", {"table": 3, "round": 1, "minutes": 0,
                                                  "reason": "deck_check"})
    unknown_type = phone.record("coffee", {})
    not_uuid = {**phone.penalty("Ben Carter"), "id": "not-a-uuid"}
    body = phone.sync([no_infraction, good, bad_penalty, bad_minutes, unknown_type, not_uuid, 7])
    results = body["results"]
    assert [r["status"] for r in results] == ["rejected", "accepted"] + ["rejected"] * 5
    assert results[0]["reason"] == "payload.infraction: Missing data for required field."
    assert results[2]["reason"].startswith("payload.penalty: unknown penalty id 'yellow_card'")
    assert results[3]["reason"] == "payload.minutes: must be above 0 and at most 240"
    assert results[4]["reason"].startswith("type: must be one of: penalty, time_extension,")
    assert results[5]["reason"] == "id: Not a valid UUID."
    assert results[6] == {"id": None, "status": "rejected", "reason": "a record must be a JSON object"}
    assert [r["id"] for r in body["records"]] == [good["id"]]


def test_an_infraction_or_level_the_events_ruleset_does_not_declare_is_rejected(phone, event):
    good = phone.penalty(event["players"]["Ada Brook"])
    made_up = phone.penalty("Ben Carter", infraction="5")
    wrong_level = phone.penalty("Ben Carter", level="tier2")
    results = phone.sync([made_up, good, wrong_level])["results"]
    assert [r["status"] for r in results] == ["rejected", "accepted", "rejected"]
    assert results[0]["reason"].startswith("payload.infraction: unknown infraction '5' in ruleset ")
    assert results[2]["reason"].startswith("payload.level: unknown level 'tier2' in ruleset ")


def test_records_for_another_event_device_or_unknown_player_are_rejected(app, phone, event):
    other = add_event(app)
    wrong_event = {**phone.penalty("Ada"), "event": other["slug"]}
    wrong_device = {**phone.penalty("Ada"), "device": phone.id + 100}
    unknown_player = phone.penalty(other["players"]["Ada Brook"])
    wrong_ruleset = phone.penalty("Ada", ruleset="yugioh")
    reasons = [r["reason"] for r in phone.sync([wrong_event, wrong_device, unknown_player,
                                                 wrong_ruleset])["results"]]
    assert reasons == [f"event: this is event {event['slug']}, not {other['slug']}",
                       f"device: this token belongs to device {phone.id}",
                       f"payload.player: no player {other['players']['Ada Brook']} in this event",
                       "payload.ruleset: this event uses dci-upg"]


def test_every_record_type_is_accepted_from_a_head_judge(app, client, event):
    head = Phone(client, event, judge="Hana Head")
    set_role(app, head.id, "head_judge")
    penalty = head.penalty("Ada Brook", infraction="tardiness", penalty=["game_loss", "game_loss"],
                           head_judge=True, stage="swiss", ruleset="dci-upg", level="competitive")
    records = [
        penalty,
        head.record("time_extension", {"table": 2, "round": 1, "minutes": 4, "reason": "ruling"}),
        head.record("match_result", {"table": 2, "round": 1, "result": "draw", "games": {"A": 0, "B": 0}}),
        head.record("time_call", {"table": 2, "round": 1, "facts": {"game_wins": {"A": 1, "B": 1}},
                                  "answer": {"match": "draw"}, "result": "draw"}),
        head.record("approval", {"record": penalty["id"], "approved": True, "comment": "ok"}),
        head.record("void", {"record": penalty["id"], "reason": "wrong player"}),
    ]
    body = head.sync(records)
    assert [r["status"] for r in body["results"]] == ["accepted"] * 6
    assert [r["seq"] for r in body["records"]] == [1, 2, 3, 4, 5, 6]


def test_a_penalty_left_to_the_head_judge_is_not_approved_as_no_penalty(app, client, phone, event):
    """A penalty the policy does not state is recorded with none for the head judge to choose:
    approving it as it is would record "no penalty, approved"; refusing it is allowed."""
    head = Phone(client, event, judge="Hana Head", name="head")
    set_role(app, head.id, "head_judge")
    open_one = phone.penalty("Ada Brook", infraction="deck_decklist_mismatch", penalty=None, head_judge=True)
    stated = phone.penalty("Ben Carter", infraction="usc_minor", penalty="game_loss", head_judge=True)
    phone.sync([open_one, stated])
    approve_open = head.record("approval", {"record": open_one["id"], "approved": True})
    approve_stated = head.record("approval", {"record": stated["id"], "approved": True})
    refuse_open = head.record("approval", {"record": open_one["id"], "approved": False})
    results = head.sync([approve_open, approve_stated, refuse_open])["results"]
    assert [r["status"] for r in results] == ["rejected", "accepted", "accepted"]
    assert results[0]["reason"] == ("payload.approved: this penalty names no penalty for the head judge to approve: "
                                    "record the penalty you choose in its place, and refuse this one")


def test_only_a_head_judge_may_approve(app, client, phone, event):
    penalty = phone.penalty("Ada Brook", head_judge=True)
    approval = phone.record("approval", {"record": penalty["id"], "approved": True})
    results = phone.sync([penalty, approval])["results"]
    assert results[1] == {"id": approval["id"], "status": "rejected", "reason": "role head_judge or organiser required"}
    keeper = Phone(client, event, name="keeper")
    set_role(app, keeper.id, "scorekeeper")
    [result] = keeper.sync([keeper.penalty("Ada Brook")])["results"]
    assert result["reason"] == "role floor_judge or head_judge or organiser required"


def test_a_judge_voids_their_own_records_and_a_head_judge_anyones(app, client, phone, event):
    mine = phone.penalty("Ada Brook")
    phone.sync([mine])
    other = Phone(client, event, judge="Olga Other", name="other")
    [refused] = other.sync([other.record("void", {"record": mine["id"], "reason": "x"})])["results"]
    assert refused["reason"] == "role head_judge or organiser required to void another device's record"
    set_role(app, other.id, "head_judge")
    void = other.record("void", {"record": mine["id"], "reason": "entered twice"})
    assert other.sync([void])["results"][0]["status"] == "accepted"
    [again] = phone.sync([phone.record("void", {"record": void["id"], "reason": "undo"})])["results"]
    assert again["reason"] == "payload.record: a void record cannot be named here"


def test_void_and_approval_must_point_at_a_record_of_this_event(phone):
    missing = str(uuid.uuid4())
    results = phone.sync([phone.record("void", {"record": missing, "reason": "typo"})])["results"]
    assert results[0]["reason"] == f"payload.record: no record {missing} in this event"


def test_a_void_may_follow_its_target_in_the_same_batch(phone):
    rec = phone.penalty("Ada Brook")
    void = phone.record("void", {"record": rec["id"], "reason": "wrong table"})
    assert [r["status"] for r in phone.sync([rec, void])["results"]] == ["accepted", "accepted"]


def test_too_many_records_in_one_request_is_413_naming_the_limit(phone):
    records = [phone.penalty("Ada Brook") for _ in range(501)]
    body = phone.sync(records, expect=413)
    assert body == {"error": {"code": "too_large", "message": "at most 500 records per sync request"}}


def test_the_cursor_pulls_only_what_is_new_and_pages_with_more(app, client, event):
    app.config["SYNC_PULL_LIMIT"] = 3
    a, b = Phone(client, event, name="a"), Phone(client, event, name="b")
    a.sync([a.penalty("Ada Brook") for _ in range(5)])
    first = b.sync()
    assert ([r["seq"] for r in first["records"]], first["cursor"], first["more"]) == ([1, 2, 3], 3, True)
    second = b.sync()
    assert ([r["seq"] for r in second["records"]], second["cursor"], second["more"]) == ([4, 5], 5, False)
    assert b.sync()["records"] == []


def test_the_body_names_the_device_of_the_token(phone, client, event):
    res = client.post(f"/api/events/{event['slug']}/sync", headers=phone.headers,
                      json={"device": phone.id + 1, "cursor": 0, "records": []})
    assert res.status_code == 403
    assert res.get_json()["error"]["code"] == "forbidden"


def test_a_malformed_body_is_400_naming_the_field(phone, client, event):
    res = client.post(f"/api/events/{event['slug']}/sync", headers=phone.headers,
                      json={"device": phone.id, "cursor": -1})
    assert res.status_code == 400
    assert res.get_json()["error"]["field"] == "cursor"


def test_player_history_is_every_devices_counted_penalties_oldest_first(app, client, event):
    add_rounds(app, event, 2)
    a, b = Phone(client, event, name="a"), Phone(client, event, name="b")
    set_role(app, b.id, "head_judge")
    ada = event["players"]["Ada Brook"]
    first = a.penalty(ada, infraction="slow_play", penalty="warning", stage="swiss")
    a.sync([first, a.penalty(event["players"]["Ben Carter"])])
    wrong = b.penalty(ada, infraction="gpe_missed_trigger", penalty="game_loss")
    refused = {**a.penalty(ada, infraction="usc_minor", penalty="game_loss", head_judge=True), "created_ms": T0 + 5}
    a.sync([refused])
    b.sync([wrong, b.record("void", {"record": wrong["id"], "reason": "other player"}),
            b.record("approval", {"record": refused["id"], "approved": False, "comment": "too much"}),
            {**b.penalty(ada, infraction="tardiness", penalty=["game_loss", "game_loss"], round=2,
                         stage="elimination", intentional=False), "created_ms": T0 + 9}])
    res = client.get(f"/api/events/{event['slug']}/players/{ada}/history", headers=b.headers)
    assert res.status_code == 200
    body = res.get_json()
    # what travels is the dci-upg vocabulary's: it keeps no `intentional` in a history item
    assert body["history"] == [
        {"infraction": "slow_play", "penalty": "warning", "stage": "swiss", "round": 1},
        {"infraction": "tardiness", "penalty": ["game_loss", "game_loss"], "stage": "elimination", "round": 2},
    ]
    assert body["cursor"] == 7


def _raw_sync(client, phone, event, text):
    return client.post(f"/api/events/{event['slug']}/sync", data=text,
                       headers={**phone.headers, "Content-Type": "application/json"})


def test_a_cursor_beyond_64_bits_is_400_naming_the_field(phone, client, event):
    res = _raw_sync(client, phone, event,
                    f'{{"device": {phone.id}, "cursor": 99999999999999999999999}}')
    assert res.status_code == 400
    assert res.get_json()["error"] == {
        "code": "bad_request", "field": "cursor",
        "message": "cursor: must be from 0 to 9223372036854775807"}


@pytest.mark.parametrize(("body", "message"), [
    ('{"device": %(d)d, "records": ' + "[" * 100_000 + "]" * 100_000 + "}",
     "invalid JSON body: nested deeper than 64 levels"),
    ('{"device": %(d)d, "records": [' + '{"a": ' * 70 + "1" + "}" * 70 + "]}",
     "invalid JSON body: nested deeper than 64 levels"),
    ('{"device": %(d)d, "cursor": NaN}', "invalid JSON body: NaN is not valid JSON"),
    ('{"device": %(d)d, "records": [{"created_ms": Infinity}]}',
     "invalid JSON body: Infinity is not valid JSON"),
    ('{"device": %(d)d, "records": [{"created_ms": -Infinity}]}',
     "invalid JSON body: -Infinity is not valid JSON"),
    ('{"device": %(d)d, "cursor": ' + "9" * 5000 + "}",
     "invalid JSON body: a number has more than 4300 digits"),
])
def test_a_too_deep_too_long_or_non_finite_body_is_400(phone, client, event, body, message):
    res = _raw_sync(client, phone, event, body % {"d": phone.id})
    assert res.status_code == 400
    assert res.get_json() == {"error": {"code": "bad_request", "message": message}}


def test_a_null_or_non_object_record_is_rejected_alone(phone, event):
    good = phone.penalty(event["players"]["Ada Brook"])
    huge_time = {**phone.penalty("Ben Carter"), "created_ms": 10**20}
    huge_player = phone.penalty(10**20)
    body = phone.sync([None, good, "x", [], huge_time, huge_player])
    not_object = {"id": None, "status": "rejected", "reason": "a record must be a JSON object"}
    assert body["results"] == [
        not_object, {"id": good["id"], "status": "accepted"}, not_object, not_object,
        {"id": huge_time["id"], "status": "rejected", "reason":
         "created_ms: must be from 0 to 9223372036854775807"},
        {"id": huge_player["id"], "status": "rejected",
         "reason": "payload.player: must be from 1 to 9223372036854775807"}]
    assert [r["id"] for r in body["records"]] == [good["id"]]


@pytest.mark.parametrize("player", ["999", "nobody", "-1", "²", "99999999999999999999999", "other"])
def test_history_of_a_player_not_in_the_event_is_404(app, client, phone, event, player):
    other = add_event(app, players=("Zed Other",))
    if player == "other":
        player = str(other["players"]["Zed Other"])
    res = client.get(f"/api/events/{event['slug']}/players/{player}/history",
                     headers=phone.headers)
    assert res.status_code == 404
    assert res.get_json() == {"error": {
        "code": "not_found", "message": f"player {player!r} of event {event['slug']!r} not found"}}


def test_history_of_a_player_without_penalties_or_under_a_recorded_name_is_200(phone, client, event):
    ada = event["players"]["Ada Brook"]
    res = client.get(f"/api/events/{event['slug']}/players/{ada}/history", headers=phone.headers)
    assert (res.status_code, res.get_json()["history"]) == (200, [])
    phone.sync([phone.penalty("Walk-in Wally")])
    res = client.get(f"/api/events/{event['slug']}/players/Walk-in Wally/history",
                     headers=phone.headers)
    assert res.status_code == 200
    assert [h["infraction"] for h in res.get_json()["history"]] == ["slow_play"]


def test_history_gives_penalty_as_recorded_with_the_facts_the_ruleset_keeps(app, client):
    event = add_event(app, ruleset="judicial-guidelines", level=None)
    phone = Phone(client, event)
    ada = event["players"]["Ada Brook"]
    records = [phone.penalty(ada, infraction="other", penalty=None, minor=True),
               {**phone.penalty(ada, infraction="cheating", penalty="disqualification", intentional=True,
                                minor=False), "created_ms": T0 + 1},
               {**phone.penalty(ada, infraction="tardiness", penalty=["game_loss", "game_loss"],
                                intentional=None), "created_ms": T0 + 2}]
    assert [r["status"] for r in phone.sync(records)["results"]] == ["accepted"] * 3
    res = client.get(f"/api/events/{event['slug']}/players/{ada}/history", headers=phone.headers)
    assert res.get_json()["history"] == [
        {"infraction": "other", "penalty": None, "stage": "swiss", "round": 1, "minor": True},
        {"infraction": "cheating", "penalty": "disqualification", "stage": "swiss", "round": 1,
         "intentional": True, "minor": False},
        {"infraction": "tardiness", "penalty": ["game_loss", "game_loss"], "stage": "swiss",
         "round": 1},
    ]


def test_a_penalty_id_the_events_ruleset_does_not_declare_is_rejected(app, client):
    event = add_event(app, ruleset="judicial-guidelines", level=None)
    phone = Phone(client, event)
    warning = phone.penalty("Ada Brook", infraction="tardiness", penalty="warning")  # dci-upg and yugioh words
    ejection = phone.penalty("Ada Brook", infraction="tardiness", penalty="ejection", base_penalty="single_warning")
    results = phone.sync([warning, ejection])["results"]
    assert results[0]["status"] == "rejected"
    assert results[0]["reason"].startswith("payload.penalty: unknown penalty id 'warning' in ruleset "
                                           "judicial-guidelines; allowed: caution, disqualification, double_warning")
    assert results[1] == {"id": ejection["id"], "status": "accepted"}


@pytest.mark.parametrize("field", ["intentional", "minor"])
def test_intentional_and_minor_must_be_true_or_false(phone, event, field):
    rec = phone.penalty(event["players"]["Ada Brook"], **{field: "yes"})
    [result] = phone.sync([rec])["results"]
    assert result == {"id": rec["id"], "status": "rejected",
                      "reason": f"payload.{field}: must be true or false"}


def test_a_typed_name_is_one_player_whatever_its_case_and_spacing(app, client, event):
    a, b = Phone(client, event, name="a"), Phone(client, event, name="b")
    a.sync([a.penalty("Cal Dune", infraction="slow_play", penalty="warning")])
    b.sync([{**b.penalty("cal  DUNE", infraction="tardiness", penalty="game_loss"), "created_ms": T0 + 5}])
    for asked in ("Cal Dune", "CAL DUNE", "cal%20dune"):
        res = client.get(f"/api/events/{event['slug']}/players/{asked}/history", headers=b.headers)
        assert res.status_code == 200, asked
        assert [h["infraction"] for h in res.get_json()["history"]] == ["slow_play", "tardiness"]
    assert client.get(f"/api/events/{event['slug']}/players/Cal%20Dunes/history",
                      headers=b.headers).status_code == 404
    with app.app_context():
        assert {r.player for r in db.session.scalars(db.select(Record))} == {"name:cal dune"}


def test_a_typed_name_of_digits_only_is_refused_with_its_reason_and_the_rest_kept(phone, event):
    body = phone.sync([phone.penalty("2"), phone.penalty(" 17 "), phone.penalty("Room 2")])
    assert [(r["status"], r.get("reason")) for r in body["results"]] == [
        ("rejected", "payload.player: a player name cannot be digits only: send a player id as a number"),
        ("rejected", "payload.player: a player name cannot be digits only: send a player id as a number"),
        ("accepted", None)]


def test_a_result_the_games_cannot_give_is_refused_and_its_neighbours_kept(app, client):
    from server.models import Event

    event = add_event(app)
    with app.app_context():
        db.session.get(Event, event["id"]).games_per_match = 3
        db.session.commit()
    phone = Phone(client, event)

    def result(table, winner, a, b):
        return phone.record("match_result", {"table": table, "round": 1, "result": winner, "games": {"A": a, "B": b}})

    body = phone.sync([result(1, "A", 0, 2), result(2, "A", 2, 1), result(3, "draw", 50, 40),
                       result(4, "B", 1, 1), result(5, "draw", 1, 0), result(6, "B", 0, 3), result(7, "draw", 1, 1)])
    assert [(r["status"], r.get("reason")) for r in body["results"]] == [
        ("rejected", "payload.games: 0-2 is no win for player A (the winner has won more games)"),
        ("accepted", None),
        ("rejected", "payload.games: 90 games won in a match of 3 games at most"),
        ("rejected", "payload.games: 1-1 is no win for player B (the winner has won more games)"),
        ("accepted", None),  # an intentional draw may be agreed when one player leads
        ("accepted", None),
        ("accepted", None)]


def test_a_table_that_does_not_play_the_round_gets_no_record(app, client):
    event = seated_event(app, ["Ada Brook", "Ben Carter", "Cy Dane", "Di Eve", "Ed Fay", "Flo Gee", "Gus H", "Hal I"],
                         ruleset="dci-upg")
    phone = Phone(client, event)
    ada = event["players"]["Ada Brook"]
    body = phone.sync([
        phone.record("match_result", {"table": 77, "round": 1, "result": "A"}),
        phone.record("time_extension", {"table": 5, "round": 1, "minutes": 3, "reason": "deck_check"}),
        phone.record("match_result", {"table": 4, "round": 1, "result": "B"}),
        phone.penalty(ada, table=9),
        phone.penalty(ada, table=None),
        phone.penalty(ada, table=2, round=None)])
    assert [(r["status"], r.get("reason")) for r in body["results"]] == [
        ("rejected", "payload.table: round 1 has no table 77 (its tables: 1-4)"),
        ("rejected", "payload.table: round 1 has no table 5 (its tables: 1-4)"),
        ("accepted", None), ("rejected", "payload.table: round 1 has no table 9 (its tables: 1-4)"),
        ("accepted", None), ("accepted", None)]


def test_a_push_reads_each_rounds_tables_once_whatever_its_length(sqlite_app, now):
    """The table check (sync._Batch.table_problem) reads a round's pairings once per push, not
    once per record: a push of 60 results at three tables of one round makes one such read."""
    import sqlalchemy as sa

    players = [f"Player {n}" for n in range(6)]
    event = seated_event(sqlite_app, players)
    phone = Phone(sqlite_app.test_client(), event)
    reads = []

    def count(conn, cursor, statement, *args):
        if "FROM pairings" in statement:
            reads.append(statement)

    with sqlite_app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", count)
    try:
        body = phone.sync([phone.record("match_result", {"table": 1 + n % 3, "round": 1, "result": "A"})
                           for n in range(60)])
    finally:
        sa.event.remove(engine, "before_cursor_execute", count)
    assert {r["status"] for r in body["results"]} == {"accepted"}
    assert len([s for s in reads if "pairings.number" in s]) == 1


def test_a_time_extension_is_given_in_whole_minutes(app, client, event):
    """Extensions are given in the step the ruleset's extension answer declares (whole minutes:
    queries.json), so a phone's +0.05 minutes is refused naming the field; its neighbours stay."""
    phone = Phone(client, event)
    tiny, whole = (phone.record("time_extension", {"table": 1, "round": 1, "minutes": m, "reason": "ruling"})
                   for m in (0.05, 2))
    results = phone.sync([tiny, whole])["results"]
    assert results == [
        {"id": tiny["id"], "status": "rejected",
         "reason": "payload.minutes: time extensions are given in whole minutes (got 0.05; 1 rounds it up)"},
        {"id": whole["id"], "status": "accepted"}]

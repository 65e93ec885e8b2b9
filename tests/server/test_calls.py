"""Judge calls: anonymous calls from a table, one call per table while it is open, judges
list, take and close them, rate limits, who may call (the ruleset via the engine), escalation
on the server clock, bad input, nothing personal stored, the organiser's pages and export."""

import csv
import html
import io
import json
import re
import threading

import pytest
import sqlalchemy as sa
from conftest import replace_tables
from server_helpers import Phone, add_event, make_app, seated_event, set_role

import shared_rules
from server.extensions import db
from server.models import Call
from shared_rules import translations, vocabulary
from shared_rules.translations import translated


def _calls(slug):
    return f"/api/events/{slug}/calls"


@pytest.fixture
def wotf(app):
    return add_event(app, ruleset="wotf", level="competitive")


def test_an_anonymous_call_is_made_and_repeated_taps_give_the_same_call(app, client, now, wotf):
    first = client.post(_calls(wotf["slug"]), json={"table": 7, "reason": "rules_question"})
    assert first.status_code == 201
    body = first.get_json()
    assert body["status"] == "open" and len(body["id"]) == 36
    again = client.post(_calls(wotf["slug"]), json={"table": 7, "reason": "dispute"})
    assert (again.status_code, again.get_json()) == (200, body)
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Call)) == 1
    other = client.post(_calls(wotf["slug"]), json={"table": 8})
    assert other.status_code == 201 and other.get_json()["id"] != body["id"]
    table = client.get(f"{_calls(wotf['slug'])}/table/7").get_json()
    assert table == {"call": {"id": body["id"], "status": "open", "created_ms": now.ms, "taken_ms": None}}
    assert client.get(f"{_calls(wotf['slug'])}/table/99").get_json() == {"call": None}


@pytest.mark.parametrize("table", ["0", "10000", "99999999999999999999999"])
def test_a_table_number_no_table_has_is_refused_by_name(client, wotf, table):
    res = client.get(f"{_calls(wotf['slug'])}/table/{table}")
    assert res.status_code == 400
    body = res.get_json()["error"]
    assert (body["field"], body["message"]) == ("table", "must be a whole number from 1 to 9999")


@pytest.mark.parametrize("table", ["x", "-1", True, 1.5])
def test_a_call_for_a_table_that_is_no_whole_number_names_the_range(client, wotf, table):
    res = client.post(_calls(wotf["slug"]), json={"table": table})
    assert res.status_code == 400
    assert "table" in str(res.get_json()) and "must be a whole number from 1 to 9999" in str(res.get_json())


def test_taps_at_the_same_moment_from_several_phones_make_one_call(app, wotf):
    barrier = threading.Barrier(6)
    answers = []

    def tap():
        client = app.test_client()
        barrier.wait()
        res = client.post(_calls(wotf["slug"]), json={"table": 11})
        answers.append((res.status_code, res.get_json()["id"]))

    threads = [threading.Thread(target=tap) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(status for status, _ in answers) == [200] * 5 + [201]
    assert len({call_id for _, call_id in answers}) == 1
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Call)) == 1


def test_judges_list_take_and_close_calls_and_a_second_judge_gets_409(app, client, now, wotf):
    call_id = client.post(_calls(wotf["slug"]), json={"table": 3, "reason": "dispute"}).get_json()["id"]
    fay, gil = Phone(client, wotf, judge="Fay Floor"), Phone(client, wotf, judge="Gil Floor")
    listed = client.get(_calls(wotf["slug"]), headers=fay.headers).get_json()
    assert listed["calls"] == [{"id": call_id, "table": 3, "reason": "dispute", "status": "open",
                                "created_ms": now.ms, "taken_by": None, "taken_ms": None, "closed_ms": None,
                                "closed_by": None, "ruling": None, "escalated": False}]
    seq = listed["calls_seq"]
    assert listed["escalate_seconds"] == 120  # the organiser's setting, by default
    now.advance(20_000)
    took = client.post(f"{_calls(wotf['slug'])}/{call_id}/take", headers=fay.headers)
    assert took.status_code == 200
    assert (took.get_json()["status"], took.get_json()["taken_by"], took.get_json()["taken_ms"]) == (
        "taken", "Fay Floor", now.ms)
    assert client.post(f"{_calls(wotf['slug'])}/{call_id}/take", headers=fay.headers).status_code == 200
    clash = client.post(f"{_calls(wotf['slug'])}/{call_id}/take", headers=gil.headers)
    assert clash.status_code == 409 and "Fay Floor" in clash.get_json()["error"]["message"]
    player_view = client.get(f"{_calls(wotf['slug'])}/table/3").get_json()["call"]
    assert player_view["status"] == "taken" and "taken_by" not in player_view
    now.advance(60_000)
    # Gil did not take it: the ruling would be credited to Fay, so only she closes it
    refused = client.post(f"{_calls(wotf['slug'])}/{call_id}/close", headers=gil.headers, json={"ruling": "x"})
    assert refused.status_code == 409
    assert refused.get_json()["error"]["message"] == "Fay Floor took this call: they close it, or the head judge"
    closed = client.post(f"{_calls(wotf['slug'])}/{call_id}/close", headers=fay.headers,
                         json={"ruling": "Play on: the attack was\nlegal."})
    assert closed.status_code == 200
    assert (closed.get_json()["status"], closed.get_json()["closed_ms"], closed.get_json()["closed_by"],
            closed.get_json()["ruling"]) == ("closed", now.ms, "Fay Floor", "Play on: the attack was\nlegal.")
    assert client.post(f"{_calls(wotf['slug'])}/{call_id}/close", headers=gil.headers, json={}).status_code == 409
    after = client.get(_calls(wotf["slug"]), headers=gil.headers).get_json()
    assert after["calls"] == [] and after["calls_seq"] == seq + 2
    everything = client.get(_calls(wotf["slug"]) + "?closed=1", headers=gil.headers).get_json()["calls"]
    assert [c["status"] for c in everything] == ["closed"]
    # the table may call again once its call is closed
    assert client.post(_calls(wotf["slug"]), json={"table": 3}).status_code == 201


def test_closing_a_call_nobody_took_records_the_judge_who_closed_it(client, now, wotf):
    call_id = client.post(_calls(wotf["slug"]), json={"table": 2}).get_json()["id"]
    head = Phone(client, wotf, judge="Hana Head")
    body = client.post(f"{_calls(wotf['slug'])}/{call_id}/close", headers=head.headers, json={}).get_json()
    assert (body["status"], body["taken_by"], body["closed_by"], body["ruling"]) == (
        "closed", "Hana Head", "Hana Head", None)


def test_a_head_judge_closes_a_call_another_judge_took_and_is_named_as_closer(app, client, now, wotf):
    call_id = client.post(_calls(wotf["slug"]), json={"table": 5}).get_json()["id"]
    fay, head = Phone(client, wotf, judge="Fay Floor"), Phone(client, wotf, judge="Hana Head")
    set_role(app, head.id, "head_judge")
    client.post(f"{_calls(wotf['slug'])}/{call_id}/take", headers=fay.headers)
    body = client.post(f"{_calls(wotf['slug'])}/{call_id}/close", headers=head.headers,
                       json={"ruling": "No call needed"}).get_json()
    assert (body["status"], body["taken_by"], body["closed_by"], body["ruling"]) == (
        "closed", "Fay Floor", "Hana Head", "No call needed")


def test_only_judges_of_the_event_read_and_answer_calls(app, client, now, wotf):
    call_id = client.post(_calls(wotf["slug"]), json={"table": 4}).get_json()["id"]
    other = Phone(client, add_event(app, ruleset="dci-upg"), judge="Otto Other")
    keeper = Phone(client, wotf, judge="Sam Score")
    set_role(app, keeper.id, "scorekeeper")
    assert client.get(_calls(wotf["slug"])).status_code == 401
    assert client.get(_calls(wotf["slug"]), headers=other.headers).status_code == 401
    assert client.get(_calls(wotf["slug"]), headers=keeper.headers).status_code == 403
    assert client.post(f"{_calls(wotf['slug'])}/{call_id}/take").status_code == 401
    assert client.post(f"{_calls(wotf['slug'])}/{call_id}/take", headers=other.headers).status_code == 401
    assert client.post(f"{_calls(wotf['slug'])}/{call_id}/close", headers=keeper.headers, json={}).status_code == 403
    judge = Phone(client, wotf)
    for wrong in ("x" * 500, "a%00b", "%ED%B0%80", "not-a-call"):
        missing = client.post(f"{_calls(wotf['slug'])}/{wrong}/take", headers=judge.headers)
        assert missing.status_code == 404 and missing.get_json()["error"]["code"] == "not_found"


def test_a_spectator_is_refused_where_the_ruleset_says_so_and_the_page_says_why(client, now, wotf):
    refused = client.post(_calls(wotf["slug"]), json={"table": 5, "caller": "spectator"})
    assert refused.status_code == 403
    assert "spectator may not call a judge" in refused.get_json()["error"]["message"]
    policy = client.get(f"{_calls(wotf['slug'])}/policy").get_json()
    by_caller = {c["caller"]: c for c in policy["callers"]}
    assert (by_caller["player"]["allowed"], by_caller["spectator"]["allowed"]) == (True, False)
    assert by_caller["spectator"]["source"] == "WotF Tournament Rules §3.9"
    assert [r["id"] for r in policy["reasons"]] == ["rules_question", "dispute", "emergency", "leaving_table"]
    assert all(r["label"] for r in policy["reasons"])


def test_a_spectator_may_call_at_casual_rel(app, client, now):
    casual = add_event(app, ruleset="wotf", level="casual")
    assert client.post(_calls(casual["slug"]), json={"table": 5, "caller": "spectator"}).status_code == 201


def test_where_the_ruleset_is_silent_everyone_may_call_and_the_policy_says_not_stated(app, client, now):
    silent = add_event(app, ruleset="dci-upg", level="competitive")
    assert client.post(_calls(silent["slug"]), json={"table": 1, "caller": "spectator"}).status_code == 201
    policy = client.get(f"{_calls(silent['slug'])}/policy").get_json()
    for entry in policy["callers"]:
        assert entry["allowed"] is True and entry["source"] is None and entry["stated"] is False
        assert entry["explain"].startswith("not stated")


@pytest.mark.parametrize("language", ["de", "pt"])
def test_the_policy_comes_in_the_language_asked_for(client, now, wotf, language):
    shared = translated(vocabulary.shared(), translations.SHARED, language)["queries"]["judge_call"]["facts"]
    policy = client.get(f"{_calls(wotf['slug'])}/policy?language={language}").get_json()
    assert policy["reasons"] == [{"id": r, "label": shared["reason"]["names"][r]}
                                 for r in shared["reason"]["values"]]
    english = client.get(f"{_calls(wotf['slug'])}/policy").get_json()
    for entry, in_english in zip(policy["callers"], english["callers"], strict=True):
        assert entry["name"] == shared["caller"]["names"][entry["caller"]] != in_english["name"]
        assert entry["stated"] is True
        assert entry["explain"] != in_english["explain"] and entry["source"] == in_english["source"]
        answer = shared_rules.evaluate({"ruleset": "wotf", "query": "judge_call", "language": language,
                                        "event": {"level": "competitive"}, "facts": {"caller": entry["caller"]}})
        assert entry["explain"] == " ".join(answer["explain"]) and answer["english"] == []
    assert policy["english"] == [] and english["english"] == []
    for wrong in ("xx", "de%00", "%ED%B0%80", "1" * 300):
        refused = client.get(f"{_calls(wotf['slug'])}/policy?language={wrong}")
        assert refused.status_code == 400 and "language" in json.dumps(refused.get_json())


def test_an_open_call_is_escalated_after_the_organisers_setting(app, client, now, wotf):
    call_id = client.post(_calls(wotf["slug"]), json={"table": 6}).get_json()["id"]
    judge = Phone(client, wotf)

    def flags():
        return [c["escalated"] for c in client.get(_calls(wotf["slug"]), headers=judge.headers).get_json()["calls"]]

    now.advance(120_000)
    assert flags() == [False]  # 120 s by default: at 120 s not yet
    now.advance(1)
    assert flags() == [True]
    client.post(f"{_calls(wotf['slug'])}/{call_id}/take", headers=judge.headers)
    assert flags() == [False]  # taken: no longer waiting for anyone


def test_the_organiser_sets_the_escalation_time_and_a_bad_value_changes_nothing(app, organiser, wotf):
    page = organiser.form(f"/organiser/events/{wotf['slug']}/call-escalation", seconds="45").get_data(as_text=True)
    assert "within 45 s" in page and 'value="45"' in page and "your setting; the policy states no time" in page
    for bad in ("abc", "5", "99999999999999999999999", "4\x00"):
        page = organiser.form(f"/organiser/events/{wotf['slug']}/call-escalation", seconds=bad).get_data(as_text=True)
        assert 'class="flash error"' in page and 'value="45"' in page


def test_calls_are_limited_per_table_and_per_address(tmp_path, request, now):
    app = make_app("sqlite", tmp_path, request, CALL_TABLE_LIMITS="2 per 10 minutes",
                   CALL_ADDRESS_LIMITS="3 per 10 minutes")
    with app.app_context():
        db.create_all()
    event = add_event(app, ruleset="wotf", level="competitive")
    client, judge = app.test_client(), None
    judge = Phone(client, event)

    def call_and_close(table, address="198.51.100.1"):
        res = client.post(_calls(event["slug"]), json={"table": table}, environ_base={"REMOTE_ADDR": address})
        if res.status_code in (200, 201):
            for tap in range(5):  # taps while it is open: the same call, never counted
                again = client.post(_calls(event["slug"]), json={"table": table},
                                    environ_base={"REMOTE_ADDR": address})
                assert (again.status_code, again.get_json()["id"]) == (200, res.get_json()["id"]), tap
            client.post(f"{_calls(event['slug'])}/{res.get_json()['id']}/close", headers=judge.headers, json={})
        return res

    assert [call_and_close(1).status_code for _ in range(3)] == [201, 201, 429]
    refused = call_and_close(1, "198.51.100.9")
    assert refused.status_code == 429 and "for this table" in refused.get_json()["error"]["message"]
    assert call_and_close(2).status_code == 201  # the address's third call
    over = call_and_close(3)
    assert over.status_code == 429 and "from this address" in over.get_json()["error"]["message"]
    assert call_and_close(3, "198.51.100.2").status_code == 201


@pytest.mark.parametrize(("body", "field"), [
    ({"table": "7"}, "table"),
    ({"table": 7.5}, "table"),
    ({"table": True}, "table"),
    ({"table": 0}, "table"),
    ({"table": 10_000}, "table"),
    ({"table": 2**80}, "table"),
    ({"table": [1] * 10_000}, "table"),
    ({}, "table"),
    ({"table": 1, "reason": "lunch"}, "reason"),
    ({"table": 1, "reason": "dispute\x00"}, "reason"),
    ({"table": 1, "reason": "\udfff"}, "reason"),
    ({"table": 1, "caller": "organiser"}, "caller"),
    ({"table": 1, "name": "Ada Brook"}, "name"),
])
def test_a_bad_call_is_refused_naming_its_field_and_stores_nothing(app, client, now, wotf, body, field):
    res = client.post(_calls(wotf["slug"]), json=body)
    assert res.status_code == 400
    assert res.get_json()["error"]["field"] == field
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Call)) == 0


@pytest.mark.parametrize("ruling", ["x" * 2001, "bad\x00", "\ud800", 5, ["a"]])
def test_a_bad_ruling_is_refused_and_the_call_stays_open(client, now, wotf, ruling):
    call_id = client.post(_calls(wotf["slug"]), json={"table": 1}).get_json()["id"]
    judge = Phone(client, wotf)
    res = client.post(f"{_calls(wotf['slug'])}/{call_id}/close", headers=judge.headers, json={"ruling": ruling})
    assert res.status_code == 400 and res.get_json()["error"]["field"] == "ruling"
    assert client.get(f"{_calls(wotf['slug'])}/table/1").get_json()["call"]["status"] == "open"


def test_a_call_stores_no_personal_data(app, client, now, wotf):
    client.post(_calls(wotf["slug"]), json={"table": 9, "reason": "emergency"},
                headers={"User-Agent": "Ada's phone"}, environ_base={"REMOTE_ADDR": "203.0.113.50"})
    with app.app_context():
        columns = {c["name"] for c in sa.inspect(db.engine).get_columns("calls")}
        row = db.session.execute(sa.text("SELECT * FROM calls")).mappings().one()
    assert columns == {"id", "event_id", "table_number", "reason", "caller", "status", "created_ms", "taken_ms",
                       "taken_by", "taken_device_id", "closed_ms", "closed_by", "ruling"}
    text = " ".join(str(v) for v in row.values())
    assert "203.0.113" not in text and "Ada" not in text


def test_the_organiser_page_shows_open_calls_prints_table_cards_and_exports_calls(app, organiser, wotf):
    client = organiser
    call_id = client.post(_calls(wotf["slug"]), json={"table": 12, "reason": "leaving_table"}).get_json()["id"]
    page = client.get(f"/organiser/events/{wotf['slug']}").get_data(as_text=True)
    assert f'data-call="{call_id}" data-status="open"' in page and "Table 12" in page
    assert "A player needs to leave the table" in page  # the reason's words from queries.json
    cards = client.get(f"/organiser/events/{wotf['slug']}/tables?count=3").get_data(as_text=True)
    assert cards.count('class="card"') == 3
    assert f"http://localhost/#/event/{wotf['slug']}/table/3" in cards
    bad = client.get(f"/organiser/events/{wotf['slug']}/tables?count=-1").get_data(as_text=True)
    assert 'class="flash error"' in bad and 'class="card"' not in bad  # no pairings: no cards by default
    exported = client.get(f"/organiser/events/{wotf['slug']}/calls.csv")
    rows = list(csv.DictReader(io.StringIO(exported.get_data(as_text=True))))
    assert [(r["id"], r["table"], r["reason"], r["status"], r["caller"]) for r in rows] == [
        (call_id, "12", "leaving_table", "open", "player")]
    assert rows[0]["created_utc"].endswith("Z") and rows[0]["created_ms"].isdigit()
    replace_tables(client, wotf["slug"], 1, "table,player_a,player_b\n5,Ada Brook,Ben Carter\n")
    default = client.get(f"/organiser/events/{wotf['slug']}/tables").get_data(as_text=True)
    assert default.count('class="card"') == 5  # tables 1 to the highest table of the pairings


@pytest.mark.parametrize("count", ["abc", "0", "501", "2.5"])
def test_a_bad_card_count_says_what_the_sheet_shows_instead(app, organiser, wotf, count):
    """The sheet falls back to the pairings' tables, and says so beside the refused count,
    which stays in its field, marked."""
    replace_tables(organiser, wotf["slug"], 1, "table,player_a,player_b\n4,Ada Brook,Ben Carter\n")
    page = html.unescape(organiser.get(f"/organiser/events/{wotf['slug']}/tables?count={count}").get_data(as_text=True))
    problem = re.search(r'<p class="flash error" role="alert" id="count-problem">([^<]*)</p>', page).group(1)
    assert problem.startswith("count must be") and problem.endswith(
        "Showing tables 1 to 4 instead, the highest table number of the pairings."), problem
    assert page.count('class="card"') == 4
    assert f'name="count" inputmode="numeric" value="{count}" aria-invalid="true" aria-describedby="count-problem"' \
        in page
    empty = add_event(app, ruleset="wotf", players=())
    none = organiser.get(f"/organiser/events/{empty['slug']}/tables?count={count}").get_data(as_text=True)
    none = html.unescape(none)
    assert "No cards are shown instead: the event has no pairings yet." in none and 'class="card"' not in none


def test_once_the_event_has_tables_only_those_tables_may_call(app, client, now):
    seated = seated_event(app, ["Ada", "Ben", "Cy", "Di"])  # tables 1 and 2 of round 1
    assert client.post(_calls(seated["slug"]), json={"table": 2}).status_code == 201
    made_up = client.post(_calls(seated["slug"]), json={"table": 101})
    assert made_up.status_code == 400
    assert made_up.get_json()["error"] == {"code": "bad_request", "field": "table",
                                           "message": "no table 101 in round 1 of this event (tables 1 to 2)"}
    with app.app_context():
        assert [c.table_number for c in db.session.scalars(sa.select(Call))] == [2]


def test_an_api_reply_carries_no_english_mark_and_says_where_it_was():
    from server.rules import for_api

    mark = translations.MARK
    data = {"label": mark + "Deck checks", "explain": ["eins", mark + "two"], "n": 1,
            "callers": [{"name": "Spieler"}, {"name": mark + "spectator"}]}
    assert for_api(data) == {"label": "Deck checks", "explain": ["eins", "two"], "n": 1,
                             "callers": [{"name": "Spieler"}, {"name": "spectator"}],
                             "english": ["label", "explain[1]", "callers[1].name"]}

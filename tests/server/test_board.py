"""The round board on the organiser's page: every table of the round with its state, time
extensions, time left and result, outstanding first, until all results are in; and the
results export."""

import csv
import io

import pytest
from server_helpers import T0, Phone, add_event, seated_event, set_role

from server.extensions import db
from server.models import Event
from shared_rules import evaluate

PLAYERS = tuple(f"Player {n:02d}" for n in range(1, 17))


@pytest.fixture
def event(app, now):
    return seated_event(app, PLAYERS)


def board(organiser, event):
    res = organiser.get(f"/organiser/events/{event['slug']}/board.json")
    assert res.status_code == 200
    return res.get_json()


def test_a_full_round_of_eight_tables_reaches_all_results_in(app, client, organiser, event, now):
    judge, keeper = Phone(client, event, judge="Fay Floor"), Phone(client, event, judge="Sam Score")
    set_role(app, keeper.id, "scorekeeper")
    start = board(organiser, event)
    assert [t["number"] for t in start["tables"]] == list(range(1, 9))
    assert start["counts"] == {"results differ": 0, "time called": 0, "deck check": 0, "playing": 8,
                               "result in": 0} and not start["all_in"]
    assert start["tables"][0]["left_ms"] == 50 * 60_000
    assert (start["tables"][0]["player_a"], start["tables"][0]["player_b"]) == ("Player 01", "Player 02")

    # tables 1-3 end without time: results entered by the scorekeeper and a judge
    keeper.sync([keeper.record("match_result", {"table": t, "round": 1, "result": "A"}) for t in (1, 2)])
    judge.sync([judge.record("time_extension", {"table": 8, "round": 1, "minutes": 4, "reason": "deck_check"}),
                judge.record("match_result", {"table": 3, "round": 1, "result": "draw"})])
    now.advance(50 * 60_000)  # time is called: table 8 still has its four minutes
    mid = board(organiser, event)
    states = {t["number"]: t["state"] for t in mid["tables"]}
    assert states == {1: "result in", 2: "result in", 3: "result in", 4: "time called", 5: "time called",
                      6: "time called", 7: "time called", 8: "playing"}
    assert [t["number"] for t in mid["tables"]] == [4, 5, 6, 7, 8, 1, 2, 3]  # outstanding first
    table8 = next(t for t in mid["tables"] if t["number"] == 8)
    assert (table8["extension_minutes"], table8["left_ms"]) == (4, 4 * 60_000)
    part = organiser.get(f"/organiser/events/{event['slug']}/board").get_data(as_text=True)
    assert "+4 min" in part and "+4.0" not in part  # minutes as people write them
    judge.sync([judge.record("time_extension", {"table": 7, "round": 1, "minutes": 3, "reason": "ruling"})])
    part = organiser.get(f"/organiser/events/{event['slug']}/board", headers={"Accept-Language": "de"})
    assert "+3 min" in part.get_data(as_text=True)

    # the end-of-match procedure ends in a result for 4-7; table 8's result is corrected once
    judge.sync([judge.record("time_call", {"table": t, "round": 1, "facts": {}, "answer": {}, "result": "B"})
                for t in (4, 5, 6, 7)])
    wrong = judge.record("match_result", {"table": 8, "round": 1, "result": "A", "games": {"A": 1, "B": 0}})
    judge.sync([wrong])
    judge.sync([judge.record("void", {"record": wrong["id"], "reason": "wrong table"}),
                judge.record("match_result", {"table": 8, "round": 1, "result": "B", "games": {"A": 0, "B": 1}})])
    done = board(organiser, event)
    assert done["all_in"] and done["counts"] == {"results differ": 0, "time called": 0, "deck check": 0, "playing": 0,
                                              "result in": 8}
    assert next(t for t in done["tables"] if t["number"] == 8)["result"]["result"] == "B"
    page = organiser.get(f"/organiser/events/{event['slug']}").get_data(as_text=True)
    assert "All results in." in page and "Player 16 wins 0–1" in page
    # the part the page fetches every 5 s is the same board, drawn by the same template
    part = organiser.get(f"/organiser/events/{event['slug']}/board").get_data(as_text=True)
    assert "All results in." in part and "Player 16 wins 0–1" in part and part.count('<tr data-table=') == 8

    rows = list(csv.DictReader(io.StringIO(organiser.get(
        f"/organiser/events/{event['slug']}/results.csv").get_data(as_text=True))))
    assert [(r["table"], r["result"], r["winner"]) for r in rows] == [
        ("1", "A", "Player 01"), ("2", "A", "Player 03"), ("3", "draw", "draw"), ("4", "B", "Player 08"),
        ("5", "B", "Player 10"), ("6", "B", "Player 12"), ("7", "B", "Player 14"), ("8", "B", "Player 16")]
    assert {r["entered_as"] for r in rows} == {"result", "end-of-match procedure"}


def test_two_results_that_disagree_are_shown_as_such_until_the_head_judge_records_the_right_one(
        app, client, organiser, event):
    # Fay, offline, enters Player 01's win; Sam, the scorekeeper, enters Player 02's meanwhile.
    fay, sam, hal = (Phone(client, event, judge=n) for n in ("Fay Floor", "Sam Score", "Hal Head"))
    set_role(app, sam.id, "scorekeeper")
    set_role(app, hal.id, "head_judge")
    offline = fay.record("match_result", {"table": 1, "round": 1, "result": "A", "games": {"A": 1, "B": 0}},
                         created_ms=T0 + 1000)
    online = sam.record("match_result", {"table": 1, "round": 1, "result": "B", "games": {"A": 0, "B": 1}},
                        created_ms=T0 + 2000)
    # the same winner with and without a score, or twice the same, is no dispute
    agree = [sam.record("match_result", {"table": 2, "round": 1, "result": "A"}, created_ms=T0 + 1000),
             fay.record("match_result", {"table": 2, "round": 1, "result": "A", "games": {"A": 1, "B": 0}},
                        created_ms=T0 + 2000)]
    for phone, records in ((sam, [online, agree[0]]), (fay, [offline, agree[1]])):
        assert {r["status"] for r in phone.sync(records)["results"]} == {"accepted"}
    body = board(organiser, event)
    one, two = (next(t for t in body["tables"] if t["number"] == n) for n in (1, 2))
    assert one["state"] == "results differ" and body["tables"][0]["number"] == 1  # outstanding first
    assert (one["result"]["record"], one["result"]["result"]) == (online["id"], "B")  # the latest made
    assert [(d["record"], d["result"], d["judge"]) for d in one["result"]["disputed"]] == \
        [(offline["id"], "A", "Fay Floor")]
    assert (two["state"], two["result"]["disputed"]) == ("result in", [])
    assert body["counts"]["results differ"] == 1 and not body["all_in"]
    part = organiser.get(f"/organiser/events/{event['slug']}/board").get_data(as_text=True)
    assert "1 with results that differ" in part
    assert "Player 02 wins 0–1 (by Sam Score)" in part
    assert "Results differ; also entered: Player 01 wins 1–0 (by Fay Floor)." in part
    rows = {r["table"]: r for r in csv.DictReader(io.StringIO(organiser.get(
        f"/organiser/events/{event['slug']}/results.csv").get_data(as_text=True)))}
    assert (rows["1"]["result"], rows["1"]["disputed_by"]) == ("B", f"{offline['id']} (Fay Floor)")
    assert rows["2"]["disputed_by"] == ""
    # The head judge records the right one, voiding both (as the app's correction does).
    hal.sync([hal.record("void", {"record": offline["id"], "reason": "result corrected"}),
              hal.record("void", {"record": online["id"], "reason": "result corrected"}),
              hal.record("match_result", {"table": 1, "round": 1, "result": "B", "games": {"A": 0, "B": 1}},
                         created_ms=T0 + 3000)])
    fixed = next(t for t in board(organiser, event)["tables"] if t["number"] == 1)
    assert (fixed["state"], fixed["result"]["result"], fixed["result"]["disputed"]) == ("result in", "B", [])


def test_before_a_round_the_board_says_so(app, organiser):
    event = add_event(app)
    body = board(organiser, event)
    del body["server_ms"]
    assert body == {"round": None, "tables": [], "all_in": False,
                    "counts": {"results differ": 0, "time called": 0, "deck check": 0, "playing": 0,
                               "result in": 0}}
    assert "No round started yet." in organiser.get(f"/organiser/events/{event['slug']}").get_data(as_text=True)


@pytest.mark.parametrize(("language", "one_in", "seven_playing"), [
    ("en", "1 result in", "7 playing"), ("fr", "1 résultat saisi", "7 en cours"),
    ("de", "1 Ergebnis eingetragen", "7 spielen")])
def test_the_boards_counts_agree_with_their_number_in_each_language(client, organiser, event, language, one_in,
                                                                     seven_playing):
    keeper = Phone(client, event, judge="Sam Score")
    keeper.sync([keeper.record("match_result", {"table": 1, "round": 1, "result": "A"})])
    part = organiser.get(f"/organiser/events/{event['slug']}/board",
                         headers={"Accept-Language": language}).get_data(as_text=True)
    counts = part[part.index('id="board-counts"'):]
    counts = counts[counts.index(">") + 1:counts.index("</p>")]
    assert counts.endswith(f"{seven_playing} · {one_in}")


def test_a_time_calls_score_from_the_engine_reaches_the_board_and_the_results_export(app, client, organiser):
    """The score a time-call walk ends with (the engine's `games`) travels on the time_call
    record to the round board, the organiser's page and the results CSV."""
    event = seated_event(app, PLAYERS[:4])
    with app.app_context():
        db.session.get(Event, event["id"]).games_per_match = 3
        db.session.commit()
    facts = {"game_wins": {"A": 1, "B": 1}, "current_game": {"winner": "B"}}
    answer = evaluate({"ruleset": "wotf", "query": "time_call", "facts": facts,
                       "event": {"level": "competitive", "stage": "swiss", "games_per_match": 3}})
    assert (answer["match"], answer["games"]) == ("B", {"A": 1, "B": 2})
    judge = Phone(client, event, judge="Fay Floor")
    body = judge.sync([judge.record("time_call", {"table": 1, "round": 1, "facts": facts, "answer": answer,
                                                  "result": answer["match"], "decided_by": "procedure",
                                                  "games": answer["games"]})])
    assert [r["status"] for r in body["results"]] == ["accepted"]

    table1 = next(t for t in board(organiser, event)["tables"] if t["number"] == 1)
    assert (table1["result"]["type"], table1["result"]["games"]) == ("time_call", {"A": 1, "B": 2})
    part = organiser.get(f"/organiser/events/{event['slug']}/board").get_data(as_text=True)
    assert "Player 02 wins 1–2" in part
    rows = list(csv.DictReader(io.StringIO(organiser.get(
        f"/organiser/events/{event['slug']}/results.csv").get_data(as_text=True))))
    assert [(r["table"], r["winner"], r["games_a"], r["games_b"], r["entered_as"]) for r in rows] == [
        ("1", "Player 02", "1", "2", "end-of-match procedure")]


def test_a_time_calls_score_is_checked_like_a_match_results(app, client):
    """The match-result rule (shared_rules.board.result_problem) refuses a time_call record whose
    score does not give its result; a head judge's decision may come without a score."""
    event = seated_event(app, PLAYERS[:8])
    with app.app_context():
        db.session.get(Event, event["id"]).games_per_match = 3
        db.session.commit()
    judge = Phone(client, event)

    def call(table, result, games, decided_by="procedure"):
        payload = {"table": table, "round": 1, "facts": {}, "answer": {}, "result": result, "decided_by": decided_by}
        return judge.record("time_call", payload if games is False else {**payload, "games": games})

    body = judge.sync([call(1, "A", {"A": 1, "B": 1}), call(2, "B", {"A": 1, "B": 3}),
                       call(3, "draw", {"A": 1, "B": 1}), call(4, "A", None, "head_judge"),
                       call(1, None, {"A": 1, "B": 0}, None)])
    assert [(r["status"], r.get("reason")) for r in body["results"]] == [
        ("rejected", "payload.games: 1-1 is no win for player A (the winner has won more games)"),
        ("rejected", "payload.games: 4 games won in a match of 3 games at most"),
        ("accepted", None),
        ("accepted", None),
        ("rejected", "payload.games: a score needs a result")]

"""Deck checks and appeals on the server: their records' checks (bad input refused alone),
an appeal in the head judge's review list until a decision names it (with the judge consulted
when the head judge made the first ruling, WotF §3.9), the deck-check coverage with what the
policy asks at the event's level (WotF §3.8; "not stated" where a ruleset is silent), and the
round board's "deck check" state."""

import pytest
from server_helpers import Phone, add_event, seated_event, set_role

from server.clock import end_round, start_round
from server.events import set_stage
from server.extensions import db
from server.imports import import_pairings
from server.models import Event
from shared_rules.engine import compiled_ruleset

PLAYERS = tuple(f"Player {n}" for n in range(1, 9))


@pytest.fixture
def event(app, now):
    return seated_event(app, PLAYERS)


@pytest.fixture
def floor(client, event):
    return Phone(client, event, judge="Fay Floor")


@pytest.fixture
def head(app, client, event):
    phone = Phone(client, event, judge="Hana Head")
    set_role(app, phone.id, "head_judge")
    return phone


def statuses(phone, records):
    return [(r["status"], r.get("reason")) for r in phone.sync(records)["results"]]


def test_bad_deck_check_and_appeal_fields_are_refused_alone_with_the_field_named(event, floor, head):
    p1 = event["players"]["Player 1"]
    started = floor.record("deck_check", {"player": p1, "table": 1, "round": 1, "phase": "started"})
    assert statuses(floor, [started]) == [("accepted", None)]
    base = {"player": p1, "table": 1, "round": 1, "phase": "finished", "started": started["id"], "outcome": "ok"}
    odd = [
        ("table", "3"), ("table", 10**30), ("table", 0), ("round", "1"), ("round", 2**64), ("phase", "halfway"),
        ("outcome", "mostly"), ("mid_game", "yes"), ("player", "a\x00b"), ("player", "Ana \ud800"),
        ("player", ["x"] * 10_000), ("started", "not-a-uuid"), ("started", None), ("extra", 1),
    ]
    bad = [floor.record("deck_check", {**base, field: value}) for field, value in odd]
    good = floor.record("deck_check", base)
    results = statuses(floor, [*bad, good])
    assert [s for s, _ in results] == ["rejected"] * len(odd) + ["accepted"]
    for (field, _), (_, reason) in zip(odd, results, strict=False):
        assert reason.startswith(f"payload.{field}"), (field, reason)
    # a finished check names a started one (not a finished one, not another player's)
    assert statuses(floor, [floor.record("deck_check", {**base, "started": good["id"]})])[0] == (
        "rejected", "payload.started: must name a started check")
    other = floor.record("deck_check", {**base, "player": event["players"]["Player 2"]})
    assert statuses(floor, [other])[0] == ("rejected", "payload.player: not the player of the started check")
    start_with_outcome = floor.record("deck_check", {**base, "phase": "started"})
    assert statuses(floor, [start_with_outcome])[0][1].startswith("payload.started: only a finished check")

    appeal = {"player": p1, "table": 1, "round": 1, "ruling": "the effect resolves first", "ruled_by": "Fay Floor"}
    odd_appeals = [("ruling", ""), ("ruling", "x" * 2001), ("ruling", 5), ("ruled_by", "\x00"), ("ruled_by", None),
                   ("call", "c" * 37), ("call", 12), ("penalty", "5"), ("round", 1.5), ("table", True)]
    results = statuses(floor, [floor.record("appeal", {**appeal, f: v}) for f, v in odd_appeals])
    assert [(s, r.split(":")[0]) for s, r in results] == [("rejected", f"payload.{f}") for f, _ in odd_appeals]
    decision = {"appeal": started["id"], "outcome": "changed"}
    results = statuses(head, [head.record("appeal_decision", decision),
                              head.record("appeal_decision", {**decision, "outcome": "maybe"})])
    assert results[0] == ("rejected", "payload.ruling: a changed ruling needs the new ruling")
    assert results[1][1].startswith("payload.outcome")
    # a floor judge may not decide an appeal
    stored = floor.record("appeal", appeal)
    assert statuses(floor, [stored]) == [("accepted", None)]
    assert statuses(floor, [floor.record("appeal_decision", {"appeal": stored["id"], "outcome": "confirmed"})]) == [
        ("rejected", "role head_judge or organiser required")]
    assert statuses(head, [head.record("appeal_decision", {"appeal": started["id"], "outcome": "confirmed"})]) == [
        ("rejected", "payload.appeal: only a appeal record can be named here, not a deck_check")]


def review(client, phone, slug):
    res = client.get(f"/api/events/{slug}/review", headers=phone.headers)
    assert res.status_code == 200
    return [i for i in res.get_json()["items"] if i["kind"] == "appeal"]


def test_an_appeal_waits_for_the_head_judge_until_confirmed_or_changed(client, organiser, event, floor, head):
    slug, p3 = event["slug"], event["players"]["Player 3"]
    penalty = floor.penalty(p3, infraction="feature_match_decline", penalty="match_loss", table=2)
    appeal = floor.record("appeal", {"player": p3, "table": 2, "round": 1, "ruling": "Match loss, match declined",
                                     "ruled_by": "Fay Floor", "call": "call-7", "penalty": penalty["id"]})
    assert [s for s, _ in statuses(floor, [penalty, appeal])] == ["accepted"] * 2
    (item,) = review(client, head, slug)
    assert {k: item[k] for k in ("record", "player", "player_name", "table", "round", "ruling", "ruled_by", "call",
                                 "penalty", "judge", "waiting")} == {
        "record": appeal["id"], "player": p3, "player_name": "Player 3", "table": 2, "round": 1,
        "ruling": "Match loss, match declined", "ruled_by": "Fay Floor", "call": "call-7", "penalty": penalty["id"],
        "judge": "Fay Floor", "waiting": True}
    page = organiser.get(f"/organiser/events/{slug}").get_data(as_text=True)
    assert "appeal: waiting. Ruling by Fay Floor: Match loss, match declined" in page
    assert client.get(f"/api/events/{slug}/review", headers=floor.headers).status_code == 403

    decided = head.record("appeal_decision", {"appeal": appeal["id"], "outcome": "changed",
                                              "ruling": "No penalty: the player was within time"})
    assert statuses(head, [decided]) == [("accepted", None)]
    assert review(client, head, slug) == []
    assert "appeal: waiting" not in organiser.get(f"/organiser/events/{slug}").get_data(as_text=True)
    # voiding the decision puts the appeal back in the list
    assert statuses(head, [head.record("void", {"record": decided["id"], "reason": "wrong appeal"})]) == [
        ("accepted", None)]
    assert [i["record"] for i in review(client, head, slug)] == [appeal["id"]]


def test_the_appeals_export_gives_each_appeal_with_the_head_judges_decision(organiser, event, floor, head):
    import csv
    import io

    slug, p3, p4 = event["slug"], event["players"]["Player 3"], event["players"]["Player 4"]
    changed = floor.record("appeal", {"player": p3, "table": 2, "round": 1, "ruling": "Warning",
                                      "ruled_by": "Fay Floor"}, created_ms=1_800_000_000_000)
    waiting = floor.record("appeal", {"player": p4, "table": 2, "round": 1, "ruling": "=no penalty",
                                      "ruled_by": "Fay Floor"}, created_ms=1_800_000_001_000)
    statuses(floor, [changed, waiting])
    decision = head.record("appeal_decision", {"appeal": changed["id"], "outcome": "changed", "ruling": "Caution"},
                           created_ms=1_800_000_002_000)
    statuses(head, [decision])
    res = organiser.get(f"/organiser/events/{slug}/appeals.csv")
    assert res.status_code == 200 and res.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(res.get_data(as_text=True))))
    assert [(r["id"], r["player_name"], r["ruling"], r["status"], r["decided_by"], r["new_ruling"], r["decided_ms"])
            for r in rows] == [
        (changed["id"], "Player 3", "Warning", "changed", "Hana Head", "Caution", "1800000002000"),
        (waiting["id"], "Player 4", "'=no penalty", "waiting", "", "", "")]
    assert rows[0]["decided_utc"] == "2027-01-15T08:00:02Z"
    page = organiser.get(f"/organiser/events/{slug}").get_data(as_text=True)
    assert f"/organiser/events/{slug}/appeals.csv" in page


def test_an_appeal_is_decided_once_and_again_only_after_a_void(event, floor, head):
    p3 = event["players"]["Player 3"]
    appeal = floor.record("appeal", {"player": p3, "table": 2, "round": 1, "ruling": "Warning",
                                     "ruled_by": "Fay Floor"})
    first = head.record("appeal_decision", {"appeal": appeal["id"], "outcome": "confirmed"})
    second = head.record("appeal_decision", {"appeal": appeal["id"], "outcome": "changed", "ruling": "Caution"})
    refused = ("rejected", "payload.appeal: already decided by Hana Head; void that decision first to decide again")
    # two decisions in one push, then one more later: only the first stands
    assert statuses(floor, [appeal]) == [("accepted", None)]
    assert statuses(head, [first, second]) == [("accepted", None), refused]
    third = head.record("appeal_decision", {"appeal": appeal["id"], "outcome": "changed", "ruling": "Caution"})
    assert statuses(head, [third]) == [refused]
    # a void of the decision in the same push lets the new one through
    again = head.record("appeal_decision", {"appeal": appeal["id"], "outcome": "changed", "ruling": "Caution"})
    assert statuses(head, [head.record("void", {"record": first["id"], "reason": "decided too fast"}), again]) == [
        ("accepted", None), ("accepted", None)]


def test_a_head_judge_who_made_the_first_ruling_must_name_the_judge_consulted(client, event, head):
    slug, p5 = event["slug"], event["players"]["Player 5"]
    appeal = head.record("appeal", {"player": p5, "table": 3, "round": 1, "ruling": "Game loss",
                                    "ruled_by": " hana head"})  # the same judge, however typed
    assert statuses(head, [appeal]) == [("accepted", None)]
    confirm = {"appeal": appeal["id"], "outcome": "confirmed"}
    results = statuses(head, [head.record("appeal_decision", confirm),
                              head.record("appeal_decision", {**confirm, "consulted": ""}),
                              head.record("appeal_decision", {**confirm, "consulted": "HANA HEAD"}),
                              head.record("appeal_decision", {**confirm, "consulted": "Hana  Head"}),
                              head.record("appeal_decision",
                                          {**confirm, "consulted": "\uff28\uff41\uff4e\uff41 Head"})])
    assert results[0] == ("rejected", "payload.consulted: you made the first ruling, so name the judge you consulted")
    assert results[1][1].startswith("payload.consulted: must")
    # the same name with other letter case, a run of spaces, or full-width letters
    assert results[2:] == [("rejected", "payload.consulted: must be another judge")] * 3
    assert [i["record"] for i in review(client, head, slug)] == [appeal["id"]]
    assert statuses(head, [head.record("appeal_decision", {**confirm, "consulted": "Fay Floor"})]) == [
        ("accepted", None)]
    assert review(client, head, slug) == []


def coverage(client, phone, slug):
    res = client.get(f"/api/events/{slug}/deck-checks", headers=phone.headers)
    assert res.status_code == 200, res.get_json()
    return res.get_json()


def test_coverage_lists_checked_players_and_top_cut_players_never_checked_in_swiss(app, client, organiser, event,
                                                                                   floor, head):
    slug, ids = event["slug"], event["players"]
    checks = []
    for name, table, outcome in (("Player 1", 1, "ok"), ("Player 4", 2, "wrong")):
        started = floor.record("deck_check", {"player": ids[name], "table": table, "round": 1, "phase": "started"})
        checks += [started, floor.record("deck_check", {"player": ids[name], "table": table, "round": 1,
                                                        "phase": "finished", "started": started["id"],
                                                        "outcome": outcome})]
    open_check = floor.record("deck_check", {"player": ids["Player 6"], "table": 3, "round": 1, "phase": "started"})
    assert [s for s, _ in statuses(floor, [*checks, open_check])] == ["accepted"] * 5
    with app.app_context():  # the top cut: players 1-4 in round 2, an elimination round
        ev = db.session.get(Event, event["id"])
        end_round(ev)
        set_stage(ev, "elimination")
        import_pairings(ev, 2, "table,player_a,player_b\n1,Player 1,Player 2\n2,Player 3,Player 4\n")
        start_round(ev)
    # a check in the top cut does not count as one during the Swiss rounds
    top = head.record("deck_check", {"player": ids["Player 2"], "table": 1, "round": 2, "phase": "started"})
    assert statuses(head, [top]) == [("accepted", None)]

    body = coverage(client, head, slug)
    assert [(p["player_name"], [(c["round"], c["table"], c["stage"], c["outcome"], c["finished_ms"] is None)
                                for c in p["checks"]]) for p in body["players"]] == [
        ("Player 1", [(1, 1, "swiss", "ok", False)]), ("Player 2", [(2, 1, "elimination", None, True)]),
        ("Player 4", [(1, 2, "swiss", "wrong", False)]), ("Player 6", [(1, 3, "swiss", None, True)])]
    assert body["top_cut_players"] == 4
    assert [p["player_name"] for p in body["top_cut_unchecked"]] == ["Player 2", "Player 3"]
    assert body["policy"]["expectation"] == "recommended"
    assert body["policy"]["expectation_label"] == "Recommended"
    assert body["policy"]["sources"] == ["WotF Tournament Rules §3.8"]
    assert body["policy"]["top_cut_checked"] is True
    assert client.get(f"/api/events/{slug}/deck-checks", headers=floor.headers).status_code == 403

    page = organiser.get(f"/organiser/events/{slug}").get_data(as_text=True)
    assert "Top-cut players never checked during the Swiss rounds (2 of 4)" in page
    assert 'data-expectation="recommended"' in page
    assert "Player 4</strong>:\n    round 1, table 2, found a problem" in page


@pytest.mark.parametrize(("ruleset", "level", "expectation", "label", "top_cut"), [
    ("wotf", "casual", "optional", "Optional (the organiser's choice)", True),
    ("wotf", "competitive", "recommended", "Recommended", True),
    ("wotf", "professional", "mandatory", "Mandatory", True),
    ("dci-upg", "regular", "optional", "Optional (the organiser's choice)", None),
    ("dci-upg", "professional", "mandatory", "Mandatory", None),
    ("yugioh", None, None, "not stated", None),
    ("judicial-guidelines", None, None, "not stated", None),
])
def test_what_the_policy_asks_of_deck_checks_follows_the_ruleset_and_level(app, client, ruleset, level,
                                                                           expectation, label, top_cut):
    event = add_event(app, ruleset=ruleset, level=level)
    head = Phone(client, event, judge="Hana Head")
    set_role(app, head.id, "head_judge")
    policy = coverage(client, head, event["slug"])["policy"]
    assert (policy["expectation"], policy["expectation_label"], policy["top_cut_checked"]) == (
        expectation, label, top_cut)
    assert policy["stated"] is (expectation is not None)
    covered = ruleset in ("wotf", "dci-upg")  # the rulesets with a deck_checks query
    assert policy["covered"] is covered
    assert policy["top_cut_label"] == ("" if not covered else policy["top_cut_field"] + ": "
                                       + ("not stated" if top_cut is None else "advised"))
    if not covered:
        assert policy["label"] == "Deck checks"


@pytest.mark.parametrize("language", ["it", "pt"])
def test_the_deck_check_policy_comes_to_a_phone_in_its_language(app, client, language):
    event = add_event(app, ruleset="wotf", level="competitive")
    head = Phone(client, event, judge="Hana Head")
    set_role(app, head.id, "head_judge")
    res = client.get(f"/api/events/{event['slug']}/deck-checks?language={language}", headers=head.headers)
    policy = res.get_json()["policy"]
    words = compiled_ruleset("wotf", language).words["queries"]["deck_checks"]["answer"]
    assert policy["label"] == words["expectation"]["label"] != coverage(client, head, event["slug"])["policy"]["label"]
    assert policy["expectation_label"] == words["expectation"]["values"]["recommended"]
    assert policy["top_cut_field"] == words["top_cut_checked"]["label"]
    assert policy["english"] == [] and "\ue000" not in str(policy)
    wrong = client.get(f"/api/events/{event['slug']}/deck-checks?language=xx", headers=head.headers)
    assert wrong.status_code == 400


@pytest.mark.parametrize(("ruleset", "lang", "expected"), [
    ("yugioh", "en", "The policy document says nothing about deck checks: how many to make is not stated."),
    ("yugioh", "de", "Das Regeldokument sagt nichts über Deck-Checks"),
    ("dci-upg", "en", "during the Swiss rounds: not stated"),
    ("dci-upg", "fr", compiled_ruleset("dci-upg", "fr").words["queries"]["deck_checks"]["answer"][
        "top_cut_checked"]["label"] + ": non précisé"),  # the rule data's words in French too
])
def test_the_event_page_says_what_the_policy_asks_of_deck_checks_in_its_language(app, organiser, ruleset, lang,
                                                                                  expected):
    event = add_event(app, ruleset=ruleset, level="regular" if ruleset == "dci-upg" else None)
    organiser.set_cookie("lang", lang)
    page = organiser.get(f"/organiser/events/{event['slug']}").get_data(as_text=True)
    section = page[page.index('<section id="deck-checks"'):]
    section = section[:section.index("</section>")]
    assert expected in section
    assert "not stated: not stated" not in section


def test_the_round_board_shows_a_deck_check_until_it_finishes(organiser, event, floor):
    p7 = event["players"]["Player 7"]
    started = floor.record("deck_check", {"player": p7, "table": 4, "round": 1, "phase": "started"})
    floor.sync([started])

    def states():
        body = organiser.get(f"/organiser/events/{event['slug']}/board.json").get_json()
        return {t["number"]: t["state"] for t in body["tables"]}, body["counts"]["deck check"]

    assert states() == ({1: "playing", 2: "playing", 3: "playing", 4: "deck check"}, 1)
    part = organiser.get(f"/organiser/events/{event['slug']}/board").get_data(as_text=True)
    assert "1 in a deck check" in part and 'data-table="4" data-state="deck check"' in part
    floor.sync([floor.record("deck_check", {"player": p7, "table": 4, "round": 1, "phase": "finished",
                                            "started": started["id"], "outcome": "ok"})])
    assert states() == ({1: "playing", 2: "playing", 3: "playing", 4: "playing"}, 0)
    # a voided start is no check
    again = floor.record("deck_check", {"player": p7, "table": 4, "round": 1, "phase": "started"})
    floor.sync([again, floor.record("void", {"record": again["id"], "reason": "wrong table"})])
    assert states()[1] == 0

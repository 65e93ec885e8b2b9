"""The server's review list: penalties reconciled across judges after sync (shared_rules.review
run by reconcile.py), the head judge's list, resolutions, the organiser page and the export."""

import csv
import html
import io

import pytest
from server_helpers import T0, Phone, add_event, set_role

from server.extensions import db
from server.models import Event, ReviewItem
from shared_rules import evaluate, load_ruleset
from shared_rules.history import penalty_payload, player_history, seen_ids
from shared_rules.translations import translated

EVENT = {"level": "competitive", "stage": "swiss", "games_per_match": 1}


@pytest.fixture
def event(app):
    return add_event(app)


@pytest.fixture
def team(app, client, event):
    ines, kai, hana = (Phone(client, event, judge=n) for n in ("Ines Floor", "Kai Floor", "Hana Head"))
    set_role(app, hana.id, "head_judge")
    return ines, kai, hana


def decide(phone, held, player, at_ms, infraction="slow_play", **extra):
    """What the app does: decide from the records the phone holds, and say what it saw."""
    facts = {"infraction": infraction, "history": player_history(held, player, "dci-upg")}
    answer = evaluate({"ruleset": "dci-upg", "query": "penalty", "event": EVENT, "facts": facts})
    payload = penalty_payload(answer, facts, player=player, table=1, round=1, event=EVENT,
                              history_seen=seen_ids(held, player), **extra)
    return phone.record("penalty", payload, created_ms=at_ms)


def review(phone):
    res = phone.client.get(f"/api/events/{phone.event['slug']}/review", headers=phone.headers)
    assert res.status_code == 200, res.get_json()
    return res.get_json()


def test_an_offline_judges_penalties_flag_the_warning_another_judge_gave_meanwhile(team, event, organiser):
    ines, kai, hana = team
    ada = event["players"]["Ada Brook"]
    # Ines is offline: two slow plays (Warning, Game Loss). Kai, online, sees neither: a Warning.
    first = decide(ines, [], ada, T0 + 1000)
    second = decide(ines, [first], ada, T0 + 2000)
    third = decide(kai, [], ada, T0 + 3000)
    assert [r["payload"]["penalty"] for r in (first, second, third)] == ["warning", "game_loss", "warning"]
    kai.sync([third])
    assert review(hana)["items"] == []
    ines.sync([first, second])  # the network returns
    items = review(hana)["items"]
    # the Game Loss goes to the head judge in this policy (§30); Kai's Warning is flagged
    assert [(i["kind"], i["record"]) for i in items] == [("approval", second["id"]), ("conflict", third["id"])]
    item = items[1]
    assert (item["kind"], item["record"], item["judge"]) == ("conflict", third["id"], "Kai Floor")
    assert (item["penalty"], item["expected"], item["player_name"]) == ("warning", "match_loss", "Ada Brook")
    assert item["unseen"] == [first["id"], second["id"]]
    # the organiser's page and the export say so in the ruleset's names
    page = organiser.get(f"/organiser/events/{event['slug']}").get_data(as_text=True)
    assert "with every judge&#39;s records (earlier penalties it did not see: 2) the policy gives Match Loss." in page
    rows = list(csv.DictReader(io.StringIO(organiser.get(
        f"/organiser/events/{event['slug']}/penalties.csv").get_data(as_text=True))))
    flagged = [r for r in rows if r["flag"]]
    assert [r["id"] for r in flagged] == [third["id"]]
    assert flagged[0]["flag"].startswith("Recorded Warning; with every judge's records")
    # a French page says it in French, with the French names; the export stays English
    french = {"Accept-Language": "fr"}
    names = {p["id"]: p["name"] for p in translated(load_ruleset("dci-upg"), "dci-upg", "fr")["penalties"]}
    page = html.unescape(organiser.get(f"/organiser/events/{event['slug']}", headers=french).get_data(as_text=True))
    assert (f"Enregistré : {names['warning']} ; avec les enregistrements de tous les juges "
            f"(pénalités antérieures qu'il ne voyait pas : 2), la politique donne {names['match_loss']}.") in page
    export = organiser.get(f"/organiser/events/{event['slug']}/penalties.csv", headers=french).get_data(as_text=True)
    assert "Recorded Warning; with every judge's records (earlier penalties it did not see: 2)" in export


def test_only_head_judges_read_the_review_list(team, event, client):
    ines, _, _ = team
    res = client.get(f"/api/events/{event['slug']}/review", headers=ines.headers)
    assert res.status_code == 403
    assert client.get(f"/api/events/{event['slug']}/review").status_code == 401


def test_kept_as_issued_or_issued_again_the_item_leaves_the_list(team, event, organiser):
    ines, kai, hana = team
    ada, ben = event["players"]["Ada Brook"], event["players"]["Ben Carter"]
    a1, b1 = decide(ines, [], ada, T0 + 1000), decide(ines, [], ben, T0 + 1000)
    a2, b2 = decide(kai, [], ada, T0 + 2000), decide(kai, [], ben, T0 + 2000)
    ines.sync([a1, b1])
    kai.sync([a2, b2])
    assert {i["record"] for i in review(hana)["items"]} == {a2["id"], b2["id"]}
    keep = hana.record("resolution", {"record": a2["id"], "reason": "separate game, the guide's exception"})
    held = [a1, b1, a2, b2]
    flag = next(i for i in review(hana)["items"] if i["record"] == b2["id"])
    fixed = decide(hana, [r for r in held if r["id"] in flag["history"]], ben, T0 + 9000, replaces=b2["id"])
    void = hana.record("void", {"record": b2["id"], "reason": "issued again with every judge's records"})
    # a Game Loss goes to the head judge: issued by the head judge, it is confirmed with it
    confirm = hana.record("approval", {"record": fixed["id"], "approved": True})
    assert [r["status"] for r in hana.sync([keep, fixed, void, confirm])["results"]] == ["accepted"] * 4
    body = review(hana)
    assert body["items"] == []
    assert [(k["record"], k["resolution"]["reason"]) for k in body["kept"]] == [
        (a2["id"], "separate game, the guide's exception")]
    assert fixed["payload"]["penalty"] == "game_loss"
    # the export shows what the new penalty replaced, and the replaced one as voided
    import csv
    import io
    rows = {r["id"]: r for r in csv.DictReader(io.StringIO(
        organiser.get(f"/organiser/events/{event['slug']}/penalties.csv").get_data(as_text=True)))}
    assert (rows[fixed["id"]]["replaces"], rows[b2["id"]]["voided"], rows[b2["id"]]["replaces"]) == (
        b2["id"], "True", "")


def test_penalties_waiting_for_the_head_judge_carry_the_floor_judges_notes(team, event):
    ines, _, hana = team
    ada = event["players"]["Ada Brook"]
    waiting = ines.penalty(ada, infraction="usc_major", penalty=None, head_judge=True, notes="threw a chair")
    ines.sync([waiting])
    [item] = review(hana)["items"]
    assert (item["kind"], item["record"], item["notes"], item["judge"]) == (
        "approval", waiting["id"], "threw a chair", "Ines Floor")
    hana.sync([hana.record("approval", {"record": waiting["id"], "approved": False})])
    assert review(hana)["items"] == []


def test_an_event_whose_items_were_never_worked_out_gets_them_on_first_read(app, team, event):
    ines, kai, hana = team
    ada = event["players"]["Ada Brook"]
    ines.sync([decide(ines, [], ada, T0 + 1000)])
    kai.sync([decide(kai, [], ada, T0 + 2000)])  # a Warning; a Game Loss with Ines's
    with app.app_context():  # as after the migration that added them
        db.session.execute(db.delete(ReviewItem))
        db.session.get(Event, event["id"]).review_seq = 0
        db.session.commit()
    assert [i["kind"] for i in review(hana)["items"]] == ["conflict"]


def test_a_push_reconciles_only_the_players_it_touches(app, team, event):
    ines, kai, hana = team
    ada, ben = event["players"]["Ada Brook"], event["players"]["Ben Carter"]
    ines.sync([decide(ines, [], ada, T0 + 1000), decide(ines, [], ben, T0 + 1000)])
    kai.sync([decide(kai, [], ada, T0 + 2000), decide(kai, [], ben, T0 + 2000)])
    with app.app_context():
        before = {r.player: r.id for r in db.session.scalars(db.select(ReviewItem))}
    kai.sync([kai.record("time_extension", {"table": 1, "round": 1, "minutes": 2, "reason": "ruling"}),
              decide(kai, [], ada, T0 + 3000)])
    with app.app_context():
        after = {r.player: r.id for r in db.session.scalars(db.select(ReviewItem))}
    assert after[str(ben)] == before[str(ben)]  # Ben's items were not worked out again
    assert after[str(ada)] != before[str(ada)]


def test_items_stored_in_an_older_shape_are_worked_out_again(app, team, event):
    ines, kai, hana = team
    ada = event["players"]["Ada Brook"]
    ines.sync([decide(ines, [], ada, T0 + 1000)])
    kai.sync([decide(kai, [], ada, T0 + 2000)])
    with app.app_context():  # as items stored before they said whether they wait
        for row in db.session.scalars(db.select(ReviewItem)):
            row.item = {k: v for k, v in row.item.items() if k != "waiting"}
        db.session.commit()
    assert [(i["kind"], i["waiting"]) for i in review(hana)["items"]] == [("conflict", True)]


def test_a_penalty_recorded_under_an_old_head_judge_setting_reaches_the_head_judge(team, event, organiser):
    ines, _, hana = team
    ada, ben = event["players"]["Ada Brook"], event["players"]["Ben Carter"]
    # Ines, offline, knows of no setting: a Warning needs nobody's approval on her phone.
    early = decide(ines, [], ada, T0 + 1000)
    assert (early["payload"]["penalty"], early["payload"]["head_judge"]) == ("warning", False)
    ines.sync([early])
    assert review(hana)["items"] == []
    # The organiser now has the head judge confirm Warnings and up: the stored list follows.
    organiser.form(f"/organiser/events/{event['slug']}/head-judge", head_judge_from="warning")
    assert [(i["kind"], i["record"]) for i in review(hana)["items"]] == [("approval", early["id"])]
    # one recorded later on a phone still offline since, under no setting, goes there too
    late = decide(ines, [], ben, T0 + 2000)
    ines.sync([late])
    assert [(i["kind"], i["record"]) for i in review(hana)["items"]] == \
        [("approval", early["id"]), ("approval", late["id"])]
    # and the organiser's page lists it for approval
    page = organiser.get(f"/organiser/events/{event['slug']}").get_data(as_text=True)
    assert f'/penalties/{late["id"]}/approval' in page
    # back to the policy alone: nothing waits
    organiser.form(f"/organiser/events/{event['slug']}/head-judge", head_judge_from="")
    assert review(hana)["items"] == []

"""A penalty recorded while some of its answer was still open (shared_rules/engine.py partial
answers) keeps the facts it was recorded without (`payload.open_facts`, server/records.py):
checked as fact paths of the event's ruleset, bounded, shown to the head judge."""

import csv
import io
import re

import pytest
from server_helpers import Phone, add_event, set_role

from shared_rules import evaluate
from shared_rules.history import penalty_payload

GRV = {"infraction": "gpe_game_rule_violation", "issuing": "warning"}


@pytest.fixture
def event(sqlite_app):
    return add_event(sqlite_app)


def test_a_penalty_recorded_with_its_fix_open_keeps_the_open_fact_and_waits_for_the_head_judge(sqlite_app, event):
    client = sqlite_app.test_client()
    floor, head = Phone(client, event, judge="Fay Floor"), Phone(client, event, judge="Hana Head", name="hj")
    set_role(sqlite_app, head.id, "head_judge")
    answer = evaluate({"ruleset": "dci-upg", "query": "penalty", "event": {"level": "competitive"},
                       "facts": {**GRV, "history": []}})
    ada = event["players"]["Ada Brook"]
    payload = penalty_payload(answer, GRV, player=ada, table=1, round=1, event={"level": "competitive"})
    record = floor.record("penalty", payload)
    assert floor.sync([record])["results"][0]["status"] == "accepted"
    items = client.get(f"/api/events/{event['slug']}/review", headers=head.headers).get_json()["items"]
    assert [(i["kind"], i["penalty"], i["open_facts"]) for i in items] == [
        ("approval", "warning", ["facts.caught_quickly_and_simple"])]


@pytest.mark.parametrize(("value", "reason"), [
    (["facts.not_a_fact"], "'facts.not_a_fact' is not a fact of ruleset dci-upg's penalties"),
    (["event.level", "facts.nope"], "'facts.nope' is not a fact of ruleset dci-upg's penalties"),
    (["penalty"], "is not a fact path"),
    (["facts.Caught"], "is not a fact path"),
    (["facts."], "is not a fact path"),
    (["facts.intentional", "facts.intentional"], "names a fact twice"),
    ([f"facts.f{i}" for i in range(33)], "Length must be between 1 and 32"),
    ([], "Length must be between 1 and 32"),
    ("facts.intentional", "must be a list of fact paths"),
    ([5], "must be text"),
    (["facts." + "a" * 300], "must have 1 to 200 characters"),
    (["facts.a\x00"], "NUL"),
])
def test_open_facts_that_are_not_the_rulesets_facts_are_rejected_naming_the_field(sqlite_app, event, value, reason):
    phone = Phone(sqlite_app.test_client(), event)
    good = phone.penalty(event["players"]["Ada Brook"], open_facts=["facts.caught_quickly_and_simple", "event.level"])
    bad = phone.penalty(event["players"]["Ada Brook"], open_facts=value)
    results = phone.sync([good, bad])["results"]
    assert results[0]["status"] == "accepted"
    assert results[1]["status"] == "rejected"
    assert results[1]["reason"].startswith("payload.open_facts") and reason in results[1]["reason"], results[1]


def test_the_organiser_page_and_the_export_show_what_was_still_open(app, organiser, now):
    event = add_event(app)
    phone = Phone(organiser, event)
    ada = event["players"]["Ada Brook"]
    open_one = phone.penalty(ada, infraction="gpe_game_rule_violation", open_facts=["facts.caught_quickly_and_simple"])
    closed = {**phone.penalty(ada), "created_ms": open_one["created_ms"] + 1}
    assert [r["status"] for r in phone.sync([open_one, closed])["results"]] == ["accepted"] * 2
    page = organiser.get(f"/organiser/events/{event['slug']}").get_data(as_text=True)
    shown = re.findall(r'data-open-facts="([^"]+)">([^<]+)<', page)
    assert shown == [(open_one["id"], "Still open when recorded: the error was caught soon enough and is simple "
                                      "enough to undo safely.")]
    german = organiser.get(f"/organiser/events/{event['slug']}", headers={"Accept-Language": "de"})
    assert "Beim Erfassen noch offen:" in german.get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(organiser.get(f"/organiser/events/{event['slug']}/penalties.csv")
                                           .get_data(as_text=True))))
    assert [(r["id"], r["open_facts"]) for r in rows] == [(open_one["id"], "facts.caught_quickly_and_simple"),
                                                           (closed["id"], "")]

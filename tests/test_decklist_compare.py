"""shared_rules.decklists: a counted deck against its registered list (missing, extra, wrong
section), a list against the deck sizes (the ruleset's or the organiser's), and which list
counts; and the worker actions the phone runs offline, which are these same functions."""

import copy
import json

import pytest

from shared_rules import decklists, evaluate, load_ruleset, worker
from shared_rules.errors import RuleError

LIST = [
    {"id": "main", "cards": [{"count": 4, "name": "Lightning Bolt"}, {"count": 2, "name": "Skullcrack"},
                             {"count": 20, "name": "Mountain"}]},
    {"id": "side", "cards": [{"count": 3, "name": "Path to Exile"}, {"count": 2, "name": "Skullcrack"}]},
]
PASSCODES = [{"id": "main", "cards": [{"count": 3, "code": "89631139"}, {"count": 2, "code": "46986414"}]},
             {"id": "extra", "cards": [{"count": 1, "code": "44508094"}]}]


def counted(main, side, found=None):
    return decklists.compare(LIST, {"main": main, "side": side}, found)


def test_a_deck_counted_as_listed_matches():
    found = counted([4, 2, 20], [3, 2])
    assert found == {"differences": [], "matches": True, "sections": [
        {"id": "main", "listed": 26, "counted": 26}, {"id": "side", "listed": 5, "counted": 5}]}


def test_cards_short_are_missing_and_cards_over_are_extra_per_section():
    found = counted([3, 2, 21], [3, 2])
    assert found["differences"] == [
        {"card": "Lightning Bolt", "name": "Lightning Bolt", "kind": "missing", "count": 1, "section": "main"},
        {"card": "Mountain", "name": "Mountain", "kind": "extra", "count": 1, "section": "main"}]
    assert not found["matches"]


def test_a_card_short_in_one_section_and_over_in_another_is_in_the_wrong_section():
    """Path to Exile counted in the main deck (the list has it in the side): 2 of 3 moved."""
    found = counted([4, 2, 20], [1, 2], [{"section": "main", "name": "path to  EXILE", "count": 2}])
    assert found["differences"] == [{"card": "Path to Exile", "name": "Path to Exile", "kind": "wrong_section",
                                     "count": 2, "section": "main", "listed_section": "side"}]
    assert found["sections"] == [{"id": "main", "listed": 26, "counted": 28}, {"id": "side", "listed": 5, "counted": 3}]


def test_the_same_card_listed_in_both_sections_is_compared_per_section():
    """Skullcrack: 2 main and 2 side listed; 4 counted in the main deck, none in the side."""
    found = counted([4, 4, 20], [3, 0])
    assert found["differences"] == [{"card": "Skullcrack", "name": "Skullcrack", "kind": "wrong_section",
                                     "count": 2, "section": "main", "listed_section": "side"}]


def test_a_moved_card_beyond_what_the_other_section_lacks_is_also_extra():
    found = counted([4, 2, 20], [2, 2], [{"section": "main", "name": "Path to Exile", "count": 3}])
    assert [(d["kind"], d["count"], d["section"]) for d in found["differences"]] == [
        ("extra", 2, "main"), ("wrong_section", 1, "main")]


def test_a_card_not_on_the_list_at_all_is_extra_with_its_name_as_typed():
    found = counted([4, 2, 20], [3, 2], [{"section": "side", "name": " Tormod's Crypt ", "count": 1}])
    assert found["differences"] == [{"card": "Tormod's Crypt", "name": "Tormod's Crypt", "kind": "extra",
                                     "count": 1, "section": "side"}]


def test_passcode_lists_match_a_found_card_by_its_passcode_and_show_the_passcode():
    found = decklists.compare(PASSCODES, {"main": [2, 2], "extra": [0]},
                              [{"section": "main", "name": "44508094", "count": 1}])
    assert found["differences"] == [
        {"card": "89631139", "code": "89631139", "kind": "missing", "count": 1, "section": "main"},
        {"card": "44508094", "code": "44508094", "kind": "wrong_section", "count": 1, "section": "main",
         "listed_section": "extra"}]


def test_a_section_left_out_of_the_counts_counts_as_nothing_found():
    found = decklists.compare(LIST, {"main": [4, 2, 20]})
    assert [(d["kind"], d["card"], d["count"]) for d in found["differences"]] == [
        ("missing", "Path to Exile", 3), ("missing", "Skullcrack", 2)]


@pytest.mark.parametrize(("counts", "found", "field"), [
    ({"main": [4, 2]}, None, "counts.main"),
    ({"main": [4, 2, "20"]}, None, "counts.main[2]"),
    ({"main": [4, 2, True]}, None, "counts.main[2]"),
    ({"main": [4, 2, 1000]}, None, "counts.main[2]"),
    ({"main": [4, 2, -1]}, None, "counts.main[2]"),
    ({"extra": []}, None, "counts.extra"),
    ([], None, "counts"),
    ({}, [{"section": "main", "name": "", "count": 1}], "found[0].name"),
    ({}, [{"section": "main", "name": "x" * 201, "count": 1}], "found[0].name"),
    ({}, [{"section": "", "name": "Bolt", "count": 1}], "found[0].section"),
    ({}, [{"section": "main", "name": "Bolt", "count": 1.5}], "found[0].count"),
    ({}, [{"section": "main", "name": "Bolt", "count": 1}] * 101, "found"),
])
def test_counts_of_the_wrong_shape_are_refused_naming_the_field(counts, found, field):
    with pytest.raises(RuleError) as error:
        decklists.compare(LIST, counts, found)
    assert error.value.field == field


def test_sizes_are_the_organisers_setting_where_the_document_states_none():
    ruleset = load_ruleset("dci-upg")
    sizes = decklists.sizes(ruleset, {"main": {"minimum": 60, "maximum": None}})
    assert [(s["id"], s["minimum"], s["maximum"], s["stated"], s["setting"]) for s in sizes] == [
        ("main", 60, None, False, True), ("side", None, None, False, False)]
    assert sizes[0]["note"].startswith("Not stated")


def test_a_size_the_document_states_holds_whatever_the_organiser_sets():
    ruleset = copy.deepcopy(load_ruleset("yugioh"))
    ruleset["sections"][0]["size"] = {"minimum": 40, "maximum": 60, "stated": True, "source": "x §1"}
    sizes = decklists.sizes(ruleset, {"main": {"minimum": 10, "maximum": 20}, "side": {"maximum": 15}})
    assert [(s["id"], s["minimum"], s["maximum"], s["stated"], s["setting"]) for s in sizes] == [
        ("main", 40, 60, True, False), ("side", None, 15, False, True), ("extra", None, None, False, False)]


def test_size_problems_name_the_section_and_the_bound():
    limits = [{"id": "main", "minimum": 60, "maximum": None}, {"id": "side", "minimum": None, "maximum": 4}]
    assert decklists.size_problems(LIST, limits) == [
        {"section": "main", "problem": "too_few", "count": 26, "minimum": 60},
        {"section": "side", "problem": "too_many", "count": 5, "maximum": 4}]
    assert decklists.size_problems(LIST, []) == []


def test_the_latest_list_the_server_numbered_is_the_players_registered_list():
    versions = [{"id": "a", "type": "decklist", "seq": 3, "payload": {"player": 7, "sections": LIST}},
                {"id": "b", "type": "decklist", "seq": 9, "payload": {"player": 7, "sections": PASSCODES}},
                {"id": "c", "type": "decklist", "seq": 5, "payload": {"player": 8, "sections": LIST}},
                {"id": "d", "type": "penalty", "seq": 10, "payload": {"player": 7}}]
    assert {k: r["id"] for k, r in decklists.current(versions).items()} == {"7": "b", "8": "c"}


def test_the_worker_runs_the_same_functions():
    reply = json.loads(worker.handle("decklist_compare", json.dumps(
        {"sections": LIST, "counts": {"main": [3, 2, 20], "side": [3, 2]}})))
    assert reply == {"result": decklists.compare(LIST, {"main": [3, 2, 20], "side": [3, 2]})}
    reply = json.loads(worker.handle("decklist_sizes", json.dumps(
        {"sections": LIST, "limits": [{"id": "main", "minimum": 60, "maximum": None}]})))
    assert reply["result"][0]["problem"] == "too_few"
    reply = json.loads(worker.handle("decklist_compare", json.dumps({"sections": LIST, "counts": {"main": [1]}})))
    assert reply["error"]["field"] == "counts.main"


def test_a_section_a_problem_reads_is_asked_in_the_rulesets_words():
    answer = evaluate({"ruleset": "dci-upg", "query": "decklist_problem", "event": {"level": "competitive"},
                       "facts": {"problem": "missing"}, "language": "de"})
    assert answer["needs"][0]["path"] == "facts.section"
    assert [v["id"] for v in answer["needs"][0]["values"]] == ["main", "side"]
    # an extra card is a mismatch whatever part of the deck it is in: the part is not asked
    answer = evaluate({"ruleset": "dci-upg", "query": "decklist_problem", "event": {"level": "competitive"},
                       "facts": {"problem": "extra"}})
    assert answer["infraction"] == "deck_decklist_mismatch" and "needs" not in answer

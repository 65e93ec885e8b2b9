"""Ruleset files: valid against the JSON Schema, clean under the lint, complete against the rules catalog."""

import copy
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from shared_rules import load_ruleset, ruleset_ids
from shared_rules.expr import OPS
from shared_rules.lint import lint

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "shared_rules/schema/ruleset.schema.json").read_text())
CATALOG = json.loads((ROOT / "tests/data/catalog_ids.json").read_text())
RULESETS = ruleset_ids()
CATALOGUED = sorted(k for k in CATALOG if k in CATALOG["levels"])
VALIDATOR = Draft202012Validator(SCHEMA)


def present(ruleset_id):
    if ruleset_id not in ruleset_ids():
        pytest.fail(f"ruleset file {ruleset_id}.json is missing")
    return load_ruleset(ruleset_id)


def all_ids(node, out=None):
    """Every value of an "id" key anywhere in a JSON tree."""
    out = set() if out is None else out
    if isinstance(node, dict):
        if isinstance(node.get("id"), str):
            out.add(node["id"])
        for value in node.values():
            all_ids(value, out)
    elif isinstance(node, list):
        for value in node:
            all_ids(value, out)
    return out


def test_schema_is_itself_valid():
    Draft202012Validator.check_schema(SCHEMA)


def test_schema_knows_exactly_the_engine_operators():
    assert sorted(SCHEMA["$defs"]["call"]["propertyNames"]["enum"]) == sorted(OPS)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_ruleset_is_valid(ruleset_id):
    errors = sorted(VALIDATOR.iter_errors(present(ruleset_id)), key=lambda e: e.json_path)
    assert [f"{e.json_path}: {e.message}"[:300] for e in errors] == []


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_ruleset_passes_the_lint(ruleset_id):
    assert lint(present(ruleset_id)) == []


@pytest.mark.parametrize("ruleset_id", CATALOGUED)
def test_every_catalog_id_is_in_the_data(ruleset_id):
    missing = sorted(set(CATALOG[ruleset_id]) - all_ids(present(ruleset_id)))
    assert missing == []


@pytest.mark.parametrize("ruleset_id", CATALOGUED)
def test_levels_and_queries_match_the_catalog(ruleset_id):
    data = present(ruleset_id)
    assert [level["id"] for level in data["levels"]] == CATALOG["levels"][ruleset_id]
    assert set(CATALOG["queries"][ruleset_id]) <= set(data["queries"])


@pytest.mark.parametrize("ruleset_id", sorted(CATALOG["penalties"]))
def test_penalties_match_the_catalog(ruleset_id):
    assert {p["id"] for p in present(ruleset_id)["penalties"]} >= set(CATALOG["penalties"][ruleset_id])


@pytest.mark.parametrize("ruleset_id", sorted(CATALOG["ladders"]))
def test_catalog_upgrade_paths_are_in_the_ladders(ruleset_id):
    ladders = [ladder["steps"] for ladder in present(ruleset_id)["ladders"].values()]
    for path in CATALOG["ladders"][ruleset_id]:
        assert any(path == steps[i:i + len(path)] for steps in ladders for i in range(len(steps))), path


@pytest.mark.parametrize("ruleset_id", CATALOGUED)
def test_a_catalogued_document_names_its_seed_and_version(ruleset_id):
    document = present(ruleset_id)["document"]
    assert document["seed"].endswith(".txt") and document["version"]


def test_an_invalid_rule_fails_with_the_path_of_the_bad_field():
    data = copy.deepcopy(present("wotf"))
    data["infractions"][0]["rules"].insert(0, {"when": {"no_such_operator": [1, 2]}})
    error = best_match(VALIDATOR.iter_errors(data))
    assert error.json_path.startswith("$.infractions[0].rules[0].when")


def test_a_source_without_a_seed_citation_fails_with_its_path():
    data = copy.deepcopy(present("wotf"))
    data["levels"][0]["source"] = "somewhere"
    error = best_match(VALIDATOR.iter_errors(data))
    assert error.json_path == "$.levels[0].source"


def test_an_infraction_in_a_category_the_ruleset_does_not_list_fails_the_lint():
    data = copy.deepcopy(present("wotf"))
    data["infractions"][1]["category"] = "no_such_group"
    data["categories"].append(dict(data["categories"][0]))
    problems = lint(data)
    assert "infractions[1].category: 'no_such_group' is not one of the ruleset's categories" in problems
    assert f"categories[{len(data['categories']) - 1}].id: {data['categories'][0]['id']!r} is used twice" in problems


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_policy_with_a_time_procedure_shows_players_what_happens_at_time(ruleset_id):
    data = present(ruleset_id)
    shown = [t["id"] for t in data.get("topics", []) if t.get("for_players")]
    if "time_call" in data["queries"]:
        assert shown and all(t in all_ids(data) for t in shown)
    else:
        assert shown == []


def test_decklist_sections_and_their_infractions_are_linted():
    """A section queries.json does not name, one twice, a stated size with no source or a size
    not stated with numbers, and an infraction a decklist problem names that the ruleset does
    not declare: each named with its path."""
    data = copy.deepcopy(present("dci-upg"))
    data["sections"].append({"id": "sideboard", "name": "x", "size": {"minimum": None, "maximum": None,
                                                                       "stated": False}})
    data["sections"].append(copy.deepcopy(data["sections"][0]))
    data["sections"][0]["size"] = {"minimum": 60, "maximum": 40, "stated": True}
    data["sections"][0].pop("source")
    data["sections"][1]["size"]["maximum"] = 15
    steps = data["queries"]["decklist_problem"]["steps"][0]["first"]
    steps[0]["set"]["infraction"] = "no_such_infraction"
    problems = lint(data)
    assert "sections[2].id: 'sideboard' is not a section queries.json names (main, side, extra)" in problems
    assert "sections[3].id: 'main' is used twice" in problems
    assert "sections[0].size: a stated size needs a source" in problems
    assert "sections[0].size: minimum 60 is above maximum 40" in problems
    assert "sections[1].size: a size not stated has no numbers (the organiser sets them)" in problems
    assert any(p.endswith("set.infraction: 'no_such_infraction' is not a declared infraction") for p in problems)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_ruleset_names_its_decklist_sections_and_says_where_a_size_is_not_stated(ruleset_id):
    data = present(ruleset_id)
    assert data["sections"] and data["sections"][0]["id"] == "main"
    for section in data["sections"]:
        size = section["size"]
        assert size["stated"] or size["note"].startswith("Not stated")

"""A new game's policy is one JSON file plus its cases, with no code change.

A copy of a ruleset with its id, its document id, a fact and a penalty id renamed throughout
(and best of 5 allowed), dropped with its renamed cases into a folder named by
SHARED_RULES_PATH, passes `python -m shared_rules check`; the server lists it, answers from it
and creates events for it; the app build packs it for the phone's engine.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from server_helpers import make_app

import shared_rules
from shared_rules import library
from shared_rules.cases import load_case_files

ROOT = Path(__file__).resolve().parents[2]
SOURCE = "yugioh"
RENAMES = {"yugioh": "stars-duel", "life_points": "stars", "game_loss": "star_loss"}
CITED = json.loads(shared_rules.ruleset_path(SOURCE).read_text(encoding="utf-8"))["document"]["id"]


def renamed(text: str) -> str:
    for old, new in RENAMES.items():
        text = re.sub(rf"(?<![\w-]){re.escape(old)}(?![\w-])", new, text)
    return text.replace(f"{CITED} §", "stars-rules §")


@pytest.fixture()
def folder(tmp_path, monkeypatch):
    ruleset = json.loads(renamed(shared_rules.ruleset_path(SOURCE).read_text(encoding="utf-8")))
    document = ruleset["document"]
    document.pop("seed")
    document["id"] = "stars-rules"
    ruleset["best_of"] = [1, 3, 5]
    cases = json.loads(renamed((library.PACKAGE / "cases" / f"{SOURCE}.json").read_text(encoding="utf-8")))
    cases["cases"] += [
        {"id": "three-duel-wins-of-a-best-of-five-already-win-the-match", "query": "time_call",
         "event": {"level": "tier2", "stage": "swiss", "games_per_match": 5},
         "facts": {"game_wins": {"A": 3, "B": 1}}, "expect": {"match": "A"}, "source": "stars-rules §1"},
        {"id": "two-duel-wins-of-a-best-of-five-do-not", "query": "time_call",
         "event": {"level": "tier2", "stage": "swiss", "games_per_match": 5},
         "facts": {"game_wins": {"A": 2, "B": 1}, "current_game": {"winner": None, "stars": {"A": 1, "B": 2}}},
         "expect": {"game_result": "B", "match": "draw"}, "source": "stars-rules §1"}]
    for kind, data in (("rulesets", ruleset), ("cases", cases)):
        (tmp_path / kind).mkdir()
        (tmp_path / kind / "stars-duel.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    monkeypatch.setenv(library.PATH_VARIABLE, str(tmp_path))
    yield tmp_path
    library.clear_caches()


def test_the_copy_really_uses_other_words(folder):
    text = (folder / "rulesets" / "stars-duel.json").read_text(encoding="utf-8")
    assert '"star_loss"' in text and '"facts.current_game.stars.A"' in text and '"id": "stars-duel"' in text
    assert not re.search(r'(?<![\w-])(game_loss|life_points|yugioh)(?![\w-])', text)
    assert f"{CITED} §" not in text and '"seed"' not in text


def test_the_renamed_copy_passes_check_with_no_code_change(folder):
    done = subprocess.run([sys.executable, "-m", "shared_rules", "check"], capture_output=True, text=True,
                          cwd=ROOT, check=False, env={**os.environ, library.PATH_VARIABLE: str(folder)})
    assert "LINT" not in done.stdout and "FAIL" not in done.stdout, done.stdout[-2000:]
    assert done.returncode == 0
    everything = load_case_files([*(library.PACKAGE / "cases").glob("*.json"), folder / "cases" / "stars-duel.json"])
    assert done.stdout.strip().splitlines()[-1] == f"{len(everything)} passed, 0 failed"


def test_a_star_loss_is_a_penalty_of_the_copy_and_of_no_other_ruleset(folder):
    answer = shared_rules.evaluate({"ruleset": "stars-duel", "query": "penalty", "event": {"level": "tier2"},
                                    "facts": {"infraction": "tardiness", "minutes_late": 4}})
    assert answer["penalty"] == "star_loss"
    with pytest.raises(shared_rules.RuleError) as error:
        shared_rules.evaluate({"ruleset": SOURCE, "query": "penalty", "event": {"level": "tier2"},
                               "facts": {"infraction": "tardiness",
                                         "history": [{"infraction": "tardiness", "penalty": "star_loss"}]}})
    assert error.value.field == "facts.history[0].penalty"


def test_one_ruleset_id_in_two_folders_is_refused(folder, tmp_path_factory, monkeypatch):
    other = tmp_path_factory.mktemp("again")
    (other / "rulesets").mkdir()
    shutil.copy(folder / "rulesets" / "stars-duel.json", other / "rulesets")
    monkeypatch.setenv(library.PATH_VARIABLE, os.pathsep.join([str(folder), str(other)]))
    with pytest.raises(shared_rules.RuleError) as error:
        shared_rules.ruleset_ids()
    assert "is in two folders" in str(error.value)


def test_the_server_lists_answers_from_and_runs_events_on_the_copy(folder, tmp_path, request):
    app = make_app("sqlite", tmp_path, request)
    from server.events import create_event
    from server.extensions import db

    client = app.test_client()
    listed = {r["id"]: r for r in client.get("/api/rulesets").get_json()}
    assert listed["stars-duel"]["best_of"] == [1, 3, 5] and listed["stars-duel"]["level_label"] == "Tier"
    res = client.post("/api/rulesets/stars-duel/evaluate",
                      json={"query": "time_call", "event": {"level": "tier1", "games_per_match": 5},
                            "facts": {"current_game": {"winner": None, "stars": {"A": 8, "B": 3}}}})
    assert res.status_code == 200 and res.get_json()["game_result"] == "A"
    with app.app_context():
        db.create_all()
        event = create_event("Star Cup", "stars-duel", level="tier2", games_per_match=5)
        assert (event.ruleset, event.games_per_match) == ("stars-duel", 5)
        db.engine.dispose()


def test_the_app_build_packs_the_copy_for_the_phones_engine(folder, tmp_path):
    out = tmp_path / "dist"
    done = subprocess.run(["node", str(ROOT / "pwa" / "build.mjs"), "--out", str(out)], capture_output=True,
                          text=True, check=False, env={**os.environ, library.PATH_VARIABLE: str(folder)})
    assert done.returncode == 0, done.stderr
    index = {r["id"]: r for r in json.loads((out / "rules" / "index.json").read_text())}
    assert index["stars-duel"]["best_of"] == [1, 3, 5]
    assert (out / "rules" / "stars-duel.json").read_bytes() == (folder / "rulesets" / "stars-duel.json").read_bytes()
    names = zipfile.ZipFile(out / "engine" / "shared_rules.zip").namelist()
    assert "shared_rules/rulesets/stars-duel.json" in names and "shared_rules/rulesets/yugioh.json" in names

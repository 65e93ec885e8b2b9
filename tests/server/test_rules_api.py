"""Rules API: ruleset list and files with ETags, and the evaluate endpoint, which answers
every case file exactly as the CLI does."""

import json
from pathlib import Path

import pytest

import shared_rules
from shared_rules.__main__ import main as cli
from shared_rules.cases import load_case_files

ROOT_CASES = sorted((shared_rules.ruleset_path("wotf").parent.parent / "cases").glob("*.json"))
CASES = load_case_files(ROOT_CASES)


@pytest.fixture(scope="module")
def client():
    from server_helpers import make_app

    # rules endpoints never touch the database: one app on an in-memory SQLite serves all
    app = make_app("sqlite", None, None, SQLALCHEMY_DATABASE_URI="sqlite://")
    return app.test_client()


def test_the_ruleset_list_names_ids_titles_versions_levels_and_queries(client):
    res = client.get("/api/rulesets")
    assert res.status_code == 200
    body = res.get_json()
    ids = [r["id"] for r in body]
    # the package's own rulesets, and any more a SHARED_RULES_PATH folder adds, sorted by id
    package = sorted(p.stem for p in (Path(shared_rules.__file__).parent / "rulesets").glob("*.json"))
    assert ids == sorted(ids) and set(package) <= set(ids)
    assert body == shared_rules.list_rulesets()
    assert res.headers["Cache-Control"] == "no-cache" and res.headers["ETag"]


def test_a_ruleset_is_served_as_its_file_and_revalidates_to_304(client):
    res = client.get("/api/rulesets/wotf")
    assert res.get_data() == shared_rules.ruleset_path("wotf").read_bytes()
    assert res.headers["Cache-Control"] == "no-cache"
    again = client.get("/api/rulesets/wotf", headers={"If-None-Match": res.headers["ETag"]})
    assert again.status_code == 304
    other = client.get("/api/rulesets/yugioh", headers={"If-None-Match": res.headers["ETag"]})
    assert other.status_code == 200


def test_an_unknown_ruleset_is_404(client):
    res = client.get("/api/rulesets/chess")
    assert res.status_code == 404
    assert res.get_json() == {"error": {"code": "not_found", "message": "ruleset 'chess' not found"}}


def test_engine_errors_are_400_with_the_engines_message_and_field(client):
    res = client.post("/api/rulesets/dci-upg/evaluate",
                      json={"query": "penalty", "event": {"level": "regular"},
                            "facts": {"infraction": "juggling"}})
    assert res.status_code == 400
    error = res.get_json()["error"]
    with pytest.raises(shared_rules.RuleError) as raised:
        shared_rules.evaluate({"ruleset": "dci-upg", "query": "penalty", "event": {"level": "regular"},
                               "facts": {"infraction": "juggling"}})
    assert error == {"code": "bad_request", "message": str(raised.value), "field": raised.value.field}


def test_a_body_without_query_is_400(client):
    res = client.post("/api/rulesets/wotf/evaluate", json={"facts": {}})
    assert res.status_code == 400
    assert res.get_json()["error"]["field"] == "query"


@pytest.mark.parametrize("case", CASES, ids=[f"{c.ruleset}:{c.id}" for c in CASES])
def test_the_endpoint_answers_each_case_as_the_cli_does(client, case, tmp_path, capsys):
    request = case.request
    path = tmp_path / "request.json"
    path.write_text(json.dumps(request), encoding="utf-8")
    status = cli(["eval", "--request", str(path)])
    out = capsys.readouterr()
    res = client.post(f"/api/rulesets/{request['ruleset']}/evaluate",
                      json={k: request[k] for k in ("query", "event", "facts")})
    if status == 0:
        assert res.status_code == 200
        assert res.get_json() == json.loads(out.out)
    else:
        assert res.status_code == 400
        assert res.get_json()["error"]["message"] in out.err


@pytest.mark.parametrize(("facts", "message"), [
    ('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested deeper than 64 levels"),
    ('{"infraction": "slow_play", "history": [], "x": NaN}', "NaN is not valid JSON"),
])
def test_evaluate_refuses_a_too_deep_or_non_finite_body_with_400(client, facts, message):
    body = '{"query": "penalty", "event": {"level": "casual"}, "facts": ' + facts + "}"
    res = client.post("/api/rulesets/wotf/evaluate", data=body,
                      headers={"Content-Type": "application/json"})
    assert res.status_code == 400
    assert res.get_json() == {"error": {"code": "bad_request",
                                        "message": f"invalid JSON body: {message}"}}


def test_every_engine_action_of_the_app_answers_here_as_the_apps_worker_does(client):
    import json

    from shared_rules import worker

    requests = [("facts_read", {"ruleset": info["id"], "query": query})
                for info in shared_rules.list_rulesets() for query in info["queries"]]
    requests += [
        ("evaluate", {"ruleset": "dci-upg", "query": "penalty", "event": {"level": "competitive"},
                      "facts": {"infraction": "slow_play"}}),
        ("history", {"ruleset": "dci-upg", "player": 7, "records": [
            {"id": "a", "type": "penalty", "created_ms": 1, "seq": 1,
             "payload": {"player": 7, "infraction": "slow_play", "penalty": "warning"}}]}),
    ]
    for action, request in requests:
        res = client.post(f"/api/engine/{action}", json=request)
        assert res.status_code == 200, (action, request, res.get_json())
        assert res.get_json() == json.loads(worker.handle(action, json.dumps(request)))
    history = client.post("/api/engine/history", json=requests[-1][1]).get_json()["result"]
    assert [item["penalty"] for item in history] == ["warning"]
    bad = client.post("/api/engine/evaluate", json={"ruleset": "chess", "query": "penalty"})
    assert bad.status_code == 400 and bad.get_json()["error"]["field"] == "ruleset"
    missing = client.post("/api/engine/no_such_action", json={})
    assert missing.status_code == 404 and missing.get_json()["error"]["code"] == "not_found"


def test_evaluate_and_the_ruleset_list_answer_in_the_language_asked(client):
    body = {"query": "penalty", "event": {"level": "tier2"}, "facts": {"infraction": "slow_play"},
            "language": "de"}
    res = client.post("/api/rulesets/yugioh/evaluate", json=body)
    assert res.status_code == 200
    answer = res.get_json()
    assert answer == shared_rules.evaluate({"ruleset": "yugioh", **body})
    assert answer["language"] == "de" and answer["english"] == []
    assert "Strafe: Verwarnung." in answer["explain"]
    bad = client.post("/api/rulesets/yugioh/evaluate", json={**body, "language": "xx"})
    assert bad.status_code == 400 and "unknown language 'xx'" in bad.get_data(as_text=True)
    listed = {r["id"]: r for r in client.get("/api/rulesets?language=de").get_json()}
    assert listed["yugioh"]["levels"][0]["name"] == "Tier 1 (lokal)"
    assert listed["yugioh"]["language"] == "de"
    assert client.get("/api/rulesets?language=xx").status_code == 400

"""Who may do what, tried for real: every role (and a revoked device, another event's device)
against every endpoint and organiser action, compared with the table below, which the
README's roles table states in words (and roles.py in data)."""

import json
import re

import pytest
from conftest import log_in
from server_helpers import Phone, add_event, set_role

from server import roles
from server.decklist_intake import ensure_codes, register, set_deadline
from server.extensions import db
from server.models import Event

SUBJECTS = ["anonymous", "floor_judge", "head_judge", "scorekeeper", "revoked", "other_event", "organiser"]
# action -> the subjects allowed, in SUBJECTS order (Y allowed, - refused)
EXPECTED = {
    "GET /api/time":                         "YYYYYYY",
    "GET /api/rulesets":                     "YYYYYYY",
    "GET /api/rulesets/<id>":                "YYYYYYY",
    "POST /api/engine/<action>":             "YYYYYYY",
    "POST /api/rulesets/<id>/evaluate":      "YYYYYYY",
    "GET /api/events/<slug>/clock":          "YYYYYYY",
    "POST /api/join (the code one knows)":   "YYYY-YY",
    "GET /api/events/<slug>":                "-YYY---",
    "POST /api/events/<slug>/sync":          "-YYY---",
    "GET .../players/<p>/history":           "-YY----",
    "GET /api/events/<slug>/review":         "--Y----",
    "POST /api/events/<slug>/calls":         "YYYYYYY",
    "GET .../calls/policy":                  "YYYYYYY",
    "GET .../calls/table/<n>":               "YYYYYYY",
    "GET /api/events/<slug>/stream":         "YYYYYYY",
    "GET /api/events/<slug>/calls":          "-YY----",
    "POST .../calls/<id>/take":              "-YY----",
    "POST .../calls/<id>/close":             "-YY----",
    "GET /api/events/<slug>/deck-checks":    "--Y----",
    "POST .../decklist/mine (a code)":       "YYYYYYY",
    "POST .../decklist (a code)":            "YYYYYYY",
    "push penalty":                          "-YY----",
    "push time_extension":                   "-YY----",
    "push time_call":                        "-YY----",
    "push match_result":                     "-YYY---",
    "push approval":                         "--Y----",
    "push resolution":                       "--Y----",
    "push deck_check":                       "-YY----",
    "push decklist":                         "-------",
    "push appeal":                           "-YY----",
    "push appeal_decision":                  "--Y----",
    "push void of own record":               "-YYY---",
    "push void of another's record":         "--Y----",
    "pull penalties":                        "-YY----",
    "pull time extensions":                  "-YYY---",
    "pull decklists":                        "-YY----",
    "organiser: events list":                "------Y",
    "organiser: event page":                 "------Y",
    "organiser: create event":               "------Y",
    "organiser: start round":                "------Y",
    "organiser: set stage":                  "------Y",
    "organiser: import players":             "------Y",
    "organiser: import tables":              "------Y",
    "organiser: set a device's role":        "------Y",
    "organiser: revoke a device":            "------Y",
    "organiser: new join code":              "------Y",
    "organiser: approve a penalty":          "------Y",
    "organiser: export CSV":                 "------Y",
    "organiser: export JSON":                "------Y",
    "organiser: export results CSV":         "------Y",
    "organiser: round board":                "------Y",
    "organiser: round board (page part)":    "------Y",
    "organiser: set the head-judge setting": "------Y",
    "organiser: export calls CSV":           "------Y",
    "organiser: export appeals CSV":         "------Y",
    "organiser: table QR cards":             "------Y",
    "organiser: set the call escalation":    "------Y",
    "organiser: decklists page":             "------Y",
    "organiser: set the decklist deadline":  "------Y",
    "organiser: set the deck sizes":         "------Y",
    "organiser: enter a player's list":      "------Y",
    "organiser: lists from a CSV":           "------Y",
    "organiser: print the lists":            "------Y",
    "organiser: export the lists (CSV)":     "------Y",
    "organiser: print the players' codes":   "------Y",
    "organiser: log out (last: it ends the session)": "------Y",
}


@pytest.fixture
def world(app, client, now):
    app.config["CALL_ADDRESS_LIMITS"] = "1000 per minute"  # every try calls from this one address
    event = add_event(app, ruleset="dci-upg", level="competitive", players=("Ada Brook", "Ben Carter"))
    other = add_event(app, ruleset="wotf", level="competitive")
    phones = {"floor_judge": Phone(client, event, judge="Fay Floor"),
              "head_judge": Phone(client, event, judge="Hana Head"),
              "scorekeeper": Phone(client, event, judge="Sam Score"),
              "revoked": Phone(client, event, judge="Rex Revoked"),
              "other_event": Phone(client, other, judge="Otto Other")}
    set_role(app, phones["head_judge"].id, "head_judge")
    set_role(app, phones["scorekeeper"].id, "scorekeeper")
    writer = phones["floor_judge"]
    penalty = writer.penalty("Ada Brook", infraction="usc_minor", penalty="warning", head_judge=True)
    extension = writer.record("time_extension", {"table": 1, "round": 1, "minutes": 2, "reason": "ruling"})
    appeal = writer.record("appeal", {"player": event["players"]["Ada Brook"], "table": 1, "round": 1,
                                      "ruling": "the trigger resolves first", "ruled_by": "Fay Floor"})
    writer.sync([penalty, extension, appeal])
    organiser = log_in(app.test_client())
    organiser.form(f"/organiser/events/{event['slug']}/devices/{phones['revoked'].id}", action="revoke")
    with app.app_context():
        ev = db.session.get(Event, event["id"])
        ensure_codes(ev)
        set_deadline(ev, 2**62)
        register(ev, ev.players[0], "60 Island\n", None, "organiser")
        code = ev.players[0].decklist_code
    spare = Phone(client, {**event, "code": _code(app, event)}, judge="Spare")  # for role and revoke actions
    others = spare.record("match_result", {"table": 5, "round": 1, "result": "A"})
    spare.sync([others])
    return {"app": app, "event": event, "phones": phones, "organiser": organiser, "penalty": penalty,
            "spare": spare, "others": others, "appeal": appeal, "decklist_code": code}


def _code(app, event):
    with app.app_context():
        return db.session.get(Event, event["id"]).join_code


def _attempt(world, subject, action) -> bool:
    """Whether `subject` managed `action` (True) or was refused (False)."""
    app, event = world["app"], world["event"]
    slug = event["slug"]
    phone = world["phones"].get(subject)
    client = world["organiser"] if subject == "organiser" else app.test_client()
    headers = phone.headers if phone else {}
    if action.startswith("organiser: "):
        return _organiser_action(world, client, action.removeprefix("organiser: "))
    if action.startswith(("push ", "pull ")):
        return _records_action(world, subject, phone, action)
    if "calls" in action or "stream" in action:
        return _calls_action(world, client, headers, action)
    if "/decklist" in action:
        body = {"code": world["decklist_code"]}
        if action.startswith("POST .../decklist (a code)"):
            return client.post(f"/api/events/{slug}/decklist", json={**body, "text": "60 Island\n"},
                               headers=headers).status_code == 201
        return client.post(f"/api/events/{slug}/decklist/mine", json=body, headers=headers).status_code == 200
    if action.startswith("POST /api/join"):
        code = event["code"] if subject == "revoked" else _code(app, event)
        res = client.post("/api/join", json={"code": code, "device_name": "p", "judge_name": subject})
        return res.status_code == 200
    requests = {
        "GET /api/time": ("get", "/api/time", None),
        "GET /api/rulesets": ("get", "/api/rulesets", None),
        "GET /api/rulesets/<id>": ("get", "/api/rulesets/dci-upg", None),
        "POST /api/engine/<action>": ("post", "/api/engine/history", {
            "records": [], "player": "Ada Brook", "ruleset": "dci-upg"}),
        "POST /api/rulesets/<id>/evaluate": ("post", "/api/rulesets/dci-upg/evaluate", {
            "query": "penalty", "event": {"level": "competitive"},
            "facts": {"infraction": "usc_minor", "history": []}}),
        "GET /api/events/<slug>/clock": ("get", f"/api/events/{slug}/clock", None),
        "GET /api/events/<slug>": ("get", f"/api/events/{slug}", None),
        "POST /api/events/<slug>/sync": ("post", f"/api/events/{slug}/sync", {"device": phone.id if phone else 1}),
        "GET .../players/<p>/history": ("get", f"/api/events/{slug}/players/{event['players']['Ada Brook']}/history",
                                        None),
        "GET /api/events/<slug>/review": ("get", f"/api/events/{slug}/review", None),
        "GET /api/events/<slug>/deck-checks": ("get", f"/api/events/{slug}/deck-checks", None),
    }
    method, path, body = requests[action]
    res = getattr(client, method)(path, headers=headers, json=body) if body is not None \
        else getattr(client, method)(path, headers=headers)
    return res.status_code == 200


def _calls_action(world, client, headers, action):
    """A call action tried with this subject's client and token; each try calls from a table
    of its own (so nobody's try finds another's call open or taken)."""
    slug = world["event"]["slug"]
    world["tables"] = world.get("tables", 0) + 1
    base = f"/api/events/{slug}/calls"
    if action == "POST /api/events/<slug>/calls":
        return client.post(base, json={"table": world["tables"]}, headers=headers).status_code == 201
    if action.endswith(("/take", "/close")):
        call_id = world["app"].test_client().post(base, json={"table": world["tables"]}).get_json()["id"]
        return client.post(f"{base}/{call_id}/{action.rsplit('/', 1)[1]}", headers=headers,
                           json={}).status_code == 200
    paths = {"GET .../calls/policy": f"{base}/policy", "GET .../calls/table/<n>": f"{base}/table/1",
             "GET /api/events/<slug>/calls": base, "GET /api/events/<slug>/stream": f"/api/events/{slug}/stream"}
    res = client.get(paths[action], headers=headers, buffered=False)
    res.close()
    return res.status_code == 200


def _records_action(world, subject, phone, action):
    if phone is None:
        return False  # no token: nothing to push or pull with
    event, own = world["event"], None
    kind = action.removeprefix("push ").removeprefix("pull ")
    if action.startswith("pull "):
        res = phone.client.post(f"/api/events/{event['slug']}/sync", headers=phone.headers,
                                json={"device": phone.id, "cursor": 0})
        wanted = {"penalties": "penalty", "decklists": "decklist"}.get(kind, "time_extension")
        return res.status_code == 200 and any(r["type"] == wanted for r in res.get_json()["records"])
    if kind == "void of own record":
        own = phone.record("match_result", {"table": 9, "round": 1, "result": "draw"})
        phone.client.post(f"/api/events/{event['slug']}/sync", headers=phone.headers,
                          json={"device": phone.id, "records": [own]})
    records = {
        "penalty": lambda: phone.penalty("Ada Brook", infraction="usc_minor", penalty="warning"),
        "time_extension": lambda: phone.record("time_extension", {"table": 3, "round": 1, "minutes": 1,
                                                                  "reason": "judge_pause"}),
        "time_call": lambda: phone.record("time_call", {"table": 3, "round": 1, "facts": {}, "answer": {},
                                                        "result": None}),
        "match_result": lambda: phone.record("match_result", {"table": 3, "round": 1, "result": "B"}),
        "approval": lambda: phone.record("approval", {"record": world["penalty"]["id"], "approved": True}),
        "resolution": lambda: phone.record("resolution", {"record": world["penalty"]["id"], "reason": "kept"}),
        "deck_check": lambda: phone.record("deck_check", {"player": event["players"]["Ada Brook"], "table": 1,
                                                          "round": 1, "phase": "started"}),
        "appeal": lambda: phone.record("appeal", {"player": "Ben Carter", "ruling": "no", "ruled_by": "Fay Floor"}),
        "appeal_decision": lambda: phone.record("appeal_decision", {"appeal": world["appeal"]["id"],
                                                                    "outcome": "confirmed"}),
        "decklist": lambda: phone.record("decklist", {"player": event["players"]["Ben Carter"], "format": "plain",
                                                      "by": "organiser", "sections": [
                                                          {"id": "main", "cards": [{"count": 60, "name": "Island"}]}]}),
        "void of own record": lambda: phone.record("void", {"record": own["id"], "reason": "mine, wrong"}),
        "void of another's record": lambda: phone.record("void", {"record": world["others"]["id"],
                                                                  "reason": "wrong"}),
    }
    res = phone.client.post(f"/api/events/{event['slug']}/sync", headers=phone.headers,
                            json={"device": phone.id, "records": [records[kind]()]})
    return res.status_code == 200 and res.get_json()["results"][0]["status"] == "accepted"


def _organiser_action(world, client, action):
    slug = world["event"]["slug"]
    base = f"/organiser/events/{slug}"
    token = None
    with client.session_transaction() as session:
        token = session.get("csrf", "none")
    posts = {
        "create event": ("/organiser/events", {"name": "Matrix Open", "ruleset_level": "wotf|casual"}),
        "start round": (f"{base}/round", {"action": "start", "round_minutes": "40"}),
        "set stage": (f"{base}/stage", {"stage": "elimination"}),
        "import players": (f"{base}/players", {"csv": "name\nNew Player\n"}),
        "import tables": (f"{base}/pairings", {"round": "1",
                                               "csv": "table,player_a,player_b\n1,Ada Brook,Ben Carter\n"}),
        "set a device's role": (f"{base}/devices/{world['spare'].id}", {"action": "role", "role": "scorekeeper"}),
        "revoke a device": (f"{base}/devices/{world['spare'].id}", {"action": "revoke"}),
        "new join code": (f"{base}/join-code", {}),
        "approve a penalty": (f"{base}/penalties/{world['penalty']['id']}/approval", {"approved": "1"}),
        "set the head-judge setting": (f"{base}/head-judge", {"head_judge_from": "match_loss"}),
        "set the call escalation": (f"{base}/call-escalation", {"seconds": "90"}),
        "set the decklist deadline": (f"{base}/decklists/settings", {"action": "deadline",
                                                                     "deadline": "2099-01-01T10:00"}),
        "set the deck sizes": (f"{base}/decklists/settings", {"action": "sizes", "min_main": "60"}),
        "enter a player's list": (f"{base}/decklists/{world['event']['players']['Ben Carter']}",
                                  {"text": "60 Island\n"}),
        "lists from a CSV": (f"{base}/decklists/bulk", {"csv": 'name,decklist\nBen Carter,"60 Island"\n'}),
    }
    gets = {"events list": "/organiser/", "event page": base, "export CSV": f"{base}/penalties.csv",
            "export JSON": f"{base}/penalties.json", "export results CSV": f"{base}/results.csv",
            "round board": f"{base}/board.json", "round board (page part)": f"{base}/board",
            "export calls CSV": f"{base}/calls.csv", "export appeals CSV": f"{base}/appeals.csv",
            "table QR cards": f"{base}/tables?count=2", "decklists page": f"{base}/decklists",
            "print the lists": f"{base}/decklists/print", "export the lists (CSV)": f"{base}/decklists.csv",
            "print the players' codes": f"{base}/decklists/codes"}
    if action in gets:
        res = client.get(gets[action])
        return res.status_code == 200
    if action.startswith("log out"):
        # managed when the session that opened the events list no longer does
        before = client.get("/organiser/").status_code == 200
        client.post("/organiser/logout", data={"csrf": token})
        return before and client.get("/organiser/").status_code != 200
    path, data = posts[action]
    res = client.post(path, data={"csrf": token, **data})
    if res.status_code != 302 or "/organiser/login" in res.headers["Location"]:
        return False
    page = client.get(res.headers["Location"]).get_data(as_text=True)
    return 'class="flash error"' not in page


def test_every_role_against_every_endpoint_and_organiser_action(world, root, request):
    crossings = []
    for action, expected in EXPECTED.items():
        for subject, allowed in zip(SUBJECTS, expected, strict=True):
            got = _attempt(world, subject, action)
            if got != (allowed == "Y"):
                crossings.append(f"{subject} {'could' if got else 'could not'} {action}")
    assert crossings == []
    path = root / "test-artifacts" / "roles-matrix.json"
    path.parent.mkdir(exist_ok=True)
    known = json.loads(path.read_text()) if path.exists() else {}
    known[request.node.callspec.params["app"]] = {
        "subjects": len(SUBJECTS), "actions": len(EXPECTED), "cells": len(SUBJECTS) * len(EXPECTED),
        "crossings": len(crossings)}
    path.write_text(json.dumps(known, indent=1, sort_keys=True))


def test_the_expected_table_is_what_roles_py_says():
    """The matrix above and roles.py agree on the device roles (the data the server enforces)."""
    column = {role: SUBJECTS.index(role) for role in roles.DEVICE_ROLES}
    for record_type, (writers, _) in roles.RECORDS.items():
        if record_type == "void":
            continue
        for role, i in column.items():
            assert (EXPECTED[f"push {record_type}"][i] == "Y") == (role in writers), (record_type, role)
    for action, key in [("GET /api/events/<slug>", "read_event"), ("GET .../players/<p>/history", "read_history"),
                        ("push void of another's record", "void_any"),
                        ("GET /api/events/<slug>/review", "read_review"),
                        ("GET /api/events/<slug>/calls", "read_calls"), ("POST .../calls/<id>/take", "answer_calls"),
                        ("POST /api/events/<slug>/calls", "create_call"),
                        ("POST .../decklist (a code)", "own_decklist"),
                        ("GET /api/events/<slug>/deck-checks", "read_deck_checks")]:
        for role, i in column.items():
            assert (EXPECTED[action][i] == "Y") == roles.may(role, key), (action, role)
    for role, i in column.items():
        readable = roles.readable_types(role)
        assert (EXPECTED["pull penalties"][i] == "Y") == ("penalty" in readable)


def test_the_readme_has_the_roles_table(root):
    text = (root / "README.md").read_text(encoding="utf-8")
    section = text[text.index("### Roles"):]
    rows = re.findall(r"^\| `(\w+)` \|(.*)\|$", section, re.M)
    named = {name for name, _ in rows}
    assert {"anonymous", *roles.DEVICE_ROLES, "organiser"} <= named
    for record_type in roles.RECORDS:
        assert f"`{record_type}`" in section

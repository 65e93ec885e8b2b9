"""Who may do what, tried for real: every subject (no one; each device role, a revoked device,
another event's device; each account role in the event, the administrator, an account with
no role in it) against every endpoint and organiser page, compared with the table below,
which the README's roles tables state in words (and roles.py in data). Every route of the
app is tried (test_every_route_is_in_the_matrix)."""

import json
import re
import uuid

import pytest
from conftest import log_in, staff_client
from flask import request, request_started
from server_helpers import Phone, add_event, set_role

from server import roles, timeutil
from server.decklist_intake import ensure_codes, register, set_deadline
from server.extensions import db
from server.models import Event, Round

DEVICES = ["anonymous", "floor_judge", "head_judge", "scorekeeper", "revoked", "other_event"]
ACCOUNTS = ["admin", "organiser_account", "head_judge_account", "scorekeeper_account", "floor_judge_account",
            "no_role_account"]
SUBJECTS = DEVICES + ACCOUNTS
# an account subject's role in the event (None: no role; the admin is organiser of every event)
ACCOUNT_ROLE = {"admin": None, "organiser_account": "organiser", "head_judge_account": "head_judge",
                "scorekeeper_account": "scorekeeper", "floor_judge_account": "floor_judge", "no_role_account": None}
# action -> the subjects allowed, in SUBJECTS order (Y allowed, - refused); a space between the
# device subjects and the account subjects
EXPECTED = {
    "GET /api/time":                          "YYYYYY YYYYYY",
    "GET /api/openapi.json":                  "YYYYYY YYYYYY",
    "GET / (the app)":                        "YYYYYY YYYYYY",
    "GET /favicon.ico":                       "YYYYYY YYYYYY",
    "GET /api/rulesets":                      "YYYYYY YYYYYY",
    "GET /api/rulesets/<id>":                 "YYYYYY YYYYYY",
    "POST /api/engine/<action>":              "YYYYYY YYYYYY",
    "POST /api/rulesets/<id>/evaluate":       "YYYYYY YYYYYY",
    "GET /api/events/<slug>/clock":           "YYYYYY YYYYYY",
    "POST /api/join (the code one knows)":    "YYYY-Y YYYYYY",
    "POST /api/join/link (a person's link)":  "YYYYYY YYYYYY",
    "GET /api/me":                            "------ YYYYYY",
    "POST /api/me/devices (this event)":      "------ YYYYY-",
    "GET /api/events/<slug>":                 "-YYY-- ------",
    "POST /api/events/<slug>/sync":           "-YYY-- ------",
    "GET .../players/<p>/history":            "-YY--- ------",
    "GET /api/events/<slug>/review":          "--Y--- ------",
    "POST /api/events/<slug>/calls":          "YYYYYY YYYYYY",
    "GET .../calls/policy":                   "YYYYYY YYYYYY",
    "GET .../calls/table/<n>":                "YYYYYY YYYYYY",
    "GET /api/events/<slug>/stream":          "YYYYYY YYYYYY",
    "GET /api/events/<slug>/calls":           "-YY--- ------",
    "POST .../calls/<id>/take":               "-YY--- ------",
    "POST .../calls/<id>/close":              "-YY--- ------",
    "GET /api/events/<slug>/deck-checks":     "--Y--- ------",
    "POST .../decklist/mine (a code)":        "YYYYYY YYYYYY",
    "POST .../decklist (a code)":             "YYYYYY YYYYYY",
    "push penalty":                           "-YY--- ------",
    "push time_extension":                    "-YY--- ------",
    "push time_call":                         "-YY--- ------",
    "push match_result":                      "-YYY-- ------",
    "push approval":                          "--Y--- ------",
    "push resolution":                        "--Y--- ------",
    "push deck_check":                        "-YY--- ------",
    "push decklist":                          "------ ------",
    "push appeal":                            "-YY--- ------",
    "push appeal_decision":                   "--Y--- ------",
    "push void of own record":                "-YYY-- ------",
    "push void of another's record":          "--Y--- ------",
    "pull penalties":                         "-YY--- ------",
    "pull time extensions":                   "-YYY-- ------",
    "pull decklists":                         "-YY--- ------",
    "organiser: login page":                  "YYYYYY YYYYYY",
    "organiser: language picker":             "YYYYYY YYYYYY",
    "organiser: a person's one-time link":    "YYYYYY YYYYYY",
    "organiser: events list":                 "------ YYYYYY",
    "organiser: own account page":            "------ YYYYYY",
    "organiser: change own password":         "------ YYYYYY",
    "organiser: phone link for this event":   "------ YYYYY-",
    "organiser: people page":                 "------ Y-----",
    "organiser: a person's new password link": "------ Y-----",
    "organiser: revoke a person":             "------ Y-----",
    "organiser: create event":                "------ Y-----",
    "organiser: event page":                  "------ YYYY--",
    "organiser: round board":                 "------ YYYY--",
    "organiser: round board (page part)":     "------ YYYY--",
    "organiser: start round":                 "------ YYYY--",
    "organiser: set stage":                   "------ YY----",
    "organiser: set the head-judge setting":  "------ YY----",
    "organiser: set the call escalation":     "------ YY----",
    "organiser: import players":              "------ YY-Y--",
    "organiser: preview tables":              "------ YY-Y--",
    "organiser: confirm tables":              "------ YY-Y--",
    "organiser: table QR cards":              "------ YY-Y--",
    "organiser: set a device's role":         "------ YY----",
    "organiser: revoke a device":             "------ YY----",
    "organiser: new join code":               "------ YY----",
    "organiser: invite a person":             "------ YY----",
    "organiser: set a person's role":         "------ YY----",
    "organiser: add someone with an account": "------ Y-----",
    "organiser: approve a penalty":           "------ YYY---",
    "organiser: export CSV":                  "------ YYY---",
    "organiser: export JSON":                 "------ YYY---",
    "organiser: export appeals CSV":          "------ YYY---",
    "organiser: export results CSV":          "------ YYYY--",
    "organiser: export calls CSV":            "------ YYYY--",
    "organiser: audit log":                   "------ YY----",
    "organiser: audit log CSV":               "------ YY----",
    "organiser: decklists page":              "------ YY----",
    "organiser: set the decklist deadline":   "------ YY----",
    "organiser: set the deck sizes":          "------ YY----",
    "organiser: enter a player's list":       "------ YY----",
    "organiser: lists from a CSV":            "------ YY----",
    "organiser: print the lists":             "------ YY----",
    "organiser: export the lists (CSV)":      "------ YY----",
    "organiser: print the players' codes":    "------ YY----",
    "organiser: log out (last: it ends the session)": "------ YYYYYY",
}
# organiser page action -> its key of roles.PAGES (the data the pages enforce)
PAGE_OF = {
    "events list": "own_account", "own account page": "own_account", "change own password": "own_account",
    "people page": "people", "a person's new password link": "people", "revoke a person": "people",
    "create event": "create_event", "event page": "event_page", "round board": "event_page",
    "round board (page part)": "event_page", "start round": "run_rounds", "set stage": "settings",
    "set the head-judge setting": "settings", "set the call escalation": "settings", "import players": "import",
    "preview tables": "import", "confirm tables": "import", "table QR cards": "import",
    "set a device's role": "devices", "revoke a device": "devices", "new join code": "devices",
    "invite a person": "staff", "set a person's role": "staff", "approve a penalty": "approve",
    "export CSV": "penalty_exports", "export JSON": "penalty_exports", "export appeals CSV": "penalty_exports",
    "export results CSV": "round_exports", "export calls CSV": "round_exports", "audit log": "audit",
    "audit log CSV": "audit",
    **{page: "decklists" for page in ("decklists page", "set the decklist deadline", "set the deck sizes",
                                      "enter a player's list", "lists from a CSV", "print the lists",
                                      "export the lists (CSV)", "print the players' codes")},
}


def _allowed(expected: str) -> list[bool]:
    return [c == "Y" for c in expected.replace(" ", "")]


@pytest.fixture
def world(app, client, now):
    hits = set()  # the endpoints requests reached

    def reached(_sender, **_extra):
        hits.add(request.endpoint)

    request_started.connect(reached, app)
    try:
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
        appeal = writer.record("appeal", {"player": event["players"]["Ada Brook"], "table": 1, "round": 1,
                                          "ruling": "the trigger resolves first", "ruled_by": "Fay Floor"})
        writer.sync([writer.record("time_extension", {"table": 1, "round": 1, "minutes": 2, "reason": "ruling"}),
                     appeal])
        admin = log_in(app.test_client())
        admin.form(f"/organiser/events/{event['slug']}/devices/{phones['revoked'].id}", action="revoke")
        with app.app_context():
            ev = db.session.get(Event, event["id"])
            ensure_codes(ev)
            set_deadline(ev, 2**62)
            register(ev, ev.players[0], "60 Island\n", None, "organiser")
            code = ev.players[0].decklist_code
        clients = {"admin": admin}
        for subject, role in ACCOUNT_ROLE.items():
            if subject == "admin":
                continue
            clients[subject] = staff_client(app, admin, event if role else other, subject.replace("_", " ").title(),
                                            role or "floor_judge")
        spare = Phone(client, {**event, "code": _code(app, event)}, judge="Spare")  # for role actions
        others = spare.record("match_result", {"table": 5, "round": 1, "result": "A"})
        spare.sync([others])
        yield {"app": app, "event": event, "other": other, "phones": phones, "clients": clients, "admin": admin,
               "spare": spare, "others": others, "appeal": appeal, "hits": hits, "writer": writer,
               "decklist_code": code}
    finally:
        request_started.disconnect(reached, app)


def _code(app, event):
    with app.app_context():
        return db.session.get(Event, event["id"]).join_code


def _attempt(world, subject, action) -> bool:
    """Whether `subject` managed `action` (True) or was refused (False)."""
    app, event = world["app"], world["event"]
    slug = event["slug"]
    phone = world["phones"].get(subject)
    client = world["clients"].get(subject) or app.test_client()
    headers = phone.headers if phone else {}
    if action.startswith("organiser: "):
        return _organiser_action(world, subject, client, action.removeprefix("organiser: "))
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
    if action.startswith("POST /api/join/link"):
        token = _person_link(world, "device")
        return client.post("/api/join/link", json={"link": token, "device_name": "p"}).status_code == 200
    if action.startswith("POST /api/join"):
        code = event["code"] if subject == "revoked" else _code(app, event)
        res = client.post("/api/join", json={"code": code, "device_name": "p", "judge_name": subject})
        return res.status_code == 200
    requests = {
        "GET /api/time": ("get", "/api/time", None),
        "GET /api/openapi.json": ("get", "/api/openapi.json", None),
        "GET / (the app)": ("get", "/", None),
        "GET /favicon.ico": ("get", "/favicon.ico", None),
        "GET /api/rulesets": ("get", "/api/rulesets", None),
        "GET /api/rulesets/<id>": ("get", "/api/rulesets/dci-upg", None),
        "POST /api/engine/<action>": ("post", "/api/engine/history", {
            "records": [], "player": "Ada Brook", "ruleset": "dci-upg"}),
        "POST /api/rulesets/<id>/evaluate": ("post", "/api/rulesets/dci-upg/evaluate", {
            "query": "penalty", "event": {"level": "competitive"},
            "facts": {"infraction": "usc_minor", "history": []}}),
        "GET /api/events/<slug>/clock": ("get", f"/api/events/{slug}/clock", None),
        "GET /api/me": ("get", "/api/me", None),
        "POST /api/me/devices (this event)": ("post", "/api/me/devices", {"event": slug, "device_name": "p"}),
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
    res.close()  # the app's files are streamed
    return res.status_code == 200


def _person_link(world, kind: str) -> str:
    """A fresh one-time link of the floor judge's account ("device": its phone link to the
    event; "password": a new password link), made as the server makes them."""
    from server.accounts import issue_link
    from server.models import Account

    app, event = world["app"], world["event"]
    with app.app_context():
        account = db.session.get(Account, world["clients"]["floor_judge_account"].account)
        return issue_link(account, kind, db.session.get(Event, event["id"]) if kind == "device" else None)


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
    if "penalty" not in world:
        world["penalty"] = _penalty(world)
    penalty = world["penalty"]
    records = {
        "penalty": lambda: phone.penalty("Ada Brook", infraction="usc_minor", penalty="warning"),
        "time_extension": lambda: phone.record("time_extension", {"table": 3, "round": 1, "minutes": 1,
                                                                  "reason": "judge_pause"}),
        "time_call": lambda: phone.record("time_call", {"table": 3, "round": 1, "facts": {}, "answer": {},
                                                        "result": None}),
        "match_result": lambda: phone.record("match_result", {"table": 3, "round": 1, "result": "B"}),
        "approval": lambda: phone.record("approval", {"record": penalty["id"], "approved": True}),
        "resolution": lambda: phone.record("resolution", {"record": penalty["id"], "reason": "kept"}),
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


def _penalty(world) -> dict:
    """A penalty waiting for the head judge, recorded by the floor judge's phone."""
    writer = world["writer"]
    penalty = writer.penalty("Ada Brook", infraction="usc_minor", penalty="warning", head_judge=True)
    writer.sync([penalty])
    return penalty


def _organiser_action(world, subject, client, action):
    app, event = world["app"], world["event"]
    slug = event["slug"]
    base = f"/organiser/events/{slug}"
    with client.session_transaction() as session:
        token = session.get("csrf", "none")
    if action.startswith("log out"):
        # managed when the session that opened the events list no longer does
        before = client.get("/organiser/").status_code == 200
        client.post("/organiser/logout", data={"csrf": token})
        return before and client.get("/organiser/").status_code != 200
    if action == "start round":
        with app.app_context():  # each try starts a round of its own
            for rnd in db.session.scalars(db.select(Round).where(Round.event_id == event["id"],
                                                                 Round.ended_ms.is_(None))):
                rnd.ended_ms = timeutil.now_ms()
            db.session.commit()
    if action == "a person's one-time link":
        return client.get(f"/organiser/welcome/{_person_link(world, 'password')}").status_code == 200
    if action == "confirm tables":
        res = client.post(f"{base}/pairings/confirm", data={"csrf": token, **_preview_fields(world)})
        return _form_went_through(client, res)
    throwaway = _throwaway(world, world["other"] if action == "add someone with an account" else event) \
        if action in ("revoke a person", "set a person's role", "a person's new password link",
                      "add someone with an account") else None
    penalty = _penalty(world)["id"] if action == "approve a penalty" else None
    spare = Phone(app.test_client(), {**event, "code": _code(app, event)}, judge="Spare") \
        if action in ("revoke a device", "set a device's role") else None
    posts = {
        "create event": ("/organiser/events", {"name": "Matrix Open", "ruleset_level": "wotf|casual"}),
        "start round": (f"{base}/round", {"action": "start", "round_minutes": "40"}),
        "set stage": (f"{base}/stage", {"stage": "elimination"}),
        "import players": (f"{base}/players", {"csv": f"name\nNew Player {uuid.uuid4().hex[:6]}\n"}),
        "preview tables": (f"{base}/pairings", {"round": "1",
                                                "csv": "table,player_a,player_b\n1,Ada Brook,Ben Carter\n"}),
        "set a device's role": (f"{base}/devices/{spare.id if spare else 0}", {"action": "role",
                                                                               "role": "scorekeeper"}),
        "revoke a device": (f"{base}/devices/{spare.id if spare else 0}", {"action": "revoke"}),
        "new join code": (f"{base}/join-code", {}),
        "approve a penalty": (f"{base}/penalties/{penalty}/approval", {"approved": "1"}),
        "set the head-judge setting": (f"{base}/head-judge", {"head_judge_from": "match_loss"}),
        "set the call escalation": (f"{base}/call-escalation", {"seconds": "90"}),
        "invite a person": (f"{base}/staff", {"name": f"Invitee {subject}", "role": "floor_judge"}),
        "set a person's role": (f"{base}/staff/{throwaway}", {"action": "role", "role": "head_judge"}),
        "add someone with an account": (f"{base}/staff-add", {"account": str(throwaway), "role": "head_judge"}),
        "people page": None, "own account page": None, "events list": None,
        "change own password": ("/organiser/account/password", {"current": "correct horse battery" if subject
                                                                != "admin" else "letmein",
                                                                "password": "a newer password", "repeat":
                                                                "a newer password"}),
        "phone link for this event": ("/organiser/account/phone", {"event": slug}),
        "a person's new password link": (f"/organiser/people/{throwaway}", {"action": "link"}),
        "revoke a person": (f"/organiser/people/{throwaway}", {"action": "revoke"}),
        "set the decklist deadline": (f"{base}/decklists/settings", {"action": "deadline",
                                                                     "deadline": "2099-01-01T10:00"}),
        "set the deck sizes": (f"{base}/decklists/settings", {"action": "sizes", "min_main": "60"}),
        "enter a player's list": (f"{base}/decklists/{event['players']['Ben Carter']}", {"text": "60 Island\n"}),
        "lists from a CSV": (f"{base}/decklists/bulk", {"csv": 'name,decklist\nBen Carter,"60 Island"\n'}),
    }
    gets = {"events list": "/organiser/", "event page": base, "export CSV": f"{base}/penalties.csv",
            "export JSON": f"{base}/penalties.json", "export results CSV": f"{base}/results.csv",
            "round board": f"{base}/board.json", "round board (page part)": f"{base}/board",
            "export calls CSV": f"{base}/calls.csv", "export appeals CSV": f"{base}/appeals.csv",
            "table QR cards": f"{base}/tables?count=2", "own account page": "/organiser/account",
            "people page": "/organiser/people", "audit log": f"{base}/audit", "audit log CSV": f"{base}/audit.csv",
            "login page": "/organiser/login", "language picker": "/organiser/language?lang=de&next=/organiser/",
            "decklists page": f"{base}/decklists", "print the lists": f"{base}/decklists/print",
            "export the lists (CSV)": f"{base}/decklists.csv", "print the players' codes": f"{base}/decklists/codes"}
    if action in gets:
        res = client.get(gets[action])
        if action == "language picker":
            return res.status_code == 302 and "lang=de" in res.headers.get("Set-Cookie", "")
        return res.status_code == 200
    path, data = posts[action]
    res = client.post(path, data={"csrf": token, **data})
    if action == "preview tables":
        return res.status_code == 200 and 'id="confirm-form"' in res.get_data(as_text=True)
    if action == "phone link for this event":
        return res.status_code == 200 and 'id="phone-url"' in res.get_data(as_text=True)
    return _form_went_through(client, res)


def _preview_fields(world) -> dict:
    """The Confirm form's fields of a preview of round 1's tables (as imports.py makes them)."""
    from server.imports import OWN_COLUMNS, plan, plan_form, read_csv

    with world["app"].app_context():
        found = read_csv("table,player_a,player_b\n1,Ada Brook,Ben Carter\n", OWN_COLUMNS)
        event = db.session.get(Event, world["event"]["id"])
        return {"round": "1", "plan": plan_form(found), "digest": plan(event, 1, found)["digest"]}


def _form_went_through(client, res) -> bool:
    """A form POST managed: a redirect (not to the login page) to a page without an error."""
    if res.status_code != 302 or "/organiser/login" in res.headers["Location"]:
        return False
    page = client.get(res.headers["Location"]).get_data(as_text=True)
    return 'class="flash error"' not in page


def _throwaway(world, event: dict) -> int:
    """A new person (an account with a role in `event`) for one try of an action on people."""
    from server.accounts import invite

    with world["app"].app_context():
        account, _ = invite(db.session.get(Event, event["id"]), f"Throwaway {uuid.uuid4().hex[:6]}", "floor_judge")
        return account.id


def test_every_role_against_every_endpoint_and_organiser_action(world, root, request):
    crossings = []
    for action, expected in EXPECTED.items():
        for subject, allowed in zip(SUBJECTS, _allowed(expected), strict=True):
            got = _attempt(world, subject, action)
            if got != allowed:
                crossings.append(f"{subject} {'could' if got else 'could not'} {action}")
    assert crossings == []
    app = world["app"]
    routes = {rule.endpoint for rule in app.url_map.iter_rules()} - {"static"}
    assert sorted(routes - world["hits"]) == [], "routes the matrix never tried"
    path = root / "test-artifacts" / "roles-matrix.json"
    path.parent.mkdir(exist_ok=True)
    known = json.loads(path.read_text()) if path.exists() else {}
    known[request.node.callspec.params["app"]] = {
        "subjects": len(SUBJECTS), "actions": len(EXPECTED), "cells": len(SUBJECTS) * len(EXPECTED),
        "routes": len(routes), "crossings": len(crossings)}
    path.write_text(json.dumps(known, indent=1, sort_keys=True))


def test_the_expected_table_is_what_roles_py_says():
    """The matrix above and roles.py agree on the device roles and on every organiser page
    for every account role (the data the server enforces)."""
    column = {role: SUBJECTS.index(role) for role in roles.DEVICE_ROLES}
    for record_type, (writers, _) in roles.RECORDS.items():
        if record_type == "void":
            continue
        for role, i in column.items():
            assert _allowed(EXPECTED[f"push {record_type}"])[i] == (role in writers), (record_type, role)
    for action, key in [("GET /api/events/<slug>", "read_event"), ("GET .../players/<p>/history", "read_history"),
                        ("push void of another's record", "void_any"),
                        ("GET /api/events/<slug>/review", "read_review"),
                        ("GET /api/events/<slug>/calls", "read_calls"), ("POST .../calls/<id>/take", "answer_calls"),
                        ("POST /api/events/<slug>/calls", "create_call"),
                        ("POST .../decklist (a code)", "own_decklist"),
                        ("GET /api/events/<slug>/deck-checks", "read_deck_checks")]:
        for role, i in column.items():
            assert _allowed(EXPECTED[action])[i] == roles.may(role, key), (action, role)
    for role, i in column.items():
        assert _allowed(EXPECTED["pull penalties"])[i] == ("penalty" in roles.readable_types(role))
    for action, key in PAGE_OF.items():
        for subject, role in ACCOUNT_ROLE.items():
            allowed = roles.may_page(role, subject == "admin", key)
            assert _allowed(EXPECTED[f"organiser: {action}"])[SUBJECTS.index(subject)] == allowed, (action, subject)
    assert set(PAGE_OF.values()) == set(roles.PAGES), "every page action of roles.PAGES is tried"


def test_the_readme_has_the_roles_tables(root):
    text = (root / "README.md").read_text(encoding="utf-8")
    section = text[text.index("### Roles"):]
    rows = re.findall(r"^\| `(\w+)` \|(.*)\|$", section, re.M)
    named = {name for name, _ in rows}
    assert {"anonymous", *roles.DEVICE_ROLES, "organiser", "admin"} <= named
    for record_type in roles.RECORDS:
        assert f"`{record_type}`" in section
    for key in roles.PAGES:
        assert f"`{key}`" in section, key


def test_the_event_page_links_each_account_only_to_pages_it_may_open(world):
    """A staff member sees no link on the event page that leads to "not allowed"."""
    slug = world["event"]["slug"]
    refused = []
    for subject, role in ACCOUNT_ROLE.items():
        if role is None:
            continue
        client = world["clients"][subject]
        page = client.get(f"/organiser/events/{slug}").get_data(as_text=True)
        for href in sorted(set(re.findall(r'href="(/organiser/[^"#?]*)"', page))):
            if href.endswith("/logout"):
                continue
            status = client.get(href).status_code
            if status == 403:
                refused.append(f"{subject}: {href}")
    assert refused == []

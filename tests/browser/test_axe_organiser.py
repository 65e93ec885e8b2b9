"""Accessibility of the organiser pages: axe-core finds no violation on any of them (login,
event list, event page with a round running, a judge call and a penalty, which
holds the round board, the judge calls and the deck checks, the decklists pages (the list,
one player's, the print sheet, the code slips), the table QR sheet, one's
account and its phone link, the people page, the audit log, the one-time password page,
the tables' preview, a CSV's column mapping, and a scorekeeper's refusal) on a
390 and a 320 px wide phone, in the light and the dark colour scheme; and every control
is at least 44 px both ways."""

import uuid

import pytest

from .conftest import PHONE, ROOT, SMALL_PHONE, shoot

AXE = ROOT / "pwa" / "node_modules" / "axe-core" / "axe.min.js"
TARGET_PX = 44

# the controls a finger taps (a checkbox counts by its label, which takes the tap)
SMALL_TARGETS = """(min) => [...document.querySelectorAll(
    'button, select, input:not([type=hidden]):not([type=checkbox]), label.check')]
  .filter((el) => el.offsetParent !== null)
  .map((el) => ({el, box: el.getBoundingClientRect()}))
  .filter(({box}) => box.width < min || box.height < min)
  .map(({el, box}) => `${el.outerHTML.slice(0, 80)} ${Math.round(box.width)}x${Math.round(box.height)}`)"""


@pytest.fixture(scope="module")
def busy_event(flask_server):
    """An event with round 1 running, an open judge call and a penalty with notes and a fact
    still open when it was recorded (so that every part of the event page has rows)."""
    from server import timeutil
    from server.accounts import invite, issue_link, set_password_by_link
    from server.audit import log
    from server.decklist_intake import ensure_codes, register, set_deadline, set_sizes
    from server.events import get_event, organiser_device
    from server.sync import push

    event = flask_server.make_event("dci-upg", "competitive")
    flask_server.start_round(event["slug"])
    with flask_server.app.app_context():
        ev = get_event(event["slug"])
        device = organiser_device(ev)
        record = {"id": str(uuid.uuid4()), "type": "penalty", "device": device.id, "judge": "Ola",
                  "event": event["slug"], "created_ms": timeutil.now_ms(),
                  "payload": {"player": event["players"][0]["id"], "table": 1, "round": 1,
                              "infraction": "slow_play", "penalty": "warning", "notes": "twice",
                              "open_facts": ["facts.caught_quickly_and_simple"]}}
        assert push(ev, device, [record])[0]["status"] == "accepted"
        ensure_codes(ev)
        set_deadline(ev, timeutil.now_ms() + 3_600_000)
        set_sizes(ev, {"main": (60, None), "side": (None, 15)})
        register(ev, ev.players[0], "56 Island\n4 Lightning Bolt\n\n15 Negate\n", None, "player")
        register(ev, ev.players[1], "40 Mountain\n", None, "organiser")
        log(ev, "round.start", {"round": 1, "minutes": 50.0})  # the audit page has rows
        keeper, _ = invite(ev, "Axe Keeper", "scorekeeper")
        set_password_by_link(issue_link(keeper, "password"), "axe.keeper", "a long enough password",
                             "a long enough password")
        _, welcome = invite(ev, "Axe Welcome", "floor_judge")
    return {**event, "welcome": welcome}


def axe_violations(page) -> list[str]:
    """axe-core's violations on the page as it is: "rule id: target, target" each."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']}: " + ", ".join(" ".join(n["target"]) for n in v["nodes"]) for v in result["violations"]]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", [PHONE, SMALL_PHONE], ids=["390px", "320px"])
def test_the_organiser_pages_have_no_axe_violations_and_big_enough_targets(browser, flask_server, busy_event,
                                                                          size, scheme):
    if not AXE.exists():
        pytest.fail(f"{AXE.relative_to(ROOT)} is missing: axe-core is a devDependency of pwa/ "
                    "(npm ci --prefix pwa installs it)")
    slug = busy_event["slug"]
    ctx = browser.new_context(viewport=size, color_scheme=scheme)
    found = {}
    try:
        page = ctx.new_page()
        page.request.post(f"{flask_server.url}/api/events/{slug}/calls", data={"table": 2, "caller": "player"})
        page.goto(flask_server.url + "/organiser/login")
        assert page.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
        found["login"] = axe_violations(page) + page.evaluate(SMALL_TARGETS, TARGET_PX)
        page.fill("input[name=username]", "organiser")
        page.fill("input[name=password]", "browser-tests")
        page.click("button:text('Log in')")
        page.wait_for_url("**/organiser/")
        player = busy_event["players"][1]["id"]
        for name, path in [("index", "/organiser/"), ("event", f"/organiser/events/{slug}"),
                           ("decklists", f"/organiser/events/{slug}/decklists"),
                           ("a player's decklist", f"/organiser/events/{slug}/decklists/{player}"),
                           ("decklists to print", f"/organiser/events/{slug}/decklists/print"),
                           ("decklist codes", f"/organiser/events/{slug}/decklists/codes"),
                           ("tables", f"/organiser/events/{slug}/tables"), ("account", "/organiser/account"),
                           ("people", "/organiser/people"), ("audit", f"/organiser/events/{slug}/audit"),
                           ("welcome", f"/organiser/welcome/{busy_event['welcome']}")]:
            page.goto(flask_server.url + path)
            if name == "event":
                assert page.text_content("#round-state") == "running"
                assert page.locator("#calls li[data-call]").count() == 1
                assert page.locator("#penalties td.lead").count() == 1
                assert page.locator("#deck-checks h2").count() == 1
                shoot(page, f"organiser-event-{scheme}", sizes=(size,))
            if name == "decklists":
                assert page.locator("#decklists tr[data-player]").count() == 4
                assert page.locator("#decklists .problem").count() == 1
                shoot(page, f"organiser-decklists-{scheme}", sizes=(size,))
            found[name] = axe_violations(page) + page.evaluate(SMALL_TARGETS, TARGET_PX)
        # pages that forms lead to: the tables' preview, a CSV's column mapping, a phone link
        for name, text in [("preview", "table,player_a,player_b\n7,Player A1,Player B2\n"),
                           ("mapping", "Table,Player 1,Player 2\n1,Player A1,Player B2\n")]:
            page.goto(flask_server.url + f"/organiser/events/{slug}")
            page.fill("#pairings-form textarea[name=csv]", text)
            page.click("#pairings-form button")
            page.wait_for_selector("#confirm-form" if name == "preview" else "#mapping-form")
            found[name] = axe_violations(page) + page.evaluate(SMALL_TARGETS, TARGET_PX)
        page.goto(flask_server.url + "/organiser/account")
        page.click("#my-events button")
        page.wait_for_selector("#phone-url")
        found["phone link"] = axe_violations(page) + page.evaluate(SMALL_TARGETS, TARGET_PX)
        # a scorekeeper's refusal
        page.click("#account-nav button")
        page.fill("input[name=username]", "axe.keeper")
        page.fill("input[name=password]", "a long enough password")
        page.click("button:text('Log in')")
        page.wait_for_url("**/organiser/")
        page.goto(flask_server.url + "/organiser/people")
        found["refused"] = axe_violations(page) + page.evaluate(SMALL_TARGETS, TARGET_PX)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= size["width"]
    finally:
        ctx.close()
    problems = {name: items for name, items in found.items() if items}
    for name, items in problems.items():
        print(f"{name} ({size['width']} px, {scheme}):", *items, sep="\n  ")
    assert problems == {}

"""Long names (200 characters, the most a player's name may have, or one long unbroken word)
wrap: no screen is wider than a 320-px phone."""

from .conftest import SMALL_PHONE
from .helpers import join, settled

LONG = " ".join(["Wolfeschlegelsteinhausenbergerdorff"] * 8) + " " + "X" * 20
WORD = "Y" * 200


def make_event(server):
    from server.events import create_event, import_players
    from server.imports import import_pairings

    names = [LONG[:200], WORD, "Ann Lee", "Bo Kim"]
    with server.app.app_context():
        event = create_event("Long names " + "Z" * 120, "dci-upg", level="competitive",
                             games_per_match=3, round_minutes=50)
        import_players(event, "name\n" + "\n".join(names) + "\n")
        import_pairings(event, 1, f"table,player_a,player_b\n1,{names[0]},{names[1]}\n"
                        f"2,{names[2]},{names[3]}\n")
        return {"slug": event.slug, "code": event.join_code,
                "players": [{"id": p.id, "name": p.name} for p in event.players]}


def width(page):
    return page.evaluate("() => document.documentElement.scrollWidth")


def test_long_names_fit_a_320_px_screen(browser, flask_server):
    event = make_event(flask_server)
    flask_server.start_round(event["slug"])
    ctx = browser.returning(flask_server.url, viewport=SMALL_PHONE)
    try:
        page = ctx.new_page()
        join(page, flask_server, event, "Kai")
        long_player = next(p for p in event["players"] if p["name"] == LONG[:200])
        word_player = next(p for p in event["players"] if p["name"] == WORD)
        assert len(long_player["name"]) == 200
        widths = {}
        for screen in ("clock", "event", "time", "join", "sync", "history"):
            page.goto(f"{flask_server.url}/#/{screen}" + (f"/{event['slug']}" if screen == "event" else ""))
            page.wait_for_selector(f"main[data-screen={screen}]")
            settled(page)
            widths[screen] = width(page)
        for player in (long_player, word_player):
            page.goto(f"{flask_server.url}/#/penalty")
            page.fill("#pen-search", "slow")
            page.click("[data-infraction=slow_play]")
            page.select_option("#pen-player", str(player["id"]))
            page.click("#pen-decide")
            page.wait_for_selector("#pen-card")
            widths[f"penalty {len(player['name'])}"] = width(page)
            page.click("#pen-record")
            page.wait_for_selector("#pen-recorded")
            page.goto(f"{flask_server.url}/#/history/{player['id']}")
            page.wait_for_selector("#history-records li")
            widths[f"history {player['id']}"] = width(page)
        page.goto(f"{flask_server.url}/#/sync")
        page.wait_for_selector("main[data-screen=sync]")
        widths["sync with records"] = width(page)
        assert {k: v for k, v in widths.items() if v > 320} == {}
    finally:
        ctx.close()

"""Replacing a round's tables from the pairing software's files (server/imports.py): a `.tdf`
from TOM/TTO, a CSV whose columns are mapped once, our own CSV; a preview of what changes
before anything does; players matched by id, then by name, the others added; broken files
refused naming the line or element, with nothing changed."""

import html
import io
import re
from pathlib import Path

import pytest
from conftest import confirm_preview, replace_tables
from server_helpers import add_event

from server.extensions import db
from server.models import CsvMapping, Event, Player

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "pairings"
TDF = (SAMPLES / "league-cup.tdf").read_text(encoding="utf-8")
MELEE = (SAMPLES / "melee-round-2.csv").read_text(encoding="utf-8")
EVENTLINK = (SAMPLES / "eventlink-round-1.csv").read_text(encoding="utf-8")


@pytest.fixture
def event(app):
    return add_event(app, players=("Ada Brook", "ben carter"))


def _state(app, event):
    """(players as (name, outside id), tables as (round, table, player a, player b) by name)."""
    with app.app_context():
        ev = db.session.get(Event, event["id"])
        names = {p.id: p.name for p in ev.players}
        return (sorted((p.name, p.external_id) for p in ev.players),
                sorted((t.round_number, t.number, names.get(t.player_a_id), names.get(t.player_b_id))
                       for t in ev.pairings))


def _upload(organiser, event, text: str, filename: str, round_number="1", **fields):
    return organiser.form(f"/organiser/events/{event['slug']}/pairings",
                          data={"round": round_number, "file": (io.BytesIO(text.encode()), filename), **fields})


def _page(res):
    return html.unescape(res.get_data(as_text=True))


def _rows(page):
    """The preview's rows: (table, state, now, after)."""
    return re.findall(r'<tr data-table="(\d+)" data-state="(\w+)"[^>]*>\s*<td[^>]*>\d+</td>\s*'
                      r'<td[^>]*>([^<]*)</td>\s*<td[^>]*>([^<]*)</td>', page)


def test_a_tdf_round_is_previewed_then_replaces_the_tables_on_confirm(app, organiser, event):
    before = _state(app, event)
    preview = _upload(organiser, event, TDF, "league-cup.tdf", round_number="2")
    page = _page(preview)
    assert preview.status_code == 200 and "Round 2's tables: what changes" in page
    assert _state(app, event) == before  # nothing changed yet
    assert _rows(page) == [("1", "new", "—", "Ada Brook – Ella Fox"), ("2", "new", "—", "Chloe Diaz – Gina Hale"),
                           ("3", "new", "—", "ben carter – Finn Gray")]
    # Ada and Ben are matched by name (case ignored) and get their POP ids; five are added
    assert re.findall(r"<li>([^<]*) <span class=\"muted\">\(id (\d+)\)", page) == [
        ("Chloe Diaz", "2000003"), ("Dev Evans", "2000004"), ("Ella Fox", "2000005"), ("Finn Gray", "2000006"),
        ("Gina Hale", "2000007")]
    assert re.search(r'<ul id="ids-added"><li>Ada Brook: 2000001</li><li>ben carter: 2000002</li></ul>', page)
    assert re.search(r'<ul id="byes"><li>Dev Evans</li></ul>', page)  # table 0: a bye without a table
    done = _page(confirm_preview(organiser, preview))
    assert "Round 2: 3 tables. 5 players added." in done
    players, tables = _state(app, event)
    assert players == [("Ada Brook", "2000001"), ("Chloe Diaz", "2000003"), ("Dev Evans", "2000004"),
                       ("Ella Fox", "2000005"), ("Finn Gray", "2000006"), ("Gina Hale", "2000007"),
                       ("ben carter", "2000002")]
    assert tables == [(2, 1, "Ada Brook", "Ella Fox"), (2, 2, "Chloe Diaz", "Gina Hale"),
                      (2, 3, "ben carter", "Finn Gray")]


def test_players_are_matched_by_id_before_name(app, organiser, event):
    """A player whose id is known is matched by it even where the file spells the name
    otherwise; nobody is added twice."""
    with app.app_context():
        db.session.get(Player, event["players"]["Ada Brook"]).external_id = "2000001"
        db.session.commit()
    renamed = TDF.replace("<lastname>Brook</lastname>", "<lastname>Brooke-Smith</lastname>")
    page = _page(_upload(organiser, event, renamed, "league-cup.tdf", round_number="2"))
    assert _rows(page)[0] == ("1", "new", "—", "Ada Brook – Ella Fox")
    assert "Ada Brooke-Smith" not in page[:page.index('id="confirm-form"')]  # not among the players added
    assert re.search(r'<ul id="ids-added"><li>ben carter: 2000002</li></ul>', page)


def test_a_name_whose_id_differs_from_the_events_is_refused(app, organiser, event):
    with app.app_context():
        db.session.get(Player, event["players"]["Ada Brook"]).external_id = "77"
        db.session.commit()
    before = _state(app, event)
    page = _page(_upload(organiser, event, TDF, "league-cup.tdf", round_number="2"))
    assert "players/player[1]: Ada Brook has id '2000001' in the file but '77' in the event" in page
    assert _state(app, event) == before


def test_a_tdf_without_the_round_names_the_rounds_it_has(app, organiser, event):
    before = _state(app, event)
    page = _page(_upload(organiser, event, TDF, "league-cup.tdf", round_number="4"))
    assert "the file has no round 4 (its rounds: 1, 2)" in page
    assert _state(app, event) == before


BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE tournament [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
<tournament><players><player userid="1"><firstname>&b;</firstname></player></players></tournament>"""
EXTERNAL = """<?xml version="1.0"?>
<!DOCTYPE tournament [<!ENTITY x SYSTEM "file:///etc/passwd">]>
<tournament><players><player userid="1"><firstname>&x;</firstname></player></players></tournament>"""


def _broken(old: str, new: str) -> str:
    assert old in TDF
    return TDF.replace(old, new, 1)


@pytest.mark.parametrize(("text", "message"), [
    (BILLION_LAUGHS, "the .tdf file declares a DTD or entities, which are refused"),
    (EXTERNAL, "the .tdf file declares a DTD or entities, which are refused"),
    (TDF[:900], "the .tdf file is not well-formed XML (line 26, column 4)"),
    ("<event><players/></event>", "the file's root element is <event>, not <tournament>"),
    (_broken('<player userid="2000003">', "<player>"), "players/player[3]: no userid"),
    (_broken("<firstname>Dev</firstname>\n      <lastname>Evans</lastname>", ""),
     "players/player[4]: no <firstname> or <lastname>"),
    (_broken('<player userid="2000002">', '<player userid="2000001">'),
     "players/player[2]: userid '2000001' is listed twice"),
    (_broken('<round number="2" type="3" stage="3">', '<round number="two" type="3" stage="3">'),
     "pods/pod[1]/rounds/round[number='two'] must be a whole number from 1 to 999, not 'two'"),
    (_broken('<player1 userid="2000003"/>\n              <player2 userid="2000007"/>',
             '<player1 userid="2000003"/>\n              <player2 userid="9999999"/>'),
     "pods/pod[1]/rounds/round[number='2']/matches/match[2]/player2: userid '9999999' is not among the file's "
     "players"),
    (_broken("<tablenumber>3</tablenumber>\n            </match>\n            <match outcome=\"5\">\n"
             "              <timestamp>03/14/2026 11:10:44</timestamp>",
             "<tablenumber>3b</tablenumber>\n            </match>\n            <match outcome=\"5\">\n"
             "              <timestamp>03/14/2026 11:10:44</timestamp>"),
     "pods/pod[1]/rounds/round[number='2']/matches/match[3]: tablenumber must be a whole number from 1 to 9999, "
     "not '3b'"),
    (_broken('<player2 userid="2000007"/>', '<player2 userid="2000001"/>'),
     "pods/pod[1]/rounds/round[number='2']/matches/match[2]: 'Ada Brook' is already at table 1"),
    (_broken('<player userid="2000004"/>\n              <tablenumber>0</tablenumber>',
             '<tablenumber>0</tablenumber>'),
     "pods/pod[1]/rounds/round[number='2']/matches/match[4]: a match needs one or two players"),
    (_broken("<firstname>Gina</firstname>", "<firstname>Gi\x01na</firstname>"),
     "the .tdf file is not well-formed XML"),
    (_broken("<firstname>Gina</firstname>", "<firstname>" + "G" * 300 + "</firstname>"),
     "players/player[7]: the name is longer than 200 characters"),
])
def test_a_broken_tdf_names_the_element_and_changes_nothing(app, organiser, event, text, message):
    replace_tables(organiser, event["slug"], 2, "table,player_a,player_b\n9,Ada Brook,ben carter\n")
    before = _state(app, event)
    page = _page(_upload(organiser, event, text, "broken.tdf", round_number="2"))
    assert message in page
    assert 'id="confirm-form"' not in page
    assert _state(app, event) == before


def test_a_file_that_is_not_utf8_is_refused(app, organiser, event):
    res = organiser.form(f"/organiser/events/{event['slug']}/pairings",
                         data={"round": "1", "file": (io.BytesIO(TDF.encode("utf-16")), "league-cup.tdf")})
    assert "the file is not UTF-8 text" in _page(res)


def test_a_mapped_csv_asks_once_for_its_columns_then_reads_them(app, organiser, event):
    first = _page(_upload(organiser, event, MELEE, "melee.csv", round_number="2"))
    assert "Which column holds what?" in first and 'id="confirm-form"' not in first
    # the guess from the header names: what the organiser then confirms
    chosen = dict(re.findall(r'<select name="(\w+)" id="map-\w+">.*?<option value="([^"]*)" selected>', first, re.S))
    assert chosen == {"table": "table", "a_name": "player 1", "a_id": "player 1 id", "b_name": "player 2",
                      "b_id": "player 2 id"}
    mapped = organiser.form(f"/organiser/events/{event['slug']}/pairings",
                            data={"round": "2", "csv": MELEE, "mapping": "1", **chosen})
    page = _page(mapped)
    assert _rows(page) == [("1", "new", "—", "Ada Brook – Ella Fox"), ("2", "new", "—", "Chloe Diaz – Gina Hale"),
                           ("3", "new", "—", "ben carter – Finn Gray"), ("4", "new", "—", "Dev Evans")]
    with app.app_context():
        assert db.session.query(CsvMapping).count() == 1
    # the next file with the same columns is read without asking
    again = _page(_upload(organiser, event, MELEE, "melee-again.csv", round_number="2"))
    assert "Which column holds what?" not in again and _rows(again) == _rows(page)
    done = _page(confirm_preview(organiser, mapped))
    assert "Round 2: 4 tables. 5 players added." in done
    assert ("Dev Evans", "MEL-4414") in _state(app, event)[0]
    # "map the columns again" asks again
    remap = _page(_upload(organiser, event, MELEE, "melee.csv", round_number="2", remap="1"))
    assert "Which column holds what?" in remap


def test_an_export_listing_each_match_from_both_sides_is_read_once(app, organiser, event):
    mapped = organiser.form(f"/organiser/events/{event['slug']}/pairings",
                            data={"round": "1", "csv": EVENTLINK, "mapping": "1", "table": "table",
                                  "a_name": "player", "b_name": "opponent"})
    page = _page(mapped)
    assert _rows(page) == [("1", "new", "—", "Brook Ada – Evans Dev"), ("2", "new", "—", "Carter Ben – Fox Ella")]
    assert "2 rows listed a table again from the other player's side and were read once." in page


@pytest.mark.parametrize(("fields", "message"), [
    ({"a_name": "player"}, "choose the column of the table number"),
    ({"table": "table"}, "choose the column of player 1's name or id"),
    ({"table": "tisch", "a_name": "player"}, "the column 'tisch' is not in the file"),
    ({"table": "points", "a_name": "player"}, "line 2: table must be from 1 to 9999"),
])
def test_a_bad_mapping_says_why_and_keeps_nothing(app, organiser, event, fields, message):
    before = _state(app, event)
    page = _page(organiser.form(f"/organiser/events/{event['slug']}/pairings",
                                data={"round": "1", "csv": EVENTLINK, "mapping": "1", **fields}))
    assert message in page
    assert _state(app, event) == before


def test_a_row_naming_an_unknown_id_without_a_name_is_refused(app, organiser, event):
    text = "Table,P1 ID,P2 ID\n1,X-1,X-2\n"
    page = _page(organiser.form(f"/organiser/events/{event['slug']}/pairings",
                                data={"round": "1", "csv": text, "mapping": "1", "table": "table", "a_id": "p1 id",
                                      "b_id": "p2 id"}))
    assert "line 2: no player has id 'X-1' in the event, and the file gives no name to add them" in page


def test_our_own_csv_shows_each_tables_change(app, organiser, event):
    replace_tables(organiser, event["slug"], 1, "table,player_a,player_b\n1,Ada Brook,ben carter\n2,Cy Dunn,\n"
                   "3,Di Ek,Ed Fo\n")
    preview = organiser.form(f"/organiser/events/{event['slug']}/pairings", round="1",
                             csv="table,player_a,player_b\n1,Ada Brook,ben carter\n2,Cy Dunn,Di Ek\n4,Ed Fo,\n")
    assert _rows(_page(preview)) == [("1", "same", "Ada Brook – ben carter", "Ada Brook – ben carter"),
                                     ("2", "changed", "Cy Dunn", "Cy Dunn – Di Ek"),
                                     ("3", "gone", "Di Ek – Ed Fo", "—"), ("4", "new", "—", "Ed Fo")]


def test_a_confirmation_after_the_tables_changed_is_refused(app, organiser, event):
    preview = organiser.form(f"/organiser/events/{event['slug']}/pairings", round="1",
                             csv="table,player_a,player_b\n1,Ada Brook,ben carter\n")
    replace_tables(organiser, event["slug"], 1, "table,player_a,player_b\n5,Ada Brook,ben carter\n")
    before = _state(app, event)
    refused = confirm_preview(organiser, preview)
    assert refused.status_code == 409  # someone else changed them first (README)
    assert "round 1's tables changed since the preview: import the file again" in _page(refused)
    assert _state(app, event) == before


@pytest.mark.parametrize("plan", [
    "", "{", "[]", '{"source": "csv"}', '{"source": "x", "listed_twice": 0, "entrants": [], "tables": []}',
    '{"source": "csv", "listed_twice": 0, "entrants": [["1", "A"]], "tables": [[1, 0, 5]]}',
    '{"source": "csv", "listed_twice": 0, "entrants": [["1", "A"]], "tables": [[99999, 0, null]]}',
    '{"source": "csv", "listed_twice": 0, "entrants": [[5, "A"]], "tables": []}',
    '{"source": "csv", "listed_twice": 0, "entrants": [["1", "A\\u0000"]], "tables": []}',
    '{"source": "csv", "listed_twice": 0, "entrants": [["1", "\\ud800"]], "tables": []}',
    '{"source": "csv", "listed_twice": 0, "entrants": [["1", "A"]], "tables": [["1", 0, null]]}',
    '{"source": "csv", "listed_twice": 0, "entrants": [["1", "A"]], "tables": [[true, 0, null]]}',
])
def test_a_damaged_preview_form_changes_nothing(app, organiser, event, plan):
    before = _state(app, event)
    res = organiser.form(f"/organiser/events/{event['slug']}/pairings/confirm", round="1", plan=plan, digest="x")
    page = _page(res)
    assert res.status_code == 400 and 'class="flash error"' in page
    assert _state(app, event) == before


def test_a_scorekeeper_account_imports_but_a_floor_judge_account_cannot(app, organiser, event):
    from conftest import staff_client

    keeper = staff_client(app, organiser, event, "Sam Score", "scorekeeper")
    replace_tables(keeper, event["slug"], 1, "table,player_a,player_b\n1,Ada Brook,ben carter\n")
    assert _state(app, event)[1] == [(1, 1, "Ada Brook", "ben carter")]
    floor = staff_client(app, organiser, event, "Fay Floor", "floor_judge")
    res = floor.post(f"/organiser/events/{event['slug']}/pairings", data={"round": "1", "csv": "x"})
    assert res.status_code == 403

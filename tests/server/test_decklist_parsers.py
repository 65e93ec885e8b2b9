"""The decklist formats (server/decklists): each parser reads a real-looking list into sections
and cards as written, and refuses broken input line by line, naming the line."""

import base64
import struct
from pathlib import Path

import pytest

from server.decklists import FORMATS, detect, message, parse
from server.decklists.common import MAX_COUNT, MAX_ENTRIES, MAX_LINES, MAX_NAME

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "decklists"


def sample(name: str) -> str:
    return (SAMPLES / name).read_text(encoding="utf-8")


def totals(found: dict) -> dict:
    """{section: (cards, lines)} of a parsed list."""
    return {s["id"]: (sum(c["count"] for c in s["cards"]), len(s["cards"])) for s in found["sections"]}


def problems(found: dict) -> list[tuple]:
    return [(p["line"], p["problem"]) for p in found["problems"]]


def ydke(main=(), extra=(), side=()) -> str:
    part = lambda codes: base64.b64encode(struct.pack(f"<{len(codes)}I", *codes)).decode()  # noqa: E731
    return f"ydke://{part(main)}!{part(extra)}!{part(side)}!"


@pytest.mark.parametrize(("name", "fmt", "expected"), [
    ("burn.txt", "plain", {"main": (60, 15), "side": (15, 6)}),
    ("burn-arena.txt", "arena", {"main": (60, 12), "side": (15, 5)}),
    ("burn.dek", "mtgo", {"main": (60, 15), "side": (15, 6)}),
    ("blue-eyes.ydk", "ydk", {"main": (40, 16), "extra": (15, 14), "side": (15, 7)}),
    ("lost-zone.txt", "ptcgl", {"main": (60, 23)}),
])
def test_a_real_looking_list_of_each_format_is_read_whole(name, fmt, expected):
    found = parse(sample(name))
    assert found["format"] == fmt == detect(sample(name))
    assert found["problems"] == []
    assert totals(found) == expected


def test_plain_text_keeps_names_as_written_and_reads_the_side_after_the_blank_line():
    found = parse("4 Lightning Bolt\n4x Counterspell\n3 x Ponder\n\n2 Negate\n1 Duress")
    assert found["sections"] == [
        {"id": "main", "cards": [{"count": 4, "name": "Lightning Bolt"}, {"count": 4, "name": "Counterspell"},
                                 {"count": 3, "name": "Ponder"}]},
        {"id": "side", "cards": [{"count": 2, "name": "Negate"}, {"count": 1, "name": "Duress"}]}]


def test_plain_text_headers_name_the_sections_and_blank_lines_are_then_only_spacing():
    text = "Main deck:\n3 Ash Blossom & Joyous Spring\n\n2 Droll & Lock Bird\nExtra Deck (1)\n1 Accesscode Talker\n" \
           "\nSide Deck:\n2 Nibiru, the Primal Being\n// a comment\nSB: 1 Called by the Grave\n"
    assert totals(parse(text)) == {"main": (5, 2), "side": (3, 2), "extra": (1, 1)}


def test_plain_text_refuses_lines_without_a_count_and_a_third_unnamed_part_naming_each_line():
    found = parse("4 Lightning Bolt\nCounterspell\n\n2 Negate\n\n1 Duress\n0 Island\n1000 Mountain\n")
    assert problems(found) == [(2, "no_count"), (6, "third_part"), (7, "count_range"), (8, "count_range")]
    assert found["problems"][0]["text"] == "Counterspell"


def test_arena_keeps_the_printing_as_the_code_and_skips_about_and_companion():
    text = "Companion\n1 Lurrus of the Dream-Den (IKO) 226\n\nDeck\n4 Lightning Bolt (STA) 42\n1 Ramunap Excavator\n" \
           "Commander\n1 Atraxa, Praetors' Voice (C16) 28\n\nSideboard\n1 Lurrus of the Dream-Den (IKO) 226\n"
    found = parse(text)
    assert found["format"] == "arena" and found["problems"] == []
    assert found["sections"] == [
        {"id": "main", "cards": [{"count": 4, "name": "Lightning Bolt", "code": "STA 42"},
                                 {"count": 1, "name": "Ramunap Excavator"},
                                 {"count": 1, "name": "Atraxa, Praetors' Voice", "code": "C16 28"}]},
        {"id": "side", "cards": [{"count": 1, "name": "Lurrus of the Dream-Den", "code": "IKO 226"}]}]


def test_arena_refuses_unknown_lines_naming_them():
    found = parse("Deck\n4 Lightning Bolt (STA) 42\nMaybeboard\ntwo Shocks\n", "arena")
    assert problems(found) == [(3, "unknown_header"), (4, "no_count")]


def test_mtgo_reads_the_sideboard_attribute_and_names_the_line_of_a_bad_element():
    text = sample("burn.dek").replace('Quantity="2" Sideboard="false" Name="Skullcrack"',
                                      'Quantity="two" Sideboard="false" Name="Skullcrack"')
    text = text.replace('Sideboard="true" Name="Kor Firewalker"', 'Sideboard="maybe" Name="Kor Firewalker"')
    text = text.replace('Name="Mountain"', 'Name=""')
    found = parse(text)
    assert problems(found) == [(15, "xml_quantity"), (19, "no_name"), (21, "xml_sideboard")]
    assert 'Name="Skullcrack"' in found["problems"][0]["text"]


def test_mtgo_refuses_xml_that_does_not_read_naming_where_it_stopped():
    found = parse('<?xml version="1.0"?>\n<Deck>\n  <Cards Quantity="4" Name="Bolt" Sideboard="false">\n</Deck>\n')
    assert problems(found) == [(4, "xml")]
    assert parse("<Deck><Cards", "mtgo")["problems"][0]["problem"] == "xml"
    assert problems(parse('<?xml version="1.0"?>\n<Decklist>\n</Decklist>', "mtgo")) == [(2, "xml_root")]


@pytest.mark.parametrize("attack", [
    '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><Deck>&b;</Deck>',
    '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><Deck>&x;</Deck>',
    '<?xml version="1.0"?><!DOCTYPE d SYSTEM "http://example.org/d.dtd"><Deck/>',
])
def test_mtgo_refuses_entities_and_dtds(attack):
    """Uploaded XML goes through defusedxml: no entity expansion, no external entity or DTD."""
    found = parse(attack, "mtgo")
    assert found["sections"] == [] and found["problems"][0]["problem"] == "xml_unsafe"


def test_ydk_counts_repeated_passcodes_and_keeps_them_as_codes_without_names():
    found = parse("#created by x\n#main\n89631139\n89631139\n0046986414\n#extra\n44508094\n!side\n14558127\n")
    assert found["sections"] == [
        {"id": "main", "cards": [{"count": 2, "code": "89631139"}, {"count": 1, "code": "46986414"}]},
        {"id": "side", "cards": [{"count": 1, "code": "14558127"}]},
        {"id": "extra", "cards": [{"count": 1, "code": "44508094"}]}]


def test_ydk_refuses_text_lines_and_cards_before_a_section():
    found = parse("#created by x\n12345\n#main\nBlue-Eyes White Dragon\n123456789012\n89631139\n", "ydk")
    assert problems(found) == [(2, "no_section"), (4, "passcode"), (5, "passcode")]


def test_a_ydke_url_holds_the_three_sections():
    found = parse(ydke(main=[89631139, 89631139, 46986414], extra=[44508094], side=[14558127]))
    assert found["format"] == "ydke" and found["problems"] == []
    assert totals(found) == {"main": (3, 2), "side": (1, 1), "extra": (1, 1)}


@pytest.mark.parametrize(("url", "expected"), [
    ("ydke://abc!!", [(1, "ydke_part")]),
    ("ydke://AAAA", [(1, "ydke")]),
    ("ydke://AAE=!!!", [(1, "ydke_part")]),  # 2 bytes: not whole passcodes
    ("ydke://!!!", [(None, "empty")]),
    ("ydke://" + "A" * 8 + "!!!x!", [(1, "ydke")]),
])
def test_a_broken_ydke_url_is_refused(url, expected):
    assert problems(parse(url, "ydke")) == expected


def test_pokemon_live_keeps_set_and_number_as_the_code():
    found = parse("Pokémon: 1\n1 Radiant Greninja ASR 46\nTrainer: 2\n2 Pokégear 3.0 SVI 186\nEnergy: 1\n"
                  "1 Basic {W} Energy SVE 3\nTotal Cards: 4\n")
    assert found["sections"][0]["cards"] == [
        {"count": 1, "name": "Radiant Greninja", "code": "ASR 46"},
        {"count": 2, "name": "Pokégear 3.0", "code": "SVI 186"},
        {"count": 1, "name": "Basic {W} Energy", "code": "SVE 3"}]


def test_pokemon_live_refuses_headings_whose_counts_the_lines_do_not_make():
    text = sample("lost-zone.txt").replace("4 Comfey LOR 79", "3 Comfey LOR 79")
    found = parse(text)
    assert problems(found) == [(1, "group_count"), (30, "group_count")]
    assert found["problems"][0] | {"expected": 16, "found": 15} == found["problems"][0]
    assert problems(parse("4 Comfey LOR 79\nPokémon: 4\n", "ptcgl")) == [(1, "no_section"), (2, "group_count")]


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_every_format_refuses_an_empty_text(fmt):
    assert [p["problem"] for p in parse("\n \n", fmt)["problems"]] in (["empty"], ["ydke"])


def test_lines_holding_control_characters_or_nul_are_refused_by_number():
    found = parse("4 Lightning Bolt\n2 Neg\x00ate\n1 Du\x07ress\n", "plain")
    assert problems(found) == [(2, "characters"), (3, "characters")]
    assert "\\x00" in found["problems"][0]["text"]  # shown escaped, never stored


def test_limits_long_names_many_lines_many_entries_huge_counts():
    assert problems(parse(f"1 {'x' * (MAX_NAME + 1)}\n")) == [(1, "too_long")]
    assert problems(parse(f"{MAX_COUNT + 1} Island\n")) == [(1, "count_range")]
    assert problems(parse("99999999999999999999 Island\n")) == [(1, "no_count")]
    many = "".join(f"1 Card {i}\n" for i in range(MAX_ENTRIES + 5))
    assert problems(parse(many)) == [(MAX_ENTRIES + 1, "too_many_entries")]
    lines = "1 Island\n" + "\n" * (MAX_LINES + 10)
    assert (None, "too_many_lines") in problems(parse(lines))
    assert problems(parse("1 Island\n" * 20, "nonsense")) == [(None, "unknown_format")]
    assert problems(parse("1 Island " * 30_000)) == [(None, "too_large")]


def test_problems_are_worded_with_their_line(sqlite_app):
    found = parse("4 Lightning Bolt\nCounterspell\n")
    with sqlite_app.test_request_context():
        assert message(found["problems"][0]) == \
            "line 2 (Counterspell): not a card line: write the number of copies first, as in 4 Card Name"
        assert message({"line": None, "text": "", "problem": "empty"}) == "no card in the list"

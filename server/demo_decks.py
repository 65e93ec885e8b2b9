"""The demo's decklist event: 32 players with registered lists in three formats, round 1's
sixteen tables, and deck sizes set by the organiser, so that a deck check can be tried end
to end (`flask --app server demo`)."""

from __future__ import annotations

from .decklist_intake import register, set_sizes
from .events import create_event, import_players
from .imports import import_pairings
from .models import Event
from .rules import levels as levels_of

NAME = "Demo: decklists and deck checks (32 players)"
RULESET = "dci-upg"  # its lists have a main deck and a sideboard, as the decks below
FIRST = ["Ada", "Ben", "Chloe", "Dev", "Ella", "Finn", "Gina", "Hugo", "Iris", "Jon", "Kai", "Lena", "Milo", "Nora",
         "Omar", "Pia", "Quinn", "Rosa", "Sam", "Tara", "Umar", "Vera", "Wes", "Xena", "Yuri", "Zoe", "Abel",
         "Bea", "Cyril", "Dana", "Emil", "Fay"]
LAST = ["Quist", "Brook", "Zeller", "Evans", "Ahn", "Gray", "Hale", "Ives", "Jansen", "Kowalski", "Lund", "Moreau",
        "Novak", "Okafor", "Petit", "Rossi", "Silva", "Tanaka", "Ueda", "Vidal", "Weber", "Young", "Costa", "Dubois",
        "Fischer", "García", "Horvat", "Ibáñez", "Jovanović", "Kim", "Larsen", "Müller"]
PLAYERS = [f"{first} {last}" for first, last in zip(FIRST, LAST, strict=True)]

BURN = """4 Goblin Guide
4 Monastery Swiftspear
4 Eidolon of the Great Revel
4 Lightning Bolt
4 Lava Spike
4 Rift Bolt
4 Skewer the Critics
4 Boros Charm
4 Lightning Helix
4 Searing Blaze
2 Skullcrack
4 Inspiring Vantage
4 Sacred Foundry
4 Arid Mesa
6 Mountain

3 Path to Exile
2 Kor Firewalker
3 Deflecting Palm
2 Roiling Vortex
2 Smash to Smithereens
3 Rest in Peace
"""

CONTROL = """Deck
4 Consider (MID) 44
4 Memory Deluge (MID) 62
3 Fading Hope (MID) 51
4 Make Disappear (SNC) 49
2 Saw It Coming (KHM) 76
4 Jwari Disruption (ZNR) 64
3 Shore Up (DMU) 64
4 Spell Pierce (ZNR) 81
2 Hullbreaker Horror (VOW) 63
2 Lier, Disciple of the Drowned (MID) 59
4 Otawara, Soaring City (NEO) 271
24 Island (NEO) 294

Sideboard
3 Negate (M20) 69
2 Essence Scatter (M19) 49
3 Disdainful Stroke (KHM) 47
4 Syncopate (DMU) 67
3 Aether Gust (M20) 42
"""

AFFINITY = """<?xml version="1.0" encoding="utf-8"?>
<Deck xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <NetDeckID>0</NetDeckID>
  <PreconstructedDeckID>0</PreconstructedDeckID>
  <Cards CatID="20835" Quantity="4" Sideboard="false" Name="Ornithopter" />
  <Cards CatID="33178" Quantity="4" Sideboard="false" Name="Memnite" />
  <Cards CatID="21130" Quantity="4" Sideboard="false" Name="Frogmite" />
  <Cards CatID="21132" Quantity="4" Sideboard="false" Name="Myr Enforcer" />
  <Cards CatID="39547" Quantity="4" Sideboard="false" Name="Thoughtcast" />
  <Cards CatID="39570" Quantity="4" Sideboard="false" Name="Galvanic Blast" />
  <Cards CatID="33229" Quantity="4" Sideboard="false" Name="Springleaf Drum" />
  <Cards CatID="34951" Quantity="4" Sideboard="false" Name="Carapace Forger" />
  <Cards CatID="39524" Quantity="4" Sideboard="false" Name="Atog" />
  <Cards CatID="21020" Quantity="4" Sideboard="false" Name="Fling" />
  <Cards CatID="21150" Quantity="4" Sideboard="false" Name="Seat of the Synod" />
  <Cards CatID="21152" Quantity="4" Sideboard="false" Name="Vault of Whispers" />
  <Cards CatID="21154" Quantity="4" Sideboard="false" Name="Great Furnace" />
  <Cards CatID="64321" Quantity="4" Sideboard="false" Name="Darksteel Citadel" />
  <Cards CatID="39530" Quantity="4" Sideboard="false" Name="Chromatic Star" />
  <Cards CatID="35004" Quantity="4" Sideboard="true" Name="Gorilla Shaman" />
  <Cards CatID="36150" Quantity="4" Sideboard="true" Name="Hydroblast" />
  <Cards CatID="36151" Quantity="4" Sideboard="true" Name="Pyroblast" />
  <Cards CatID="31133" Quantity="3" Sideboard="true" Name="Fangren Marauder" />
</Deck>
"""

DECKS = [BURN, CONTROL, AFFINITY]


def deck_event() -> Event:
    """The demo's decklist event, made now, at the ruleset's middle level: 32 players, round 1's
    tables (first half against second half), every player's list registered by the organiser
    (three decks in plain text, MTG Arena and MTGO formats), and the organiser's sizes: a main
    deck of at least 60 cards and a sideboard of at most 15 (the policy states none)."""
    levels = levels_of(RULESET)
    event = create_event(NAME, RULESET, level=levels[len(levels) // 2] if levels else None,  # the middle level
                         round_minutes=50.0)  # the policy states no length
    import_players(event, "name\n" + "\n".join(PLAYERS) + "\n")
    half = len(PLAYERS) // 2
    import_pairings(event, 1, "table,player_a,player_b\n" + "".join(
        f"{n},{PLAYERS[n - 1]},{PLAYERS[n - 1 + half]}\n" for n in range(1, half + 1)))
    set_sizes(event, {"main": (60, None), "side": (None, 15)})
    for i, player in enumerate(event.players):
        register(event, player, DECKS[i % len(DECKS)], None, "organiser")
    return event

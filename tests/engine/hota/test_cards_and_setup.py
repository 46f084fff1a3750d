"""The pool as data, 100.2a's deck rules, and the setups the engine refuses."""

from __future__ import annotations

import pytest

from engine.hota import (
    ABILITIES, CardPoolError, DeckError, EngineSetupError, HotaGame, UnknownCard, check_deck, deck_problems, load_pool,
    random_table,
)

TABLE_CARDS = {
    "Ember Bolt": "activated", "Tome of Ages": "activated", "Spirit Caller": "activated",
    "Banishing Gale": "activated", "Rewind Portal": "activated", "Silencing Rune": "activated",
    "Pact of Victory": "activated", "Curse of Ruin": "activated", "Truce Banner": "activated",
    "Twin Fates": "activated", "Council of Elders": "activated", "Aegis of Immortality": "static",
    "Gatekeeper": "static", "Echo Chamber": "triggered", "Whispering Echo": "triggered",
    "Culling Field": "triggered", "Warding Sigil": "static", "Mind Tether": "activated",
    "Arcane Sanctum": "static",
}


def test_the_pool_holds_every_table_card_with_its_kind_of_ability_and_deck_cards():
    pool = load_pool()
    assert {c.name: c.timing for c in pool.entities()} == TABLE_CARDS
    assert all(c.text and c.rules for c in pool)
    deck = pool.deck_cards()
    assert any(c.basic for c in deck) and any(not c.basic for c in deck)
    assert pool["Strength Attribute"].basic and not pool["Wandering Courier"].basic
    # 105.1, 106.1: one basic attribute card per attribute, each with its own attribute;
    # 106.4: Arcane Study has none, yet requires one.
    assert sorted(c.attributes for c in deck if c.basic) == [("agility",), ("intelligence",), ("strength",)]
    assert pool["Arcane Study"].attributes == () and pool["Arcane Study"].requires == (("intelligence", 1),)
    assert not pool["Wandering Courier"].playable and pool["Arcane Study"].playable
    assert ABILITIES[pool["Whispering Echo"].ability].optional
    assert not ABILITIES[pool["Echo Chamber"].ability].optional


@pytest.mark.parametrize("text, words", [
    ("cards:\n  - name: Odd\n    kind: entity\n    ability: win\n    colour: red\n", ["card 'Odd'", "unknown key 'colour'"]),
    ("cards:\n  - name: Odd\n    kind: entity\n    ability: fly\n", ["card 'Odd'", "unknown ability 'fly'"]),
    ("cards:\n  - name: Odd\n    kind: hero\n", ["card 'Odd'", "kind"]),
    ("cards:\n  - name: Odd\n    kind: deck\n  - name: Odd\n    kind: deck\n", ["card 'Odd'", "twice"]),
    ("cards:\n  - name: Odd\n    kind: deck\n    ability: win\n", ["card 'Odd'", "no ability"]),
    ("cards:\n  - name: Odd\n    kind: entity\n    ability: win\n    basic: true\n", ["card 'Odd'", "basic"]),
    ("cards:\n  - name: Odd\n    kind: deck\n    attributes: [wisdom]\n", ["card 'Odd'", "'attributes'"]),
    ("cards:\n  - name: Odd\n    kind: deck\n    basic: true\n    attributes: [strength, agility]\n",
     ["card 'Odd'", "exactly one attribute (106.1)"]),
    ("cards:\n  - name: Odd\n    kind: deck\n    requires: {strength: 0}\n", ["card 'Odd'", "'requires'"]),
    ("cards:\n  - name: Odd\n    kind: entity\n    ability: win\n    requires: {strength: 1}\n",
     ["card 'Odd'", "only deck cards are played"]),
    ("cards:\n  - name: Odd\n    kind: deck\n    basic: true\n    attributes: [agility]\n    effect: draw_a_card\n",
     ["card 'Odd'", "'effect'"]),
    ("nothing: here\n", ["'cards' list"]),
    ("cards: [\n", ["YAML"]),
])
def test_a_bad_pool_file_is_one_error_naming_the_file_and_the_card(tmp_path, text, words):
    path = tmp_path / "pool.yaml"
    path.write_text(text)
    with pytest.raises(CardPoolError) as info:
        load_pool(path)
    assert str(path) in str(info.value)
    for w in words:
        assert w in str(info.value)


def test_an_unknown_card_is_a_pool_error_naming_the_file_and_the_card():
    pool = load_pool()
    with pytest.raises(CardPoolError, match="cards.yaml: no card named 'Dragon'"):
        pool.card("Dragon")
    with pytest.raises(CardPoolError, match="'Dragon'") as info:
        HotaGame(table={"P1": ["Dragon"]})
    assert isinstance(info.value, EngineSetupError) and info.value.field == "table"
    with pytest.raises(UnknownCard) as info:
        HotaGame(decks={"P2": ["Dragon"] * 9})
    assert info.value.field == "decks"


# --- 100.2a ------------------------------------------------------------------------------------

def test_constructed_decks_hold_at_least_fifty_cards():
    check_deck(["Strength Attribute"] * 50, "constructed")
    with pytest.raises(DeckError) as info:
        check_deck(["Strength Attribute"] * 49, "constructed")
    assert info.value.rule == "100.2a" and info.value.count == 49 and "49" in str(info.value)


def test_constructed_decks_hold_at_most_three_of_a_name_basic_attribute_cards_aside():
    check_deck(["Wandering Courier"] * 3 + ["Village Scholar"] * 3 + ["Strength Attribute"] * 44, "constructed")
    with pytest.raises(DeckError) as info:
        check_deck(["Wandering Courier"] * 4 + ["Strength Attribute"] * 46, "constructed")
    assert info.value.name == "Wandering Courier" and info.value.count == 4
    assert "'Wandering Courier'" in str(info.value) and info.value.rule == "100.2a"


def test_limited_decks_hold_at_least_thirty_five_cards_with_no_limit_per_name():
    check_deck(["Wandering Courier"] * 35, "limited")
    with pytest.raises(DeckError) as info:
        check_deck(["Wandering Courier"] * 34, "limited")
    assert info.value.count == 34


def test_a_game_in_a_format_checks_its_decks():
    game = HotaGame(format="constructed")
    assert [len(d) for d in game.decks] == [50, 50]
    assert len(HotaGame(format="limited").decks[0]) == 35
    with pytest.raises(DeckError):
        HotaGame(format="limited", decks={"P1": ["Wandering Courier"] * 20})
    with pytest.raises(DeckError):
        HotaGame(format="constructed", decks={"P2": ["Village Scholar"] * 50})
    with pytest.raises(EngineSetupError) as info:
        HotaGame(format="sealed")
    assert info.value.field == "format"
    with pytest.raises(EngineSetupError):
        check_deck(["Wandering Courier"] * 50, "sealed")


# --- setups ------------------------------------------------------------------------------------

def test_default_decks_are_nine_deck_cards_and_without_a_format_seven_is_the_minimum():
    game = HotaGame(players=3)
    assert game.decks == [["Wandering Courier"] * 9] * 3
    HotaGame(decks={"P1": ["Village Scholar"] * 7})
    with pytest.raises(EngineSetupError) as info:
        HotaGame(decks={"P1": ["Village Scholar"] * 6})
    assert info.value.field == "decks" and "103.4" in str(info.value)


@pytest.mark.parametrize("kwargs, field", [
    ({"players": 1}, "players"),
    ({"players": 5}, "players"),
    ({"players": True}, "players"),
    ({"starting_life": 0}, "starting_life"),
    ({"table": {"P3": ["Ember Bolt"]}}, "table"),
    ({"table": {"P1": ["Ember Bolt", "Ember Bolt"]}}, "table"),
    ({"table": {"P1": ["Echo Chamber"], "P2": ["Whispering Echo"]}}, "table"),
    ({"table": {"P1": ["Wandering Courier"]}}, "table"),
    ({"table": ["Ember Bolt"]}, "table"),
    ({"decks": {"P1": ["Ember Bolt"] * 9}}, "decks"),
    ({"decks": {"P9": ["Wandering Courier"] * 9}}, "decks"),
])
def test_bad_setups_name_their_field(kwargs, field):
    with pytest.raises(EngineSetupError) as info:
        HotaGame(**kwargs)
    assert info.value.field == field


def test_a_card_may_appear_once_per_player_so_two_players_may_each_hold_it():
    game = HotaGame(table={"P1": ["Ember Bolt"], 1: ["Ember Bolt", "Echo Chamber"]})
    assert [(p, c.name) for p, c in game.table] == [(0, "Ember Bolt"), (1, "Ember Bolt"), (1, "Echo Chamber")]


def test_random_tables_are_legal():
    import random
    rng = random.Random(3)
    for players in (2, 3, 4):
        for _ in range(50):
            table = random_table(rng, players)
            assert set(table) == {f"P{p + 1}" for p in range(players)}
            HotaGame(players=players, table=table)


def test_deck_problems_lists_every_part_of_100_2a_a_deck_breaks() -> None:
    problems = deck_problems(["Arcane Study"] * 4 + ["Village Scholar"] * 4 + ["Agility Attribute"] * 40, "constructed")
    assert [(p.rule, p.part, p.count, p.name) for p in problems] == [
        ("100.2a", "size", 48, None), ("100.2a", "copies", 4, "Arcane Study"), ("100.2a", "copies", 4, "Village Scholar")]
    assert deck_problems(["Arcane Study"] * 35, "limited") == []
    assert deck_problems(["Arcane Study"] * 35, "constructed")[0].part == "size"


def test_a_game_refuses_a_deck_its_format_forbids_as_a_setup_error_naming_the_player() -> None:
    with pytest.raises(EngineSetupError) as info:
        HotaGame(format="constructed", decks={"P2": ["Arcane Study"] * 4 + ["Strength Attribute"] * 46})
    err = info.value
    assert isinstance(err, DeckError) and err.field == "decks" and err.rule == "100.2a" and err.seat == "P2"
    assert "P2's deck breaks 100.2a" in str(err) and "'Arcane Study'" in str(err)

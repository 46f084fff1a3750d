"""Deck-building validation (rules 100.1-100.4) and the random legal deck."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.wowtcg.cards import Pool, load_pool
from engine.wowtcg.deck import Deck, DeckViolation, random_legal_deck, validate_deck

POOL = load_pool()
HEROES = sorted(card.name for card in POOL if card.type == "hero")

# Boris Brightbeard: Alliance Priest, Holy talent. 60 cards, all legal for him.
BORIS_60 = {
    "Flash Heal": 4,
    "Shelter the Flock": 4,
    "Mind Control": 4,
    "Ironforge Guards": 10,  # Unlimited
    "Hill Archer": 4,
    "Shadowed Prowler": 4,
    "Darnassian Sentinel": 4,
    "High Priestess Tyrande Whisperwind": 4,
    "Barnathrum, Lord of Pain": 4,
    "Valthak Spiritdrinker": 4,
    "Ashen Recruit": 4,
    "Lucky Charm": 4,
    "Supplies for the Front": 4,
    "Scout the Barrens": 2,
}


def boris(changes: dict[str, int] | None = None, sideboard=None, hero: str = "Boris Brightbeard") -> Deck:
    counts = dict(BORIS_60)
    for name, n in (changes or {}).items():
        counts[name] = counts.get(name, 0) + n
    return Deck.from_counts(hero, counts, sideboard)


def rules(violations: list[DeckViolation]) -> list[str]:
    return sorted(v.rule for v in violations)


def test_the_fixture_deck_has_sixty_cards():
    assert len(boris().cards) == 60


def test_legal_constructed_deck_has_no_violations():
    assert validate_deck(boris(), POOL) == []
    assert validate_deck(boris(), POOL, format="constructed") == []


def test_violation_text_starts_with_its_rule():
    (v,) = validate_deck(boris({"Flash Heal": 1}), POOL)
    assert str(v).startswith("100.4: ")
    assert "Flash Heal" in str(v)


# 100.1 ---------------------------------------------------------------------


def test_constructed_deck_below_sixty_cards():
    (v,) = validate_deck(boris({"Scout the Barrens": -1}), POOL)
    assert v.rule == "100.1" and "59" in v.message and "60" in v.message


def test_hero_is_not_counted_in_the_deck():
    # Listing the hero again among the cards is no way to reach 60: a hero
    # card in the deck is itself a violation.
    found = validate_deck(boris({"Scout the Barrens": -1, "Boris Brightbeard": 1}), POOL)
    assert rules(found) == ["100.1"]
    assert "Boris Brightbeard" in found[0].message and "hero" in found[0].message


def test_no_maximum_deck_size():
    assert validate_deck(boris({"Ironforge Guards": 200}), POOL) == []


def test_hero_must_be_a_hero_card():
    found = validate_deck(boris(hero="Ironforge Guards"), POOL)
    assert rules(found) == ["100.1"]
    assert "Ironforge Guards" in found[0].message and "ally" in found[0].message


# 100.2 ---------------------------------------------------------------------


def test_unknown_card_is_a_violation_not_an_exception():
    found = validate_deck(boris({"Scout the Barrens": -1, "Leeroy Jenkins": 1}), POOL)
    assert rules(found) == ["100.2"]
    assert "Leeroy Jenkins" in found[0].message and "not in the card pool" in found[0].message


def test_unknown_hero():
    found = validate_deck(boris(hero="Thrall"), POOL)
    assert rules(found) == ["100.2"] and "Thrall" in found[0].message


def test_card_without_shared_trait_icon():
    # A Mage ability in a Priest hero's deck.
    found = validate_deck(boris({"Lucky Charm": -1, "Fireball": 1}), POOL)
    assert rules(found) == ["100.2a"]
    assert "Fireball" in found[0].message and "Boris Brightbeard" in found[0].message


def test_faction_icon_is_enough_and_wrong_faction_is_not():
    # Hill Archer (Alliance) fits the Alliance Priest; Grunt Baranka (Horde) does not.
    found = validate_deck(boris({"Lucky Charm": -4, "Grunt Baranka": 4}), POOL)
    assert [(v.rule, "Grunt Baranka" in v.message) for v in found] == [("100.2a", True)]


def test_cards_without_icons_fit_any_hero():
    neutral = [c.name for c in POOL if not c.traits and c.type != "hero" and not c.reputation]
    assert "Ashen Recruit" in neutral and "Scout the Barrens" in neutral
    for hero in HEROES:
        deck = Deck.from_counts(hero, {name: 2 for name in neutral})
        assert len(deck.cards) >= 30
        assert validate_deck(deck, POOL, format="sealed") == [], hero


def test_hero_required_matches_the_heros_talent():
    kerra = {"Blade Flurry": 4, "Silvermoon Skirmisher": 4, "Goblin Sapper": 4, "Ashen Recruit": 4,
             "Deathbringer": 4, "Thrash Blade": 4, "Leather Jerkin": 4, "Scout the Barrens": 4}
    assert validate_deck(Deck.from_counts("Kerra Nightblade", kerra), POOL, format="sealed") == []
    # The same Rogue hero with another talent may not play Blade Flurry.
    subtle = dataclasses.replace(POOL["Kerra Nightblade"], talent="Subtlety")
    pool = Pool({**POOL.cards, subtle.name: subtle})
    found = validate_deck(Deck.from_counts("Kerra Nightblade", kerra), pool, format="sealed")
    assert rules(found) == ["100.2b"]
    assert "Blade Flurry" in found[0].message and "Combat" in found[0].message


def test_hero_required_in_another_class_deck():
    found = validate_deck(boris({"Lucky Charm": -1, "Blade Flurry": 1}), POOL)
    # Blade Flurry carries the Rogue icon too, so both 100.2a and 100.2b fail.
    assert rules(found) == ["100.2a", "100.2b"]
    assert all("Blade Flurry" in v.message for v in found)


def test_hero_required_may_name_a_trait_on_the_type_line():
    # "Dwarf Hero Required": Boris is a Dwarf (subtype), Maelen is Human.
    charm = dataclasses.replace(POOL["Lucky Charm"], hero_required="Dwarf")
    pool = Pool({**POOL.cards, charm.name: charm})
    assert validate_deck(boris(), pool) == []
    maelen = Deck.from_counts("Maelen Frostweave", {"Lucky Charm": 4, "Ironforge Guards": 30})
    found = validate_deck(maelen, pool, format="sealed")
    assert rules(found) == ["100.2b"]


def test_aldor_and_scryer_together():
    found = validate_deck(
        boris({"Lucky Charm": -2, "Vindicator Kaldels": 1, "Scryer Arcanist": 1}), POOL)
    assert rules(found) == ["100.2c"]
    assert "Vindicator Kaldels" in found[0].message and "Scryer Arcanist" in found[0].message


def test_one_reputation_alone_is_fine():
    assert validate_deck(boris({"Lucky Charm": -4, "Vindicator Kaldels": 4}), POOL) == []
    assert validate_deck(boris({"Lucky Charm": -4, "Scryer Arcanist": 4}), POOL) == []


def test_aldor_and_scryer_across_deck_and_sideboard():
    side = {"Scryer Arcanist": 1, "Ironforge Guards": 9}
    found = validate_deck(boris({"Lucky Charm": -1, "Vindicator Kaldels": 1}, side), POOL)
    assert rules(found) == ["100.2c"]


# 100.3 ---------------------------------------------------------------------


def test_constructed_sideboard_of_ten_is_fine():
    side = {"Ironforge Guards": 6, "Chain Hauberk": 4}
    assert validate_deck(boris(sideboard=side), POOL) == []


def test_constructed_sideboard_of_nine():
    found = validate_deck(boris(sideboard={"Chain Hauberk": 4, "Ironforge Guards": 5}), POOL)
    assert rules(found) == ["100.3"] and "9" in found[0].message


def test_constructed_sideboard_cards_follow_the_deck_rules():
    side = {"Chain Hauberk": 4, "Ironforge Guards": 5, "Fireball": 1}
    found = validate_deck(boris(sideboard=side), POOL)
    assert rules(found) == ["100.2a"]
    assert "sideboard" in found[0].message and "Fireball" in found[0].message
    side = {"Chain Hauberk": 4, "Ironforge Guards": 5, "Gorrak Bloodfist": 1}
    assert rules(validate_deck(boris(sideboard=side), POOL)) == ["100.1"]


def test_sealed_sideboard_is_the_rest_of_the_opened_cards():
    # Any size, any traits, even heroes; only the names must exist.
    side = ["Fireball", "Gorrak Bloodfist", "Grunt Baranka"]
    deck = Deck.from_counts("Boris Brightbeard", {"Ironforge Guards": 30}, side)
    assert validate_deck(deck, POOL, format="sealed") == []
    deck = Deck.from_counts("Boris Brightbeard", {"Ironforge Guards": 30}, ["No Such Card"])
    assert rules(validate_deck(deck, POOL, format="sealed")) == ["100.2"]


# 100.4 ---------------------------------------------------------------------


def test_five_copies_in_constructed():
    found = validate_deck(boris({"Lucky Charm": -1, "Flash Heal": 1}), POOL)
    assert rules(found) == ["100.4"]
    assert "Flash Heal" in found[0].message and "5" in found[0].message


def test_unlimited_card_ten_times():
    assert BORIS_60["Ironforge Guards"] == 10 and POOL["Ironforge Guards"].unlimited
    assert validate_deck(boris(), POOL) == []


def test_sideboard_copies_count_towards_the_limit():
    side = {"Flash Heal": 1, "Chain Hauberk": 4, "Ironforge Guards": 5}
    found = validate_deck(boris(sideboard=side), POOL)
    assert rules(found) == ["100.4"] and "Flash Heal" in found[0].message


def test_sealed_allows_thirty_cards_and_many_copies():
    deck = Deck.from_counts("Boris Brightbeard", {"Flash Heal": 12, "Hill Archer": 9, "Scout the Barrens": 9})
    assert len(deck.cards) == 30
    assert validate_deck(deck, POOL, format="sealed") == []
    # The same deck is too small and too repetitive for constructed.
    assert rules(validate_deck(deck, POOL, format="constructed")) == ["100.1", "100.4", "100.4", "100.4"]


def test_sealed_below_thirty():
    deck = Deck.from_counts("Boris Brightbeard", {"Flash Heal": 29})
    (v,) = validate_deck(deck, POOL, format="sealed")
    assert v.rule == "100.1" and "30" in v.message


# All together ----------------------------------------------------------------


def test_every_violation_is_reported():
    deck = Deck.from_counts(
        "Boris Brightbeard",
        {"Flash Heal": 6, "Fireball": 2, "Blade Flurry": 1, "Vindicator Kaldels": 1,
         "Scryer Arcanist": 1, "Mystery Card": 1, "Gorrak Bloodfist": 1},
        sideboard={"Hill Archer": 3},
    )
    found = validate_deck(deck, POOL)
    assert rules(found) == ["100.1", "100.1", "100.2", "100.2a", "100.2a", "100.2b", "100.2c", "100.3", "100.4"]
    text = "\n".join(map(str, found))
    for name in ("Flash Heal", "Fireball", "Blade Flurry", "Vindicator Kaldels", "Scryer Arcanist",
                 "Mystery Card", "Gorrak Bloodfist"):
        assert name in text


def test_unknown_format_is_refused():
    with pytest.raises(ValueError, match="constructed.*sealed"):
        validate_deck(boris(), POOL, format="draft")


def test_deck_is_hashable_and_from_counts_expands():
    deck = Deck.from_counts("Boris Brightbeard", {"Flash Heal": 2, "Hill Archer": 1}, {"Fireball": 2})
    assert deck.cards == ("Flash Heal", "Flash Heal", "Hill Archer")
    assert deck.sideboard == ("Fireball", "Fireball")
    assert Deck("Boris Brightbeard", ["Flash Heal"]) == Deck("Boris Brightbeard", ("Flash Heal",))
    assert hash(deck) == hash(Deck.from_counts("Boris Brightbeard", {"Flash Heal": 2, "Hill Archer": 1}, ["Fireball"] * 2))
    with pytest.raises(ValueError):
        Deck.from_counts("Boris Brightbeard", {"Flash Heal": -1})


# random_legal_deck -------------------------------------------------------------


def check_random_deck(deck: Deck, hero: str, size: int, format: str) -> None:
    assert deck.hero == hero and len(deck.cards) == size
    assert validate_deck(deck, POOL, format=format) == []
    # Quests are in, and at most one reputation.
    assert any(POOL[name].type == "quest" for name in deck.cards)
    reps = {POOL[name].reputation for name in deck.cards} - {None}
    assert len(reps) <= 1
    if format == "constructed":
        counts = Counter(deck.cards)
        assert all(n <= 4 or POOL[name].unlimited for name, n in counts.items())


@pytest.mark.parametrize("hero", HEROES)
def test_random_legal_deck_for_every_hero(hero):
    for seed in range(5):
        check_random_deck(random_legal_deck(POOL, hero, random.Random(seed)), hero, 40, "sealed")
        deck = random_legal_deck(POOL, hero, random.Random(seed), size=60, format="constructed")
        check_random_deck(deck, hero, 60, "constructed")


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), hero=st.sampled_from(HEROES),
       format=st.sampled_from(["sealed", "constructed"]), extra=st.integers(0, 30))
def test_random_legal_deck_is_always_legal(seed, hero, format, extra):
    size = (30 if format == "sealed" else 60) + extra
    deck = random_legal_deck(POOL, hero, random.Random(seed), size=size, format=format)
    check_random_deck(deck, hero, size, format)


def test_random_legal_deck_is_reproducible_from_its_seed():
    a = random_legal_deck(POOL, "Kerra Nightblade", random.Random(7))
    b = random_legal_deck(POOL, "Kerra Nightblade", random.Random(7))
    assert a == b


def test_random_legal_deck_uses_both_reputations_over_seeds():
    seen = set()
    for seed in range(40):
        deck = random_legal_deck(POOL, "Boris Brightbeard", random.Random(seed), size=200)
        seen |= {POOL[name].reputation for name in deck.cards} - {None}
    assert seen == {"Aldor", "Scryer"}


def test_random_legal_deck_refuses_what_it_cannot_build():
    rng = random.Random(0)
    with pytest.raises(ValueError, match="not a hero"):
        random_legal_deck(POOL, "Ironforge Guards", rng)
    with pytest.raises(ValueError, match="not in the card pool"):
        random_legal_deck(POOL, "Thrall", rng)
    with pytest.raises(ValueError, match="at least 60"):
        random_legal_deck(POOL, "Boris Brightbeard", rng, size=40, format="constructed")
    with pytest.raises(ValueError, match="constructed, sealed"):
        random_legal_deck(POOL, "Boris Brightbeard", rng, format="draft")
    # Five legal names, no Unlimited card: 20 copies at most in constructed.
    names = ["Gorrak Bloodfist", "Mocking Blow", "Hamstring", "Grunt Baranka", "Deathbringer", "Annihilator"]
    small = Pool({name: POOL[name] for name in names})
    with pytest.raises(ValueError, match="can't make a 60-card constructed deck.*Gorrak Bloodfist"):
        random_legal_deck(small, "Gorrak Bloodfist", rng, size=60, format="constructed")
    # Sealed has no copy limit, so the same pool suffices there.
    deck = random_legal_deck(small, "Gorrak Bloodfist", rng, size=30, format="sealed")
    assert validate_deck(deck, small, format="sealed") == []
    # A hero with no legal card at all.
    with pytest.raises(ValueError, match="can't make"):
        random_legal_deck(Pool({"Gorrak Bloodfist": POOL["Gorrak Bloodfist"]}), "Gorrak Bloodfist", rng)

"""Cards of the pool kept for written scenarios (``scripted_only``): the
engine plays them by their keywords, and random decks and random heroes
never hold them, so seeded random games stay the games they were."""

from __future__ import annotations

import random

from engine.wowtcg import WowTcgGame, load_pool
from engine.wowtcg.arrange import arrange
from engine.wowtcg.deck import legal_cards, random_legal_deck
from tests.engine.wowtcg_steps import act, labels

POOL = load_pool()
SCRIPTED = sorted(c.name for c in POOL if c.scripted_only)


def test_the_scenario_cards_are_marked_and_legal_but_never_in_a_random_deck():
    assert {"Veiled Sentry", "Draka Twinshot"} <= set(SCRIPTED)
    hero = POOL["Gorrak Bloodfist"]
    # Legal in a deck of his (100.2): only the mark keeps it out of random ones.
    assert "Veiled Sentry" in {c.name for c in legal_cards(POOL, hero)}
    rng = random.Random(7)
    drawn = {name for _ in range(20) for name in random_legal_deck(POOL, hero.name, rng).cards}
    assert drawn.isdisjoint(SCRIPTED)
    games = [WowTcgGame(players=4, pool=POOL).new_initial_state(seed) for seed in range(10)]
    assert all(o.card.name not in SCRIPTED for st in games for o in st.objs)


def test_an_elusive_protector_is_never_proposed_as_a_defender_but_may_protect():
    """601.2b: elusive, it can't be proposed as a defender; 602.2: a protector,
    it may exhaust at the protect point and become the proposed defender."""
    st = arrange(["Gorrak Bloodfist", "Bragvi Stormstein"], pool=POOL,
                 play={0: ["Ashen Recruit"], 1: ["Scryer Arcanist", "Veiled Sentry"]},
                 decks={0: ["Scout the Barrens"] * 10, 1: ["Scout the Barrens"] * 10})
    assert not [label for label in labels(st) if "Veiled Sentry" in label]
    act(st, "P1 proposes Ashen Recruit attacks P2's Scryer Arcanist")
    for _ in range(4):  # the proposal resolves, then the attack window closes (409.4)
        act(st, f"P{st.current_player() + 1} passes")
    assert sorted(labels(st)) == ["P2 does not protect", "P2 protects with P2's Veiled Sentry"]
    act(st, "P2 protects with P2's Veiled Sentry")
    assert st.combat.defender == st.find("Veiled Sentry", 1).id and st.find("Veiled Sentry", 1).exhausted

"""Instants that change a combat role (``model/wowtcg/roles.py``).

V4: a second proposed defender.  The seed's 602.2b (000:473, 002:91-93)
bars only the proposed defender itself from protecting, so a second
proposed defender that is a protector may protect the first; CR7.4's 602.2b
(:1905-1907) bars it (question ``proposed_defender_may_protect_another``).

V5: an ally that stops being a character in combat.  The seed's 602.4
(000:485, 002:128-133) ends a role only as its card leaves play, changes
controller or is removed from combat; CR7.4's 602.4 (:1933-1936) also as it
stops being a character (question ``stops_being_character_ends_role``).
Kept in its role, an item has no ATK to deal at 603.1: a gap the model fills
by its assumption (question ``item_deals_combat_damage``)."""

from __future__ import annotations

from functools import cache

import pytest

from chainproof.source_lint import SourceFinding, lint_sources
from model import wowtcg
from model.backend import CONCRETE
from model.machine import Machine
from model.wowtcg.board import Spell, nearby_boards

BOARDS = dict((key, board) for key, _, board in nearby_boards(2, 2))
SECOND = BOARDS["spell+become-proposed-defender"]
ITEM = BOARDS["P1-arcanite-dragonling+spell+end-ally"]
#: P1's first turn with an instant in each hand: P1's ally attacks P2's
#: hero, and P1's instant makes P2's protector a second proposed defender.
SMALL = {"turns": 1, "hand": 1, "deck": 0, "chain_depth": 1}


@cache
def protect_findings() -> dict[str, SourceFinding]:
    def build(spec: str | None, **bounds: int) -> Machine:
        return wowtcg.build(**{**SMALL, **bounds}, board=SECOND, reading=spec)

    found = lint_sources(build(None), lambda spec, more: build(spec, **more), 2_000_000, 2_000_000,
                         questions=("proposed_defender_may_protect_another",))
    return {f.key: f for f in found.findings}


def test_a_second_proposed_defender_protects_by_the_seed_not_by_cr74():
    assert set(protect_findings()) == {"source-clash:proposed_defender_may_protect_another:CR7.4"}
    clash = protect_findings()["source-clash:proposed_defender_may_protect_another:CR7.4"]
    assert "CR7.4 answers no where the model's reading answers yes" in clash.summary
    assert {"wowtcg-comprehensive-rules-7.4.txt:1905-1907", "000_93427c41005e332f.txt:471-473"} <= set(clash.places)
    ours, theirs = clash.parted
    made = [st.edge for st in ours.steps if "becomes a proposed defender]" in st.edge]
    assert len(made) == 1
    protector = made[0].partition("[")[2].partition(" becomes")[0]
    assert ours.steps[-1].edge == f"protect[{protector}]"
    assert not any(st.edge.startswith("protect[") for st in theirs.steps)
    # The seed: it takes the first proposed defender's place, and is the only one left.
    m = wowtcg.build(**SMALL, board=SECOND)
    last = ours.replay(m)[-1]
    assert m.table.name(last.defender) == protector and last.also_defender == m.table.none


#: P2 draws the instant in turn 2; P1 makes his Dragonling an ally in P2's
#: ready step; P2's hero attacks it, and in the attack window P2's instant
#: makes it an item only (the game lint's search finds, 25 steps).
ITEM_GAME = (
    "ready_cards", "pass_priority@ready_step", "close_window@ready_step", "skip_first_draw",
    "pass_priority@action_phase", "close_window@action_phase", "pass_priority@end_phase", "close_window@end_phase", "end_turn",
    "ready_cards", "pass_priority@ready_step", "use_power[P1 Arcanite Dragonling]@ready_step", "pass_priority@ready_step",
    "resolve_power[P1 Arcanite Dragonling becomes an ally]@ready_step", "pass_priority@ready_step", "close_window@ready_step",
    "draw_card[instant]", "pass_priority@draw_step", "close_window@draw_step",
    "propose_combat[P2 hero -> P1 Arcanite Dragonling]", "pass_priority@action_phase", "resolve_proposal@action_phase",
    "play_instant@attack_window", "pass_priority@attack_window", "resolve_instant[P1 Arcanite Dragonling is an item only]@attack_window",
)


def play(m: Machine, names: tuple[str, ...]):
    """The state after ``names`` from the start where P2's deck holds the instant."""
    for s in m.initial_states():
        for name in names:
            after = [x for e, x in m.successors(s) if e.name == name]
            if not after:
                break
            (s,) = after
        else:
            return s
    raise AssertionError("no start plays the game")


@pytest.mark.parametrize("reading, ends", [(None, False), ("CR7.4", True)])
def test_an_ally_made_an_item_only_keeps_its_role_by_the_seed_and_loses_it_by_cr74(reading, ends):
    m = wowtcg.build(turns=2, deck=1, hand=0, chain_depth=1, board=ITEM, reading=reading)
    t = m.table
    dragonling = next(c for c in range(t.count) if t.item_allies[c])
    s = play(m, ITEM_GAME)
    # An item in play, no longer an ally (the seed and CR7.4 alike).
    assert not s.in_play[dragonling] and s.item_in_play[dragonling]
    assert m.location_of(s) == "attack_window" and s.attacker == t.hero(1)
    assert s.defender == (t.none if ends else dragonling)
    assert m.rulings.fixed("stops_being_character_ends_role") is ends


def test_an_item_in_a_role_deals_no_combat_damage_by_the_models_assumption():
    # The seed keeps the item the proposed defender; no text says what it deals at 603.1.
    m = wowtcg.build(turns=2, deck=1, hand=0, chain_depth=1, board=ITEM)
    t = m.table
    dragonling = next(c for c in range(t.count) if t.item_allies[c])
    s = play(m, ITEM_GAME + ("pass_priority@attack_window", "close_window@attack_window", "no_protection",
                             "pass_priority@defend_window", "close_window@defend_window"))
    assert m.location_of(s) == "combat_conclusion" and s.defender == dragonling
    assert m.rulings.answer("item_deals_combat_damage", s, CONCRETE, dragonling) is False
    (after,) = [x for e, x in m.successors(s) if e.has("deals_combat_damage")]
    hero = t.hero(1)
    assert t.atk[dragonling] > 0 and after.damage[hero] == s.damage[hero]


def test_the_default_board_asks_neither():
    m = wowtcg.build(**SMALL)
    assert m.rulings.questions["proposed_defender_may_protect_another"].arguments == ()
    assert m.rulings.questions["stops_being_character_ends_role"].arguments == ()
    assert m.rulings.questions["item_deals_combat_damage"].arguments == ()
    assert not any("becomes a proposed defender" in e.name or "item only" in e.name for e in m.edges)


def test_an_instant_changes_one_role_and_deals_no_damage():
    with pytest.raises(ValueError, match="changes a combat role"):
        Spell("both", 0, makes_proposed_defender=True, ends_ally=True)
    with pytest.raises(ValueError, match="changes a combat role"):
        Spell("and damage", 1, ends_ally=True)

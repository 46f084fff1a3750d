"""Kayn in the Riftbound model (damage.undamageable, 003:79): he cannot be
damaged this turn once he has moved twice this turn. The model counts his
moves (the standard move and a spell's move into the combat; a recall is not
a move, is_a_move), so his immunity comes and goes within one model, and the
agreement harness's random tables hold him. Also: the shortcuts the model
takes to list the legal damage splits give what Z3's enumeration gives."""

from __future__ import annotations

import random
from functools import cache

import pytest

from agreement.riftbound.builtin import KAYN, BuiltinRiftboundAdapter
from agreement.riftbound.checker import table_of
from checkers import explicit
from model import riftbound
from model.riftbound.combat import _legal_splits
from model.riftbound.damage import DamageUnit, legal_assignments
from model.riftbound.table import BASE, FIRST_BATTLEFIELD, NOBODY, TRASH, Table, Unit
from tests.test_riftbound_model import assert_backends_agree

BF1 = FIRST_BATTLEFIELD
KAYN_UNIT, RAIDER = 0, 1


def kayn_table() -> Table:
    """P1's Kayn (4 might, at base, two showdown spells) against P2's 5-might
    Raider holding bf1: the Raider's damage is lethal to Kayn unless he is immune."""
    units = (Unit("Kayn", 0, 4, immune_after_two_moves=True), Unit("Raider", 1, 5, start=BF1))
    return Table(2, 2, units, (1, NOBODY), 2, 2, 2)


@cache
def explored() -> explicit.Exploration:
    return explicit.explore(riftbound.build(table=kayn_table()))


def steps(name: str) -> list[tuple]:
    e = explored()
    out = [(e.nodes[p], e.nodes[q]) for p, q, k in e.graph.edges(keys=True) if k == name]
    assert out, name
    return out


def test_each_move_counts_and_a_recall_does_not():
    """damage.undamageable: the standard move and the spell's move into the
    combat each add one (up to the two that matter); a recall adds none
    (is_a_move: our assumption, lint's gap); a new turn starts at none."""
    for pre, post in steps("move[Kayn to bf1]"):
        assert post.moves[KAYN_UNIT] == pre.moves[KAYN_UNIT] + 1 == 1
    for pre, post in steps("move_to_combat[Kayn]"):
        assert post.moves[KAYN_UNIT] == min(2, pre.moves[KAYN_UNIT] + 1)
    for pre, post in steps("recall[Kayn]"):
        assert post.moves[KAYN_UNIT] == pre.moves[KAYN_UNIT]
    for _, post in steps("end_turn"):
        assert post.moves == (0, 0)
    assert any(s.moves[KAYN_UNIT] == 2 for s in explored().nodes)


def test_moved_twice_kayn_takes_no_damage_and_survives():
    """003:79, damage.undamageable: dealt the Raider's lethal 5, Kayn is
    destroyed after one move and untouched after two; the Raider's player may
    then also give him all of it (he is bound by no assignment rule)."""
    immune = mortal = 0
    for pre, post in steps("deal_damage"):
        if pre.assigned[KAYN_UNIT] < 4:
            continue
        if pre.moves[KAYN_UNIT] == 2:
            immune += 1
            assert post.zone[KAYN_UNIT] == BF1 and post.damage[KAYN_UNIT] == 0
        else:
            mortal += 1
            assert post.zone[KAYN_UNIT] == TRASH
    assert immune and mortal
    # After the combat the defender holds on and Kayn goes home (resolution.recall).
    assert any(pre.moves[KAYN_UNIT] == 2 and post.zone[KAYN_UNIT] == BASE for pre, post in steps("resolve_combat"))


def test_backends_agree_on_kayn():
    assert_backends_agree(explored())


UNITS = [
    (DamageUnit("A", 3), DamageUnit("B", 2, tank=True), DamageUnit("K", 4, immune=True)),
    (DamageUnit("A", 2, last=True), DamageUnit("B", 3, marked=1), DamageUnit("C", 1, tank=True, last=True)),
    (DamageUnit("K", 4, immune=True), DamageUnit("A", 0), DamageUnit("S", 1, immune=True)),
    (DamageUnit("A", 2, tank=True), DamageUnit("B", 2, tank=True), DamageUnit("C", 3)),
]


@pytest.mark.parametrize("units", UNITS, ids=["immune-beside-two", "marked-and-exclusive", "two-immune", "two-tanks"])
def test_the_models_legal_splits_are_z3s(units):
    """The splits the model's edges are built from (past every lethal amount,
    and with a unit that cannot be damaged) are exactly Z3's."""
    assert list(_legal_splits(units, 7)) == sorted(legal_assignments(units, 7, up_to=True))


def test_random_tables_hold_kayn():
    """The harness's random tables draw Kayn (at base, moved once or not), and
    the model's table read off such a game counts his moves."""
    adapter = BuiltinRiftboundAdapter()
    tables = []
    for seed in range(30):
        game = adapter.new_game(adapter.random_setup(random.Random(seed), 2))
        if any(u.card.ability == KAYN for u in game.units):
            tables.append(table_of(adapter.observe(game)))
    assert tables and all(t.counts_moves for t in tables)

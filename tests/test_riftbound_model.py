"""The Riftbound combat model: counts kept as data (perft), every edge taken
somewhere, backends agreeing, the multiplayer rules, and deliberately broken
models each caught by the property that cites the broken rule, with the same
shortest counterexample from explicit search and from bounded model checking."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Callable

import pytest
import yaml
import z3

from model import riftbound
from checkers import bmc, explicit, induction
from model.backend import CONCRETE, SYMBOLIC
from model.machine import Machine
from checkers.results import PROVED, VIOLATED
from model.riftbound.table import BASE, FIRST_BATTLEFIELD, HAND, NOBODY, Table, Unit
from properties import Invariant, StepProperty
from properties.riftbound import CATALOGUE
from tests.conftest import assert_counts_pinned, perft_case_id
from tests.test_backends import binding, bound, concrete_value

PROPERTIES = {p.name: p for p in CATALOGUE}
CASES = yaml.safe_load((Path(__file__).parent / "data" / "perft_riftbound.yaml").read_text())
#: One battlefield, one turn: P1's attack on P2's Caitlyn and everything a showdown allows.
ONE_FIGHT = {"battlefields": 1, "turns": 1}


def three_player_table(spells: int = 1) -> Table:
    """Three players, P2 with a second unit at base and P3 with one in hand:
    P1 attacks P2 at bf1 while P3, outside the combat, holds focus in turn."""
    units = (
        Unit("Raider", 0, 1),
        Unit("Keeper", 1, 1, start=FIRST_BATTLEFIELD),
        Unit("Warden", 1, 1),
        Unit("Runner", 2, 1),
        Unit("Scout", 2, 1, start=HAND),
    )
    return Table(3, 2, units, (1, NOBODY), spells, 1, 2)


def one_fight_table() -> Table:
    """One battlefield, one turn, four units: P1's Tank Guard and rallying
    Herald against P2's Caitlyn on bf1 and the immune, rallying Warded Sentry
    at base: enough for every mutant below, and small enough for BMC."""
    units = (
        Unit("Tank Guard", 0, 2, tank=True),
        Unit("Herald", 0, 1, rallying=True),
        Unit("Caitlyn", 1, 2, start=FIRST_BATTLEFIELD, last=True),
        Unit("Warded Sentry", 1, 1, immune=True, rallying=True),
    )
    return Table(2, 1, units, (1,), 1, 1, 2)


@cache
def one_fight() -> explicit.Exploration:
    return explicit.explore(riftbound.build(table=one_fight_table()))


@cache
def explored(bounds: tuple[tuple[str, int], ...]) -> explicit.Exploration:
    return explicit.explore(riftbound.build(**dict(bounds)))


@cache
def three_players() -> explicit.Exploration:
    return explicit.explore(riftbound.build(table=three_player_table()))


@pytest.mark.parametrize("case", CASES, ids=perft_case_id)
def test_counts_are_pinned(case):  # noqa: ANN001
    assert_counts_pinned(explored(tuple(case["bounds"].items())), case)


#: Edges the pinned bounds never take, and why that is a fact of the bounds,
#: not a dead rule: with one spell each, a unit that starts in hand is spent
#: getting to a battlefield and cannot then be recalled and moved in again.
NEEDS_TWO_SPELLS = {"move_to_combat[Recruit]", "move_to_combat[Caitlyn with Tank]"}


def test_every_edge_is_exercised_somewhere():
    """Across the pinned bounds every edge is taken, except the assignments no
    reachable combat asks for (listed, so a new one shows up)."""
    taken: set[str] = set()
    names: set[str] = set()
    for case in CASES:
        exploration = explored(tuple(case["bounds"].items()))
        names |= {e.name for e in exploration.machine.edges}
        taken |= {key for _, _, key in exploration.graph.edges(keys=True)}
    untaken = names - taken - NEEDS_TWO_SPELLS
    # Assignments legal for some board but not reached: e.g. P1 splitting 5
    # damage, which needs both rallying units buffed and in one combat.
    assert all(n.startswith("assign_damage[") for n in untaken), sorted(untaken)
    assert len(untaken) <= 40, sorted(untaken)


def test_backends_agree_on_reachable_states():
    """Every guard, update and property means the same over plain values and
    over Z3 terms, on a spread of reachable states of the one-fight model."""
    assert_backends_agree(explored(tuple(ONE_FIGHT.items())))


def assert_catalogue_holds(exploration: explicit.Exploration) -> None:
    """Every invariant of the catalogue on every reachable state where its
    premise holds, and every step property on every transition it applies to."""
    m = exploration.machine
    for s in exploration.nodes:
        for prop in (p for p in CATALOGUE if isinstance(p, Invariant)):
            if prop.premise is None or prop.premise(m, s, CONCRETE):
                assert prop.holds(m, s, CONCRETE), (prop.name, m.describe(s))
    steps = [p for p in CATALOGUE if isinstance(p, StepProperty)]
    for i, j, key in exploration.graph.edges(keys=True):
        pre, post = exploration.nodes[i], exploration.nodes[j]
        for prop in steps:
            if prop.applies(m.edge(key)):
                assert prop.holds(m, pre, post, CONCRETE), (prop.name, key, m.describe(pre))


def assert_backends_agree(exploration: explicit.Exploration) -> None:
    machine = exploration.machine
    states = exploration.nodes[:: max(1, exploration.states // 40)]
    # Each edge's terms built once over fresh constants, as the solvers build them.
    over = machine.symbolic_state("any")
    terms = {e.name: (e.guard(over, SYMBOLIC), e.update(over, SYMBOLIC)) for e in machine.edges}
    for state in states:
        lifted = machine.constant_state(state)
        model = binding(machine, over, state)
        for edge in machine.edges_leaving(state):
            guard, update = terms[edge.name]
            concrete = bool(edge.guard(state, CONCRETE))
            assert concrete == bound(guard, model), edge.name
            if concrete:
                plain = edge.update(state, CONCRETE)
                assert plain == {k: bound(v, model) for k, v in update.items()}, edge.name
        for prop in CATALOGUE:
            if isinstance(prop, Invariant):
                assert bool(prop.holds(machine, state, CONCRETE)) == concrete_value(
                    z3.BoolVal(True) == prop.holds(machine, lifted, SYMBOLIC)
                ), prop.name
            elif isinstance(prop, StepProperty):
                for _, post in machine.successors(state):
                    assert bool(prop.holds(machine, state, post, CONCRETE)) == concrete_value(
                        z3.BoolVal(True) == prop.holds(machine, lifted, machine.constant_state(post), SYMBOLIC)
                    ), prop.name


# -- the multiplayer rules ------------------------------------------------------------


def test_a_player_outside_the_combat_cannot_move_into_it():
    """combat.multiplayer.no-destination, combat.third-player-invalid: P3 holds
    focus in P1's combat against P2 but may not move a unit in; P2 may, while
    a unit of P2's is still there (once Keeper is recalled, P2 controls no
    permanent there, and with three players that bars P2 too)."""
    exploration = three_players()
    m = exploration.machine
    offered = Counter()
    for state in exploration.nodes:
        if m.location_of(state) == "showdown":
            for e, _ in m.successors(state):
                if e.name.startswith("move_to_combat["):
                    offered[e.name] += 1
    assert offered["move_to_combat[Warden]"] > 0
    assert offered["move_to_combat[Runner]"] == 0
    keeper = 1
    for state in exploration.nodes:
        if m.location_of(state) == "showdown" and state.zone[keeper] == BASE and state.focus == 1:
            assert all(not e.name.startswith("move_to_combat[") for e, _ in m.successors(state))


def test_a_unit_played_into_someone_elses_combat_lands_in_base():
    """combat.multiplayer.play-to-base: P3's Scout played to bf1 during P1's
    attack there goes to P3's base; played to the empty bf2 it stays there."""
    exploration = three_players()
    m = exploration.machine
    scout = 4
    landed = {}
    for pre, post, name in exploration.graph.edges(keys=True):
        before, after = exploration.nodes[pre], exploration.nodes[post]
        if name.startswith("play_unit[Scout to ") and before.combat_bf == 0:
            landed[name] = after.zone[scout]
    assert landed["play_unit[Scout to bf1]"] == BASE
    assert landed["play_unit[Scout to bf2]"] == FIRST_BATTLEFIELD + 1


def test_two_players_per_combat_is_proved_at_three_players():
    machine = riftbound.build(table=three_player_table(), any_length=True)
    (result,) = induction.check_all(machine, [PROPERTIES["two_players_per_combat"]], max_k=2)
    assert result.verdict == PROVED, result.note


# -- mutants ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Mutant:
    name: str
    rule: str
    caught_by: str
    mutate: Callable[[Machine], Machine]
    broken_edge: str
    table: Callable[[], Table] | None = None


def wrap_update(m: Machine, edge: str, extra: Callable) -> Machine:
    original = m.edge(edge).update
    return m.replace_edge(edge, update=lambda s, b: {**original(s, b), **extra(s, b)})


def immune_units_take_damage(m: Machine) -> Machine:
    immune = [u for u, unit in enumerate(m.table.units) if unit.immune]
    return wrap_update(
        m,
        "deal_damage",
        lambda s, b: {"damage": tuple(s.damage[u] + s.assigned[u] if u in immune else d for u, d in enumerate(
            m.edge("deal_damage").update(s, b)["damage"]))},
    )


def third_player_moves_in(m: Machine) -> Machine:
    return m.replace_edge(
        "move_to_combat[Runner]",
        guard=lambda s, b: b.And(b.select(s.spells, s.focus) > 0, s.focus == 2, s.zone[3] == BASE, s.combat_bf != NOBODY),
    )


MUTANTS = [
    Mutant(
        "attackers stay when a defender remains",
        "resolution.recall",
        "attackers_recalled_if_defenders_remain",
        lambda m: wrap_update(m, "resolve_combat", lambda s, b: {"zone": s.zone}),
        "resolve_combat",
    ),
    Mutant(
        "the defender gets focus when the showdown begins",
        "showdown.focus",
        "focus_with_attacker_when_showdown_opens",
        lambda m: wrap_update(m, "start_combat[bf1]", lambda s, b: {"focus": 1 - s.contested_by[0]}),
        "open_showdown",
    ),
    Mutant(
        "a unit that cannot be damaged is dealt damage",
        "damage.undamageable",
        "damage_dealt_as_assigned",
        immune_units_take_damage,
        "deal_damage",
    ),
    Mutant(
        "a combat forgets who scored this turn",
        "resolution.conquer",
        "conquest_once_per_battlefield_per_turn",
        lambda m: wrap_update(m, "resolve_combat", lambda s, b: {"scored": (False,) * len(s.scored)}),
        "resolve_combat",
    ),
    Mutant(
        "late arrivals never take a role",
        "showdown.late-roles",
        "roles_consistent",
        lambda m: m.replace_edge("showdown_cleanup", update=lambda s, b: {}),
        "showdown_cleanup",
    ),
    Mutant(
        "a third player moves a unit into the combat",
        "combat.third-player-invalid",
        "two_players_per_combat",
        third_player_moves_in,
        "move_to_combat[Runner]",
        table=three_player_table,
    ),
]


def _build(mutant: Mutant) -> Machine:
    return riftbound.build(table=(mutant.table or one_fight_table)())


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_is_caught_by_the_property_citing_the_broken_rule(mutant: Mutant) -> None:
    prop = PROPERTIES[mutant.caught_by]
    assert mutant.rule in prop.rules, f"{prop.name} does not cite {mutant.rule}"
    faithful = three_players() if mutant.table else one_fight()
    assert explicit.check(faithful, prop).verdict == "holds-to-depth"
    machine = mutant.mutate(_build(mutant))
    found = explicit.check(explicit.explore(machine), prop)
    assert found.verdict == VIOLATED
    transcript = found.counterexample
    assert transcript.steps[-1].edge.startswith(mutant.broken_edge), transcript.text()
    by_solver = bmc.check_all(machine, [prop], depth=found.depth)[0]
    assert by_solver.verdict == VIOLATED, by_solver.note
    assert by_solver.depth == found.depth, "explicit search and BMC disagree on the shortest counterexample"

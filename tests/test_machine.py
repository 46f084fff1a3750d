"""Building a machine: ill-formed models are rejected early, with the reason."""

from __future__ import annotations

import pytest

from model import wowtcg
from model.backend import CONCRETE
from model.machine import Edge, IntRange, ModelError, Stack
from model.sources import GAME_SOURCES
from model.wowtcg.variants import VARIANTS


@pytest.fixture(scope="module")
def machine():  # noqa: ANN201
    return wowtcg.build(players=2, chain_depth=2, turns=1)


def with_extra(machine, edge):  # noqa: ANN001, ANN201
    return machine.with_edges([*machine.edges, edge])


def test_two_edges_with_one_name_are_rejected(machine):  # noqa: ANN001
    with pytest.raises(ModelError, match="two edges are named 'end_turn'"):
        with_extra(machine, Edge("end_turn", "end_step", "ready_step_start", ("503.2a",)))


def test_an_edge_to_an_unknown_location_is_rejected(machine):  # noqa: ANN001
    with pytest.raises(ModelError, match="joins unknown location 'combat_step'"):
        with_extra(machine, Edge("propose", "action_phase", "combat_step", ("409.2b",)))


def test_an_edge_out_of_a_terminal_location_is_rejected(machine):  # noqa: ANN001
    with pytest.raises(ModelError, match="leaves terminal location 'game_over'"):
        with_extra(machine, Edge("rematch", "game_over", "ready_step_start", ("102.1",)))


def test_an_edge_citing_no_rule_is_rejected_unless_it_is_a_bound(machine):  # noqa: ANN001
    with pytest.raises(ModelError, match="cites no rule"):
        with_extra(machine, Edge("shortcut", "action_phase", "end_step", ()))
    bound = Edge("stop", "action_phase", "turn_limit", (), tags=frozenset({"bound"}))
    assert "stop" in with_extra(machine, bound).edge_index


def test_replacing_an_unknown_edge_names_the_edges_there_are(machine):  # noqa: ANN001
    with pytest.raises(ModelError, match="no edge named 'resolve'; edges are ready_cards"):
        machine.replace_edge("resolve", guard=lambda s, b: True)


def test_a_variant_leaves_the_original_machine_alone(machine):  # noqa: ANN001
    variant = machine.without_edge("end_turn")
    assert "end_turn" not in variant.edge_index and "end_turn" in machine.edge_index
    assert variant.graph.number_of_edges() == machine.graph.number_of_edges() - 1


def test_an_edge_that_is_not_enabled_cannot_be_applied(machine):  # noqa: ANN001
    start = next(machine.initial_states())
    with pytest.raises(ModelError, match="edge 'end_turn' is not enabled in location: ready_step_start"):
        machine.apply(start, machine.edge("end_turn"))


def test_a_stack_push_must_give_every_field():
    stack = Stack("chain", 2, (("controller", IntRange(0, 2), 2), ("kind", IntRange(0, 3), 0)))
    with pytest.raises(ModelError, match=r"must give \['controller', 'kind'\], got \['controller'\]"):
        stack.push(None, CONCRETE, controller=1)


def test_a_stack_pops_what_it_pushed_and_clears_the_slot():
    stack = Stack("chain", 2, (("controller", IntRange(0, 2), 2), ("kind", IntRange(0, 3), 0)))

    class S(dict):
        __getattr__ = dict.__getitem__

    empty = S(chain_len=0, chain_controller=(2, 2), chain_kind=(0, 0))
    pushed = S({**empty, **stack.push(empty, CONCRETE, controller=1, kind=3)})
    assert stack.entries(pushed) == [{"controller": 1, "kind": 3}]
    assert stack.top(pushed, CONCRETE, "kind") == 3
    popped = S({**pushed, **stack.pop(pushed, CONCRETE)})
    assert popped == empty


def test_edges_passed_over_by_their_shared_prefilter_are_never_enabled():
    """Concrete stepping skips the edges whose shared prefilter fails (an
    attacker's combat proposals, 601.1, 601.2a): on each reachable state of
    the first turn of a one-combat board, no edge whose prefilter fails has
    its guard hold, so the states and transitions found are those the guards
    alone give.  Some proposals are passed over where the turn player could
    propose but not with that attacker, and some are enabled."""
    from checkers import explicit

    machine = wowtcg.build(players=2, chain_depth=1, turns=1, hand=0, deck=1, hand_limit=1, allies=1, combats=1)
    shared = [e for e in machine.edges if e.prefilter is not None]
    assert len({e.prefilter for e in shared}) < len(shared), "an attacker's proposals share one prefilter"
    exploration = explicit.explore(machine)
    skipped = by_attacker = enabled = 0
    for state in exploration.nodes:
        may_propose = state.priority_holder == state.turn_player and state.chain_len == 0
        for e in machine.edges_leaving(state):
            if e.prefilter is not None and not e.prefilter(state, CONCRETE):
                skipped += 1
                by_attacker += e.has("proposes") and may_propose
                assert not e.guard(state, CONCRETE), (e.name, machine.describe(state))
            elif e.has("proposes") and e.guard(state, CONCRETE):
                enabled += 1
    assert skipped > by_attacker > 0 and enabled > 0


#: The models a prefilter must hold in: the model's reading, each source's,
#: and the variants that add edges of their own (602.3b's).
_PREFILTERED = [{}, *({"reading": r} for r in GAME_SOURCES["wowtcg"]),
                *({"variant": name} for name, v in VARIANTS.items() if v.patch is not None)]


@pytest.mark.parametrize("kind", _PREFILTERED, ids=lambda kind: next(iter(kind.values()), "model"))
def test_every_prefilter_is_implied_by_its_guard(kind):  # noqa: ANN001
    """A prefilter may only pass over states where the guard fails too: for
    each edge that has one (an attacker's combat proposals, 601.1, 601.2a; a
    proposal's resolution, 601.3; every resolution, a last pass on a chain
    with a link, 409.4; a resolving non-instant, 409.4a), Z3 finds no state,
    reachable or not, where the guard holds and the prefilter does not.
    Under each source's reading too, since a proposal's prefilter asks for a
    ready attacker of the turn player's party in play, which the guard
    leaves to the rulings; on a board with gear in hand (whose weapon and
    armor edges share the non-instant's prefilter) where one card may change
    sides (Mind Control, 401.3), with a reading's own proposals too (000's
    against one's own party, 001's declarations, 002's Chinese windows)."""
    import z3

    from model.backend import SYMBOLIC
    from model.wowtcg.board import every_option_board

    machine = wowtcg.build(players=2, chain_depth=2, turns=1, hand=1, deck=1, hand_limit=2, allies=1, combats=1,
                           board=every_option_board(2, 1), **kind)
    s = machine.symbolic_state("pre")
    filtered = [e for e in machine.edges if e.prefilter is not None]
    families = {e.name.split("[")[0].split("@")[0] for e in filtered}
    assert families >= {"propose_combat", "resolve_ally", "resolve_weapon", "resolve_armor", "resolve_instant", "resolve_top_link"}
    solver = z3.Solver()
    # One query for all of them: building the guards' terms is the cost, not solving.
    passed_over = {e.name: z3.And(e.guard(s, SYMBOLIC), z3.Not(e.prefilter(s, SYMBOLIC))) for e in filtered}
    solver.add(z3.Or(*passed_over.values()))
    if solver.check() == z3.sat:
        found = solver.model()
        wrong = [name for name, term in passed_over.items() if z3.is_true(found.eval(term, True))]
        pytest.fail(f"the guard holds where the prefilter does not: {wrong}")

"""The concrete and Z3 backends agree on every guard, update and property.

Guards and updates are written once; these tests make sure the one definition
means the same over plain values and over Z3 terms, on arbitrary in-domain
states (reachable or not): each edge's terms are built over fresh constants,
as the solvers use them, then evaluated in a Z3 model that gives those
constants a concrete state's values.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model import wowtcg
from model.backend import CONCRETE, SYMBOLIC
from model.machine import Machine
from properties import Invariant, StepProperty
from properties.wowtcg import CATALOGUE
from tests.conftest import states_of

MACHINES = {
    "2 players": wowtcg.build(players=2, chain_depth=2, turns=3, hand=1, deck=1, hand_limit=2),
    "3 players": wowtcg.build(players=3, chain_depth=3, turns=4, hand=1, deck=1, hand_limit=1, allies=1, combats=2),
    "4 players, no allies": wowtcg.build(players=4, chain_depth=2, turns=4, hand=1, deck=1, hand_limit=1, allies=0),
}


def concrete_value(term):  # noqa: ANN001
    if isinstance(term, (bool, int)):  # an update may set a plain constant on either backend
        return term
    value = z3.simplify(term)
    if z3.is_bool(value):
        assert z3.is_true(value) or z3.is_false(value), f"{term} did not simplify to a constant"
        return z3.is_true(value)
    assert z3.is_int_value(value), f"{term} did not simplify to a constant"
    return value.as_long()


def lowered(value):  # noqa: ANN001
    return tuple(lowered(v) for v in value) if isinstance(value, tuple) else concrete_value(value)


@cache
def symbolic_edges(name: str) -> tuple[Any, list[tuple[Any, dict, Any]]]:
    """Each edge's guard, update and actor over a state of fresh Z3 constants,
    as BMC and induction build them, built once per machine; an example binds
    the constants to its state's values."""
    machine = MACHINES[name]
    s = machine.symbolic_state("any")
    built = [(e.guard(s, SYMBOLIC), e.update(s, SYMBOLIC), e.actor(s, SYMBOLIC) if e.actor else None) for e in machine.edges]
    return s, built


def binding(machine: Machine, symbolic: Any, state: Any) -> z3.ModelRef:
    """A Z3 model giving the constants of ``symbolic`` the values of ``state``:
    evaluating each edge's terms in one model is ten times quicker than
    substituting the values into every term."""
    solver = z3.Solver()
    solver.add(*(c == v for c, v in zip(Machine.flatten((symbolic,)), Machine.flatten((machine.constant_state(state),)))))
    assert solver.check() == z3.sat
    return solver.model()


def bound(value, model):  # noqa: ANN001
    """``value`` (a term, a plain constant or a tuple of them) in the state ``model`` binds."""
    if isinstance(value, tuple):
        return tuple(bound(v, model) for v in value)
    return concrete_value(model.eval(value, model_completion=True) if z3.is_expr(value) else value)


@pytest.mark.parametrize("name", MACHINES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_guards_and_updates_agree(name, data):  # noqa: ANN001
    machine = MACHINES[name]
    state = data.draw(states_of(machine))
    symbolic, built = symbolic_edges(name)
    model = binding(machine, symbolic, state)
    for edge, (guard, update, actor) in zip(machine.edges, built):
        concrete = bool(edge.guard(state, CONCRETE))
        assert concrete == bound(guard, model), edge.name
        if not concrete:
            continue
        plain = edge.update(state, CONCRETE)
        assert set(plain) == set(update), edge.name
        for var, value in plain.items():
            assert value == bound(update[var], model), f"{edge.name} updates {var} differently"
        if edge.actor is not None:
            assert edge.actor(state, CONCRETE) == bound(actor, model)


@pytest.mark.parametrize("name", MACHINES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_properties_agree(name, data):  # noqa: ANN001
    machine = MACHINES[name]
    pre = data.draw(states_of(machine))
    post = data.draw(states_of(machine))
    lifted_pre, lifted_post = machine.constant_state(pre), machine.constant_state(post)
    for prop in CATALOGUE:
        if isinstance(prop, Invariant):
            assert bool(prop.holds(machine, pre, CONCRETE)) == concrete_value(
                z3.BoolVal(True) == prop.holds(machine, lifted_pre, SYMBOLIC)
            ), prop.name
        elif isinstance(prop, StepProperty):
            assert bool(prop.holds(machine, pre, post, CONCRETE)) == concrete_value(
                z3.BoolVal(True) == prop.holds(machine, lifted_pre, lifted_post, SYMBOLIC)
            ), prop.name


def test_symbolic_transition_matches_concrete_successors(small_machine, small_exploration):  # noqa: ANN001
    """On reachable states, the Z3 transition relation admits exactly the concrete successors."""
    m = small_machine
    pre_sym, post_sym, selector = m.symbolic_state("pre"), m.symbolic_state("post"), z3.Int("edge")
    relation = m.transition(pre_sym, post_sym, selector)
    sample = small_exploration.nodes[:: max(1, small_exploration.states // 40)]
    for state in sample:
        solver = z3.Solver()
        solver.add(relation, *pin(pre_sym, state))
        expected = {(e.name, post) for e, post in m.successors(state)}
        found = set()
        while solver.check() == z3.sat:
            model = solver.model()
            edge = m.edges[model.eval(selector).as_long()]
            post = m.State(*(read(model, t) for t in post_sym))
            found.add((edge.name, post))
            solver.add(z3.Not(z3.And(selector == m.edge_index[edge.name], *pin(post_sym, post))))
        assert found == expected, m.describe(state)


def pin(symbolic, state):  # noqa: ANN001
    out = []
    for term, value in zip(symbolic, state):
        if isinstance(value, tuple):
            out.extend(t == v for t, v in zip(term, value))
        else:
            out.append(term == value)
    return out


def read(model, term):  # noqa: ANN001
    if isinstance(term, tuple):
        return tuple(read(model, t) for t in term)
    value = model.eval(term, model_completion=True)
    return z3.is_true(value) if z3.is_bool(value) else value.as_long()

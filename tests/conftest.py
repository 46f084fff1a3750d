"""Shared fixtures: small WoW machines, explored once per session; the perft check every game's counts use."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import strategies as st

from model import explicit, wowtcg
from model.machine import Machine

#: The turn and priority model without combat (no allies, no combats), at small
#: bounds that keep every reachable state and edge but explore in well under a second.
SMALL = {"players": 2, "chain_depth": 2, "turns": 2, "hand": 1, "deck": 1, "hand_limit": 2, "allies": 0, "combats": 0}
#: Combat with the whole default board, one turn each, no cards in hand (P2 draws one).
COMBAT = {"players": 2, "chain_depth": 1, "turns": 2, "hand": 0, "deck": 1, "hand_limit": 2, "allies": 2, "combats": 1}


@pytest.fixture(scope="session")
def small_machine() -> Machine:
    return wowtcg.build(**SMALL)


@pytest.fixture(scope="session")
def small_exploration(small_machine: Machine) -> explicit.Exploration:
    return explicit.explore(small_machine)


def states_of(machine: Machine) -> st.SearchStrategy:
    """Any state whose variables lie in their declared domains (reachable or not)."""

    def values(var):  # noqa: ANN001
        one = st.booleans() if var.domain.is_bool else st.integers(var.domain.lo, var.domain.hi)
        return one if var.length is None else st.tuples(*([one] * var.length))

    return st.builds(
        machine.State,
        st.integers(0, len(machine.location_names) - 1),
        *(values(v) for v in machine.variables),
    )


def perft_case_id(case: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in case["bounds"].items())


def assert_counts_pinned(exploration: explicit.Exploration, case: dict[str, Any]) -> None:
    """Reachable states, transitions, BFS levels and terminal states by location
    are those kept as data for these bounds (our perft)."""
    machine = exploration.machine
    terminal = Counter(machine.location_of(s) for s in exploration.nodes if machine.is_terminal(s))
    assert (exploration.states, exploration.transitions, exploration.levels) == (
        case["states"],
        case["transitions"],
        case["levels"],
    )
    assert dict(terminal) == case["terminal"]

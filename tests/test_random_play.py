"""Random play to the end at bounds too large to explore exhaustively.

Hypothesis picks each step among the enabled edges; after every step the whole
catalogue is checked on the concrete backend, and every game must end at a
terminal location (game over or the turn bound) without getting stuck.  A
failure shrinks to a short choice sequence and prints the transcript.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model import wowtcg
from model.backend import CONCRETE
from checkers.results import Transcript
from properties import Invariant, StepProperty
from properties.wowtcg import CATALOGUE

LARGE = [
    {"players": 4, "chain_depth": 6, "turns": 8, "hand": 2, "deck": 3, "hand_limit": 3, "combats": 3},
    {"players": 3, "chain_depth": 4, "turns": 12, "hand": 3, "deck": 4, "hand_limit": 7, "resources": 3, "combats": 2},
]
MAX_STEPS = 2_000


@pytest.mark.parametrize("bounds", LARGE, ids=lambda b: f"{b['players']}p-chain{b['chain_depth']}-turns{b['turns']}")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_random_games_end_and_break_no_property(bounds, data):  # noqa: ANN001
    machine = wowtcg.build(**bounds)
    starts = list(machine.initial_states())
    state = data.draw(st.sampled_from(starts), label="initial state")
    start, path = state, []
    for _ in range(MAX_STEPS):
        for prop in CATALOGUE:
            if isinstance(prop, Invariant) and (prop.premise is None or prop.premise(machine, state, CONCRETE)):
                assert prop.holds(machine, state, CONCRETE), Transcript.from_path(machine, start, path, prop.name).text()
        options = list(machine.successors(state))
        if not options:
            break
        edge, post = data.draw(st.sampled_from(options), label="step")
        path.append((edge, post))
        for prop in CATALOGUE:
            if isinstance(prop, StepProperty) and prop.applies(edge):
                assert prop.holds(machine, state, post, CONCRETE), Transcript.from_path(
                    machine, start, path, prop.name
                ).text()
        state = post
    assert machine.is_terminal(state), "stuck or too long:\n" + Transcript.from_path(machine, start, path, "deadlock").text()

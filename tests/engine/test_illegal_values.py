"""Every engine refuses, with its own IllegalAction, any value that is not a
legal action: a value that is no action at all, and every legal action with
one field changed to something the state does not offer (a player or card
that is not there, a field its kind does not take, a value of the wrong
type). The state is left as it was."""

from __future__ import annotations

import dataclasses
import random

import pytest

import engine.hota as hota
import engine.riftbound as riftbound
import engine.wowtcg as wowtcg
from engine.hota.game import HotaGame

GAMES = {
    "wowtcg": (lambda: wowtcg.WowTcgGame(players=2), wowtcg.IllegalAction, lambda g, seed: g.new_initial_state(seed)),
    "riftbound": (lambda: riftbound.RiftboundGame(), riftbound.IllegalAction, lambda g, seed: g.new_initial_state(seed=seed)),
    "hota": (lambda: HotaGame(), hota.IllegalAction, lambda g, seed: g.new_initial_state(seed=seed)),
}
JUNK = (None, -1, 999, "zz", (1, 2), 1.5, True)
NOT_ACTIONS = (None, "pass", 5, 3.5, (), object())


def states_along_random_play(game: str):
    make, _, start = GAMES[game]
    g = make()
    for seed in range(2):
        rng = random.Random(seed)
        st = start(g, seed)
        for step in range(150):
            if st.is_terminal():
                break
            if step % 15 == 0:
                yield st
            st.apply_action(rng.choice(st.legal_actions()))


def changed_actions(legal: list) -> list:
    out = []
    for a in legal:
        for f in dataclasses.fields(a):
            if not f.compare:
                continue  # a label is for people: it never makes two actions differ
            for value in JUNK:
                b = dataclasses.replace(a, **{f.name: value})
                if b not in legal:
                    out.append(b)
    return out


@pytest.mark.parametrize("game", list(GAMES))
def test_anything_that_is_not_a_legal_action_is_refused_and_changes_nothing(game):
    refused_as = GAMES[game][1]
    tried = 0
    for st in states_along_random_play(game):
        before = str(st)
        for value in (*NOT_ACTIONS, *changed_actions(st.legal_actions())):
            copy = st.clone()
            with pytest.raises(refused_as):
                copy.apply_action(value)
            assert str(copy) == before, value
            tried += 1
    assert tried > 100

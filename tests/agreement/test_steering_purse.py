"""Steering that pays for what it searches (agreement/table_checker.py): a game's
searches expand new model states only from its purse, refilled by each checked
step, and a search that comes to the end of every way rules its targets out
for the rest of the game."""

from __future__ import annotations

import random

from agreement.hota.builtin import BuiltinHotaAdapter
from agreement.hota.checker import HotaChecker

#: A family every table has, far from a game's first choice: the way to it
#: passes the mulligans and both players' passes.
FAR = frozenset({"pass_ends_turn"})


def _game(seed: int = 5):
    adapter = BuiltinHotaAdapter()
    return adapter, adapter.new_game(adapter.random_setup(random.Random(seed), 2))


def _offered(adapter, state):
    return [adapter.observe_action(state, a) for a in adapter.legal_actions(state)]


def test_a_search_spends_only_the_purse_and_a_checked_step_refills_it():
    adapter, state = _game()
    checker = HotaChecker()
    checker.PURSE, checker.FRESH = 12, 100
    first = adapter.observe(state)
    checker.begin(first)
    checker.steer(first, _offered(adapter, state), FAR)
    spent = len(checker._expanded)
    assert spent >= 12 and checker._purse <= 0, (spent, checker._purse)
    # An empty purse: the same search again walks what is known and expands nothing new.
    assert checker.steer(first, _offered(adapter, state), FAR) == []
    assert len(checker._expanded) == spent
    # A checked step refills it by FRESH, up to PURSE; what the check expands is not charged.
    left = checker._purse
    action = adapter.legal_actions(state)[0]
    choice = adapter.observe_action(state, action)
    offered = _offered(adapter, state)
    adapter.apply_action(state, action)
    assert checker.step(first, choice, adapter.observe(state), offered) == []
    assert checker._purse == min(checker.PURSE, left + checker.FRESH) == 12
    before = len(checker._expanded)
    checker.steer(adapter.observe(state), _offered(adapter, state), FAR)
    assert 0 < len(checker._expanded) - before


def test_targets_no_way_reaches_are_not_searched_for_again():
    adapter, state = _game()
    checker = HotaChecker()
    checker.begin(adapter.observe(state))
    rng = random.Random(1)
    while not adapter.is_terminal(state):
        actions = adapter.legal_actions(state)
        adapter.apply_action(state, actions[rng.randrange(len(actions))])
    over = adapter.observe(state)
    # From the end of the game no way goes on: the search proves the targets out of reach.
    assert checker.steer(over, [], FAR) == []
    assert checker._beyond == FAR
    searched = len(checker._expanded)
    assert checker.steer(over, [], FAR) == [] and len(checker._expanded) == searched
    # A new game searches for them again.
    adapter, state = _game()
    checker.begin(adapter.observe(state))
    assert checker._beyond == frozenset()

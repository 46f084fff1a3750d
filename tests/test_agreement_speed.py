"""What the agreement harness keeps so as to run fast is what it would
compute: the reachable edge families of every game (kept as data, since
exploring a model takes tens of seconds), the model's steps from a state
(kept between steering's searches and the step checks), the WoW views of a
board, and the rest of a way steering found (kept for the next steps)."""

from __future__ import annotations

import copy
import gc
import random
from collections import deque

import pytest

from agreement import reachable
from agreement.harness import _collections_between_games
from agreement.hota.checker import HotaChecker
from agreement.model_steps import successors
from agreement.riftbound.checker import RiftboundChecker
from agreement.wowtcg import abstraction as ab
from agreement.wowtcg.builtin import BuiltinWowAdapter
from agreement.wowtcg.checker import WowChecker, shortest_way
from model.wowtcg import build


@pytest.mark.parametrize("checker", [RiftboundChecker, HotaChecker], ids=["riftbound", "hota"])
def test_reachable_families_kept_as_data_match_the_model(checker):
    c = checker()
    assert c.reachable_families() == c.explore_reachable_families(), (
        f"{reachable.kept_file(c.game)} is stale: regenerate it from {checker.__name__}().explore_reachable_families()"
    )


@pytest.mark.parametrize("machine", [build, RiftboundChecker.reference_machine, HotaChecker.reference_machine], ids=["wowtcg", "riftbound", "hota"])
def test_kept_steps_are_the_machines_own_edge_for_edge_and_value_for_value(machine):
    m = machine()
    queue, seen = deque(m.initial_states()), set()
    while queue and len(seen) < 300:
        s = queue.popleft()
        if s in seen:
            continue
        seen.add(s)
        kept, own = successors(m, s), tuple(m.successors(s))
        assert kept == own, m.describe(s)
        # Equal and of the same types (a bool stays a bool): the transcripts print them.
        assert [[type(x) for x in post] for _, post in kept] == [[type(x) for x in post] for _, post in own]
        assert all(type(post) is m.State for _, post in kept)
        queue.extend(post for _, post in kept)
    assert len(seen) == 300


def test_each_machine_keeps_its_own_steps():
    m = build()
    s = next(m.initial_states())
    first, _ = successors(m, s)[0]
    without = m.without_edge(first.name)
    # An equal state of another machine (a variant) is not read from the first one's steps.
    assert successors(without, s) == tuple(without.successors(s))
    assert first not in [e for e, _ in successors(without, s)]


def test_the_rest_of_a_shortest_way_is_a_shortest_way_from_where_it_has_come():
    m = build()
    (_, start), *_ = ab.automatic_paths(m, next(m.initial_states()))
    targets = frozenset({"combat_damage"})
    way = shortest_way(m, start, targets)
    assert len(way) >= 5
    for i, (point, plan) in enumerate(way):
        # Kept for the step that reaches this point: as long as a search from here.
        assert len(shortest_way(m, point, targets)) == len(way) - i
        if i + 1 < len(way):
            ends = [end for e, post in ab.choice_edges(m, point) if e.name == plan.lead for _, end in ab.automatic_paths(m, post)]
            assert way[i + 1][0] in ends, f"{plan.lead} does not lead to the next point of the way"


def test_a_kept_view_is_the_board_read_again_and_any_change_of_the_board_is_another():
    adapter = BuiltinWowAdapter()
    state = adapter.new_game(adapter.random_setup(random.Random(5), 2))
    obs = adapter.observe(state)
    binding = ab.Binding(2)
    binding.seat(obs)
    v = ab.view(binding, [obs])
    assert ab.view(binding, [copy.deepcopy(obs)]) is v
    changed = copy.deepcopy(obs)
    changed["players"][1]["weapons"][0]["atk"] += 1
    other = ab.view(binding, [changed])
    assert other.machine is not v.machine and other.machine.table.board != v.machine.table.board


def test_a_steps_end_kept_for_the_next_step_is_the_state_read_again():
    adapter, checker = BuiltinWowAdapter(), WowChecker()
    rng = random.Random(3)
    state = adapter.new_game(adapter.random_setup(rng, 2))
    pre = adapter.observe(state)
    checker.begin(pre)
    kept = 0
    for _ in range(40):
        actions = adapter.legal_actions(state)
        offered = [adapter.observe_action(state, a) for a in actions]
        chosen = rng.randrange(len(actions))
        adapter.apply_action(state, actions[chosen])
        while not (adapter.is_terminal(state) or checker.waits_for_choice(adapter.observe(state))):
            adapter.apply_action(state, adapter.legal_actions(state)[0])
        post = adapter.observe(state)
        assert checker.step(pre, offered[chosen], post, offered) == []
        v, s, _ = checker.model_view(post)
        kept += checker._reached is not None and checker._reached[0] is post and checker._reached[1] is v
        # The kept state (the unobserved variables carried in) is the one read off the observation.
        assert s == ab.model_state(v, post, checker.carried)
        if adapter.is_terminal(state):
            break
        pre = post
    assert kept >= 20


def _changed(value):
    """Another value of a variable: its first slot changed, for a tuple."""
    if isinstance(value, tuple):
        return (_changed(value[0]), *value[1:]) if value else value
    return (not value) if isinstance(value, bool) else value + 1


def test_differences_read_at_once_are_those_read_variable_by_variable():
    adapter, checker = BuiltinWowAdapter(), WowChecker()
    rng = random.Random(4)
    state = adapter.new_game(adapter.random_setup(rng, 2))
    checker.begin(adapter.observe(state))
    compared = 0
    for _ in range(12):
        v, s, _ = checker.model_view(adapter.observe(state))
        for e, first in ab.choice_edges(v.machine, s):
            for ignore in (frozenset(), ab.frame(e, s, v.machine)):
                for _, end in ab.automatic_paths(v.machine, first):
                    # Every model end against the state read off the engine, and
                    # against the end itself with one variable changed at a time.
                    for observed in [s, *(end._replace(**{name: _changed(getattr(end, name))}) for name in end._fields)]:
                        assert ab.differences(v, end, observed, ignore) == ab.field_differences(v, end, observed, ignore)
                        compared += 1
        actions = adapter.legal_actions(state)
        adapter.apply_action(state, actions[rng.randrange(len(actions))])
        while not (adapter.is_terminal(state) or checker.waits_for_choice(adapter.observe(state))):
            adapter.apply_action(state, adapter.legal_actions(state)[0])
        if adapter.is_terminal(state):
            break
    assert compared > 500


def test_the_collector_is_off_during_the_games_and_as_it_was_after_them_even_when_interrupted():
    assert gc.isenabled()
    with _collections_between_games():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(KeyboardInterrupt), _collections_between_games():
        raise KeyboardInterrupt
    assert gc.isenabled()
    gc.disable()
    try:
        with _collections_between_games():
            pass
        # A caller who had it off keeps it off.
        assert not gc.isenabled()
    finally:
        gc.enable()

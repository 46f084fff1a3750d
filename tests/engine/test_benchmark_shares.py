"""`python -m benchmarks.engine`'s table of where the time goes: every step
of a game is counted once, under the kind of step it was before it was
applied, and the parts add up to the run."""

from __future__ import annotations

import random

from benchmarks import engine as bench
from engine.wowtcg import WowTcgGame


def test_each_step_is_counted_once_under_its_kind_and_the_parts_add_up():
    spent, total = bench.shares(1)
    st = WowTcgGame(players=2).new_initial_state(0)
    rng = random.Random(0)
    kinds: dict[str, int] = {}
    while not st.is_terminal():
        action = rng.choice(st.legal_actions())
        kind = bench.step_kind(st, action)
        kinds[kind] = kinds.get(kind, 0) + 1
        st.apply_action(action)
    steps = sum(kinds.values())
    assert {kind: n for kind, (n, _) in spent.items() if kind not in (bench.SETTING_UP, bench.OFFERING, bench.DRIVER)} == kinds
    assert spent[bench.OFFERING][0] == spent[bench.DRIVER][0] == steps and spent[bench.SETTING_UP][0] == 1
    assert all(seconds >= 0 for kind, (_, seconds) in spent.items() if kind != bench.DRIVER)
    assert abs(sum(seconds for _, seconds in spent.values()) - total) < 1e-9


def test_a_pass_is_told_apart_by_what_it_sets_off():
    st = WowTcgGame(players=2).new_initial_state(0)
    rng = random.Random(0)
    seen = set()
    while not st.is_terminal():
        action = rng.choice(st.legal_actions())
        kind = bench.step_kind(st, action)
        if action.kind == "pass" and st.decision is None:
            last = st.passes + 1 == st.in_game_count()
            assert ("last pass" in kind) == last
            assert ("link resolves" in kind) == (last and bool(st.chain))
            seen.add(kind)
        st.apply_action(action)
    assert "a pass that hands priority on (409.1)" in seen
    assert "the last pass of a round: the top link resolves (409.4a)" in seen
    assert "the last pass of a round: the defend window closes (409.4b)" in seen

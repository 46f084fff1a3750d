"""Steering toward the instant resolutions the model tracks (601.3, 602.4).

The model picks an instant's effect as the link resolves, so every play of an
instant is one edge; the engine decides by the target.  The checker must aim
a steered play at the combatant the target resolution acts on, and credit a
resolution to the tracked edge that explains it rather than to an untracked
one whose frame merely allows it.
"""

from __future__ import annotations

import pytest

from agreement.wowtcg.builtin import ITEM, observe, observe_action
from agreement import steering
from agreement.wowtcg import checker as checker_module
from agreement.wowtcg.checker import WowChecker
from agreement.wowtcg.observation import ObservationError, check_action
from engine.wowtcg.arrange import arrange

KIT = ["Viking Warhammer", "Hunting Longbow", ITEM]


def _proposal_answered_by_p2():
    """P1's Ashen Recruit proposes to attack P2's hero; P2 holds Hamstring (601.1, 601.3)."""
    st = arrange(
        ["Bragvi Stormstein", "Baxxel Geartooth"],
        play={0: KIT + ["Ashen Recruit"], 1: KIT + ["Darnassian Sentinel"]},
        hands={1: ["Hamstring"]},
        resources={0: 1, 1: 2},
    )
    checker = WowChecker()
    checker.begin(observe(st))
    recruit = next(o for o in st.cards_in_play() if o.name == "Ashen Recruit")
    propose = next(a for a in st.legal_actions() if a.kind == "propose" and a.subject == recruit.id and a.targets == (st.players[1].hero,))
    _step(checker, st, propose)
    _step(checker, st, next(a for a in st.legal_actions() if a.kind == "pass"))
    assert st.priority == 1
    return st, checker, recruit


def _step(checker: WowChecker, st, action) -> list:
    pre = observe(st)
    offered = [observe_action(st, a) for a in st.legal_actions()]
    choice = observe_action(st, action)
    st.apply_action(action)
    return checker.step(pre, choice, observe(st), offered)


def test_a_steered_play_is_aimed_at_the_proposed_attacker():
    st, checker, recruit = _proposal_answered_by_p2()
    obs = observe(st)
    actions = st.legal_actions()
    offered = [observe_action(st, a) for a in actions]
    plays = [i for i, a in enumerate(offered) if a["kind"] == "play"]
    assert len(plays) >= 3, "Hamstring should be playable on several characters"
    chosen = checker.steer(obs, offered, frozenset({"resolve_instant[exhaust proposed attacker]@action_phase"}))
    assert chosen and all(offered[i]["targets"] == [recruit.id] for i in chosen)


def test_the_tracked_resolution_is_credited_not_the_untracked_one():
    st, checker, recruit = _proposal_answered_by_p2()
    hamstring = next(a for a in st.legal_actions() if a.kind == "play" and a.targets == (recruit.id,))
    assert _step(checker, st, hamstring) == []
    while st.chain and st.chain[-1].kind == "card":
        assert _step(checker, st, next(a for a in st.legal_actions() if a.kind == "pass")) == []
    assert st.objs[recruit.id].exhausted
    assert checker.edges["resolve_instant[exhaust proposed attacker]@action_phase"] == 1
    assert checker.edges["resolve_top_link@action_phase"] == 0


def test_play_targets_in_an_action_observation_are_validated():
    check_action({"kind": "play", "player": 0, "card_kind": "instant", "targets": [4, "ally-7"]})
    with pytest.raises(ObservationError, match=r"action\.targets\[1\]"):
        check_action({"kind": "play", "player": 0, "card_kind": "instant", "targets": [4, True]})
    with pytest.raises(ObservationError, match=r"action\.targets"):
        check_action({"kind": "play", "player": 0, "card_kind": "instant", "targets": 4})


def test_after_a_search_that_finds_no_way_the_next_waits_quiet_steps(monkeypatch):
    st, checker, _ = _proposal_answered_by_p2()
    searches = []
    search = checker_module.shortest_way
    monkeypatch.setattr(checker_module, "shortest_way", lambda *args: searches.append(args[1]) or search(*args))
    nowhere = frozenset({"no such family"})

    def steer():
        obs = observe(st)
        return checker.steer(obs, [observe_action(st, a) for a in st.legal_actions()], nowhere)

    assert steer() == [] and len(searches) == 1
    for checked in range(1, steering.QUIET + 1):
        assert _step(checker, st, st.legal_actions()[0]) == []
        assert steer() == []
        assert len(searches) == (1 if checked < steering.QUIET else 2), f"after {checked} steps"


def test_searches_in_a_row_that_find_no_way_double_the_wait(monkeypatch):
    st, checker, _ = _proposal_answered_by_p2()
    searched_at = []
    search = checker_module.shortest_way
    monkeypatch.setattr(checker_module, "shortest_way", lambda *args: searched_at.append(checker.pace.checked) or search(*args))
    nowhere = frozenset({"no such family"})
    for _ in range(steering.QUIET * 12):
        assert checker.steer(observe(st), [observe_action(st, a) for a in st.legal_actions()], nowhere) == []
        assert _step(checker, st, st.legal_actions()[0]) == []
    waits = [b - a for a, b in zip(searched_at, searched_at[1:])]
    most = steering.QUIET << steering.MOST_DOUBLINGS
    assert waits[:3] == [steering.QUIET, 2 * steering.QUIET, min(4 * steering.QUIET, most)]
    assert waits[3] == most


def _follow_the_way(checker: WowChecker, st, targets: frozenset[str], aimed: bool) -> None:
    """Take the steered choice at each point of the way to ``targets``; the
    instant's play aimed at the proposed attacker, or at another character."""
    while True:
        actions = st.legal_actions()
        offered = [observe_action(st, a) for a in actions]
        chosen = checker.steer(observe(st), offered, targets)
        if not chosen:
            return
        plays = [i for i, a in enumerate(offered) if a["kind"] == "play"]
        if plays and not aimed:
            chosen = [i for i in plays if i not in chosen]
        assert _step(checker, st, actions[chosen[0]]) == []


def test_a_target_whose_way_the_engine_does_not_take_is_left_out_for_the_game(monkeypatch):
    goal = "resolve_instant[exhaust proposed attacker]@action_phase"
    targets = frozenset({goal})
    # Hamstring aimed at another character: the model's way is the same
    # (links carry no targets there), the engine's effect is not the goal's.
    st, checker, _ = _proposal_answered_by_p2()
    _follow_the_way(checker, st, targets, aimed=False)
    assert checker.edges[goal] == 0 and checker._unfollowed == targets
    searches = []
    search = checker_module.shortest_way
    monkeypatch.setattr(checker_module, "shortest_way", lambda *args: searches.append(args[1]) or search(*args))
    assert checker.steer(observe(st), [observe_action(st, a) for a in st.legal_actions()], targets) == []
    assert searches == []
    # Aimed at the proposed attacker, the way reaches its goal and the target stays.
    st, checker, _ = _proposal_answered_by_p2()
    _follow_the_way(checker, st, targets, aimed=True)
    assert checker.edges[goal] == 1 and checker._unfollowed == frozenset()


def test_a_search_that_finds_no_way_expands_no_point_once_its_budget_is_seen(monkeypatch):
    """Table games: the budget holds inside a level too (a search from a
    shuffle, HotA's, spent most of its cost on the level it ended in)."""
    import random

    from agreement.hota.builtin import BuiltinHotaAdapter
    from agreement.hota.checker import HotaChecker

    adapter, checker = BuiltinHotaAdapter(), HotaChecker()
    state = adapter.new_game(adapter.random_setup(random.Random(0), 2))
    checker.begin(adapter.observe(state))
    m = checker.machine
    start = checker.model_state(m, adapter.observe(state))
    found, at_expansion = {start}, []
    ends, expand = checker.automatic_ends, checker.choice_edges

    def counted_ends(m, s, *args, **kwargs):
        out = ends(m, s, *args, **kwargs)
        found.update(end for _, end in out)
        return out

    def counted_expand(m, s):
        at_expansion.append(len(found))
        return expand(m, s)

    monkeypatch.setattr(checker, "automatic_ends", counted_ends)
    monkeypatch.setattr(checker, "choice_edges", counted_expand)
    budget = 40
    assert checker._search(m, start, frozenset({"no such family"}), budget) == (set(), [])
    assert len(at_expansion) > 1 and len(found) >= budget
    assert all(seen < budget for seen in at_expansion), at_expansion

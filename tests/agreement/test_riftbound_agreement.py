"""The Riftbound reference engine against the model of each game's own table:
the built-in engine agrees at two and three players and exercises every edge
family; engines with a seeded rules bug are caught, naming the broken rule."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agreement.harness import conform
from agreement.riftbound.builtin import BuiltinRiftboundAdapter
from agreement.riftbound.checker import RiftboundChecker, edge_name, machine_for, model_state, table_of
from engine.riftbound import legal_assignments as engine_assignments
from engine.riftbound.state import RiftboundState
from model.riftbound.damage import DamageUnit
from model.riftbound.damage import legal_assignments as model_assignments


def run(examples: int, players: tuple[int, ...] = (2,)):
    return conform(BuiltinRiftboundAdapter(), RiftboundChecker(), examples=examples, players=players, shrink=False)


def test_builtin_engine_agrees_with_the_model_at_two_players():
    report = run(12)
    assert report.ok, f"{[str(f) for f in report.findings]}\n{report.transcript}"
    assert report.steps > 100 and report.games_finished >= 1
    assert report.offered_tried > 0 and report.forbidden_tried > 0
    # Steering reaches every family the default model reaches.
    assert set(report.edges) >= set(report.reachable), sorted(set(report.reachable) - set(report.edges))
    # Random tables hold reactions and the cards' triggers, and games use them.
    assert report.edges["reaction"] > 0 and report.edges["pass_on_chain"] > 0, report.edges
    assert report.rules["assumed:here-trigger"] > 0 and report.rules["assumed:afar-trigger"] > 0, report.rules
    # Some players get a spell for the action phase, and its chain waits for reactions.
    assert report.edges["action_spell"] > 0 and report.edges["resolve_action_link"] > 0, report.edges


def test_builtin_engine_agrees_with_the_model_at_three_players():
    """combat.multiplayer.*: placement around combats another pair of players fights."""
    report = run(8, players=(3,))
    assert report.ok, f"{[str(f) for f in report.findings]}\n{report.transcript}"
    assert report.steps > 50 and report.edges["start_combat"] > 0 and report.edges["assign_damage"] > 0
    assert report.edges["reaction"] > 0 and report.rules["assumed:afar-trigger"] > 0, (report.edges, report.rules)


def test_the_models_table_is_the_engines():
    adapter = BuiltinRiftboundAdapter()
    state = adapter.new_game(adapter.random_setup(random.Random(3), 2))
    obs = adapter.observe(state)
    m = machine_for(table_of(obs))
    s = model_state(m, obs)
    assert [u.name for u in m.table.units] == [u["id"] for u in obs["units"]]
    # Every action the engine offers at the start names an edge the model enables.
    enabled = {e.name for e, _ in m.successors(s)}
    for a in state.legal_actions():
        assert edge_name(m, adapter.observe_action(state, a), m.location_of(s)) in enabled


def _total_counting_stunned(self, player):  # noqa: ANN001
    role = "attacker" if player == self.combat.attacker else "defender"
    return sum(max(0, self.might(u)) for u in self.in_combat(role))


def _no_recall(self):  # noqa: ANN001
    for u in self.in_combat("attacker"):
        u.role = None  # attackers no longer count as attackers, so none is recalled
    _RESOLVE(self)


_RESOLVE = RiftboundState._resolve


@pytest.mark.parametrize(
    "name, replacement, rule",
    [
        ("_total", _total_counting_stunned, "damage.totals"),
        ("_no_recall", _no_recall, "resolution.recall"),
    ],
    ids=["stunned units deal damage", "attackers stay after a defender survives"],
)
def test_a_seeded_rules_bug_is_caught_with_its_rule(monkeypatch, name, replacement, rule):
    monkeypatch.setattr(RiftboundState, "_resolve" if name == "_no_recall" else name, replacement)
    report = run(8)
    assert not report.ok
    assert any(rule in f.rules for f in report.findings), [str(f) for f in report.findings]
    assert report.transcript and "script:" in report.transcript


# -- damage assignment: the engine's search against the model's Z3 enumeration ---------------

configurations = st.lists(
    st.fixed_dictionaries(
        {"might": st.integers(0, 4), "tank": st.booleans(), "last": st.booleans(), "immune": st.booleans()}
    ),
    min_size=1,
    max_size=4,
)


@settings(max_examples=80, deadline=None)
@given(units=configurations, total=st.integers(0, 8))
def test_engine_and_model_find_the_same_legal_assignments(units, total):
    """damage.*: the engine's imperative search and the model's Z3 enumeration
    agree on every legal assignment of random configurations."""
    engine = sorted(tuple(a) for a in engine_assignments([{**u, "damage": 0} for u in units], total))
    model = model_assignments([DamageUnit(f"u{i}", **u) for i, u in enumerate(units)], total)
    assert engine == model


def test_steering_follows_the_way_it_found_without_searching_again():
    """The rest of a shortest way is a shortest way from where it has come to:
    a game steered along it asks the model once (TableChecker.steer)."""
    adapter = BuiltinRiftboundAdapter()
    state = adapter.new_game(adapter.random_setup(random.Random(0), 2))
    checker = RiftboundChecker()
    checker.begin(adapter.observe(state))
    searches = []
    search = checker._search
    checker._search = lambda *args: searches.append(args) or search(*args)
    targets = frozenset({"start_combat"})
    steps = 0
    while not checker.edges["start_combat"]:
        actions = adapter.legal_actions(state)
        offered = [adapter.observe_action(state, a) for a in actions]
        pre = adapter.observe(state)
        chosen = checker.steer(pre, offered, targets)
        assert chosen, f"steering lost its way after {steps} steps"
        adapter.apply_action(state, actions[chosen[0]])
        assert checker.step(pre, offered[chosen[0]], adapter.observe(state), offered) == []
        steps += 1
    # A combat is pending only once a unit has moved to a contested battlefield (combat.start).
    assert steps >= 2 and len(searches) == 1

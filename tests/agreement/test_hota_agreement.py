"""The Heroes of Ancients reference engine against the model of each game's
own table: the built-in engine agrees and exercises every edge family the
default model reaches; engines with a seeded rules bug are caught, naming the
broken rule."""

from __future__ import annotations

import random

import pytest

from agreement.harness import conform
from agreement.hota import builtin
from agreement.hota.builtin import BuiltinHotaAdapter, Setup
from agreement.hota.checker import HotaChecker, machine_for, model_state, table_of
from engine.hota.state import HotaState


def run(examples: int, players: tuple[int, ...] = (2,), checker: HotaChecker | None = None):
    return conform(BuiltinHotaAdapter(), checker or HotaChecker(), examples=examples, shrink=False, players=players)


def steered_to(families: tuple[str, ...]) -> HotaChecker:
    """A checker whose runs steer only toward these families: steering's
    searches toward families a kit's cards cannot reach (the loop's draw on a
    table without Culling Field) cost most of a run and find nothing."""
    checker = HotaChecker()
    kept = checker.reachable_families()
    checker.reachable_families = lambda: {f: kept.get(f, ()) for f in families}
    return checker


def test_builtin_engine_agrees_with_the_model(monkeypatch):
    checker = HotaChecker()
    report = run(30, checker=checker)
    assert report.ok, f"{[str(f) for f in report.findings]}\n{report.transcript}"
    assert report.steps > 150 and report.games_played == 30
    # A game steered round an optional loop may reach the step cap: it is named, not lost.
    assert report.games_finished + len(report.capped) == 30
    assert report.offered_tried > 0 and report.forbidden_tried > 0
    # Tokens leaving under an echo need three cards together; a run on the
    # token kit alone makes sure they meet, whatever the random tables were.
    # It keeps the first run's checker, so it steers only toward what that
    # run left unexercised (its games are checked step by step all the same).
    monkeypatch.setattr(builtin, "KITS", (("Spirit Caller", "Banishing Gale", "Rewind Portal", "Echo Chamber"),))
    tokens = run(20, checker=checker)
    assert tokens.ok, f"{[str(f) for f in tokens.findings]}\n{tokens.transcript}"
    assert tokens.games_played == 20 and tokens.games_finished + len(tokens.capped) == 20
    # Steering reaches every family the default model reaches: the loop's draw,
    # the council's refusal (101.4d), concessions, the chance steps.
    exercised = set(tokens.edges)  # the checker's count, over both runs
    assert exercised >= set(report.edges)
    assert exercised >= set(report.reachable), sorted(set(report.reachable) - exercised)


def test_games_of_three_and_four_and_mind_tether_agree_with_the_model(monkeypatch):
    """Leavers who take their cards (assumed:leaver-objects), turns that pass
    round the players still in (assumed:seat-order, assumed:active-player-leaves),
    and Mind Tether moving control (107.2, 109.2, 108.4), at tables of two to four."""
    monkeypatch.setattr(builtin, "KITS", (("Mind Tether", "Aegis of Immortality", "Gatekeeper", "Ember Bolt",
                                           "Spirit Caller", "Council of Elders"),))
    # Eight games (seeded: tables of two, three and four among them), steered
    # toward the families asserted below, reach every one; each larger table
    # builds a model of its own.
    asserted = ("mind_tether", "concedes_at", "pass_priority", "pass_ends_turn")
    report = run(8, (2, 3, 4), steered_to(asserted))
    assert report.ok, f"{[str(f) for f in report.findings]}\n{report.transcript}"
    assert report.games_played == 8 and report.games_finished + len(report.capped) == 8
    assert set(asserted) <= set(report.edges), sorted(set(asserted) - set(report.edges))
    # A leaver's cards go with them only where the game goes on after a player leaves: three seats or more.
    assert report.rules["assumed:leaver-objects"] > 0, report.rules


def test_the_models_table_is_the_engines():
    adapter = BuiltinHotaAdapter()
    state = adapter.new_game(adapter.random_setup(random.Random(3), 2))
    obs = adapter.observe(state)
    m = machine_for(table_of(obs))
    assert [(e.card, e.controller) for e in m.table.entities] == [(e["card"], e["controller"]) for e in obs["entities"]]
    s = model_state(m, obs)
    assert m.location_of(s) == "shuffle" and s == next(m.initial_states())


def test_a_game_with_unequal_decks_gives_each_player_their_own_library():
    adapter = BuiltinHotaAdapter()
    state = adapter.new_game(Setup(table={"P1": [], "P2": []}, decks={"P1": ["Wandering Courier"] * 8,
                                                                      "P2": ["Wandering Courier"] * 9}, seed=0))
    obs = adapter.observe(state)
    m = machine_for(table_of(obs))
    assert m.table.sizes == (8, 9)
    assert model_state(m, obs) == next(m.initial_states())


def _tokens_linger(self, loud=True):  # noqa: ANN001, ANN202
    """109.5f broken: tokens off the battlefield do not vanish at the check."""
    kept = list(self.tokens)
    _CHECK(self, loud)
    self.tokens = [t for t in kept if t in self.tokens or t.zone != "battlefield"]


def _first_player_draws(self, p):  # noqa: ANN001, ANN202
    """103.5a broken: the first player draws on the first turn too."""
    _BEGIN(self, p)
    if self.first_turn and self.libraries[p]:
        self.hands[p].append(self.libraries[p].pop())


_CHECK = HotaState._check
_BEGIN = HotaState._begin_turn


@pytest.mark.parametrize(
    "name, replacement, rule",
    [("_check", _tokens_linger, "109.5f"), ("_begin_turn", _first_player_draws, "103.5a")],
    ids=["tokens do not vanish", "the first player draws on the first turn"],
)
def test_a_seeded_rules_bug_is_caught_with_its_rule(monkeypatch, name, replacement, rule):
    monkeypatch.setattr(HotaState, name, replacement)
    report = run(12)
    assert not report.ok
    assert any(rule in f.rules for f in report.findings), [str(f) for f in report.findings]
    assert report.transcript and "script:" in report.transcript

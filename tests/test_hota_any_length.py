"""The Heroes of Ancients model of games of any length (``build(...,
any_length=True)``): libraries, hands and tokens counted up to caps
(abstracted:library-cap, abstracted:hand-cap, abstracted:token-cap).

Its proofs hold for the game only if it has every run of the game: every
state a bounded model reaches, whatever its deck, mapped through the caps,
is a state the any-length model reaches; and a step enabled on a state is
enabled on its image (so a deadlock-free image means a deadlock-free state).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import pytest

from checkers import portfolio, vector
from checkers.results import PROVED, VIOLATED
from chainproof.games import get_game
from model.hota import REGISTRY, build
from model.hota.counts import Counts
from model.hota.table import default_table, table_of
from model.machine import Machine
from properties import Eventually

#: A table where Tome of Ages draws three (the library's cap is three) and a
#: council may draw into a hand and discard from it, with tokens that come and go.
TOME = table_of({0: ["Tome of Ages", "Council of Elders", "Culling Field"],
                 1: ["Spirit Caller", "Banishing Gale", "Echo Chamber"]}, 7)
#: A table where Warding Sigil keeps Spirits out (109.5d) until Silencing Rune
#: takes its ability for the turn, so the loop of Culling Field and Echo
#: Chamber comes and goes; Arcane Sanctum is one more entity to silence.
WARDED = table_of({0: ["Spirit Caller", "Culling Field", "Warding Sigil", "Arcane Sanctum"],
                   1: ["Echo Chamber", "Silencing Rune", "Banishing Gale"]}, 7)
TABLES = {"default": default_table(7), "tome": TOME, "warded": WARDED}


def images(counts: Counts, m: Machine, ex: Any) -> np.ndarray:
    """Every state a bounded search reached, as the any-length model ``m``
    counts it, packed as ``m``'s keys (one row a state)."""
    values = ex.layout.unpack(ex.keys).astype(np.int64)
    span = ex.layout.span
    row = lambda name: values[span[name][0]]  # noqa: E731
    past_start = (row("mulligan_done") == 1) & (row("first_turn") == 0)
    for name, cap in counts.caps.items():
        first, length = span[name]
        for j in range(first, first + length):
            capped = np.minimum(values[j], cap)
            values[j] = np.where(past_start, capped, values[j]) if name in counts.opening else capped
    layout = vector.Layout(m)
    keys = np.zeros((values.shape[1], layout.words), np.uint64)
    for j, d in enumerate(layout.digits):
        assert (values[j] >= d.lo).all() and (values[j] <= d.hi).all(), f"digit {j} leaves the any-length domain"
        keys[:, d.word] |= (values[j] - d.lo).astype(np.uint64) << np.uint64(d.shift)
    return keys


def rows(keys: np.ndarray) -> np.ndarray:
    """Keys as one comparable value each."""
    keys = np.ascontiguousarray(keys)
    return keys.view(np.dtype((np.void, keys.dtype.itemsize * keys.shape[1]))).ravel()


@lru_cache(maxsize=None)
def reached(table: str, mulligan: int, deck: int, any_length: bool) -> tuple[Machine, Any]:
    """A model and its vectorized exploration, whole."""
    t = TABLES[table]
    m = build(mulligan=mulligan, table=table_of([(e.card, e.controller) for e in t.entities], deck), any_length=any_length)
    ex = vector.explore(m, 3_000_000)
    assert ex.complete
    return m, ex


@pytest.mark.parametrize("table, mulligan, decks", [("default", 1, (7, 8)), ("tome", 3, (7, 8, 9, 10, 11, 12)),
                                                      ("warded", 1, (7, 8, 9))])
def test_every_bounded_state_is_covered(table, mulligan, decks):
    """Every state of the bounded model at each deck, mapped through the caps,
    is reachable in the any-length model: it has every run of those games."""
    m, ex = reached(table, mulligan, 7, True)
    counts = Counts.any_length(m.table, mulligan)
    have = rows(ex.keys)
    for deck in decks:
        _, bounded = reached(table, mulligan, deck, False)
        covered = np.isin(rows(images(counts, m, bounded)), have)
        missing = [m.describe(bounded.state(int(i))) for i in np.flatnonzero(~covered)[:3]]
        assert covered.all(), (deck, missing)


@pytest.mark.parametrize("deck", [7, 9])
def test_a_step_enabled_on_a_state_is_enabled_on_its_image(deck):
    """The guards read counts only where the caps keep them exact: each state
    of the bounded model enables the same steps as its image (which may also
    take a step that leaves more at a cap)."""
    am, _ = reached("tome", 3, 7, True)
    m, ex = reached("tome", 3, deck, False)
    counts = Counts.any_length(am.table, 3)
    names = {e.name for e in m.edges}
    for i in range(ex.states):
        s = ex.state(i)
        a = image(counts, am, s)
        here = {e.name for e, _ in m.successors(s)}
        there = {e.name for e, _ in am.successors(a)}
        assert here == there & names, (m.describe(s), here ^ (there & names))


def image(counts: Counts, am: Machine, s: Any) -> Any:
    past_start = s.mulligan_done and not s.first_turn
    capped = {name: tuple(min(v, cap) for v in getattr(s, name)) for name, cap in counts.caps.items()
              if past_start or name not in counts.opening}
    return am.State(*s._replace(**capped))


def test_the_default_any_length_model_is_searched_whole():
    """The portfolio settles HotA by exhaustive search of the any-length
    model: the default table's fits the game's budget, and libraries,
    hands and tokens reach their caps there."""
    game = get_game("hota")
    assert game.proves_any_length
    m, ex = reached("default", 1, 7, True)
    assert ex.states <= game.exhaustive_states
    values = ex.layout.unpack(ex.keys)
    for name, cap in Counts.any_length(m.table, 1).caps.items():
        first, length = ex.layout.span[name]
        assert (values[first : first + length] == cap).any(), name


def test_each_cap_is_registered_and_cited_where_it_changes_a_step():
    """Each abstraction is an entry ``abstracted:`` of the registry; the
    any-length model's steps that change a capped count cite it, and the
    bounded model cites none."""
    entries = {"abstracted:library-cap", "abstracted:hand-cap", "abstracted:token-cap"}
    for rid in entries:
        assert REGISTRY[rid].status == "abstracted"
    am, _ = reached("tome", 3, 7, True)
    m, _ = reached("tome", 3, 7, False)
    assert not entries & m.cited_rules()
    cites = {e.name: set(e.rules) for e in am.edges}
    assert "abstracted:library-cap" in cites["draw_for_turn"]
    assert "abstracted:library-cap" in cites["draw_for_turn_library_1_more"]
    assert "abstracted:hand-cap" in cites["council_takes_effect_p1s_hand_1_more"]
    assert "abstracted:token-cap" in cites["p2_banishing_gale_on_p2s_spirit_p2s_tokens_1_more"]
    assert "abstracted:library-cap" in cites["p1_tome_of_ages_on_p2_p2s_library_3_more"]
    assert not any(r.startswith("abstracted:") and r not in entries | {"abstracted:anonymous-cards", "abstracted:damage-at-starting-life"}
                   for rules in cites.values() for r in rules)


def test_the_portfolio_proves_every_property_for_games_of_any_length():
    """Every property of the catalogue holds on the whole any-length model, so
    each is proved for every deck: the safety properties, and the liveness
    one too, since the search found no lasso or dead end in the whole graph
    of a model that has every run of the game."""
    game = get_game("hota")
    run = portfolio.verify(game.machine({}), game.any_length_machine({}), game.properties,
                           game.budget(portfolio.Budget(workers=1)))
    assert any(isinstance(p, Eventually) for p in game.properties)
    for p, r in zip(game.properties, run.results):
        assert (r.verdict, r.unbounded, r.method) == (PROVED, True, portfolio.EXHAUSTIVE), (p.name, r.verdict, r.note)


def test_a_liveness_violation_of_the_any_length_model_is_shown_beside_the_bounded_verdict():
    """Without 104.4b a loop of mandatory actions never ends, on the bounded
    table as on the any-length model: the bounded violation is the verdict."""
    game = get_game("hota")
    prop = [p for p in game.properties if isinstance(p, Eventually)]
    loop = table_of({0: ["Spirit Caller", "Culling Field"], 1: ["Echo Chamber", "Silencing Rune"]}, 7)
    bounded = build(table=loop, loop_rule=False)
    any_length = build(table=loop, loop_rule=False, any_length=True)
    (r,) = portfolio.verify(bounded, any_length, prop, game.budget(portfolio.Budget(workers=1))).results
    assert r.verdict == VIOLATED and not r.unbounded, r.note

"""Bear form's end (question ``bear_form_ends_by_trigger``): the basic rules
destroy the abilities giving bear form at once as their player strikes with a
weapon or plays a non-Feral ability (001:198-199); CR7.4's glossary makes the end a triggered power, whose
effect goes on the chain and ends the form only as it resolves (CR7.4
3277-3279).  The model follows CR7.4, as the reference engine does (Maul).
Asked on the board one change away where P1's hero is in bear form."""

from __future__ import annotations

import re
from functools import cache
from typing import Any, Mapping

import numpy as np

from chainproof.source_lint import SourceFinding, lint_sources
from checkers.vector import explore
from model import wowtcg
from model.backend import CONCRETE
from model.machine import Machine
from model.wowtcg.board import nearby_boards
from model.wowtcg.table import BEAR_FORM_LINK, LINK_KINDS
from tests.conftest import reachable_states

#: P1's first turn, one ally a side: his hero attacks and strikes.
BOUNDS = {"turns": 1, "hand": 0, "deck": 0, "chain_depth": 2, "allies": 1}
BASIC = "001@bear_form_ends_by_trigger"
KEY = "source-clash:bear_form_ends_by_trigger:001"
BEAR = dict((key, board) for key, _, board in nearby_boards(2, 2))["P1-hero+bear-form"]


def build(spec: str | None, shows_with: Mapping[str, int] = {}) -> Machine:
    return wowtcg.build(**{**BOUNDS, **shows_with}, board=BEAR, reading=spec)


@cache
def findings() -> dict[str, SourceFinding]:
    found = lint_sources(build(None), build, 2_000_000, 2_000_000, questions=("bear_form_ends_by_trigger",))
    return {f.key: f for f in found.findings}


@cache
def states(spec: str | None) -> list[Any]:
    return reachable_states(explore(build(spec)))


def test_the_basic_rules_end_bear_form_at_once_where_cr74_puts_a_trigger_on_the_chain():
    found = findings()
    assert [k for k in found if k.startswith("source-clash:")] == [KEY]
    clash = found[KEY]
    assert "001 answers no where the model's reading answers yes" in clash.summary
    assert {"001_bb13bfcb78a9b116.txt:198-199", "wowtcg-comprehensive-rules-7.4.txt:3277-3279"} <= set(clash.places)
    model_game, reading_game = clash.parted
    ours, theirs = model_game.steps[-1], reading_game.steps[-1]
    assert ours.edge == theirs.edge and ours.edge.startswith("strike[P1 ") and ours.edge.endswith("[in bear form]")
    assert ours.changes["chain"][1] == "[P1 strike, P1 bear-form-trigger]"
    assert theirs.changes["chain"][1] == "[P1 strike]"
    assert "Maul in play (hero in bear form)" in ours.changes["P1 gear"][1]
    assert "Maul destroyed" in theirs.changes["P1 gear"][1]


def test_while_the_trigger_waits_the_hero_keeps_protector():
    on_chain = [s for s in states(None) if BEAR_FORM_LINK in s.chain_kind[: s.chain_len]]
    assert on_chain and all(s.bear_form[0] for s in on_chain)
    # The form ends, as the trigger resolves, in some state of the search.
    assert any(not s.bear_form[0] for s in states(None))
    # Read by 001 no trigger ever waits: a strike in bear form ends it at once.
    assert not any(BEAR_FORM_LINK in s.chain_kind[: s.chain_len] for s in states(BASIC))
    assert any(not s.bear_form[0] and any(s.struck) for s in states(BASIC))
    # The hero has protector exactly while his bear form lasts (he prints none).
    t = build(None).table
    hero = t.hero(0)
    assert not t.keyword("protector")[hero]
    assert all(t.has_protector(s, CONCRETE, hero) == s.bear_form[0] for s in states(None))


def test_the_default_board_knows_no_bear_form():
    m = wowtcg.build(**BOUNDS)
    assert not any("bear form" in e.name for e in m.edges)
    assert "bear_form" not in {v.name for v in m.variables}
    assert len(m.table.chain.fields[1][1].values()) == len(LINK_KINDS)


def _after_an_instant_in_bear_form(spec: str | None) -> tuple[set[tuple[int, ...]], set[str]]:
    """With an opening hand and no combat: the chains right after P1 plays an instant in
    bear form, and the cards P1 plays while in bear form (by edge family)."""
    m = build(spec, {"hand": 1, "allies": 0, "combats": 0})
    exploration = explore(m)
    # The transitions that play a card, and the states at both their ends, unpacked at once.
    names = [e.name for e in m.edges]
    plays = np.flatnonzero(np.isin(exploration.step_edge, [k for k, name in enumerate(names) if name.startswith("play_")]))
    layout = exploration.layout
    before = layout.state(layout.unpack(exploration.keys[exploration.step_pre[plays]]))
    after = layout.state(layout.unpack(exploration.keys[exploration.step_post[plays]]))
    chains, families = set(), set()
    for k, key in enumerate(names[e] for e in exploration.step_edge[plays]):
        if not before.bear_form[0][k] or before.priority_holder[k] != 0:
            continue
        families.add(re.sub(r"@\w+", "", key))
        if key.endswith("[P1 in bear form]"):
            chain = tuple(int(after.chain_kind[d][k]) for d in range(int(after.chain_len[k])))
            chains.add(chain + (bool(after.bear_form[0][k]),))
    return chains, families


def test_an_instant_ends_bear_form_as_a_strike_does():
    """The model's instants are abilities, none Feral (001:198; CR7.4 3277-3279)."""
    ours, our_moves = _after_an_instant_in_bear_form(None)
    theirs, their_moves = _after_an_instant_in_bear_form(BASIC)
    instant = LINK_KINDS.index("instant")
    assert (instant, BEAR_FORM_LINK, True) in ours and all(c[-2:] == (BEAR_FORM_LINK, True) for c in ours)
    assert theirs and all(c[-1] is False and BEAR_FORM_LINK not in c for c in theirs)
    # A non-instant may be an ally or an ability: in bear form the model plays none.
    assert our_moves == their_moves == {"play_instant[P1 in bear form]"}

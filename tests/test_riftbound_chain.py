"""Spells and reactions on a chain in the Riftbound model (showdown.actions,
showdown.closed, assumed:chain-reactions): the tables of the default bounds
have no reaction and keep their chain-less machine; a table with reactions
asks each player in turn before every link resolves, resolves the chain last
in first out, lets a spell whose target is gone do nothing, and means the
same on every backend."""

from __future__ import annotations

from functools import cache

from checkers import explicit, vector
from model import riftbound
from model.riftbound.table import BASE, FIRST_BATTLEFIELD, NOBODY, Table, Unit
from tests.test_riftbound_model import assert_backends_agree, assert_catalogue_holds


def reacting_table() -> Table:
    """One battlefield, one turn: P1's rallying Herald and Raider at base
    against P2's Caitlyn on bf1; one spell and one reaction each."""
    units = (
        Unit("Herald", 0, 1, rallying=True),
        Unit("Raider", 0, 2),
        Unit("Caitlyn", 1, 2, start=FIRST_BATTLEFIELD, last=True),
    )
    return Table(2, 1, units, (1,), 1, 1, 2, reactions=1)


@cache
def reacting() -> explicit.Exploration:
    return explicit.explore(riftbound.build(table=reacting_table()))


def names_taken(exploration: explicit.Exploration) -> set[str]:
    return {key for _, _, key in exploration.graph.edges(keys=True)}


def test_without_reactions_the_model_has_no_chain_to_wait_on():
    """The default bounds have no reaction: no chain variables, no reaction
    edges, and a spell goes straight to its cleanup (its pinned counts are
    test_riftbound_model's)."""
    m = riftbound.build()
    variables = {v.name for v in m.variables}
    assert not variables & {"reactions", "links", "asked"}
    assert not any(e.name.startswith(("reaction[", "resolve_link[", "pass_on_chain")) for e in m.edges)
    assert m.edge("stun[Caitlyn]").target == "showdown_cleanup"
    assert m.rulings.questions["first_to_act_on_chain"].arguments == ()


def test_with_reactions_every_chain_edge_is_taken_and_nothing_is_stuck():
    exploration = reacting()
    m = exploration.machine
    taken = names_taken(exploration)
    families = {name.split("[")[0] for name in taken}
    assert {"reaction", "pass_on_chain", "resolve_link", "showdown_cleanup_chain_waits", "resolve_top_link"} <= families
    assert m.edge("stun[Caitlyn]").target == "chain"
    # The search expanded every state and kept each step it took: one it left with none is stuck.
    assert exploration.complete
    for s in exploration.nodes:
        assert m.is_terminal(s) or exploration.graph.out_degree(s), m.describe(s)


def test_the_catalogue_holds_with_reactions():
    """The invariants on every reachable state and the step properties on
    every transition: chains change nothing they state."""
    assert_catalogue_holds(reacting())


def test_the_chain_resolves_last_in_first_out():
    """assumed:chain-reactions: with nobody left to ask, the spell on top (the
    last put on) is the one that resolves, and a trigger waits under spells."""
    exploration = reacting()
    m, t = exploration.machine, exploration.machine.table
    seen_two = False
    for s in exploration.nodes:
        if m.location_of(s) != "chain" or s.asked != NOBODY or not s.links[0]:
            continue
        resolving = [e.name for e, _ in m.successors(s)]
        top = t.spell_name((s.links[0] - 1) // t.players)
        assert resolving == [f"resolve_link[{top}]"], (resolving, m.describe(s))
        seen_two = seen_two or bool(s.links[1])
    assert seen_two


def test_each_player_with_a_reaction_is_asked_the_caster_last():
    """assumed:chain-reactions (first_to_act_on_chain, next_to_act_on_chain):
    after P1's spell P2 is asked first, then P1; after P2 passes, P1; after P1
    passes too, nobody, and the top link resolves."""
    exploration = reacting()
    nodes, graph = exploration.nodes, exploration.graph
    checked = 0

    def after_pass(j: int) -> int:
        (k,) = [k for _, k, name in graph.out_edges(j, keys=True) if name == "pass_on_chain"]
        return k

    for i, j, key in graph.edges(keys=True):
        if not key.startswith("stun[") or nodes[i].focus != 0 or nodes[j].reactions != (1, 1):
            continue
        assert nodes[j].asked == 1
        passed = after_pass(j)
        assert nodes[passed].asked == 0
        both = nodes[after_pass(passed)]
        assert both.asked == NOBODY and both.links == nodes[j].links
        checked += 1
    assert checked


def test_a_spell_whose_target_is_gone_does_nothing():
    """assumed:chain-reactions: P2's stun of the Raider waits; P1 answers by
    recalling the Raider, which resolves first; the stun then finds the Raider
    at base and leaves it as it is."""
    exploration = reacting()
    m, t = exploration.machine, exploration.machine.table
    raider = 1
    found = 0
    for s in exploration.nodes:
        if m.location_of(s) != "chain" or s.asked != NOBODY:
            continue
        top = t.spell_name((s.links[0] - 1) // t.players) if s.links[0] else ""
        if top == "stun Raider" and s.zone[raider] == BASE and not s.stunned[raider]:
            ((_, after),) = m.successors(s)
            assert not after.stunned[raider] and after.links[0] == s.links[1]
            found += 1
    assert found


def test_backends_agree_with_reactions():
    assert_backends_agree(reacting())


def test_the_vector_search_finds_the_same_states_with_reactions():
    """The chain's edges run over whole frontiers too (no edge taken row by row)."""
    e = reacting()
    v = vector.explore(e.machine)
    assert v.complete and not v.row_by_row, sorted(v.row_by_row)
    assert [v.state(i) for i in range(v.states)] == e.nodes and v.transitions == e.transitions


def test_who_acts_on_a_chain_is_an_assumption_asked_only_with_reactions():
    book = reacting().machine.rulings
    for name in ("first_to_act_on_chain", "next_to_act_on_chain"):
        q = book.questions[name]
        assert q.arguments == ((),)
        assert all(r.assumption and "assumed:chain-reactions" in r.rules for r in q.rulings)

"""Spells of the action phase and the chain outside a showdown in the
Riftbound model (assumed:action-spells, assumed:chain-reactions, combat.start
at 003:7): the default tables give no such spell and keep their machine; a
table that gives them lets the turn player cast a recall or a play, holds it
on a chain players with reactions act on, begins no combat while a link
waits, ends a game won between two links, and keeps every property of the
catalogue."""

from __future__ import annotations

from functools import cache

from checkers import explicit
from model import riftbound
from model.riftbound.table import FIRST_BATTLEFIELD, HAND, NOBODY, Table, Unit
from tests.test_riftbound_model import assert_backends_agree, assert_catalogue_holds


def table(reactions: int = 1) -> Table:
    """Two battlefields, one turn, no showdown spell: P1's Raider at base and
    Scout in hand against P2's Caitlyn on bf1 and Page in hand; one action
    spell each and ``reactions`` reactions each; two points win."""
    units = (
        Unit("Raider", 0, 2),
        Unit("Scout", 0, 1, start=HAND),
        Unit("Caitlyn", 1, 2, start=FIRST_BATTLEFIELD, last=True),
        Unit("Page", 1, 1, start=HAND),
    )
    return Table(2, 2, units, (1, NOBODY), 0, 1, 2, reactions=reactions, action_spells=1)


@cache
def explored(reactions: int = 1) -> explicit.Exploration:
    return explicit.explore(riftbound.build(table=table(reactions)))


def families(exploration: explicit.Exploration) -> set[str]:
    return {key.split("[")[0] for _, _, key in exploration.graph.edges(keys=True)}


def test_the_default_tables_have_no_action_spell():
    m = riftbound.build()
    assert "action_spells" not in {v.name for v in m.variables}
    assert "action_chain" not in m.locations
    assert not any(e.name.startswith(("action_spell[", "action_reaction[", "resolve_action_link[")) for e in m.edges)
    assert "chain_goes_on" not in m.edge_index


def test_only_a_recall_or_a_play_is_cast_in_the_action_phase():
    m = explored().machine
    cast = {e.name for e in m.edges if e.name.startswith("action_spell[")}
    assert cast and all(name.split("[")[1].split(" ")[0] in ("recall", "play_unit") for name in cast), cast
    outside = [name for name in m.edge_index if name.startswith(("action_spell[", "action_reaction[", "resolve_action_link["))]
    assert not any(" stun " in f" {name.split('[')[1]}" or "move_to_combat" in name for name in outside), outside


def test_without_reactions_the_spell_resolves_into_the_cleanup():
    exploration = explored(0)
    m = exploration.machine
    assert "action_chain" not in m.locations
    assert m.edge("action_spell[play_unit Scout to bf2]").target == "cleanup"
    assert "action_spell" in families(exploration)


def test_every_edge_of_the_chain_outside_a_showdown_is_taken_and_nothing_is_stuck():
    exploration = explored()
    m = exploration.machine
    assert {"action_spell", "action_reaction", "pass_on_action_chain", "resolve_action_link", "chain_goes_on"} <= families(exploration)
    for s in exploration.nodes:
        assert m.is_terminal(s) or list(m.successors(s)), m.describe(s)


def test_no_combat_begins_while_a_link_waits():
    """combat.start (003:7): at a cleanup with a link on the chain, no combat
    is offered and play does not go back to the action phase; the players are
    asked about the next link. Such cleanups find combats pending."""
    exploration = explored()
    m = exploration.machine
    waiting = pending = 0
    for s in exploration.nodes:
        if m.location_of(s) != "cleanup" or not s.links[0]:
            continue
        waiting += 1
        names = {e.name.split("[")[0] for e, _ in m.successors(s)}
        assert not names & {"start_combat", "cleanup_done"}, (names, m.describe(s))
        pending += any(s.zone[u] == s.zone[v] >= FIRST_BATTLEFIELD for u in (0, 1) for v in (2, 3))
    assert waiting and pending


def test_a_game_won_between_two_links_ends_with_a_link_left():
    """assumed:victory: the cleanup after a link can win the game (a play that
    takes an open battlefield); the links under it never resolve."""
    exploration = explored()
    m = exploration.machine
    ended = [s for s in exploration.nodes if m.location_of(s) == "game_over" and s.links[0]]
    assert ended
    assert all(not list(m.successors(s)) for s in ended)


def test_the_catalogue_holds_with_action_spells():
    assert_catalogue_holds(explored())


def test_the_backends_agree_on_the_chain_outside_a_showdown():
    assert_backends_agree(explored())

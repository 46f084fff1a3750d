"""The cards' own triggers in the Riftbound model, on small tables that hold
them (the default tables hold none, and keep their pinned counts):
assumed:afar-trigger (a unit outside the combat rallies, its trigger between
the attacker's and the defender's, showdown.initial-chain),
assumed:here-trigger with combat.multiplayer.here-is-base (stun, 1 damage or
destroy every enemy unit where the unit was played; nothing from a base), and
assumed:immune-not-destroyed with qa.both-survive (what destroy spares)."""

from __future__ import annotations

from functools import cache

from checkers import explicit
from model import riftbound
from model.riftbound.table import ATTACKER, BASE, FIRST_BATTLEFIELD, HAND, NO_ROLE, NOBODY, TRASH, Table, Unit
from tests.test_riftbound_model import assert_backends_agree

BF1, BF2 = FIRST_BATTLEFIELD, FIRST_BATTLEFIELD + 1


def drummer_table() -> Table:
    """Three players: P1's rallying Raider attacks P2's rallying Keeper at bf1;
    P3's Distant Drummer waits at base. P2 and P3 each hold a Snare Warden."""
    units = (
        Unit("Raider", 0, 2, rallying=True),
        Unit("Keeper", 1, 2, start=BF1, rallying=True),
        Unit("Drummer", 2, 2, afar=True),
        Unit("Warden", 2, 2, start=HAND, when_played="stun"),
        Unit("Snare", 1, 2, start=HAND, when_played="stun"),
    )
    return Table(3, 2, units, (1, 0), 1, 1, 2)


def reaper_table() -> Table:
    """P1's Raider attacks P2's Keeper at bf1; at bf2, P1 holds a 1-might Page,
    a Bulwark that cannot be destroyed and a Phantom that cannot be damaged.
    P2 holds Spark Sapper and Grave Reaper."""
    units = (
        Unit("Raider", 0, 3),
        Unit("Page", 0, 1, start=BF2),
        Unit("Bulwark", 0, 2, start=BF2, indestructible=True),
        Unit("Phantom", 0, 1, start=BF2, immune=True),
        Unit("Keeper", 1, 2, start=BF1),
        Unit("Sapper", 1, 1, start=HAND, when_played="damage"),
        Unit("Reaper", 1, 1, start=HAND, when_played="destroy"),
    )
    return Table(2, 2, units, (1, 0), 1, 1, 2)


def marked_table() -> Table:
    """P1's Raider and Hound, 3 might each, attack P2's 4-might Keeper at bf1
    once P1 has moved the Runner; P2 holds Spark Sapper."""
    units = (
        Unit("Raider", 0, 3, start=BF1),
        Unit("Hound", 0, 3, start=BF1),
        Unit("Runner", 0, 1),
        Unit("Keeper", 1, 4, start=BF1),
        Unit("Sapper", 1, 1, start=HAND, when_played="damage"),
    )
    return Table(2, 2, units, (1, NOBODY), 1, 1, 2)


@cache
def explored(table: Table) -> explicit.Exploration:
    return explicit.explore(riftbound.build(table=table))


def unit(table: Table, name: str) -> int:
    return next(u for u, x in enumerate(table.units) if x.name == name)


def taken(exploration: explicit.Exploration, prefix: str) -> list[tuple]:
    """Each (before, after) of an edge whose name starts with ``prefix``, the
    cleanup after a spell included (its destroyed units are gone by then)."""
    out = []
    for pre, post, name in exploration.graph.edges(keys=True):
        if name.startswith(prefix):
            (after,) = [q for _, q, k in exploration.graph.out_edges(post, keys=True) if k == "showdown_cleanup"] or [post]
            out.append((exploration.nodes[pre], exploration.nodes[after]))
    assert out, prefix
    return out


def test_a_trigger_from_afar_resolves_between_the_defenders_and_the_attackers():
    """showdown.initial-chain, assumed:chain-order: the chain holds P1's Raider,
    then P3's Drummer, then P2's Keeper on top, so it resolves Keeper, Drummer,
    Raider; the Drummer, at base, has +1 might until the combat ends."""
    t = drummer_table()
    e = explored(t)
    drummer = unit(t, "Drummer")
    (start,) = [(p, q) for p, q, k in e.graph.edges(keys=True) if k == "start_combat[bf1]"]
    node, resolved = start[1], []
    while True:
        links = [(q, k) for _, q, k in e.graph.out_edges(node, keys=True) if k.startswith("resolve_top_link[")]
        if not links:
            break
        ((node, name),) = links
        resolved.append(name[len("resolve_top_link["):-1])
    assert resolved == ["Keeper", "Drummer", "Raider"]
    after = e.nodes[node]
    assert after.buffed[drummer] and after.zone[drummer] == BASE and after.role[drummer] == NO_ROLE
    assert not any(s.buffed[drummer] for s in e.nodes if s.combat_bf < 0)


def test_a_warden_stuns_the_enemies_where_it_lands_and_nobody_from_a_base():
    """assumed:here-trigger, combat.multiplayer.here-is-base: P2's Snare, played
    into P2's own combat, stuns P1's Raider there and no unit of P2's; P3's
    Warden, played there from outside the combat, lands in P3's base, where
    'here' holds no enemy unit, and stuns nobody."""
    t = drummer_table()
    e = explored(t)
    raider, keeper = unit(t, "Raider"), unit(t, "Keeper")
    plays = taken(e, "play_unit[Snare to bf1]")
    assert any(before.zone[raider] == BF1 for before, _ in plays)
    for before, after in plays:
        assert after.stunned[raider] == (before.stunned[raider] or before.zone[raider] == BF1)
        assert after.stunned[keeper] == before.stunned[keeper]
    for before, after in taken(e, "play_unit[Warden to bf1]"):
        assert after.zone[unit(t, "Warden")] == BASE and after.stunned == before.stunned


def test_a_sapper_destroys_what_its_damage_makes_lethal_at_the_cleanup():
    """assumed:here-trigger, assumed:destroy-lethal, damage.undamageable: 1
    damage to each enemy unit at bf2 destroys the Page at the cleanup after the
    spell; the Bulwark, which cannot be destroyed, keeps 1 damage; the Phantom
    takes none. The damage is gone when the combat at bf1 ends
    (qa.damage-cleared)."""
    t = reaper_table()
    e = explored(t)
    page, bulwark, phantom = unit(t, "Page"), unit(t, "Bulwark"), unit(t, "Phantom")
    plays = taken(e, "play_unit[Sapper to bf2]")
    assert any(before.zone[page] == before.zone[bulwark] == BF2 for before, _ in plays)
    for before, after in plays:
        if before.zone[page] == BF2:
            assert after.zone[page] == TRASH and after.damage[page] == 0
        if before.zone[bulwark] == BF2:
            assert (after.zone[bulwark], after.damage[bulwark]) == (BF2, 1)
        assert after.damage[phantom] == 0
    for _, after in taken(e, "resolve_combat"):
        assert after.damage[bulwark] == 0


def test_a_reaper_spares_what_cannot_be_destroyed():
    """assumed:here-trigger, qa.both-survive, assumed:immune-not-destroyed: at
    bf2 the Page is destroyed; the Bulwark and the Phantom stay. At bf1 the
    attacking Raider is destroyed, so the combat has no damage step."""
    t = reaper_table()
    e = explored(t)
    page, bulwark, phantom, raider = (unit(t, n) for n in ("Page", "Bulwark", "Phantom", "Raider"))
    plays = taken(e, "play_unit[Reaper to bf2]")
    assert any(before.zone[page] == BF2 for before, _ in plays)
    for before, after in plays:
        assert after.zone[page] == (TRASH if before.zone[page] == BF2 else before.zone[page])
        assert (after.zone[bulwark], after.zone[phantom]) == (before.zone[bulwark], before.zone[phantom])
    plays = taken(e, "play_unit[Reaper to bf1]")
    assert any(before.role[raider] == ATTACKER for before, _ in plays)
    for before, after in plays:
        if before.zone[raider] == BF1:
            assert after.zone[raider] == TRASH and after.role[raider] == NO_ROLE
    assert any(k == "skip_damage" for *_, k in e.graph.edges(keys=True))


def test_damage_a_sapper_marked_lowers_what_is_lethal_in_the_damage_step():
    """damage.lethal, damage.no-overkill, assumed:destroy-lethal: after the
    Sapper's 1 damage to each, 2 is lethal to the Raider and to the Hound, so
    the Keeper's 4 may be split 2 and 2 (with nothing marked it could not:
    3 and 1, or 1 and 3); the model has that assignment and takes it."""
    e = explored(marked_table())
    assert "assign_damage[P2: Raider 2, Hound 2]" in {k for *_, k in e.graph.edges(keys=True)}


def test_backends_agree_on_the_cards_triggers():
    """The new guards and updates mean the same over plain values and over Z3 terms."""
    assert_backends_agree(explored(drummer_table()))
    assert_backends_agree(explored(reaper_table()))
    assert_backends_agree(explored(marked_table()))


def test_two_sappers_mark_no_unit_past_its_might():
    """assumed:here-trigger, damage.lethal: with two Spark Sappers at the table
    (as a random game may draw), the assignments the model prepares count at
    most a unit's might of marked damage on it, more being lethal: the model
    of such a table builds, and a 1-might unit is offered every legal amount."""
    units = (
        Unit("Page", 0, 1, start=BF1),
        Unit("Sapper", 1, 1, start=HAND, when_played="damage"),
        Unit("Sapper #2", 1, 1, start=HAND, when_played="damage"),
        Unit("Raider", 1, 3),
    )
    m = riftbound.build(table=Table(2, 1, units, (0,), 2, 1, 2))
    assert {"assign_damage[P2: Page 1]", "assign_damage[P2: Page 3]"} <= {e.name for e in m.edges}

"""The Riftbound rulebook (model/riftbound/rulings.py): every ruling cites lines
of seed 003 or is an assumption, the model's reading is that text, and each
gap (only an assumption answers) and each clash within 003 that the book
encodes occurs in a reachable state of the model (findings R2-R5), and so do
the questions read off the seed section by section (the stunned unit's might,
equal totals, the defender who did not hold the battlefield)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from model import riftbound
from model.backend import CONCRETE, VECTOR
from checkers import vector
from checkers.vector import VectorExploration as Exploration, explore
from model.riftbound.damage import DamageUnit, is_legal
from model.riftbound.rulings import NO_LETHAL, rulebook
from model.riftbound.table import (ATTACKER_ASSIGNS, DEALING, DEFENDER_ASSIGNS, FIRST_BATTLEFIELD, HAND, Table, Unit, default_table,
                                   nearby_tables)
from model.rulings import Question, RuleBook, Ruling, is_assumed_rule
from model.sources import SOURCES, SourceError, line_span, path_of
from tests.conftest import reachable_states

ROOT = Path(__file__).resolve().parents[1]
BOOK = rulebook(default_table())
P1, P2, P3 = 0, 1, 2
BF1, BF2 = 0, 1


def test_every_text_points_inside_003() -> None:
    lines = path_of("003").read_text().splitlines() if path_of("003") else None
    texted = 0
    for q in BOOK.declared.values():
        for texts in [q.default_texts, *(r.texts for r in q.rulings)]:
            for source, at in texts.items():
                assert source == "003", (q.name, source)
                first, last = line_span(at)
                assert 1 <= first <= last <= SOURCES["003"].lines, (q.name, at)
                if lines is not None:
                    assert lines[first - 1].strip() and lines[last - 1].strip(), (q.name, at)
                texted += 1
    assert texted >= 12


def test_assumptions_cite_assumed_rules_and_every_rule_is_registered() -> None:
    for q in BOOK.declared.values():
        for r in q.rulings:
            if r.assumption:
                assert r.rules and all(is_assumed_rule(x) for x in r.rules), (q.name, r.id)
    alone = BOOK.only("003")
    for p in BOOK.principles.values():
        # The model's choices cite assumed ids and only("003") drops them; a
        # principle citing a seed rule is that sentence's own exception, and stays.
        assumed = [is_assumed_rule(x) for x in p.rules]
        assert all(assumed) or not any(assumed), p.id
        assert (p.id in alone.in_force) != all(assumed), p.id
    assert {p.id for p in BOOK.principles.values() if p.id in alone.in_force} == {"undamageable-no-lethal"}
    assert BOOK.cited_rules() <= set(riftbound.REGISTRY.rules)


def test_reading_003_is_the_default() -> None:
    default, read = riftbound.build(battlefields=1, turns=1), riftbound.build(battlefields=1, turns=1, reading="003")
    assert read.rulings.reading.precedence == default.rulings.reading.precedence == ("003",)
    a, b = explore(default), explore(read)
    assert (a.states, a.transitions) == (b.states, b.transitions) == (2714, 2960)
    assert reachable_states(a) == reachable_states(b)
    with pytest.raises(SourceError):
        riftbound.build(reading="000")
    with pytest.raises(SourceError):
        riftbound.build(reading="003@no_such_question")


@pytest.mark.parametrize(
    "texts, rules",
    [({"000": "12"}, ("damage.lethal",)), ({"003": "999"}, ("damage.lethal",)), ({"003": "59-52"}, ("damage.lethal",)),
     ({}, ("damage.lethal",))],
    ids=["another-game's-source", "past-the-end", "backwards-range", "no-text-but-a-seed-rule"],
)
def test_a_malformed_ruling_is_refused(texts: dict[str, str], rules: tuple[str, ...]) -> None:
    q = Question("q", "a question", (Ruling("r", rules, True, lambda s, b: True, "a ruling", texts=texts),), ((),))
    with pytest.raises(SourceError):
        RuleBook([q], (), game="riftbound")


def test_the_undamageable_reading_decides_the_assignment() -> None:
    """exempt_from_assignment is wired into the damage rules: not exempt, a
    unit that cannot be damaged takes nothing while Caitlyn lacks lethal."""
    def units(exempt: bool) -> list[DamageUnit]:
        return [DamageUnit("Caitlyn", 2, last=True), DamageUnit("Sentry", 1, immune=True, exempt=exempt)]

    assert is_legal(units(True), 2, (0, 2), CONCRETE)
    assert not is_legal(units(False), 2, (0, 2), CONCRETE)
    assert not is_legal(units(False), 3, (1, 2), CONCRETE)
    assert is_legal(units(False), 3, (2, 1), CONCRETE) and is_legal(units(False), 2, (2, 0), CONCRETE)


def test_every_reading_comment_names_a_question() -> None:
    declared = set(BOOK.declared)
    named = set()
    for path in (ROOT / "model" / "riftbound").glob("*.py"):
        for line in path.read_text().splitlines():
            if re.search(r"#\s*Reading\b", line):
                m = re.search(r"#\s*Reading \(([a-z_]+)\):", line)
                assert m and m.group(1) in declared, (path.name, line)
                named.add(m.group(1))
    assert {"current_might", "lethal_damage", "opposing_unit", "exempt_from_assignment"} <= named


# -- gaps and clashes in reachable states ---------------------------------------------------


def findings_table() -> Table:
    """Three players: P2 holds bf1 (Scout), P3 holds bf2 (Warden and an immune
    Sentry); P1 attacks bf1 with Raider and may play Page, P2 may play Brute."""
    units = (
        Unit("Raider", P1, 2), Unit("Page", P1, 1, start=HAND),
        Unit("Scout", P2, 1, start=FIRST_BATTLEFIELD + BF1), Unit("Brute", P2, 1, start=HAND),
        Unit("Warden", P3, 1, start=FIRST_BATTLEFIELD + BF2), Unit("Sentry", P3, 1, start=FIRST_BATTLEFIELD + BF2, immune=True),
    )
    return Table(3, 2, units, (P2, P3), 2, 1, 2, spell_budgets=(1, 2, 0))


@pytest.fixture(scope="module")
def explored() -> Exploration:
    return explore(riftbound.build(table=findings_table()))


_STATES: dict[int, list] = {}


def states_of_table(e: Exploration) -> list:
    """The search's reachable states as plain values, read once for every question."""
    if id(e) not in _STATES:
        _STATES[id(e)] = reachable_states(e)
    return _STATES[id(e)]


def states_at(e: Exploration, question: str) -> list:
    at = {e.machine.location_index[loc] for loc in BOOK.declared[question].asked_at}
    return [s for s in states_of_table(e) if s.location in at]


def clash_rows(explored: Exploration, book: RuleBook, name: str) -> list[tuple[tuple, np.ndarray]]:
    """Where ``book`` clashes on question ``name``, for each of its arguments:
    the states at its locations asked all at once over arrays (as lint's
    source comparison asks), numbered as the exploration numbers them."""
    m, q = explored.machine, book.questions[name]
    where = np.flatnonzero(np.isin(explored.locations(), [m.location_index[loc] for loc in q.asked_at]))
    s = explored.layout.state(explored.layout.unpack(explored.keys[where]))
    return [(args, where[vector.rows(book.clashes(name, s, VECTOR, *args), where.size)]) for args in q.arguments]


def test_the_model_reading_never_clashes(explored: Exploration) -> None:
    m, book = explored.machine, explored.machine.rulings
    for name in book.questions:
        for args, rows in clash_rows(explored, book, name):
            assert not rows.size, (name, args, m.describe(explored.state(int(rows[0]))))
    # The same query finds the seed's own clash on this table (R11), which a principle settles.
    assert any(rows.size for _, rows in clash_rows(explored, book.only("003"), "damage_total"))


def test_r5_nobody_named_attacks_once_the_contester_has_left(explored: Exploration) -> None:
    """A gap: bf2 pending between two players, contested by one who has left; only assumed:attacker-gone answers."""
    book, t = explored.machine.rulings, explored.machine.table
    gaps = [s for s in states_at(explored, "attacker") if not book.speaks("attacker", s, CONCRETE, BF2)]
    assert gaps
    for s in gaps:
        there = {t.units[u].owner for u in range(len(t.units)) if s.zone[u] == FIRST_BATTLEFIELD + BF2}
        assert len(there) == 2 and s.contested_by[BF2] not in there and s.combat_bf == -1
        attacker = book.answer("attacker", s, CONCRETE, BF2)
        assert attacker in there and attacker != s.controller[BF2]  # the one who does not hold bf2
        assert [r.id for r in book.live_concrete("attacker", s, (BF2,))] == ["attacker-gone"]


def test_r2_line_15_and_lines_30_31_clash_for_a_combatant_with_nothing_left(explored: Exploration) -> None:
    book, alone = explored.machine.rulings, explored.machine.rulings.only("003")
    clashes = [s for s in states_at(explored, "valid_destination") if alone.clashes("valid_destination", s, CONCRETE, P1, BF1)]
    assert clashes
    for s in clashes:
        assert s.combat_bf == BF1 and P1 in (s.attacker, s.defender)
        assert not any(s.zone[u] == FIRST_BATTLEFIELD + BF1 for u in explored.machine.table.units_of(P1))
        assert book.answer("valid_destination", s, CONCRETE, P1, BF1) is False  # the model bars P1
        assert set(alone.explain("valid_destination", s, P1, BF1).core) == {"no-destination", "late-arrival"}


def test_r3_line_77_and_line_59_clash_over_the_undamageable_unit(explored: Exploration) -> None:
    book, alone = explored.machine.rulings, explored.machine.rulings.only("003")
    sentry = 5
    clashes = [s for s in states_at(explored, "exempt_from_assignment")
               if alone.clashes("exempt_from_assignment", s, CONCRETE, sentry)]
    assert clashes
    for s in clashes:
        assert book.answer("exempt_from_assignment", s, CONCRETE, sentry) is True  # the model's reading: a sink
    # A yes-or-no question's unsat core depends only on which of its rulings
    # apply: each pattern of them met in a clash is explained once.
    rulings = alone.questions["exempt_from_assignment"].rulings
    patterns = {tuple(bool(r.applies(s, CONCRETE, sentry)) for r in rulings): s for s in clashes}
    for s in patterns.values():
        assert set(alone.explain("exempt_from_assignment", s, sentry).core) == {"undamageable", "no-overkill"}
    # Where the Sentry stands alone on its side, line 77 alone answers.
    alone_there = [s for s in states_at(explored, "exempt_from_assignment")
                   if s.zone[sentry] == FIRST_BATTLEFIELD + s.combat_bf and s.zone[4] != s.zone[sentry]]
    assert alone_there and not any(alone.clashes("exempt_from_assignment", s, CONCRETE, sentry) for s in alone_there)


def test_r4_the_assumptions_leave_gaps(explored: Exploration) -> None:
    book = explored.machine.rulings

    def gap(question: str, *args: object) -> bool:
        return any(not book.speaks(question, s, CONCRETE, *args) for s in states_at(explored, question))

    assert gap("counts_as_moved", 0) and gap("next_focus") and gap("scores_by_holding", P2, BF1)
    # R12: what ends the showdown (line 41's "closes") is ours: every player has passed in succession.
    assert gap("showdown_ends")
    players = explored.machine.table.players
    assert all(book.answer("showdown_ends", s, CONCRETE) == (s.passes + 1 >= players) for s in states_at(explored, "showdown_ends"))
    assert gap("valid_destination", P1, BF2)  # a move with no combat in the way: outside the seed
    emptied = [s for s in states_at(explored, "controller_after_combat") if not book.speaks("controller_after_combat", s, CONCRETE)]
    assert emptied and all(s.stage != DEALING for s in emptied)  # nobody left, no damage dealt: not the Q&A's case
    for s in emptied:
        assert book.answer("controller_after_combat", s, CONCRETE) == -1
    for q in ("attacker", "focus", "opposing_unit", "current_might", "exempt_from_assignment", "counts_in_total",
              "destroyed_by_damage", "conquers"):
        assert not any(not book.speaks(q, s, CONCRETE, *args) for s in states_at(explored, q) for args in BOOK.declared[q].arguments
                       if q != "attacker" or args != (BF2,)), q


def test_marked_damage_never_reaches_the_damage_step(explored: Exploration) -> None:
    """lethal_damage's assumption (assumed:destroy-lethal counts marked damage)
    is a gap only for a unit with damage marked in the damage step: only combat
    deals damage and its cleanup clears it, so the gap cannot be shown."""
    book = explored.machine.rulings
    for s in states_at(explored, "lethal_damage"):
        assert all(d == 0 for d in s.damage)
        assert all(book.speaks("lethal_damage", s, CONCRETE, v) for v in range(len(s.damage)))


def test_r10_lines_16_and_17_answer_a_play_outside_the_combat_differently(explored: Exploration) -> None:
    """Line 16: no unit can be played where a combat its player is not in is;
    line 17: a unit played there goes to its player's base. Read alone, 003
    both forbids and allows the spell; the model allows it and redirects the
    unit (assumed:play-redirected), and only there do the two lines speak."""
    book = explored.machine.rulings
    alone = book.only("003")
    asked = [(s, args) for s in states_at(explored, "may_play_to")[::7] for args in book.declared["may_play_to"].arguments]
    outside = [(s, args) for s, args in asked if book.answer("played_to_base", s, CONCRETE, *args)]
    assert outside
    for s, args in outside[:12]:
        assert alone.clashes("may_play_to", s, CONCRETE, *args)
        assert set(alone.explain("may_play_to", s, *args).core) == {"invalid-location", "redirected"}
        assert book.answer("may_play_to", s, CONCRETE, *args) is True
    assert not any(book.speaks("may_play_to", s, CONCRETE, *args) for s, args in asked[:300] if (s, args) not in outside)


# -- questions read off the seed section by section ----------------------------------------------


@pytest.fixture(scope="module")
def one_fight() -> Exploration:
    """The default table on one battlefield for one turn (2,714 states)."""
    return explore(riftbound.build(battlefields=1, turns=1))


def test_a_stunned_units_might_is_summed_by_lines_45_47_and_deals_nothing_by_line_106(one_fight: Exploration) -> None:
    """A self-clash of 003: lines 45-47 sum every attacking and defending unit's
    might, line 106 says a stunned unit deals no damage.  The model leaves its
    might out of the total (assumed:stunned-out-of-total)."""
    m, book = one_fight.machine, one_fight.machine.rulings
    alone = book.only("003")
    assert "stunned-deal-nothing" in book.in_force and "stunned-deal-nothing" not in alone.in_force
    units = range(len(m.table.units))
    stunned = [(s, u) for s in states_at(one_fight, "counts_in_total") for u in units
               if s.stunned[u] and s.zone[u] == FIRST_BATTLEFIELD + s.combat_bf and s.role[u] != 0]
    assert stunned
    for s, u in stunned:
        assert alone.clashes("counts_in_total", s, CONCRETE, u)
        assert set(alone.explain("counts_in_total", s, u).core) == {"every-unit", "stunned"}
        assert book.answer("counts_in_total", s, CONCRETE, u) is False
        assert not book.clashes("counts_in_total", s, CONCRETE, u)
    # Where no unit is stunned the texts agree, and a unit outside the combat counts nothing (lines 45-47).
    calm = [s for s in states_at(one_fight, "counts_in_total") if not any(s.stunned)]
    assert calm and not any(alone.clashes("counts_in_total", s, CONCRETE, u) for s in calm for u in units)
    assert all(book.speaks("counts_in_total", s, CONCRETE, u) for s in calm for u in units)


def test_r11_line_102_has_each_side_deal_the_might_of_all_units_there(one_fight: Exploration) -> None:
    """Lines 45-49: each player assigns their own units' might; line 102, at equal
    totals, the might of all units there. Read alone 003 gives both; the model
    assigns each side's own (assumed:equal-might-own-side)."""
    book = one_fight.machine.rulings
    alone = book.only("003")
    asked = [(s, p) for s in states_at(one_fight, "damage_total") for p in (P1, P2)]
    clashes = [(s, p) for s, p in asked if alone.clashes("damage_total", s, CONCRETE, p)]
    assert clashes
    for s, p in clashes[:10]:
        assert set(alone.explain("damage_total", s, p).core) == {"own-units", "all-units-there"}
        own = sum(book.answer("current_might", s, CONCRETE, u) for u in range(len(s.zone))
                  if s.role[u] and s.zone[u] == FIRST_BATTLEFIELD + s.combat_bf and (s.attacker == p) == (s.role[u] == 1))
        assert book.answer("damage_total", s, CONCRETE, p) == own > 0
    assert any(book.speaks("damage_total", s, CONCRETE, p) and not alone.clashes("damage_total", s, CONCRETE, p)
               for s, p in asked)


def test_line_106_destroys_a_unit_whose_damage_reaches_its_might(one_fight: Exploration) -> None:
    m, book = one_fight.machine, one_fight.machine.rulings
    dealing = [s for s in states_at(one_fight, "destroyed_by_damage") if s.stage == DEALING]
    assert dealing
    args = book.declared["destroyed_by_damage"].arguments
    assert (4,) not in args  # the Warded Sentry cannot be damaged (line 77): never asked
    seen = set()
    for s in dealing:
        for (u,) in args:
            taken = s.damage[u] + s.assigned[u]
            lethal = taken > 0 and taken >= book.answer("current_might", s, CONCRETE, u)
            assert book.answer("destroyed_by_damage", s, CONCRETE, u) is lethal
            assert book.speaks("destroyed_by_damage", s, CONCRETE, u)  # line 106 answers both ways
            seen.add(lethal)
    assert seen == {True, False}
    assert any(s.stage == DEALING and s.assigned[0] >= 2 for s in dealing)  # the Tank Guard may be destroyed


def test_line_102_destroys_every_unit_at_equal_might_where_line_106_leaves_a_stunned_one_standing(one_fight: Exploration) -> None:
    """A self-clash of 003: line 102 destroys every unit of a combat whose two
    totals are equal, line 106 only a unit whose damage reaches its might.
    Two stunned units of equal might, say, deal nothing and both survive.  The
    model lets the damage dealt decide (assumed:equal-might-as-dealt)."""
    m, book = one_fight.machine, one_fight.machine.rulings
    alone = book.only("003")
    args = book.declared["destroyed_by_damage"].arguments
    clashes = [(s, u) for s in states_at(one_fight, "destroyed_by_damage") for (u,) in args
               if alone.clashes("destroyed_by_damage", s, CONCRETE, u)]
    assert clashes
    for s, u in clashes:
        assert s.stage == DEALING and set(alone.explain("destroyed_by_damage", s, u).core) == {"equal-might", "survives"}
        assert book.answer("destroyed_by_damage", s, CONCRETE, u) is False
    # Both sides' only units stunned: equal totals (0 and 0, or 2 and 2 as printed), and nobody dies.
    both_stunned = [s for s, _ in clashes if all(s.stunned[v] for v in range(len(m.table.units))
                                                if s.zone[v] == FIRST_BATTLEFIELD + s.combat_bf)]
    assert both_stunned
    # Equal totals with damage put on the Warded Sentry, who cannot be damaged
    # (the model's reading of line 77, R3): Caitlyn is left standing.
    sentry = 4
    sunk = [s for s, _ in clashes if not any(s.stunned) and s.assigned[sentry] > 0]
    assert sunk
    # Every clash has one of the two: a stunned unit in the combat, or damage on the Sentry.
    assert all(any(s.stunned[v] and s.zone[v] == FIRST_BATTLEFIELD + s.combat_bf for v in range(len(m.table.units)))
               or s.assigned[sentry] > 0 for s, _ in clashes)
    # Equal totals where every unit takes lethal damage: the texts agree.
    agreed = [s for s in states_at(one_fight, "destroyed_by_damage") if s.stage == DEALING and not any(s.stunned)
              and s.assigned[sentry] == 0
              and any(r.id == "equal-might" for (u,) in args for r in alone.live_concrete("destroyed_by_damage", s, (u,)))]
    assert agreed and not any(alone.clashes("destroyed_by_damage", s, CONCRETE, u) for s in agreed for (u,) in args)


def test_line_43_holds_the_damage_step_only_while_both_sides_remain(one_fight: Exploration) -> None:
    m, book = one_fight.machine, one_fight.machine.rulings
    steps = states_at(one_fight, "damage_step_happens")
    answers = {book.answer("damage_step_happens", s, CONCRETE) for s in steps}
    assert answers == {True, False}
    assert all(book.speaks("damage_step_happens", s, CONCRETE) and not book.only("003").clashes("damage_step_happens", s, CONCRETE)
               for s in steps)
    for s in steps:
        skips = any(e.name == "skip_damage" for e, _ in m.successors(s))
        assert skips is (not book.answer("damage_step_happens", s, CONCRETE))


def test_line_29_names_the_defender_and_only_the_assumption_does_once_the_contester_left(explored: Exploration) -> None:
    book, t = explored.machine.rulings, explored.machine.table
    pending = [s for s in states_at(explored, "defender") for bf in (BF1, BF2)
               if s.combat_bf == -1 and len({t.units[u].owner for u in range(len(t.units)) if s.zone[u] == FIRST_BATTLEFIELD + bf}) == 2]
    assert pending
    gaps = []
    for s in states_at(explored, "defender"):
        for bf in (BF1, BF2):
            there = {t.units[u].owner for u in range(len(t.units)) if s.zone[u] == FIRST_BATTLEFIELD + bf}
            if s.combat_bf != -1 or len(there) != 2:
                continue
            attacker, defender = (book.answer(q, s, CONCRETE, bf) for q in ("attacker", "defender"))
            assert {attacker, defender} == there
            if s.contested_by[bf] in there:
                assert book.speaks("defender", s, CONCRETE, bf) and defender != s.contested_by[bf]
            else:
                gaps.append(s)
                assert not book.speaks("defender", s, CONCRETE, bf)
                assert [r.id for r in book.live_concrete("defender", s, (bf,))] == ["attacker-gone"]
    assert gaps  # R5's battlefield: line 29 fits both players there


def test_what_contests_a_battlefield_and_who_takes_it_without_a_fight_are_assumptions(one_fight: Exploration) -> None:
    book = one_fight.machine.rulings
    moves = states_at(one_fight, "contests")
    assert moves and not any(book.speaks("contests", s, CONCRETE, p, BF1) for s in moves for p in (P1, P2))
    # P2 holds bf1: P1's arrival contests it, P2's does not.
    start = one_fight.state(0)
    assert book.answer("contests", start, CONCRETE, P1, BF1) and not book.answer("contests", start, CONCRETE, P2, BF1)
    cleanups = states_at(one_fight, "uncontested_controller")
    assert cleanups and not any(book.speaks("uncontested_controller", s, CONCRETE, BF1) for s in cleanups)
    settled = [s for s in cleanups if s.contested_by[BF1] != -1 and sum(
        1 for p in (P1, P2) if any(s.zone[u] == FIRST_BATTLEFIELD + BF1 for u in one_fight.machine.table.units_of(p))) == 1]
    assert settled
    for s in settled:
        holder = book.answer("uncontested_controller", s, CONCRETE, BF1)
        assert any(s.zone[u] == FIRST_BATTLEFIELD + BF1 for u in one_fight.machine.table.units_of(holder))


def test_lines_16_17_send_an_outsiders_unit_to_base_past_two_players(explored: Exploration) -> None:
    book, t = explored.machine.rulings, explored.machine.table
    outsiders = [(s, p, bf) for s in states_at(explored, "played_to_base") for p in (P1, P2, P3) for bf in (BF1, BF2)
                 if book.answer("played_to_base", s, CONCRETE, p, bf)]
    assert outsiders
    for s, p, bf in outsiders:
        assert book.speaks("played_to_base", s, CONCRETE, p, bf)
        assert not any(s.zone[u] == FIRST_BATTLEFIELD + bf for u in t.units_of(p))
        assert not (s.combat_bf == bf and p in (s.attacker, s.defender))
    # A combatant with nothing left there may play a unit in (lines 16-17 test taking part)
    # though line 15 bars them from moving one in (R2).
    barred = [(s, p) for s in states_at(explored, "played_to_base") for p in (P1, P2, P3)
              if s.combat_bf == BF1 and p in (s.attacker, s.defender)
              and not any(s.zone[u] == FIRST_BATTLEFIELD + BF1 for u in t.units_of(p))]
    assert barred
    for s, p in barred:
        assert not book.answer("played_to_base", s, CONCRETE, p, BF1)
        assert not book.answer("valid_destination", s, CONCRETE, p, BF1)
    # At two players lines 16-17 never apply, and an ordinary play rests on the assumption.
    two = rulebook(default_table())
    assert two.questions["played_to_base"].rulings[0].applies(explored.state(0), CONCRETE, P1, BF1) is False


def test_the_initial_chains_order_is_asked_once_and_is_an_assumption(one_fight: Exploration) -> None:
    book = one_fight.machine.rulings
    assert book.questions["last_link_resolves_first"].fixed
    assert book.fixed("last_link_resolves_first") is True
    chains = states_at(one_fight, "last_link_resolves_first")
    assert chains and not any(book.speaks("last_link_resolves_first", s, CONCRETE) for s in chains)
    # The defender's trigger, put on last, resolves first.
    m = one_fight.machine
    both = [s for s in chains if s.trigger[1] and s.trigger[4]]
    assert both
    for s in both:
        taken = {e.name for e, _ in m.successors(s)}
        top = "Warded Sentry" if s.defender == 1 else "Herald"
        assert taken == {f"resolve_top_link[{top}]"}


def conquest_table() -> Table:
    """bf1 open, P2's immune Sentry standing on it uncontested; P1's Raider arrives."""
    units = (Unit("Raider", P1, 2), Unit("Sentry", P2, 1, start=FIRST_BATTLEFIELD + BF1, immune=True))
    return Table(2, 1, units, (-1,), 0, 1, 2)


def test_line_106_denies_a_conquest_that_lines_95_97_give_a_defender_who_did_not_hold_the_battlefield() -> None:
    """A self-clash of 003 beyond lint's table: both sides survive at a battlefield
    the defender did not hold.  Lines 95-97 have the defender take it and
    conquer; line 106 says the defender keeps it and cannot score.  The model
    takes lines 95-97 (assumed:qa-defender-held): the defender scores."""
    e = explore(riftbound.build(table=conquest_table()))
    book, alone = e.machine.rulings, e.machine.rulings.only("003")
    [s] = states_at(e, "conquers")
    assert s.controller[BF1] == -1 and s.defender == P2 and s.attacker == P1
    assert book.answer("controller_after_combat", s, CONCRETE) == P2
    assert book.answer("conquers", s, CONCRETE, P2) is True and not book.clashes("conquers", s, CONCRETE, P2)
    assert alone.clashes("conquers", s, CONCRETE, P2)
    assert set(alone.explain("conquers", s, P2).core) == {"conquest", "defender-keeps"}
    assert book.answer("conquers", s, CONCRETE, P1) is False and not alone.clashes("conquers", s, CONCRETE, P1)
    assert max(x.points[P2] for x in reachable_states(e)) == 1
    # Where the defender held it already, line 106 and lines 95-97 agree: no conquest.
    held = s._replace(controller=(P2,))
    assert not alone.clashes("conquers", held, CONCRETE, P2) and book.answer("conquers", held, CONCRETE, P2) is False


def test_line_81_deals_the_undamageable_sentry_what_lines_77_79_say_it_cannot_be_dealt(one_fight: Exploration) -> None:
    """A self-clash of 003: line 81 deals every unit the damage assigned to it,
    lines 77-79 speak of a unit that cannot be dealt damage, and the model's
    reading of line 77 lets the assigner put damage on it (R3).  The model
    deals it none (assumed:undamageable-sink), as before the question."""
    m, book = one_fight.machine, one_fight.machine.rulings
    alone = book.only("003")
    sentry = 4
    assert m.table.units[sentry].immune
    steps = states_at(one_fight, "damage_dealt")
    sunk = [s for s in steps if s.assigned[sentry] > 0]
    assert sunk and any(s.stage == DEALING for s in sunk)
    for s in sunk:
        assert alone.clashes("damage_dealt", s, CONCRETE, sentry)
        assert set(alone.explain("damage_dealt", s, sentry).core) == {"as-assigned", "undamageable"}
        assert book.answer("damage_dealt", s, CONCRETE, sentry) == 0 and not book.clashes("damage_dealt", s, CONCRETE, sentry)
    # With nothing on the Sentry, and for every unit that can be damaged, line 81 alone decides.
    units = range(len(m.table.units))
    assert not any(alone.clashes("damage_dealt", s, CONCRETE, u) for s in steps for u in units
                   if u != sentry or s.assigned[sentry] == 0)
    for s in (s for s in steps if s.stage == DEALING):
        [(_, after)] = [(e, x) for e, x in m.successors(s) if e.name == "deal_damage"]
        for u in units:
            assert after.damage[u] == s.damage[u] + book.answer("damage_dealt", s, CONCRETE, u)
            assert book.answer("damage_dealt", s, CONCRETE, u) == (0 if u == sentry else s.assigned[u])


def test_a_battlefield_taken_without_a_combat_scores_only_by_assumption() -> None:
    """A gap: 003's conquest (lines 95-97) ends a combat; whether a battlefield
    a cleanup hands over without one scores is assumed:uncontested-control."""
    units = (Unit("Raider", P1, 2), Unit("Scout", P2, 1))
    e = explore(riftbound.build(table=Table(2, 1, units, (-1,), 0, 1, 2)))
    book = e.machine.rulings
    cleanups = states_at(e, "conquers_uncontested")
    taken = [s for s in cleanups if book.answer("conquers_uncontested", s, CONCRETE, P1, BF1)]
    assert taken
    for s in taken:
        assert s.controller[BF1] == -1 and s.zone[0] == FIRST_BATTLEFIELD + BF1 and s.combat_bf == -1
        assert not book.speaks("conquers_uncontested", s, CONCRETE, P1, BF1)
        assert [r.id for r in book.live_concrete("conquers_uncontested", s, (P1, BF1))] == ["uncontested-conquest"]
        [after] = [x for edge, x in e.machine.successors(s) if edge.name == "settle_contests"]
        assert after.controller[BF1] == P1 and after.points[P1] == s.points[P1] + 1
        # Having scored there this turn, P1 takes it without a conquest (line 97).
        scored = s._replace(scored=(True, False))
        assert book.speaks("conquers_uncontested", scored, CONCRETE, P1, BF1)
        assert not book.answer("conquers_uncontested", scored, CONCRETE, P1, BF1)
    # Where the cleanup hands nobody anything, line 97 answers: no conquest.
    calm = [s for s in cleanups if s.contested_by[BF1] == -1]
    assert calm and all(book.speaks("conquers_uncontested", s, CONCRETE, p, BF1)
                        and not book.answer("conquers_uncontested", s, CONCRETE, p, BF1) for s in calm for p in (P1, P2))


def test_line_106_keeps_a_unit_that_cannot_be_destroyed_where_line_102_destroys_every_unit() -> None:
    """On a table of its own (lint's default table has no such unit, and lint
    wakes the ruling on the table one change away where Caitlyn cannot be
    destroyed): line 106 leaves a unit that cannot be destroyed standing whatever its
    damage, and deal_damage asks it; at equal totals line 102 destroys every
    unit, and the model lets line 106 decide (assumed:equal-might-as-dealt)."""
    units = (Unit("Raider", P1, 2), Unit("Kayn", P2, 2, start=FIRST_BATTLEFIELD + BF1, indestructible=True))
    e = explore(riftbound.build(table=Table(2, 1, units, (P2,), 0, 1, 2)))
    m, book = e.machine, e.machine.rulings
    alone = book.only("003")
    kayn = 1
    dealing = [s for s in states_at(e, "destroyed_by_damage") if s.stage == DEALING]
    assert dealing
    for s in dealing:
        assert s.assigned[kayn] == 2 and s.assigned[0] == 2  # equal totals, lethal on both
        assert book.answer("destroyed_by_damage", s, CONCRETE, kayn) is False
        assert "lethal-destroys" not in {r.id for r in alone.live_concrete("destroyed_by_damage", s, (kayn,))}
        assert alone.clashes("destroyed_by_damage", s, CONCRETE, kayn)
        assert set(alone.explain("destroyed_by_damage", s, kayn).core) == {"equal-might", "cannot-be-destroyed"}
        assert book.answer("destroyed_by_damage", s, CONCRETE, 0) is True
        [after] = [x for edge, x in m.successors(s) if edge.name == "deal_damage"]
        assert after.zone[kayn] == FIRST_BATTLEFIELD + BF1 and after.damage[kayn] == 2
        assert after.zone[0] != FIRST_BATTLEFIELD + BF1


def test_only_an_assumption_takes_a_recalled_units_role_away(one_fight: Exploration) -> None:
    """A gap: lines 29-31 give roles at the battlefield and line 91 clears them
    at the combat cleanup; a unit recalled in between loses its role only by
    assumed:showdown-spells, and the recall edge asks keeps_role."""
    m, book = one_fight.machine, one_fight.machine.rulings
    recalls = [(s, u, after) for s in states_at(one_fight, "keeps_role") for e, after in m.successors(s)
               for u, unit in enumerate(m.table.units) if e.name == f"recall[{unit.name}]" and s.role[u] != 0]
    assert recalls and {s.role[u] for s, u, _ in recalls} == {1, 2}  # attackers and defenders are recalled
    for s, u, after in recalls:
        assert not book.speaks("keeps_role", s, CONCRETE, u)
        assert [r.id for r in book.live_concrete("keeps_role", s, (u,))] == ["role-left-behind"]
        assert book.answer("keeps_role", s, CONCRETE, u) is False
        assert after.role[u] == 0 and after.zone[u] != s.zone[u]


def test_line_106_destroys_a_unit_of_might_0_that_line_53_gives_no_lethal_damage() -> None:
    """A self-clash of 003 on a table where an effect has set Caitlyn's might
    to 0 (lint wakes it on its board might0-turns1): line 53 makes lethal
    damage more than zero, line 106 destroys a unit whose damage is at least
    its might, which no damage at all is for her. The model, as the engine,
    follows line 53 (assumed:zero-not-lethal): only damage destroys her."""
    units = (Unit("Raider", P1, 2), Unit("Caitlyn", P2, 0, start=FIRST_BATTLEFIELD + BF1),
             Unit("Sentry", P2, 1, start=FIRST_BATTLEFIELD + BF1, immune=True))
    e = explore(riftbound.build(table=Table(2, 1, units, (P2,), 0, 1, 2)))
    m, book = e.machine, e.machine.rulings
    alone = book.only("003")
    raider, caitlyn = 0, 1
    asked = states_at(e, "lethal_damage")
    assert asked
    for s in asked:
        assert alone.clashes("lethal_damage", s, CONCRETE, caitlyn)
        assert set(alone.explain("lethal_damage", s, caitlyn).core) == {"lethal", "reaches-might"}
        assert book.answer("lethal_damage", s, CONCRETE, caitlyn) == 1
        assert not alone.clashes("lethal_damage", s, CONCRETE, raider)  # might 2: the texts agree
    # The Raider's 2 may all go to the Sentry, who cannot be damaged (R3): dealt nothing, she stays.
    dealing = [s for s in asked if s.stage == DEALING]
    unhurt, hurt = [s for s in dealing if s.assigned[caitlyn] == 0], [s for s in dealing if s.assigned[caitlyn] > 0]
    assert unhurt and hurt
    for s in unhurt:
        assert book.answer("destroyed_by_damage", s, CONCRETE, caitlyn) is False
        [after] = [x for edge, x in m.successors(s) if edge.name == "deal_damage"]
        assert after.zone[caitlyn] == FIRST_BATTLEFIELD + BF1
    assert all(book.answer("destroyed_by_damage", s, CONCRETE, caitlyn) is True for s in hurt)


def test_line_59_leaves_no_room_for_damage_beyond_what_kills_every_unit() -> None:
    """R15: P1's 3-might Raider attacks P2's two 1-might units. Line 49 has
    P1 assign all 3; line 59 gives neither unit more than its lethal 1 while
    the other is there to be given damage, which leaves 1 nowhere. The model,
    as the engine, assigns it all (assumed:excess-anywhere); P2, with one unit
    to assign to, meets no cap."""
    units = (Unit("Raider", P1, 3), Unit("Scout", P2, 1, start=FIRST_BATTLEFIELD + BF1),
             Unit("Page", P2, 1, start=FIRST_BATTLEFIELD + BF1))
    e = explore(riftbound.build(table=Table(2, 1, units, (P2,), 0, 1, 2)))
    m, book = e.machine, e.machine.rulings
    alone = book.only("003")
    asked = states_at(e, "assigns_whole_total")
    p1_assigns = [s for s in asked if s.stage == ATTACKER_ASSIGNS]
    p2_assigns = [s for s in asked if s.stage == DEFENDER_ASSIGNS]
    assert p1_assigns and p2_assigns
    for s in p1_assigns:
        assert alone.clashes("assigns_whole_total", s, CONCRETE, P1)
        assert set(alone.explain("assigns_whole_total", s, P1).core) == {"whole-total", "lethal-cap"}
        assert book.answer("assigns_whole_total", s, CONCRETE, P1) is True
        splits = {tuple(x.assigned[1:]) for e_, x in m.successors(s) if e_.name.startswith("assign_damage")}
        assert splits == {(1, 2), (2, 1)}  # the third damage goes on one of them
    for s in p2_assigns:
        assert not alone.clashes("assigns_whole_total", s, CONCRETE, P2)
        assert book.answer("assigns_whole_total", s, CONCRETE, P2) is True


def test_line_55_gives_a_unit_that_cannot_be_destroyed_no_lethal_damage() -> None:
    """R16: P1's 2-might Raider attacks P2's Tank unit that cannot be
    destroyed (might 2) beside a 1-might Scout. Line 53 makes 2 lethal to
    it, line 55's lethal damage is damage that can destroy it, which none is.
    The model, as the engine, follows line 53 (assumed:indestructible-bound):
    the Tank must have its 2 before the Scout gets any."""
    units = (Unit("Raider", P1, 2), Unit("Warden", P2, 2, start=FIRST_BATTLEFIELD + BF1, tank=True, indestructible=True),
             Unit("Scout", P2, 1, start=FIRST_BATTLEFIELD + BF1))
    e = explore(riftbound.build(table=Table(2, 1, units, (P2,), 0, 1, 2)))
    m, book = e.machine, e.machine.rulings
    alone = book.only("003")
    warden, scout = 1, 2
    asked = [s for s in states_at(e, "lethal_damage") if s.stage == ATTACKER_ASSIGNS]
    assert asked
    for s in asked:
        assert alone.clashes("lethal_damage", s, CONCRETE, warden)
        assert set(alone.explain("lethal_damage", s, warden).core) == {"lethal", "cannot-be-destroyed"}
        assert book.answer("lethal_damage", s, CONCRETE, warden) == 2
        assert not alone.clashes("lethal_damage", s, CONCRETE, scout)
        splits = {(x.assigned[warden], x.assigned[scout]) for e_, x in m.successors(s) if e_.name.startswith("assign_damage")}
        assert splits == {(2, 0)}  # not (0, 2) nor (1, 1): the Tank is bound by lethal-first


def test_what_a_conquest_scores_is_an_assumption() -> None:
    """Lines 97 and 102 say that a conquest scores, never how much: only
    assumed:conquest-point answers (a gap lint reports), asked once as the
    model is built, and the defender's conquest of conquest_table adds it."""
    e = explore(riftbound.build(table=conquest_table()))
    book = e.machine.rulings
    assert book.questions["conquest_points"].fixed and book.fixed("conquest_points") == 1
    asked = states_at(e, "conquest_points")
    assert asked and not any(book.speaks("conquest_points", s, CONCRETE) for s in asked)
    [s] = states_at(e, "conquers")
    [after] = [x for _, x in e.machine.successors(s)]
    assert after.points[P2] == s.points[P2] + book.fixed("conquest_points")


def two_fronts_table() -> Table:
    """P2 holds bf1 (Scout); P1's Raider may attack it; bf2 is open, and each
    player may play a unit there in the showdown (one spell each)."""
    units = (Unit("Raider", P1, 2), Unit("Page", P1, 1, start=HAND),
             Unit("Scout", P2, 1, start=FIRST_BATTLEFIELD + BF1), Unit("Brute", P2, 1, start=HAND))
    return Table(2, 2, units, (P2, -1), 1, 1, 2)


def test_r14_line_7_begins_a_combat_made_pending_in_a_showdown_that_line_10_has_wait() -> None:
    """A self-clash of 003: both players play a unit to bf2 in bf1's showdown.
    Line 7 begins bf2's combat at the cleanup after the spell, line 10 has the
    combats resolved one after another; the model lets bf1's end first
    (assumed:running-combat-first), then the turn player begins bf2's."""
    e = explore(riftbound.build(table=two_fronts_table()))
    m, book = e.machine, e.machine.rulings
    alone = book.only("003")
    both = [s for s in states_at(e, "begins_mid_combat")
            if s.combat_bf == BF1 and {m.table.units[u].owner for u in range(4) if s.zone[u] == FIRST_BATTLEFIELD + BF2} == {P1, P2}]
    assert both
    for s in both:
        assert set(alone.explain("begins_mid_combat", s, BF2).core) == {"cleanup-begins", "one-at-a-time"}
        assert book.answer("begins_mid_combat", s, CONCRETE, BF2) is False
        assert not alone.clashes("begins_mid_combat", s, CONCRETE, BF1)  # the running combat's own battlefield
        assert [edge.name for edge, _ in m.successors(s)] == ["showdown_cleanup"]
    # Where bf2 holds one player's units, line 7 begins nothing there and the texts agree.
    calm = [s for s in states_at(e, "begins_mid_combat") if s not in both]
    assert calm and not any(alone.clashes("begins_mid_combat", s, CONCRETE, BF2) for s in calm)
    assert all(book.speaks("begins_mid_combat", s, CONCRETE, BF2) for s in calm)
    # Once bf1's combat is over, bf2's is begun at the cleanup.
    assert any(edge.name == "start_combat[bf2]" for s in states_of_table(e) if s.combat_bf == -1 for edge, _ in m.successors(s))


def test_how_long_a_stun_lasts_is_an_assumption(one_fight: Exploration) -> None:
    """Line 106 says only that a stunned unit deals no damage: no text answers
    whether a stun ends with its combat (a gap lint reports). The combat
    cleanup keeps it, by assumed:stun-lasts-turn."""
    m, book = one_fight.machine, one_fight.machine.rulings
    assert book.questions["stun_ends_with_combat"].fixed and book.fixed("stun_ends_with_combat") is False
    asked = states_at(one_fight, "stun_ends_with_combat")
    assert asked and not any(book.speaks("stun_ends_with_combat", s, CONCRETE) for s in asked)
    stunned = [(s, after) for s in asked if any(s.stunned) for _, after in m.successors(s)]
    assert stunned and all(after.stunned == s.stunned for s, after in stunned)


def test_line_77_makes_no_damage_lethal_to_a_unit_that_cannot_be_damaged(one_fight: Exploration) -> None:
    """Line 53 defines lethal damage by the unit's might; line 77, its own
    exception, makes no amount lethal to a unit that cannot be damaged. The
    seed itself settles it (the principle cites damage.undamageable), so 003
    read alone answers as the model does."""
    book = one_fight.machine.rulings
    alone = book.only("003")
    assert "undamageable-no-lethal" in alone.in_force
    units = one_fight.machine.table.units
    sentry = next(u for u, unit in enumerate(units) if unit.immune)
    asked = states_at(one_fight, "lethal_damage")
    assert asked
    for s in asked[:50]:
        assert book.answer("lethal_damage", s, CONCRETE, sentry) == NO_LETHAL
        assert not alone.clashes("lethal_damage", s, CONCRETE, sentry)
        assert all(book.answer("lethal_damage", s, CONCRETE, u) >= 1 for u, unit in enumerate(units) if not unit.immune)
    assert book.questions["lethal_damage"].show_answer(NO_LETHAL) == "none"


def test_the_tables_one_change_away_each_change_one_thing() -> None:
    """Lint's nearby tables (where it wakes dead rulings): the default table over
    one turn with one unit changed, or with a third player added."""
    turn = default_table(2, 2, 1, 1, 2)
    tables = {key: t for key, _, t in nearby_tables(2, 2, 1, 2)}
    assert list(tables) == ["players3-turns1", "spark-sapper-turns1", "might0-turns1", "indestructible-turns1", "grave-reaper-turns1",
                            "distant-drummer-turns1"]
    assert tables.pop("players3-turns1").players == 3
    for key, t in tables.items():
        assert t.players == 2 and t.turns == 1, key
        assert sum(u != v for u, v in zip(t.units, turn.units)) == 1, key
    assert nearby_tables(3, 2, 1, 2) == []

"""The Riftbound rulebook (model/riftbound/rulings.py): every ruling cites lines
of seed 003 or is an assumption, the model's reading is that text, and each
gap (only an assumption answers) and each clash within 003 that the book
encodes occurs in a reachable state of the model (findings R2-R5)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from model import riftbound
from model.backend import CONCRETE
from model.explicit import Exploration, explore
from model.riftbound.damage import DamageUnit, is_legal
from model.riftbound.rulings import rulebook
from model.riftbound.table import DEALING, FIRST_BATTLEFIELD, HAND, Table, Unit, default_table
from model.rulings import Question, RuleBook, Ruling, is_assumed_rule
from model.sources import SOURCES, SourceError, line_span, path_of

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
    for p in BOOK.principles.values():
        assert all(is_assumed_rule(x) for x in p.rules), p.id  # the model's choices, dropped by only("003")
    assert BOOK.cited_rules() <= set(riftbound.REGISTRY.rules)


def test_reading_003_is_the_default() -> None:
    default, read = riftbound.build(battlefields=1, turns=1), riftbound.build(battlefields=1, turns=1, reading="003")
    assert read.rulings.reading.precedence == default.rulings.reading.precedence == ("003",)
    a, b = explore(default), explore(read)
    assert (a.states, a.transitions) == (b.states, b.transitions) == (2714, 2960)
    assert a.nodes == b.nodes
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


def states_at(e: Exploration, question: str) -> list:
    at = {e.machine.location_index[loc] for loc in BOOK.declared[question].asked_at}
    return [s for s in e.nodes if s.location in at]


def test_the_model_reading_never_clashes(explored: Exploration) -> None:
    book = explored.machine.rulings
    for q in book.questions.values():
        for s in states_at(explored, q.name):
            assert not any(book.clashes(q.name, s, CONCRETE, *args) for args in q.arguments), q.name


def test_r5_nobody_named_attacks_once_the_contester_has_left(explored: Exploration) -> None:
    """A gap: bf2 pending between two players, contested by one who has left; only assumed:attacker-gone answers."""
    book, t = explored.machine.rulings, explored.machine.table
    gaps = [s for s in states_at(explored, "attacker") if not book.speaks("attacker", s, BF2)]
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
        assert set(alone.explain("exempt_from_assignment", s, sentry).core) == {"undamageable", "no-overkill"}
    # Where the Sentry stands alone on its side, line 77 alone answers.
    alone_there = [s for s in states_at(explored, "exempt_from_assignment")
                   if s.zone[sentry] == FIRST_BATTLEFIELD + s.combat_bf and s.zone[4] != s.zone[sentry]]
    assert alone_there and not any(alone.clashes("exempt_from_assignment", s, CONCRETE, sentry) for s in alone_there)


def test_r4_the_assumptions_leave_gaps(explored: Exploration) -> None:
    book = explored.machine.rulings

    def gap(question: str, *args: object) -> bool:
        return any(not book.speaks(question, s, *args) for s in states_at(explored, question))

    assert gap("counts_as_moved", 0) and gap("next_focus") and gap("scores_by_holding", P2, BF1)
    assert gap("valid_destination", P1, BF2)  # a move with no combat in the way: outside the seed
    emptied = [s for s in states_at(explored, "controller_after_combat") if not book.speaks("controller_after_combat", s)]
    assert emptied and all(s.stage != DEALING for s in emptied)  # nobody left, no damage dealt: not the Q&A's case
    for s in emptied:
        assert book.answer("controller_after_combat", s, CONCRETE) == -1
    for q in ("attacker", "focus", "opposing_unit", "current_might", "exempt_from_assignment"):
        assert not any(not book.speaks(q, s, *args) for s in states_at(explored, q) for args in BOOK.declared[q].arguments
                       if q != "attacker" or args != (BF2,)), q


def test_marked_damage_never_reaches_the_damage_step(explored: Exploration) -> None:
    """lethal_damage's assumption (assumed:destroy-lethal counts marked damage)
    is a gap only for a unit with damage marked in the damage step: only combat
    deals damage and its cleanup clears it, so the gap cannot be shown."""
    book = explored.machine.rulings
    for s in states_at(explored, "lethal_damage"):
        assert all(d == 0 for d in s.damage)
        assert all(book.speaks("lethal_damage", s, v) for v in range(len(s.damage)))

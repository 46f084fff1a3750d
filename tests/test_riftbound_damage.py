"""Legal combat damage assignment in Riftbound (model/riftbound/damage.py).

The seed's examples (seeds/003, damage step), each broken rule named by its
unsat core; the two backends agreeing; Z3's enumeration against a brute-force
enumerator written here independently (it replays the seed's sequential
wording: pick a unit, give it lethal, go on); the existence proof, shown able
to fail; and the requirement patterns that damage.exclusive settles.
"""

from __future__ import annotations

import functools
import itertools
import random

import numpy as np
import pytest
import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model import limits
from model.backend import CONCRETE, SYMBOLIC, VECTOR
from model.riftbound.damage import (
    FIRST,
    KINDS,
    LAST,
    PLAIN,
    RULE_IDS,
    DamageInputError,
    DamageUnit,
    assignment_rules,
    check_assignment,
    exclusive_requirements,
    greedy_assignment,
    is_legal,
    legal_assignments,
    _stuck_configuration,
    prove_assignment_exists,
)


def unit(name, might=3, *kinds, marked=0, present=True):
    return DamageUnit(name, might, "tank" in kinds, "last" in kinds, "immune" in kinds, marked, present)


def perms(amounts):
    return sorted(set(itertools.permutations(amounts)))


# -- an independent brute force -----------------------------------------------------------
# The seed's wording read as a procedure: the assigner takes the units one at a
# time; starting on a unit, every unit that must come before it already has
# lethal damage; each unit gets lethal before the next is started, and the
# damage runs out on at most one; once every unit has lethal the rest may go
# anywhere.  Immune units sit outside the procedure and may take any amount.


def lethal(u):
    return max(1, u.might - u.marked)


def rank_precedence(ranks):
    return lambda i, j: ranks[i] < ranks[j]


def strict_precedence(units):
    # Every requirement at once: a tank before each unit without tank, a last
    # unit after each unit without last.
    def must(i, j):
        a, b = units[i], units[j]
        return (a.tank and not b.tank) or (b.last and not a.last)

    return must


def relaxed_precedences(units):
    """One precedence per choice of ranks (tank+last units first or last)."""
    duals = [i for i, u in enumerate(units) if u.tank and u.last]
    for picks in itertools.product((FIRST, LAST), repeat=len(duals)):
        ranks = [FIRST if u.tank else LAST if u.last else PLAIN for u in units]
        for i, p in zip(duals, picks):
            ranks[i] = p
        yield rank_precedence(ranks)


def follows(units, amounts, must, order):
    """Does taking the damageable units in ``order`` produce ``amounts`` for them?"""
    got = {i: 0 for i in order}
    left = sum(amounts[i] for i in order)
    for k, v in enumerate(order):
        if left == 0:
            break
        if any(must(u, v) and got[u] < lethal(units[u]) for u in order[:k] + order[k + 1 :]):
            return False
        got[v] = min(lethal(units[v]), left)
        left -= got[v]
    if left > 0:  # every unit has lethal: the excess anywhere among them
        return all(amounts[i] >= lethal(units[i]) for i in order)
    return all(amounts[i] == got[i] for i in order)


def brute_legal(units, total, amounts, strict=False):
    if len(amounts) != len(units) or any(a < 0 for a in amounts) or sum(amounts) != total:
        return False
    if any(a and not u.present for u, a in zip(units, amounts)):
        return False
    hit = [i for i, u in enumerate(units) if u.present and not u.immune]
    musts = [strict_precedence(units)] if strict else list(relaxed_precedences(units))
    return any(follows(units, amounts, must, order) for must in musts for order in itertools.permutations(hit))


def splits(total, n):
    if n == 0:
        if total == 0:
            yield ()
        return
    for first in range(total + 1):
        for rest in splits(total - first, n - 1):
            yield (first, *rest)


def brute_assignments(units, total, strict=False):
    return [a for a in splits(total, len(units)) if brute_legal(units, total, a, strict)]


def brute_exists(units, total, strict=False):
    """Does some split satisfy the procedure?  Only the order and the damage kept
    off the immune units are chosen, so no split needs to be listed."""
    hit = [i for i, u in enumerate(units) if u.present and not u.immune]
    sink = any(u.present and u.immune for u in units)
    musts = [strict_precedence(units)] if strict else list(relaxed_precedences(units))
    for kept in range(total + 1) if sink else (total,):
        if not hit:
            if kept == 0:
                return True
            continue
        for must in musts:
            for order in itertools.permutations(hit):
                left, got, ok = kept, {}, True
                for v in order:
                    if left == 0:
                        break
                    if any(must(u, v) and got.get(u, 0) < lethal(units[u]) for u in hit if u != v):
                        ok = False
                        break
                    got[v] = min(lethal(units[v]), left)
                    left -= got[v]
                if ok:
                    return True
    return False


# -- the seed's examples -------------------------------------------------------------------


FOUR = [unit(c) for c in "ABCD"]


def test_five_damage_to_four_3_might_units_is_exactly_3_then_2():
    """damage.lethal-first's example: at least 3 on one unit, the other 2 on a second."""
    assert legal_assignments(FOUR, 5) == perms((3, 2, 0, 0))
    check = check_assignment(FOUR, 5, (2, 1, 1, 1))
    assert not check.legal and check.broken == ("damage.lethal-first",)
    assert check.explanation.startswith("A 2, B 1, C 1, D 1: breaks damage.lethal-first: ")
    # damage.no-overkill: no more than lethal while other units lack it.
    assert check_assignment(FOUR, 5, (4, 1, 0, 0)).broken == ("damage.no-overkill",)
    assert check_assignment(FOUR, 5, (3, 2, 0, 0)).legal


def test_tank_then_plain_then_caitlyn():
    """damage.requirements' example: the tank first, the plain unit next, Caitlyn last."""
    units = [unit("Guard", 3, "tank"), unit("Plain", 3), unit("Caitlyn", 3, "last")]
    assert legal_assignments(units, 2) == [(2, 0, 0)]
    assert legal_assignments(units, 4) == [(3, 1, 0)]
    assert legal_assignments(units, 7) == [(3, 3, 1)]
    for split in [(0, 3, 1), (1, 3, 0), (3, 0, 1), (0, 1, 3)]:
        check = check_assignment(units, 4, split)
        assert not check.legal and check.broken == ("damage.requirements",), check.explanation
    two = [unit("Guard", 3, "tank"), unit("Caitlyn", 3, "last")]
    check = check_assignment(two, 3, (0, 3))
    assert check.explanation == "Guard 0, Caitlyn 3: breaks damage.requirements: Guard has lethal (3) before Caitlyn gets any"
    # Every unit has lethal: the rest may go anywhere.
    assert check_assignment(units, 10, (4, 3, 3)).legal


def test_two_tanks_either_first_then_the_other_then_the_plain_unit():
    """damage.same-priority's example."""
    units = [unit("T1", 3, "tank"), unit("T2", 3, "tank"), unit("Plain", 3)]
    assert legal_assignments(units, 4) == [(1, 3, 0), (3, 1, 0)]
    assert legal_assignments(units, 7) == [(3, 3, 1)]
    assert check_assignment(units, 4, (3, 0, 1)).broken == ("damage.requirements",)


def test_caitlyn_with_tank_first_or_last_never_between():
    """damage.exclusive's example: she follows one requirement of her choice."""
    units = [unit("Caitlyn", 3, "tank", "last"), unit("N1"), unit("N2")]
    assert legal_assignments(units, 4) == [(0, 1, 3), (0, 3, 1), (3, 0, 1), (3, 1, 0)]
    check = check_assignment(units, 4, (1, 3, 0))
    assert not check.legal
    assert check.broken == ("damage.requirements", "damage.exclusive")
    assert check.explanation.startswith("Caitlyn 1, N1 3, N2 0: breaks damage.requirements, damage.exclusive: ")
    assert check_assignment(units, 4, (3, 1, 0)).ranks == (FIRST, PLAIN, PLAIN)
    assert check_assignment(units, 4, (1, 3, 0)).ranks is None
    assert check_assignment(units, 7, (1, 3, 3)).ranks == (LAST, PLAIN, PLAIN)


def test_two_caitlyns_with_tank_may_both_come_before_the_plain_unit():
    """damage.exclusive.each-unit's example: each chooses on its own."""
    units = [unit("Caitlyn", 3, "tank", "last"), unit("Caitlyn", 3, "tank", "last"), unit("Plain")]
    check = check_assignment(units, 4, (3, 1, 0))
    assert check.legal and check.ranks == (FIRST, FIRST, PLAIN)
    # Both first, both last, one on each side: every order of the three is open.
    assert legal_assignments(units, 4) == perms((3, 1, 0))
    # Names shared by two units are numbered in explanations.
    assert check_assignment(units, 4, (2, 2, 0)).explanation.startswith("Caitlyn#1 2, Caitlyn#2 2, Plain 0: breaks damage.lethal-first")


def test_immune_kayn_may_be_passed_over():
    """damage.undamageable's example: no amount is lethal to Kayn and no rule binds him."""
    units = [unit("Kayn", 3, "immune", "tank"), unit("Plain", 3)]
    assert check_assignment(units, 3, (0, 3)).legal
    # Reading (findings R3): he may also take any amount, at any time.
    assert legal_assignments(units, 3) == [(0, 3), (1, 2), (2, 1), (3, 0)]
    assert legal_assignments(units, 5) == [(k, 5 - k) for k in range(6)]


def test_absent_units_and_marked_damage():
    units = [unit("A", 3, marked=2), unit("B", 3, present=False), unit("C", 0)]
    # damage.lethal: 1 more is lethal to A, and a 0-might unit still needs 1.
    assert legal_assignments(units, 2) == [(1, 0, 1)]
    assert check_assignment(units, 2, (1, 1, 0)).broken == ("damage.assign",)


def test_bad_input_is_refused_with_a_reason():
    with pytest.raises(DamageInputError, match="negative"):
        check_assignment(FOUR, 5, (6, -1, 0, 0))
    with pytest.raises(DamageInputError, match="3 amounts for 4 units"):
        check_assignment(FOUR, 5, (3, 2, 0))
    with pytest.raises(DamageInputError, match="might"):
        check_assignment([unit("A", 9)], 1, (1,))
    with pytest.raises(DamageInputError, match="might"):
        legal_assignments([unit("A", -1)], 1)
    with pytest.raises(DamageInputError, match="marked"):
        check_assignment([unit("A", 2, marked=3)], 1, (1,))
    with pytest.raises(DamageInputError, match="tank"):
        check_assignment([DamageUnit("A", 2, tank=1)], 1, (1,))
    with pytest.raises(DamageInputError, match="total"):
        check_assignment(FOUR, -1, (0, 0, 0, 0))
    with pytest.raises(DamageInputError, match="whole number"):
        check_assignment(FOUR, 5, (2.5, 2.5, 0, 0))


def test_the_rules_by_id_on_both_backends():
    units = [unit("Guard", 3, "tank"), unit("Caitlyn", 3, "last")]
    rules = assignment_rules(units, 3, (0, 3), CONCRETE)
    assert tuple(rules) == RULE_IDS
    assert rules["damage.requirements"] is False and rules["damage.assign"] is True
    symbolic = assignment_rules(units, 3, (0, 3), SYMBOLIC)
    assert all(isinstance(v, z3.BoolRef) for v in symbolic.values())
    assert is_legal(units, 3, (3, 0), CONCRETE) is True
    assert z3.is_false(z3.simplify(is_legal(units, 3, (0, 3), SYMBOLIC)))


def test_is_legal_adds_no_variable():
    """Choices are enumerated: the guard's only constants are the caller's, so negating it is sound."""
    m = z3.Int("might")
    units = [DamageUnit("A", m, True, True), unit("B"), DamageUnit("C", 2, z3.Bool("t"), z3.Bool("l"))]
    amounts = [z3.Int(f"a{i}") for i in range(3)]
    seen = set()

    def walk(e):
        if z3.is_const(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            seen.add(str(e))
        for c in e.children():
            walk(c)

    walk(is_legal(units, 4, amounts, SYMBOLIC))
    assert seen <= {"might", "t", "l", "a0", "a1", "a2"}


# -- the backends agree; Z3 and the brute force agree --------------------------------------


@st.composite
def configurations(draw, max_units=4, max_might=4):
    n = draw(st.integers(1, max_units))
    units = []
    for i in range(n):
        might = draw(st.integers(0, max_might))
        units.append(
            DamageUnit(
                chr(ord("A") + i),
                might,
                draw(st.booleans()),
                draw(st.booleans()),
                draw(st.integers(0, 4)) == 0,  # immune now and then
                draw(st.integers(0, might)),
                draw(st.integers(0, 5)) > 0,  # mostly present
            )
        )
    return units


def symbolic_copy(units):
    """The same units with every field a Z3 constant, and the equations fixing them."""
    out, fix = [], []
    for i, u in enumerate(units):
        v = DamageUnit(
            u.name,
            z3.Int(f"might{i}"),
            z3.Bool(f"tank{i}"),
            z3.Bool(f"last{i}"),
            z3.Bool(f"immune{i}"),
            z3.Int(f"marked{i}"),
            z3.Bool(f"present{i}"),
        )
        fix += [v.might == u.might, v.tank == u.tank, v.last == u.last, v.immune == u.immune, v.marked == u.marked, v.present == u.present]
        out.append(v)
    return out, fix


@functools.cache
def all_symbolic(n: int):
    """The total, the amounts and is_legal over ``n`` units whose every field is
    a Z3 constant (``symbolic_copy``'s names): one term for all configurations
    of ``n`` units, which each example fixes by its own equations."""
    sym, _ = symbolic_copy([DamageUnit(chr(ord("A") + i), 0) for i in range(n)])
    t, a = z3.Int("total"), [z3.Int(f"a{i}") for i in range(n)]
    return t, a, is_legal(sym, t, a, SYMBOLIC)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(configurations(), st.data())
def test_concrete_and_symbolic_is_legal_agree(units, data):
    amounts = data.draw(st.lists(st.integers(0, 5), min_size=len(units), max_size=len(units)))
    total = data.draw(st.sampled_from([sum(amounts), sum(amounts) + 1]))
    concrete = is_legal(units, total, amounts, CONCRETE)
    assert concrete == brute_legal(units, total, amounts)
    # Everything symbolic, fixed by equations.
    sym, fix = symbolic_copy(units)
    t, a, legal = all_symbolic(len(units))
    solver = z3.Solver()
    solver.add(*fix, t == total, *(x == v for x, v in zip(a, amounts)), legal)
    assert (solver.check() == z3.sat) == concrete
    # The state machine's mix: plain flags and amounts, symbolic might and presence.
    mixed = [DamageUnit(u.name, s.might, u.tank, u.last, u.immune, u.marked, s.present) for u, s in zip(units, sym)]
    solver = z3.Solver()
    solver.add(*fix, is_legal(mixed, total, amounts, SYMBOLIC))
    assert (solver.check() == z3.sat) == concrete


def test_over_arrays_is_legal_agrees_with_concrete_row_by_row():
    """VECTOR decides each row as CONCRETE does, on the rows asked only (no
    elsewhere), for splits asked one after another of the same arrays, as a
    player's split edges ask them; and for units whose every field is a
    constant, under a mask of rows or one bool."""
    rng = random.Random(21)
    rows = 80
    names, tank, last = ("A", "B", "C"), (True, False, True), (False, False, True)
    might = [np.array([rng.randint(0, 3) for _ in range(rows)], np.int32) for _ in names]
    marked = [np.array([rng.randint(0, int(m)) for m in ms], np.int32) for ms in might]
    immune = [np.zeros(rows, np.int32), np.array([rng.random() < 0.3 for _ in range(rows)], np.int32), np.zeros(rows, np.int32)]
    present = [np.array([rng.random() < 0.8 for _ in range(rows)], np.int32) for _ in names]
    units = tuple(DamageUnit(n, might[k], tank[k], last[k], immune[k], marked[k], present[k]) for k, n in enumerate(names))
    total = np.array([rng.randint(0, 6) for _ in range(rows)], np.int32)
    splits = sorted({tuple(rng.randint(0, 4) for _ in names) for _ in range(40)})
    for amounts in splits:
        asked = np.array([rng.random() < 0.7 for _ in range(rows)])
        over_rows = np.broadcast_to(is_legal(units, total, amounts, VECTOR, asked=asked), (rows,))
        for r in range(rows):
            plain = [DamageUnit(n, int(might[k][r]), tank[k], last[k], bool(immune[k][r]), int(marked[k][r]), bool(present[k][r]))
                     for k, n in enumerate(names)]
            assert bool(over_rows[r]) == (bool(asked[r]) and is_legal(plain, int(total[r]), amounts, CONCRETE)), (amounts, r)
    fixed = [unit("Guard", 2, "tank"), unit("Caitlyn", 2, "last")]
    mask = np.array([True, False, True])
    assert list(is_legal(fixed, 2, (2, 0), VECTOR, asked=mask)) == [True, False, True]
    assert not np.any(is_legal(fixed, 2, (0, 2), VECTOR, asked=mask))
    assert bool(is_legal(fixed, 2, (2, 0), VECTOR)) and not is_legal(fixed, 2, (2, 0), VECTOR, asked=False)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(configurations(), st.integers(0, 3))
def test_z3_enumeration_equals_the_brute_force(units, extra):
    reach = sum(lethal(u) for u in units if u.present and not u.immune)
    total = min(reach + extra, 9)
    assert legal_assignments(units, total) == brute_assignments(units, total)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(configurations(max_units=3), st.data())
def test_an_unsat_core_is_broken_and_minimal(units, data):
    """The rules a check names cannot all hold for any ranks, and each of them is needed."""
    amounts = data.draw(st.lists(st.integers(0, 4), min_size=len(units), max_size=len(units)))
    total = data.draw(st.sampled_from([sum(amounts), sum(amounts) + 1]))
    check = check_assignment(units, total, amounts)
    assert check.legal == brute_legal(units, total, amounts)
    if check.legal:
        assert all(assignment_rules(units, total, amounts, CONCRETE, ranks=check.ranks).values())
        return
    # Without damage.exclusive a tank+last unit may take any rank, between the others too.
    free = [range(-1, 4) if u.tank and u.last else [FIRST if u.tank else LAST if u.last else PLAIN] for u in units]

    def holds(rules):
        return any(
            all(assignment_rules(units, total, amounts, CONCRETE, ranks=r)[x] for x in rules) for r in itertools.product(*free)
        )

    assert not holds(check.broken)
    for rule in check.broken:
        assert holds([x for x in check.broken if x != rule]), (check.explanation, rule)


# -- a legal assignment always exists ----------------------------------------------------------


def test_a_legal_assignment_always_exists_at_the_default_bounds():
    result = prove_assignment_exists()
    assert result.verdict == "proved", result.message
    assert "1..5 opposing units, might 0..6" in result.message and "total 0..35" in result.message


def test_the_proof_can_fail_when_the_rules_ask_the_impossible():
    def no_excess(units, total, amounts, b, ranks=None):
        rules = dict(assignment_rules(units, total, amounts, b, ranks=ranks))
        # Impossible once the damage exceeds what kills everyone: nowhere to put the rest.
        rules["extra"] = b.And(*(a <= b.If(u.immune, 0, u.lethal) for u, a in zip(units, amounts)))
        return rules

    result = prove_assignment_exists(max_units=2, max_might=2, rules=no_excess)
    assert result.verdict == "counterexample", result.message
    assert result.alternative is None and "no legal assignment exists there" in result.message
    assert result.total > sum(0 if u.immune else lethal(u) for u in result.counterexample)


def test_the_proof_can_fail_with_a_witness_that_ignores_tank():
    def careless(units, total, b):
        plain = [DamageUnit(u.name, u.might, False, False, u.immune, u.marked, u.present) for u in units]
        return greedy_assignment(plain, total, b)

    result = prove_assignment_exists(max_units=3, max_might=3, witness=careless)
    assert result.verdict == "counterexample", result.message
    assert any(u.tank or u.last for u in result.counterexample)
    assert result.alternative is not None
    assert brute_legal(list(result.counterexample), result.total, result.alternative)
    assert not brute_legal(list(result.counterexample), result.total, result.witness)
    assert result.message.startswith("counterexample: ") and "might" in result.message


def test_the_existence_proof_against_the_brute_force_at_3_units_might_3():
    """Every mix of up to three units, lethal 1..3 (might 0..3 less marked damage), every total:
    the greedy witness is legal by the brute force, so a legal split exists."""
    kinds = [(kind, might) for kind in KINDS for might in (1, 2, 3)]
    for n in (1, 2, 3):
        for mix in itertools.combinations_with_replacement(kinds, n):
            units = [DamageUnit(chr(65 + i), m, *KINDS[k]) for i, (k, m) in enumerate(mix)]
            for total in range(n * 4 + 1):
                split = greedy_assignment(units, total, CONCRETE)
                assert brute_legal(units, total, split), (mix, total, split)


# -- requirements that exclude each other --------------------------------------------------------


@pytest.fixture(scope="module")
def exclusions():
    return exclusive_requirements(5)


def test_the_exclusive_patterns_all_mix_tank_last_with_a_plain_unit(exclusions):
    patterns = [e.pattern for e in exclusions]
    assert ("none", "none", "tank+last") in patterns  # the seed's Caitlyn with Tank and two plain units
    assert all("tank+last" in p and "none" in p and "immune" not in p for p in patterns)
    assert [e.pattern for e in exclusions if e.minimal] == [("none", "tank+last")]
    assert len(exclusions) == 35
    for e in exclusions:
        assert "damage.requirements" in e.core
        assert any("'s tank" in r for r in e.reasons) and any("'s last" in r for r in e.reasons)


def test_each_exclusion_is_stuck_by_the_brute_force_and_free_under_the_seed(exclusions):
    for e in exclusions:
        units = list(e.units)
        assert not brute_exists(units, e.total, strict=True), e.describe()
        assert brute_legal(units, e.total, e.relaxed), e.describe()


def test_the_exclusive_patterns_against_the_brute_force_up_to_3_units():
    """A pattern is exclusive exactly when some configuration (mights 1..2 suffice
    here) leaves the strict reading without any split."""
    found = {e.pattern for e in exclusive_requirements(3)}
    brute = set()
    for n in (1, 2, 3):
        for pattern in itertools.combinations_with_replacement(tuple(KINDS), n):
            for mights in itertools.product((1, 2), repeat=n):
                units = [DamageUnit(chr(65 + i), m, *KINDS[k]) for i, (k, m) in enumerate(zip(pattern, mights))]
                if any(not brute_exists(units, t, strict=True) for t in range(sum(mights) + 1)):
                    brute.add(pattern)
                    break
    assert found == brute


def test_a_pattern_is_stuck_first_where_the_fixed_order_says_and_never_without_tank_and_last():
    """The first stuck configuration in the fixed order (mights from all 1,
    totals upwards), by the brute force; a pattern with no stuck configuration
    at all (no unit has both tank and last) goes on to the exists-forall query,
    which finds none."""
    pattern = ("none", "tank", "tank+last")
    mights, total = _stuck_configuration(pattern, 6, limits.GUARD_MS)
    units = [DamageUnit(chr(65 + i), m, *KINDS[k]) for i, (k, m) in enumerate(zip(pattern, mights))]
    assert (mights, total) == ((1, 1, 1), 2)
    assert not brute_exists(units, total, strict=True)
    assert all(brute_exists(units, t, strict=True) for t in range(total))
    assert _stuck_configuration(("none", "tank", "last"), 6, limits.GUARD_MS) is None


def test_every_total_at_once_finds_each_totals_splits():
    """legal_assignments(up_to=True), which builds the model's assignment
    edges, finds the splits of every total from 0 to the bound, and no other."""
    rng = random.Random(1)
    for _ in range(40):
        units = []
        for i in range(rng.randint(1, 4)):
            might = rng.randint(0, 4)
            units.append(DamageUnit(f"u{i}", might, tank=rng.random() < 0.3, last=rng.random() < 0.3,
                                    immune=rng.random() < 0.2, marked=rng.randint(0, might)))
        most = rng.randint(0, 7)
        each = sorted(split for total in range(most + 1) for split in legal_assignments(units, total))
        assert legal_assignments(units, most, up_to=True) == each, (units, most)

"""Legal damage assignments (damage.*): every example of the seed's damage
step, and a second, order-based reading of the rules that must agree with
`legal_assignments` on random small configurations; the order an assignment
is written in (`order_problem`, `in_order`) checked the same two ways."""

from __future__ import annotations

import random
from itertools import permutations, product

import pytest

from engine.riftbound.damage import Target, in_order, legal_assignments, lethal_amount, order_problem, problem, ranks

PLAIN3 = Target(3)
TANK = Target(3, tank=True)
CAIT = Target(3, last=True)
CAIT_TANK = Target(3, tank=True, last=True)
KAYN_IMMUNE = Target(4, immune=True)


def test_five_damage_to_four_plain_units_is_three_and_two():
    """damage.lethal-first, the seed's example: 3 to one unit, the other 2 to another."""
    legal = legal_assignments([PLAIN3] * 4, 5)
    assert len(legal) == 12
    assert all(sorted(a) == [0, 0, 2, 3] for a in legal)
    assert (2, 1, 1, 1) not in legal
    assert problem([PLAIN3] * 4, (2, 1, 1, 1), 5) == "damage.lethal-first"
    assert problem([PLAIN3] * 4, (4, 1, 0, 0), 5) == "damage.no-overkill"


def test_tank_then_plain_then_caitlyn():
    """damage.requirements: Tank first, the plain unit next, Caitlyn last."""
    units = [TANK, PLAIN3, CAIT]
    assert legal_assignments(units, 2) == [(2, 0, 0)]
    assert legal_assignments(units, 5) == [(3, 2, 0)]
    assert legal_assignments(units, 7) == [(3, 3, 1)]
    assert problem(units, (0, 3, 2), 5) == "damage.requirements"
    assert problem(units, (3, 0, 2), 5) == "damage.requirements"


def test_two_tanks_in_either_order_then_the_plain_unit():
    """damage.same-priority: either Tank first, then the other, then the plain unit."""
    units = [TANK, TANK, PLAIN3]
    assert legal_assignments(units, 4) == [(1, 3, 0), (3, 1, 0)]
    assert legal_assignments(units, 7) == [(3, 3, 1)]
    assert problem(units, (3, 0, 1), 4) == "damage.requirements"


def test_caitlyn_with_tank_first_or_last_never_between():
    """damage.exclusive: Caitlyn with Tank takes damage first or last."""
    units = [CAIT_TANK, PLAIN3, PLAIN3]
    legal = legal_assignments(units, 4)
    assert (3, 1, 0) in legal and (3, 0, 1) in legal  # first
    assert (0, 3, 1) in legal and (0, 1, 3) in legal  # last
    assert (1, 3, 0) not in legal and (1, 0, 3) not in legal  # between
    assert problem(units, (1, 3, 0), 4) == "damage.exclusive"
    assert legal_assignments(units, 7) == [(1, 3, 3), (3, 1, 3), (3, 3, 1)]


def test_two_caitlyns_with_tank_both_before_the_plain_unit():
    """damage.exclusive.each-unit: each chooses on its own; both may go first."""
    units = [CAIT_TANK, CAIT_TANK, PLAIN3]
    legal = legal_assignments(units, 4)
    assert (3, 1, 0) in legal and (1, 3, 0) in legal  # both Caitlyns first
    assert (0, 1, 3) in legal  # the plain unit first, both Caitlyns last
    assert legal_assignments(units, 7) == [(1, 3, 3), (3, 1, 3), (3, 3, 1)]


def test_immune_kayn_may_be_passed_over():
    """damage.undamageable: no amount is lethal to him; he binds nothing."""
    units = [KAYN_IMMUNE, PLAIN3]
    assert lethal_amount(KAYN_IMMUNE) is None
    assert (0, 4) in legal_assignments(units, 4)  # passed over; the excess on the last damageable unit
    assert legal_assignments(units, 4) == [(0, 4), (1, 3), (2, 2), (3, 1), (4, 0)]
    assert legal_assignments([KAYN_IMMUNE, TANK, PLAIN3], 3) == [(0, 3, 0), (1, 2, 0), (2, 1, 0), (3, 0, 0)]


def test_marked_damage_lowers_the_lethal_amount_never_below_one():
    assert lethal_amount(Target(3, damage=2)) == 1
    assert lethal_amount(Target(3, damage=5)) == 1
    assert lethal_amount(Target(0)) == 1
    assert legal_assignments([Target(3, damage=2), PLAIN3], 3) == [(0, 3), (1, 2)]


def test_zero_damage_and_records_of_other_shapes():
    assert legal_assignments([PLAIN3, TANK], 0) == [(0, 0)]
    assert legal_assignments([], 0) == [()]
    assert legal_assignments([], 3) == []
    as_dicts = [{"might": 3, "marked": 0, "tank": True}, {"might": 3, "damage": 0}]
    assert legal_assignments(as_dicts, 4) == legal_assignments([TANK, PLAIN3], 4)
    assert ranks(CAIT_TANK) == (0, 2)


def fills_in_order(units: list[Target], amounts: tuple[int, ...], need: dict[int, int], order: tuple[int, ...]) -> bool:
    """Along ``order`` the units' ranks can be chosen never to go down (Tank and
    Caitlyn-with-Tank choosing either end), and each unit is full before the
    next gets any damage."""
    for choice in product(*(ranks(units[i]) for i in order)):
        if any(a > b for a, b in zip(choice, choice[1:])):
            continue
        if all(amounts[order[k]] >= need[order[k]] or not any(amounts[j] for j in order[k + 1:]) for k in range(len(order))):
            return True
    return False


def by_order(units: list[Target], amounts: tuple[int, ...]) -> bool:
    """A second reading, procedural: there is an order of the damageable units,
    ranks never going down along it (Tank and Caitlyn-with-Tank choosing either
    end), such that each unit is full before the next gets any, and no unit
    gets more than its lethal amount while some unit is not full."""
    damageable = [i for i, t in enumerate(units) if not t.immune]
    need = {i: max(1, units[i].might - units[i].damage) for i in damageable}
    all_full = all(amounts[i] >= need[i] for i in damageable)
    if not all_full and any(amounts[i] > need[i] for i in damageable):
        return False
    for order in permutations(damageable):
        if fills_in_order(units, amounts, need, order):
            return True
    return False


def compositions(total: int, parts: int):
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in compositions(total - first, parts - 1):
            yield (first,) + rest


@pytest.mark.parametrize("seed", range(6))
def test_the_search_agrees_with_the_order_reading(seed):
    rng = random.Random(seed)
    for _ in range(25):
        units = [Target(rng.randint(0, 6), rng.choice([0, 0, 1, 2]), rng.random() < 0.3, rng.random() < 0.3,
                        rng.random() < 0.15) for _ in range(rng.randint(1, 4))]
        total = rng.randint(0, 9)
        expected = sorted(a for a in compositions(total, len(units)) if by_order(units, a))
        assert legal_assignments(units, total) == expected, (units, total)
        assert expected, "some assignment is always legal"


def test_the_seed_examples_as_orders():
    """The same examples, written in the order the damage is handed out."""
    four = [PLAIN3] * 4
    assert order_problem(four, (3, 2, 0, 0)) is None
    assert order_problem(four, (2, 3, 0, 0)) == "damage.lethal-first"  # the 2 before the 3
    assert order_problem([TANK, PLAIN3, CAIT], (3, 3, 1)) is None
    assert order_problem([PLAIN3, TANK, CAIT], (3, 3, 1)) == "damage.requirements"
    assert order_problem([TANK, CAIT, PLAIN3], (3, 3, 1)) == "damage.requirements"
    # damage.exclusive: Caitlyn with Tank first or last, never between the plain units.
    assert order_problem([CAIT_TANK, PLAIN3, PLAIN3], (3, 3, 1)) is None
    assert order_problem([PLAIN3, PLAIN3, CAIT_TANK], (3, 3, 1)) is None
    assert order_problem([PLAIN3, CAIT_TANK, PLAIN3], (3, 3, 1)) == "damage.exclusive"
    # A Tank left with nothing while a plain unit got some: it should have come first.
    assert order_problem([PLAIN3, TANK], (2, 0)) == "damage.requirements"
    # damage.undamageable: Kayn, immune, is bound by no order.
    assert order_problem([KAYN_IMMUNE, PLAIN3, PLAIN3], (1, 3, 1)) is None
    assert order_problem([PLAIN3, KAYN_IMMUNE, PLAIN3], (1, 1, 3)) == "damage.lethal-first"


def by_written_order(units: list[Target], amounts: tuple[int, ...], written: tuple[int, ...]) -> bool:
    """A second reading of one written order: some procedural order of the
    damageable units (as in `by_order`) keeps the units given damage in the
    written order and puts those given nothing after them."""
    damageable = [i for i in written if not units[i].immune]
    given = [i for i in damageable if amounts[i]]
    need = {i: max(1, units[i].might - units[i].damage) for i in damageable}
    for order in permutations(damageable):
        if [i for i in order if amounts[i]] != given or any(amounts[i] for i in order[len(given):]):
            continue
        if fills_in_order(units, amounts, need, order):
            return True
    return False


@pytest.mark.parametrize("seed", range(4))
def test_every_written_order_of_a_legal_assignment_is_judged_as_the_procedure_would(seed):
    rng = random.Random(100 + seed)
    refused = 0
    for _ in range(20):
        units = [Target(rng.randint(0, 6), rng.choice([0, 0, 1, 2]), rng.random() < 0.3, rng.random() < 0.3,
                        rng.random() < 0.15) for _ in range(rng.randint(1, 4))]
        total = rng.randint(0, 9)
        for amounts in legal_assignments(units, total):
            offered = in_order(units, amounts)
            assert order_problem([units[i] for i in offered], [amounts[i] for i in offered]) is None, (units, amounts)
            for written in permutations(range(len(units))):
                ok = order_problem([units[i] for i in written], [amounts[i] for i in written]) is None
                assert ok == by_written_order(units, amounts, written), (units, amounts, written)
                refused += not ok
    assert refused, "some written order is refused"

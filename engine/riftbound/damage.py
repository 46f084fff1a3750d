"""Assigning combat damage (the seed's step 2, damage.*): which whole
assignments of a total among the opposing units are legal.

This module knows nothing of the game: it takes small records (might, marked
damage, Tank, takes-damage-last, cannot-be-damaged) and a total, so it can be
compared on its own with another enumeration.

The reading (the same as the model's, docs/findings-riftbound.md R3-R4, R15-R16):

- damage.lethal: lethal damage is more than zero and at least the unit's might,
  so the least lethal amount for a unit that already has damage marked is
  max(1, might - marked). A unit that cannot be damaged has no lethal amount
  (damage.undamageable); one that cannot be destroyed has this one all the
  same (assumed:indestructible-bound: line 55's lethal damage "that can
  destroy it" is not read as freeing it).
- A unit that can be damaged is *full* when it gets at least its lethal
  amount, *partial* when it gets some but less, *empty* when it gets none.
- damage.lethal-first: at most one unit is partial (lethal damage goes to one
  unit before the next gets any).
- damage.no-overkill: while some unit is not full, each full unit gets exactly
  its lethal amount; once every unit is full, the rest may go anywhere
  (assumed:excess-anywhere: the whole total is assigned, line 49).
- damage.requirements, damage.same-priority: each unit has a priority rank,
  Tank 0, plain 1, takes-damage-last 2; the full units, then the partial one,
  then the empty ones must be in an order whose ranks never go down, and units
  of one rank may come in any order.
- damage.exclusive, damage.exclusive.each-unit: a unit with both Tank and
  takes-damage-last has two requirements that exclude each other; the assigner
  picks rank 0 or rank 2 for it, for each such unit on its own.
- damage.undamageable: a unit that cannot be damaged is bound by none of this:
  it may be passed over and may be given any amount at any time.
  Reading: the exemption works both ways; any amount may be
  put on such a unit, where it is simply lost when damage is dealt.
- damage.assign: the amounts are whole numbers, never negative, and add up
  to exactly the total; a total of 0 leaves only the all-zero assignment.

An assignment is also a sequence: the order in which the assigner hands out
damage (`order_problem`). The rules above say which amounts some order makes
legal; a given order must be one of them: each unit given damage gets its
lethal amount before the next gets any (damage.lethal-first), ranks never go
down along the order (damage.requirements, damage.exclusive), and the units
given nothing are never reached, so they count as coming after all the rest.
Any order of the same amounts that the rules allow has the same outcome.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Any, Iterable, Sequence

FIRST, PLAIN, LAST = 0, 1, 2


@dataclass(frozen=True)
class Target:
    """One opposing unit as the assigner sees it."""

    might: int
    damage: int = 0  # damage already marked on it
    tank: bool = False
    last: bool = False
    immune: bool = False


def as_target(unit: Any) -> Target:
    """A `Target` from a Target, a mapping or any object with the fields
    (`damage` may also be called `marked`)."""
    if isinstance(unit, Target):
        return unit
    get = unit.get if isinstance(unit, dict) else (lambda k, d=None: getattr(unit, k, d))
    marked = get("damage", None)
    if marked is None:
        marked = get("marked", 0)
    return Target(int(get("might", 0)), int(marked or 0), bool(get("tank", False)), bool(get("last", False)),
                  bool(get("immune", False)))


def lethal_amount(t: Target) -> int | None:
    """damage.lethal: the least damage that is lethal to the unit, or None for
    a unit that cannot be damaged (damage.undamageable). Might below 0 counts as 0."""
    if t.immune:
        return None
    return max(1, max(0, t.might) - t.damage)


def ranks(t: Target) -> tuple[int, ...]:
    """damage.requirements, damage.exclusive: the priority ranks the assigner
    may give the unit (two when Tank and takes-damage-last exclude each other)."""
    if t.tank and t.last:
        return (FIRST, LAST)
    if t.tank:
        return (FIRST,)
    if t.last:
        return (LAST,)
    return (PLAIN,)


def problem(units: Sequence[Any], amounts: Sequence[int], total: int) -> str | None:
    """The rule id an assignment breaks first, or None when it is legal."""
    targets = [as_target(u) for u in units]
    if len(amounts) != len(targets) or any(not isinstance(a, int) or a < 0 for a in amounts):
        return "damage.assign"  # one whole, non-negative amount for each opposing unit
    if sum(amounts) != total:
        return "damage.assign"  # the whole total is assigned, no more
    full, partial, empty = [], [], []
    for t, a in zip(targets, amounts):
        need = lethal_amount(t)
        if need is None:
            continue  # damage.undamageable, assumed:undamageable-sink: free at any time
        (full if a >= need else partial if a > 0 else empty).append((t, a, need))
    if len(partial) > 1:
        return "damage.lethal-first"
    if partial or empty:
        if any(a > need for _, a, need in full):
            return "damage.no-overkill"
    if not _ordered([t for t, _, _ in full], [t for t, _, _ in partial], [t for t, _, _ in empty]):
        both = any(t.tank and t.last for t, _, _ in full + partial + empty)
        return "damage.exclusive" if both else "damage.requirements"
    return None


def order_problem(units: Sequence[Any], amounts: Sequence[int]) -> str | None:
    """The rule id that the order of an assignment breaks (units and amounts
    in the order the assigner hands damage out), or None when that order is
    one the rules allow. Units that cannot be damaged are left out: no order
    binds them (damage.undamageable)."""
    steps = [(t, a) for t, a in zip((as_target(u) for u in units), amounts) if lethal_amount(t) is not None]
    given = [(t, a) for t, a in steps if a > 0]
    if any(a < lethal_amount(t) for t, a in given[:-1]):
        return "damage.lethal-first"  # a unit short of lethal damage, then another given some
    rank = FIRST
    for t, _ in given:
        # The lowest rank still allowed leaves the most room to the units after it.
        fits = [r for r in ranks(t) if r >= rank]
        if not fits:
            return _rank_rule(t for t, _ in steps)
        rank = fits[0]
    if any(max(ranks(t)) < rank for t, a in steps if a == 0):
        return _rank_rule(t for t, _ in steps)  # a unit that must come earlier is left with nothing
    return None


def _rank_rule(targets: Iterable[Target]) -> str:
    """damage.exclusive where a unit's requirements exclude each other, else damage.requirements."""
    return "damage.exclusive" if any(t.tank and t.last for t in targets) else "damage.requirements"


def in_order(units: Sequence[Any], amounts: Sequence[int]) -> list[int]:
    """An order the rules allow for a legal assignment (`problem` is None), as
    indices into `units`: the units given their full lethal amount by their
    lowest rank, then the one given less, then the units that cannot be
    damaged, then the units given nothing; ties keep the units' order
    (damage.same-priority)."""
    targets = [as_target(u) for u in units]

    def key(i: int) -> tuple[int, int]:
        t, a = targets[i], amounts[i]
        need = lethal_amount(t)
        if a == 0:
            return (3, 0)
        if need is None:
            return (2, 0)
        if a < need:
            return (1, 0)
        return (0, min(ranks(t)))

    return sorted(range(len(targets)), key=key)


def _ordered(full: list[Target], partial: list[Target], empty: list[Target]) -> bool:
    """damage.requirements, damage.same-priority, damage.exclusive.each-unit:
    is there a choice of rank for each unit (one choice per unit) such that the
    full units, then the partial one, then the empty ones never go down in rank?"""
    units = full + partial + empty
    for choice in product(*(ranks(t) for t in units)):
        r_full = choice[:len(full)]
        r_partial = choice[len(full):len(full) + len(partial)]
        r_empty = choice[len(full) + len(partial):]
        top_full = max(r_full, default=FIRST)
        low_empty = min(r_empty, default=LAST)
        if top_full > low_empty:
            continue
        if r_partial and not (top_full <= r_partial[0] <= low_empty):
            continue
        return True
    return False


def legal_assignments(units: Iterable[Any], total: int) -> list[tuple[int, ...]]:
    """Every legal whole assignment of `total` among `units`, as tuples of
    amounts in the units' order, sorted. A plain search: each unit in turn gets
    every amount that leaves the rest of the total, with at most one partial unit
    so far (damage.lethal-first); each complete assignment is then checked
    against `problem`."""
    targets = [as_target(u) for u in units]
    if total < 0:
        raise ValueError(f"a damage total cannot be negative: {total}")
    found: list[tuple[int, ...]] = []
    chosen: list[int] = []

    def walk(i: int, left: int, partials: int) -> None:
        if i == len(targets):
            if left == 0 and problem(targets, chosen, total) is None:
                found.append(tuple(chosen))
            return
        t = targets[i]
        need = lethal_amount(t)
        amounts = [left] if i == len(targets) - 1 else range(left + 1)
        for a in amounts:
            partial = need is not None and 0 < a < need
            if partial and partials:
                continue
            chosen.append(a)
            walk(i + 1, left - a, partials + partial)
            chosen.pop()

    walk(0, total, 0)
    return sorted(found)

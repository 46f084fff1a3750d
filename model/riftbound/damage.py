"""Legal combat damage assignment in Riftbound (the damage.* rules of seeds/003).

In the combat damage step each side's total (damage.totals) is split by its
player among the opposing units in the combat (damage.assign).  Which splits
are legal is the subject of this module:

- damage.lethal: a unit's lethal amount is the least non-zero damage that
  reaches its might, counting damage already marked on it:
  ``max(1, might - marked)``;
- damage.lethal-first: a unit gets its lethal amount before another gets any,
  so at most one unit is left with some damage but less than lethal;
- damage.no-overkill: while some unit still lacks lethal damage, no unit gets
  more than its lethal amount;
- damage.requirements: tank units take damage first, last units (Caitlyn) last;
- damage.same-priority: units at the same priority are taken in any order;
- damage.exclusive / damage.exclusive.each-unit: a unit with both tank and
  last follows just one of the two, each such unit chosen on its own;
- damage.undamageable: an immune unit is bound by none of the above.

The legality of one split is written once over a backend (``model.backend``),
so the same guard serves explicit search on plain values and Z3 on terms.
``check_assignment`` names the rules a split breaks through an unsat core,
``legal_assignments`` lists the legal splits, ``prove_assignment_exists``
shows that a legal split always exists, and ``exclusive_requirements`` finds
the unit mixes whose requirements cannot all be honoured, which is what
damage.exclusive settles.

The reading (docs/findings-riftbound.md, R3-R4): every unit that can be
damaged gets a rank, tank 0, plain 1, last 2, a tank-and-last unit 0 or 2 as
its assigner chooses.  A split is legal when, for some choice of ranks, it is
what assigning in rank order produces: whole lethal amounts to the units
taken first, what is left short of lethal to one unit, nothing to the rest;
and once every unit has lethal damage, the excess anywhere.
"""

from __future__ import annotations

import functools
import itertools
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

import numpy as np
import z3

from model import limits
from model.backend import CONCRETE, SYMBOLIC, VECTOR, Backend

#: Ranks (damage.requirements): tank units are taken first, plain units next,
#: last units at the end.  A unit with both takes FIRST or LAST (damage.exclusive).
FIRST, PLAIN, LAST = 0, 1, 2

#: The largest might a unit can bring to the damage step (checked by ``check_assignment``).
# Reading (current_might): printed might is 0..6, a rallying cry adds 1 for the combat
# (assumed:rallying-cry) and lethal is read off current might (damage.step: "current
# might"), so a unit in the damage step may have might 7.  The existence proof's
# default bound is the printed 6; it takes any bound, or none.
MAX_MIGHT = 7

#: The requirement sets a unit can have, as ``exclusive_requirements`` names them,
#: with the (tank, last, immune) flags of each.
KINDS: Mapping[str, tuple[bool, bool, bool]] = {
    "none": (False, False, False),
    "tank": (True, False, False),
    "last": (False, True, False),
    "tank+last": (True, True, False),
    "immune": (False, False, True),
}

#: The rule ids ``assignment_rules`` returns, in the order a reader meets them.
RULE_IDS = ("damage.assign", "damage.lethal-first", "damage.no-overkill", "damage.requirements", "damage.exclusive")


class DamageInputError(ValueError):
    """A unit, total or split that no combat can produce (not a broken rule)."""


# -- values that may be plain or Z3 terms ---------------------------------------------
# Each helper folds plain values in Python, so that the concrete backend never
# meets a term and the symbolic backend builds no term for what is already decided.


def _plain(x: Any) -> bool:
    return not isinstance(x, z3.ExprRef)


def _and(b: Backend, *xs: Any) -> Any:
    terms = []
    for x in xs:
        if _plain(x):
            if not x:
                return False
        else:
            terms.append(x)
    if not terms:
        return True
    return terms[0] if len(terms) == 1 else b.And(*terms)


def _or(b: Backend, *xs: Any) -> Any:
    terms = []
    for x in xs:
        if _plain(x):
            if x:
                return True
        else:
            terms.append(x)
    if not terms:
        return False
    return terms[0] if len(terms) == 1 else b.Or(*terms)


def _not(b: Backend, x: Any) -> Any:
    return (not x) if _plain(x) else b.Not(x)


def _implies(b: Backend, a: Any, c: Any) -> Any:
    return _or(b, _not(b, a), c)


def _if(b: Backend, cond: Any, then: Any, other: Any) -> Any:
    if _plain(cond):
        return then if cond else other
    return b.If(cond, then, other)


def _max(b: Backend, x: Any, y: Any) -> Any:
    return max(x, y) if _plain(x) and _plain(y) else b.If(x >= y, x, y)


def _min(b: Backend, x: Any, y: Any) -> Any:
    return min(x, y) if _plain(x) and _plain(y) else b.If(x <= y, x, y)


def _sum(b: Backend, xs: Sequence[Any]) -> Any:
    fixed = sum(x for x in xs if _plain(x))
    terms = [x for x in xs if not _plain(x)]
    return fixed + b.total(terms) if terms else fixed


def _count(b: Backend, flags: Sequence[Any]) -> Any:
    return _sum(b, [_if(b, f, 1, 0) for f in flags])


def _term(b: Backend, x: Any) -> Any:
    """A finished condition: a Python bool on CONCRETE, a Z3 term on SYMBOLIC."""
    if b is CONCRETE:
        return bool(x)
    return z3.BoolVal(bool(x)) if _plain(x) else x


def _show(x: Any) -> str:
    return str(x) if _plain(x) else "?"


# -- units ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DamageUnit:
    """An opposing unit as the damage rules see it.

    Every field but ``name`` may be a plain value or a Z3 term.  ``marked`` is
    the damage already on the unit; ``present``: the unit is still in the
    combat (an absent one must get nothing, damage.assign).  ``exempt``, for
    an immune unit: it may take any amount at any time (the model's reading of
    damage.undamageable); otherwise it gets damage only once every unit that
    can be damaged has lethal (the literal damage.no-overkill, findings R3).
    """

    name: str
    might: Any
    tank: Any = False
    last: Any = False
    immune: Any = False
    marked: Any = 0
    present: Any = True
    exempt: Any = True

    @property
    def lethal(self) -> Any:
        """damage.lethal: the least damage, more than zero, that reaches the unit's might."""
        # Reading (lethal_damage): damage already marked counts towards it, so a 3-might
        # unit with 1 marked needs 2; never less than 1, since lethal damage is
        # non-zero, even for a 0-might unit; and a unit that cannot be destroyed
        # has it too (assumed:indestructible-bound).
        left = self.might - self.marked
        return max(1, left) if _plain(left) else z3.If(left >= 1, left, 1)

    def damageable(self, b: Backend) -> Any:
        """In the combat and not immune: the units the mandatory rules bind (damage.undamageable)."""
        return _and(b, self.present, _not(b, self.immune))

    def keywords(self) -> str:
        """The unit's requirement set as ``KINDS`` names it (plain flags only)."""
        if self.immune:
            return "immune"
        return {(False, False): "none", (True, False): "tank", (False, True): "last", (True, True): "tank+last"}[
            (bool(self.tank), bool(self.last))
        ]


def _labels(units: Sequence[DamageUnit]) -> list[str]:
    """Unit names, numbered where two units share one (two Caitlyns)."""
    names = [u.name for u in units]
    seen: dict[str, int] = {}
    out = []
    for name in names:
        if names.count(name) > 1:
            seen[name] = seen.get(name, 0) + 1
            out.append(f"{name}#{seen[name]}")
        else:
            out.append(name)
    return out


# -- ranks (damage.requirements, damage.exclusive, damage.exclusive.each-unit) --------------


def _chooses(u: DamageUnit) -> bool:
    """Does the unit's rank need a choice?  Yes when it has both tank and last,
    or when a flag is a term (then it might have both)."""
    if _plain(u.tank) and _plain(u.last):
        return bool(u.tank) and bool(u.last)
    return True


def rank_of(u: DamageUnit, b: Backend, choice: int = FIRST) -> Any:
    """The unit's rank: tank FIRST, plain PLAIN, last LAST (damage.requirements);
    with both, ``choice`` (FIRST or LAST), the one requirement followed (damage.exclusive)."""
    return _if(b, u.tank, _if(b, u.last, choice, FIRST), _if(b, u.last, LAST, PLAIN))


def rank_choices(units: Sequence[DamageUnit], b: Backend) -> Iterator[tuple[Any, ...]]:
    """Every choice of ranks the assigner has: each unit that may have both
    tank and last picks FIRST or LAST on its own (damage.exclusive.each-unit).

    The choices are enumerated, never left to a fresh variable: a guard built
    from them stays quantifier-free, so negating it (deadlock checks) is sound.
    """
    choosers = [i for i, u in enumerate(units) if _chooses(u)]
    for picks in itertools.product((FIRST, LAST), repeat=len(choosers)):
        choice = dict(zip(choosers, picks))
        yield tuple(rank_of(u, b, choice.get(i, FIRST)) for i, u in enumerate(units))


# -- the rules, in parts ----------------------------------------------------------------


@dataclass(frozen=True)
class Part:
    """One constraint of a rule, with what it asks in words (for explanations)."""

    rule: str
    says: str
    holds: Any


def _common_parts(units: Sequence[DamageUnit], total: Any, amounts: Sequence[Any], b: Backend) -> list[Part]:
    """damage.assign, damage.lethal-first and damage.no-overkill: the rules that do not look at ranks."""
    names = _labels(units)
    lethal = [u.lethal for u in units]
    hit = [u.damageable(b) for u in units]
    full = [a >= l for a, l in zip(amounts, lethal)]
    parts = [Part("damage.assign", f"the amounts add up to the total, {_show(total)}", _sum(b, list(amounts)) == total)]
    for name, u, a in zip(names, units, amounts):
        parts.append(Part("damage.assign", f"{name} gets no negative amount", a >= 0))
        # Reading (opposing_unit): a unit that has left the combat is no longer an opposing unit
        # there (damage.assign assigns among the units in the combat): it takes nothing.
        parts.append(Part("damage.assign", f"{name} is not in the combat and gets nothing", _implies(b, _not(b, u.present), a == 0)))
    # damage.lethal-first: with the units taken one at a time, each getting its
    # lethal amount before the next gets any, only the unit reached when the
    # damage runs out can be left short.
    # Reading (exempt_from_assignment): an immune unit is in no rule but
    # damage.assign: it may be passed over, and, while ``exempt``, it may also
    # take any amount at any time (nothing is lethal to it, and no mandatory
    # rule binds it; findings R3).
    short = [_and(b, h, a > 0, a < l) for h, a, l in zip(hit, amounts, lethal)]
    parts.append(Part("damage.lethal-first", "at most one unit gets some damage but less than lethal", _count(b, short) <= 1))
    # damage.no-overkill: more than lethal only once no other unit lacks lethal.
    # Reading (assigns_whole_total): 'other units remain' means units that lack
    # lethal damage, so the whole total is assigned (assumed:excess-anywhere).
    # Reading (exempt_from_assignment): immune units never lack it. One that
    # is not exempt takes damage only once none lacks it.
    for i, (name, u, h, a, l) in enumerate(zip(names, units, hit, amounts, lethal)):
        others_full = _and(b, *(_implies(b, hit[j], full[j]) for j in range(len(units)) if j != i))
        parts.append(
            Part(
                "damage.no-overkill",
                f"{name} gets no more than lethal ({_show(l)}) while another unit lacks lethal",
                _implies(b, _and(b, h, a > l), others_full),
            )
        )
        if not (_plain(u.exempt) and u.exempt):
            parts.append(
                Part(
                    "damage.no-overkill",
                    f"{name} cannot be damaged and gets damage only once every other unit has lethal",
                    _implies(b, _and(b, u.present, u.immune, _not(b, u.exempt), a > 0), others_full),
                )
            )
    return parts


def _rank_parts(units: Sequence[DamageUnit], amounts: Sequence[Any], b: Backend, ranks: Sequence[Any]) -> list[Part]:
    """damage.requirements under the given ranks, and damage.exclusive on them."""
    names = _labels(units)
    lethal = [u.lethal for u in units]
    hit = [u.damageable(b) for u in units]
    parts = []
    for i, j in itertools.permutations(range(len(units)), 2):
        ahead = ranks[i] < ranks[j]
        if _plain(ahead) and not ahead:
            continue  # damage.same-priority: equal ranks put no order between two units
        cond = "" if _plain(ahead) else f" when {names[i]} is ranked ahead"
        parts.append(
            Part(
                "damage.requirements",
                f"{names[i]} has lethal ({_show(lethal[i])}) before {names[j]} gets any{cond}",
                _implies(b, _and(b, hit[i], hit[j], ahead, amounts[j] > 0), amounts[i] >= lethal[i]),
            )
        )
    for i, u in enumerate(units):
        if _chooses(u):
            parts.append(
                Part(
                    "damage.exclusive",
                    f"{names[i]} (tank and last) is taken first or last, as one of its requirements says",
                    _implies(b, _and(b, u.tank, u.last), _or(b, ranks[i] == FIRST, ranks[i] == LAST)),
                )
            )
    return parts


def _parts(units: Sequence[DamageUnit], total: Any, amounts: Sequence[Any], b: Backend, ranks: Sequence[Any] | None) -> list[Part]:
    if ranks is None:
        ranks = next(rank_choices(units, b))
    return _common_parts(units, total, amounts, b) + _rank_parts(units, amounts, b, ranks)


def _grouped(parts: Sequence[Part], b: Backend, keys: Sequence[str]) -> dict[str, Any]:
    out = {}
    for key in keys:
        out[key] = _term(b, _and(b, *(p.holds for p in parts if p.rule == key)))
    return out


def assignment_rules(
    units: Sequence[DamageUnit], total: Any, amounts: Sequence[Any], b: Backend, ranks: Sequence[Any] | None = None
) -> dict[str, Any]:
    """The legality of a split under one choice of ranks, as one condition per rule id.

    - ``damage.assign``: the amounts add up to ``total`` (the side's total,
      damage.totals), none is negative, an absent unit gets nothing;
    - ``damage.lethal-first``: at most one damageable unit is short of lethal (damage.lethal);
    - ``damage.no-overkill``: more than lethal only when no damageable unit lacks lethal;
    - ``damage.requirements``: a unit ranked ahead of another has lethal before the
      other gets any (equal ranks: no order, damage.same-priority);
    - ``damage.exclusive``: a unit with tank and last is ranked FIRST or LAST.
    Immune units are left out of all but ``damage.assign`` (damage.undamageable).

    ``ranks``: one rank per unit (plain or terms); by default the first of
    ``rank_choices`` (every tank-and-last unit FIRST).
    """
    return _grouped(_parts(units, total, amounts, b, ranks), b, RULE_IDS)


#: What ``is_legal`` asks of a set of rules: ``assignment_rules``' signature,
#: ``ranks`` included, and one condition per rule id.
Rules = Callable[..., Mapping[str, Any]]


def is_legal(
    units: Sequence[DamageUnit], total: Any, amounts: Sequence[Any], b: Backend, rules: Rules = assignment_rules, asked: Any = True
) -> Any:
    """Is the split legal: do the rules hold for some choice of ranks (damage.exclusive,
    damage.exclusive.each-unit)?  A Python bool on CONCRETE, a quantifier-free Z3 term
    on SYMBOLIC, a boolean array on VECTOR (decided only on the rows ``asked``
    names, no on the others).  ``rules`` replaces ``assignment_rules`` (tests
    break it on purpose)."""
    if b is CONCRETE:
        return _is_legal_split(tuple(units), total, tuple(amounts), rules)
    if b is VECTOR:
        # Each distinct unit and total of the frontier is decided on plain values, as CONCRETE decides it.
        return _vector_cases(units, total).legal(tuple(amounts), rules, asked)
    return _term(b, _or(b, *(_and(b, *rules(units, total, amounts, b, ranks=r).values()) for r in rank_choices(units, b))))


class _Cases:
    """The distinct cases (units and total, as plain values) of the rows of a
    frontier, each row's case numbered once for every split asked of the same
    units and total: a player's split edges all ask theirs of one set of
    arrays, each edge one split, and on a few hundred rows a NumPy call costs
    more than the work, so a split costs a look-up a case and one gather, not
    a pass over the columns."""

    def __init__(self, units: tuple[DamageUnit, ...], total: Any) -> None:
        self.units, self.total = units, total  # held, so that no other array takes their identity
        self.cases: list[tuple[tuple[DamageUnit, ...], int, dict[tuple[Any, ...], bool]]] = []
        #: ``_wanted``'s answers by the identity of the rows asked (each held with its answer).
        self._asked: dict[int, tuple[Any, tuple[Any, list[int]]]] = {}
        names = tuple(u.name for u in units)
        fields = [total, *(getattr(u, f) for u in units for f, _ in _FIELDS)]
        # Only the columns that vary by row are split; the constants are put back in each case.
        varying = [i for i, x in enumerate(fields) if isinstance(x, np.ndarray) and x.ndim]

        def number(*values: int) -> int:
            for i, x in zip(varying, values):
                fields[i] = x
            self.cases.append(_case(names, tuple(fields)))
            return len(self.cases)  # 0 stays for no case

        self.case = VECTOR.each_distinct(number, [fields[i] for i in varying])

    def legal(self, amounts: tuple[int, ...], rules: Rules, asked: Any) -> Any:
        """``is_legal`` of ``amounts`` on each row, decided only for the cases of the rows ``asked``."""
        if not isinstance(self.case, np.ndarray):  # every column a constant: one case
            verdict = self._decide(self.case - 1, amounts, rules)
            return np.logical_and(asked, verdict) if isinstance(asked, np.ndarray) and asked.ndim else bool(asked) and verdict
        asked, wanted = self._wanted(asked)
        verdicts = [self._decide(k - 1, amounts, rules) for k in wanted]
        # Most splits are legal in every case asked or in none: no NumPy call then.
        if not any(verdicts):
            return False
        if all(verdicts):
            return asked
        verdict = np.zeros(len(self.cases) + 1, bool)
        verdict[[k for k, legal in zip(wanted, verdicts) if legal]] = True
        return np.logical_and(verdict.take(self.case), asked)

    def _wanted(self, asked: Any) -> tuple[Any, list[int]]:
        """``asked`` as booleans a row (or one bool), and the numbers of the
        cases of its rows; kept, since the splits of one total ask it of the
        same rows."""
        known = self._asked.get(id(asked))
        if known is not None:
            return known[1]
        held = asked
        if isinstance(asked, np.ndarray) and asked.ndim:
            asked = asked if asked.dtype == bool else asked != 0
            cases = self.case[asked]
        else:
            asked = bool(asked)
            cases = self.case if asked else self.case[:0]
        wanted = np.zeros(len(self.cases) + 1, bool)
        wanted[cases] = True
        found = (asked, np.flatnonzero(wanted).tolist())
        self._asked[id(held)] = (held, found)  # held, so that no other array takes its identity
        return found

    def _decide(self, k: int, amounts: tuple[int, ...], rules: Rules) -> bool:
        units, total, known = self.cases[k]
        key = (amounts, rules)
        if key not in known:
            known[key] = _is_legal_split(units, total, amounts, rules)
        return known[key]


@functools.lru_cache(maxsize=1 << 16)
def _case(names: tuple[str, ...], fields: tuple[int, ...]) -> tuple[tuple[DamageUnit, ...], int, dict[tuple[Any, ...], bool]]:
    """The case of these plain fields (the total, then ``_FIELDS`` of each
    unit): its units, its total and the verdicts on the splits asked of it
    so far, kept from one frontier to the next, which meet the same cases."""
    width = len(_FIELDS)
    units = tuple(_plain_unit(name, fields[1 + k * width : 1 + (k + 1) * width]) for k, name in enumerate(names))
    return units, int(fields[0]), {}


#: The cases ``_vector_cases`` last numbered.
_last_cases: list[_Cases] = []


def _vector_cases(units: Sequence[DamageUnit], total: Any) -> _Cases:
    """The cases of these units and total: those last numbered, when they are
    the same objects (a unit is frozen, so its fields are too; a tuple of them
    the same tuple, as every split edge of a state passes)."""
    if _last_cases:
        held = _last_cases[0]
        if held.total is total and (held.units is units or (
                len(held.units) == len(units) and all(a is b for a, b in zip(held.units, units)))):
            return held
    _last_cases[:] = [_Cases(units if type(units) is tuple else tuple(units), total)]
    return _last_cases[0]


#: The fields of a DamageUnit that may vary by state, and their plain types.
_FIELDS = (("might", int), ("tank", bool), ("last", bool), ("immune", bool), ("marked", int), ("present", bool), ("exempt", bool))


def _plain_unit(name: str, values: Sequence[int]) -> DamageUnit:
    return DamageUnit(name, **{f: kind(x) for (f, kind), x in zip(_FIELDS, values)})


@functools.lru_cache(maxsize=1 << 16)
def _is_legal_split(units: tuple[DamageUnit, ...], total: int, amounts: tuple[int, ...], rules: Rules) -> bool:
    """``is_legal`` on plain values, remembered: a search asks the same split
    of the same units in many states that differ elsewhere (about a hundred
    thousand asks, a few thousand distinct, in lint's Riftbound searches)."""
    return any(all(rules(units, total, amounts, CONCRETE, ranks=r).values()) for r in rank_choices(units, CONCRETE))


def strict_rules(units: Sequence[DamageUnit], total: Any, amounts: Sequence[Any], b: Backend) -> dict[str, Any]:
    """The rules without damage.exclusive: every requirement of every unit at once.

    A unit's tank asks for lethal on it before any unit *without* tank gets
    damage, its last for lethal on every unit *without* last before it gets any
    (units sharing the keyword are at its priority, damage.same-priority).
    For units with one keyword or none this is exactly ``assignment_rules``'
    damage.requirements; a unit with both must then come both before and after
    each plain unit, which damage.exclusive exists to settle.  Used by
    ``exclusive_requirements`` only.
    """
    return _grouped(_strict_parts(units, total, amounts, b), b, RULE_IDS[:4])


def _strict_parts(units: Sequence[DamageUnit], total: Any, amounts: Sequence[Any], b: Backend) -> list[Part]:
    # damage.requirements, damage.same-priority (lines 63-67): "first" and
    # "last" order a unit against the units that lack the keyword; units
    # sharing it are at one priority, so two tank+last units put no order on
    # each other.  One part per unit and keyword,
    # so that an unsat core names whose requirement clashes.
    names = _labels(units)
    hit = [u.damageable(b) for u in units]
    full = [a >= u.lethal for a, u in zip(amounts, units)]
    parts = _common_parts(units, total, amounts, b)
    n = len(units)
    for i, u in enumerate(units):
        others = [j for j in range(n) if j != i]
        if not (_plain(u.tank) and not u.tank):
            ask = [_implies(b, _and(b, u.tank, hit[i], hit[j], _not(b, units[j].tank), amounts[j] > 0), full[i]) for j in others]
            says = f"{names[i]}'s tank: lethal on {names[i]} before a unit without tank gets any"
            parts.append(Part("damage.requirements", says, _and(b, *ask)))
        if not (_plain(u.last) and not u.last):
            ask = [_implies(b, _and(b, u.last, hit[i], hit[j], _not(b, units[j].last), amounts[i] > 0), full[j]) for j in others]
            says = f"{names[i]}'s last: lethal on every unit without last before {names[i]} gets any"
            parts.append(Part("damage.requirements", says, _and(b, *ask)))
    return parts


# -- checking one concrete split --------------------------------------------------------


def _validate(units: Sequence[DamageUnit], total: Any, amounts: Sequence[Any] | None = None) -> None:
    def whole(x: Any) -> bool:
        return isinstance(x, int) and not isinstance(x, bool)

    for u in units:
        if not isinstance(u, DamageUnit):
            raise DamageInputError(f"not a DamageUnit: {u!r}")
        if not isinstance(u.name, str) or not u.name:
            raise DamageInputError(f"a unit needs a non-empty name, not {u.name!r}")
        if not whole(u.might) or not 0 <= u.might <= MAX_MIGHT:
            raise DamageInputError(f"{u.name}: might must be a whole number 0..{MAX_MIGHT}, not {u.might!r}")
        if not whole(u.marked) or not 0 <= u.marked <= u.might:
            raise DamageInputError(f"{u.name}: marked damage must be a whole number 0..{u.might} (its might), not {u.marked!r}")
        for flag in ("tank", "last", "immune", "present", "exempt"):
            if not isinstance(getattr(u, flag), bool):
                raise DamageInputError(f"{u.name}: {flag} must be True or False, not {getattr(u, flag)!r}")
    if not whole(total) or total < 0:
        raise DamageInputError(f"the total must be a whole number >= 0, not {total!r}")
    if amounts is not None:
        if len(amounts) != len(units):
            raise DamageInputError(f"{len(amounts)} amounts for {len(units)} units")
        for u, a in zip(units, amounts):
            if not whole(a):
                raise DamageInputError(f"{u.name}: the amount must be a whole number, not {a!r}")
            if a < 0:
                raise DamageInputError(f"{u.name}: the amount {a} is negative")


def quote(units: Sequence[DamageUnit], amounts: Sequence[Any]) -> str:
    """A split as a reader writes it: 'Guard 0, Caitlyn 3'."""
    return ", ".join(f"{name} {a}" for name, a in zip(_labels(units), amounts))


@dataclass(frozen=True)
class Check:
    """The verdict on one split.  ``broken``: a minimal set of rule ids that
    cannot all hold for it (an unsat core); ``reasons``: the constraints of
    those rules that clash, in words; ``ranks``: for a legal split, a choice of
    ranks that makes it legal."""

    legal: bool
    amounts: tuple[int, ...]
    broken: tuple[str, ...]
    reasons: tuple[str, ...]
    ranks: tuple[int, ...] | None
    explanation: str


class SolverStopped(Exception):
    """Z3 answered unknown: the question is undecided, and no answer is given."""


def _decide(solver: z3.Solver, *assumptions: Any) -> z3.CheckSatResult:
    """sat or unsat, never unknown read as either: a check Ctrl-C stopped
    stays an interrupt, any other unknown is ``SolverStopped``."""
    answer = solver.check(*assumptions)
    if answer == z3.unknown:
        reason = solver.reason_unknown()
        if limits.stopped_by_ctrl_c(reason):
            raise KeyboardInterrupt
        raise SolverStopped(f"the solver stopped before deciding ({reason})")
    return answer


def _core(terms: Sequence[Any]) -> list[int]:
    """The positions of a minimal unsat core of ``terms``: Z3's core over one
    tracked literal per term (``assert_and_track``), then shrunk by deletion
    until no term can be dropped (Z3's own core need not be minimal)."""
    solver = z3.Solver()
    lits = [z3.Bool(f"track:{k}") for k in range(len(terms))]
    for term, lit in zip(terms, lits):
        solver.assert_and_track(_term(SYMBOLIC, term), lit)
    if _decide(solver) == z3.sat:
        raise ValueError("the constraints are satisfiable: no core")
    core = [k for k, lit in enumerate(lits) if any(lit.eq(c) for c in solver.unsat_core())]
    # Tracked literals are assumed in every check, so the trials ask a second
    # solver, each term behind a literal of its own that a trial assumes or not.
    keep = {k: z3.Bool(f"keep:{k}") for k in core}
    trials = z3.Solver()
    trials.add(*(z3.Implies(keep[k], _term(SYMBOLIC, terms[k])) for k in core))
    for k in list(core):
        trial = [j for j in core if j != k]
        if _decide(trials, *(keep[j] for j in trial)) == z3.unsat:
            core = trial
    return core


def _core_parts(parts: Sequence[Part]) -> list[Part]:
    """A minimal set of ``parts`` that cannot all hold."""
    return [parts[k] for k in _core([p.holds for p in parts])]


def check_assignment(units: Sequence[DamageUnit], total: int, amounts: Sequence[int]) -> Check:
    """Is this split legal (every rule of ``assignment_rules``)?  If not, which rules break.

    The choice of ranks is left to Z3 here (one free rank per tank-and-last
    unit), so that dropping damage.exclusive lets such a unit sit between the
    others and the core can name that rule.  Each rule is tracked by one
    literal (``assert_and_track``); the core, shrunk until no rule can be
    dropped, is the set of rules the split breaks together.  A second core,
    over the single constraints of those rules, says in words what clashes.
    """
    _validate(units, total, amounts)
    amounts = tuple(amounts)
    ranks = tuple(z3.Int(f"rank:{i}") if _chooses(u) else rank_of(u, CONCRETE) for i, u in enumerate(units))
    parts = _parts(units, total, amounts, SYMBOLIC, ranks)
    by_rule = {rule: _and(SYMBOLIC, *(p.holds for p in parts if p.rule == rule)) for rule in RULE_IDS}
    head = quote(units, amounts)
    solver = z3.Solver()
    solver.add(*(_term(SYMBOLIC, t) for t in by_rule.values()))
    if _decide(solver) == z3.sat:
        model = solver.model()
        chosen = tuple(r if _plain(r) else model.eval(r, model_completion=True).as_long() for r in ranks)
        return Check(True, amounts, (), (), chosen, f"{head}: legal")
    broken = [RULE_IDS[k] for k in _core(list(by_rule.values()))]
    # Which constraints of the broken rules clash: one literal per constraint.
    reasons = [p.says for p in _core_parts([p for p in parts if p.rule in broken])]
    broken_ids = tuple(r for r in RULE_IDS if r in broken)
    return Check(False, amounts, broken_ids, tuple(reasons), None, f"{head}: breaks {', '.join(broken_ids)}: {'; '.join(reasons)}")


class TooManyAssignments(Exception):
    """More legal splits than the caller allowed: the list would be cut short,
    and a short list would read as the whole answer, so none is given."""


def legal_assignments(units: Sequence[DamageUnit], total: int, up_to: bool = False, most: int | None = None) -> list[tuple[int, ...]]:
    """Every legal split of ``total`` among ``units``, sorted: Z3 models of
    ``is_legal`` over symbolic amounts, each blocked once found. ``up_to``:
    of every total from 0 to ``total``, in one enumeration (the amounts of a
    legal split add up to its total, so they tell the totals apart).
    ``most``: raise ``TooManyAssignments`` on finding one split more (each
    blocked split makes the next query harder, so the work grows with the
    square of the count)."""
    _validate(units, total)
    if most is not None and most < 1:
        raise DamageInputError(f"the most splits to list must be at least 1, not {most!r}")
    amounts = [z3.Int(f"amount:{i}") for i in range(len(units))]
    solver = z3.Solver()
    if up_to:
        spent = z3.Int("total")
        solver.add(spent >= 0, spent <= total, is_legal(units, spent, amounts, SYMBOLIC))
    else:
        solver.add(is_legal(units, total, amounts, SYMBOLIC))
    found = []
    while _decide(solver) == z3.sat:
        model = solver.model()
        values = tuple(model.eval(a, model_completion=True).as_long() for a in amounts)
        found.append(values)
        if most is not None and len(found) > most:
            raise TooManyAssignments(f"more than {most:,} legal assignments")
        solver.add(z3.Or(*(a != v for a, v in zip(amounts, values))) if amounts else z3.BoolVal(False))
    return sorted(found)


# -- a legal split always exists ---------------------------------------------------------


def greedy_assignment(units: Sequence[DamageUnit], total: Any, b: Backend) -> tuple[Any, ...]:
    """A split that follows the rules, written over a backend: the constructive witness.

    The damageable units are taken by rank (every tank-and-last unit FIRST,
    damage.exclusive), then by position; each gets its lethal amount while
    damage lasts (damage.lethal-first, damage.no-overkill), the unit reached
    when it runs out gets the rest, later ones nothing (damage.requirements).
    Damage left once all have lethal goes to the last unit taken; with no
    damageable unit, to the first immune unit in the combat
    (damage.undamageable lets it take any amount).
    """
    return _greedy(units, total, b, [rank_of(u, b, FIRST) for u in units], sink=False)


def _greedy(units: Sequence[DamageUnit], total: Any, b: Backend, rank: Sequence[Any], sink: bool) -> tuple[Any, ...]:
    """Lethal amounts in the order of ``rank`` (ties by position), as ``greedy_assignment`` says.
    ``sink``: when an immune unit is in the combat, it takes all the damage instead."""
    n = len(units)
    lethal = [u.lethal for u in units]
    hit = [u.damageable(b) for u in units]
    shielded = [_and(b, u.present, u.immune) for u in units]

    def before(j: int, i: int) -> Any:  # damageable unit j is taken before damageable unit i
        return _and(b, hit[j], hit[i], _or(b, rank[j] < rank[i], _and(b, rank[j] == rank[i], j < i)))

    need = _sum(b, [_if(b, hit[j], lethal[j], 0) for j in range(n)])
    excess = _max(b, 0, total - need)
    any_shielded = _or(b, *shielded)
    out = []
    for i in range(n):
        first_immune = _and(b, shielded[i], *(_not(b, shielded[j]) for j in range(i)))
        dumped = _if(b, first_immune, total, 0)
        if sink and _plain(any_shielded) and any_shielded:
            out.append(dumped)
            continue
        ahead = _sum(b, [_if(b, before(j, i), lethal[j], 0) for j in range(n) if j != i])
        share = _if(b, hit[i], _min(b, lethal[i], _max(b, 0, total - ahead)), 0)
        taken_last = _and(b, hit[i], *(_not(b, before(i, j)) for j in range(n) if j != i))
        nothing_else = _and(b, first_immune, *(_not(b, hit[j]) for j in range(n)))
        amount = share + _if(b, _or(b, taken_last, nothing_else), excess, 0)
        out.append(_if(b, any_shielded, dumped, amount) if sink else amount)
    return tuple(out)


@dataclass(frozen=True)
class Existence:
    """The verdict of ``prove_assignment_exists``.

    ``counterexample``: a configuration (units and total) where the witness is
    not legal; ``witness`` its split there; ``alternative``: a legal split of
    that configuration found by enumeration, or ``None`` when it has none (then
    the rules themselves leave the assigner stuck, not just the witness).
    """

    verdict: str
    bounds: str
    seconds: float
    message: str
    counterexample: tuple[DamageUnit, ...] | None = None
    total: int | None = None
    witness: tuple[int, ...] | None = None
    alternative: tuple[int, ...] | None = None


def describe_units(units: Sequence[DamageUnit]) -> str:
    """Concrete units as a reader writes them: 'A might 3 (1 marked) tank+last'."""
    words = []
    for name, u in zip(_labels(units), units):
        marked = f" ({u.marked} marked)" if u.marked else ""
        kind = "" if u.keywords() == "none" else f" {u.keywords()}"
        words.append(f"{name} might {u.might}{marked}{kind}")
    return ", ".join(words)


def prove_assignment_exists(
    max_units: int = 5,
    max_might: int | None = 6,
    max_total: int | None = -1,
    timeout_ms: int = limits.GUARD_MS,
    rules: Rules = assignment_rules,
    witness: Callable[..., Sequence[Any]] = greedy_assignment,
) -> Existence:
    """Prove that every configuration in bounds has a legal split (the damage step never gets stuck).

    One Z3 query over a symbolic configuration: ``max_units`` units, each in
    the combat or not (at least one is: damage.both-present), might
    0..``max_might``, marked damage 0..might, any tank/last/immune flags
    (tank and last together included), a total 0..``max_total`` (-1, the
    default: ``max_units * (max_might + 1)``).  It asks for a configuration where
    ``witness`` (the greedy split) is not ``is_legal`` under ``rules``:
    unsat proves a legal split exists everywhere in bounds ("proved"); sat
    is a "counterexample", reported with the witness's split and, from
    ``legal_assignments``-style enumeration, whether any legal split exists
    there; a timeout is "unknown".  ``max_might`` or ``max_total`` None:
    no upper bound (might and totals of any size).
    """
    if max_total == -1:
        max_total = None if max_might is None else max_units * (max_might + 1)
    started = time.perf_counter()
    might = [z3.Int(f"might:{i}") for i in range(max_units)]
    marked = [z3.Int(f"marked:{i}") for i in range(max_units)]
    flags = {k: [z3.Bool(f"{k}:{i}") for i in range(max_units)] for k in ("tank", "last", "immune", "present")}
    units = tuple(
        DamageUnit(chr(ord("A") + i), might[i], flags["tank"][i], flags["last"][i], flags["immune"][i], marked[i], flags["present"][i])
        for i in range(max_units)
    )
    total = z3.Int("total")
    # Eliminating the witness's defined amounts first (solve-eqs) leaves the
    # SMT core a query it decides about six times faster than the default solver.
    solver = z3.Then("simplify", "solve-eqs", "smt").solver()
    limits.limit(solver, timeout_ms)
    for i in range(max_units):
        solver.add(might[i] >= 0, marked[i] >= 0, marked[i] <= might[i])
        if max_might is not None:
            solver.add(might[i] <= max_might)
    solver.add(z3.Or(*flags["present"]), total >= 0)
    if max_total is not None:
        solver.add(total <= max_total)
    split = witness(units, total, SYMBOLIC)
    solver.add(z3.Not(is_legal(units, total, split, SYMBOLIC, rules=rules)))
    answer = solver.check()
    bounds = (
        f"1..{max_units} opposing units, might 0..{'any' if max_might is None else max_might}, marked 0..might, "
        f"any tank/last/immune (tank+last included), total 0..{'any' if max_total is None else max_total}"
    )
    seconds = time.perf_counter() - started
    if answer == z3.unsat:
        return Existence("proved", bounds, seconds, f"proved: a legal assignment exists for all configurations with {bounds}")
    if answer == z3.unknown:
        return Existence("unknown", bounds, seconds, f"unknown: {limits.why_unknown(solver.reason_unknown(), timeout_ms)} (bounds: {bounds})")
    model = solver.model()

    def val(x: Any) -> Any:
        v = model.eval(x, model_completion=True)
        return z3.is_true(v) if z3.is_bool(v) else v.as_long()

    seen = [
        DamageUnit(u.name, val(u.might), val(u.tank), val(u.last), val(u.immune), val(u.marked))
        for u in units
        if val(u.present)
    ]
    t = val(total)
    split_seen = tuple(val(x) for u, x in zip(units, split) if val(u.present))
    alternative = _first_legal(seen, t, rules)
    where = f"{describe_units(seen)}; total {t}"
    tail = (
        f"no legal assignment exists there" if alternative is None else f"the witness fails, but {quote(seen, alternative)} is legal"
    )
    return Existence(
        "counterexample",
        bounds,
        seconds,
        f"counterexample: {where}; witness {quote(seen, split_seen)} is not legal; {tail}",
        tuple(seen),
        t,
        split_seen,
        alternative,
    )


def _first_legal(units: Sequence[DamageUnit], total: int, rules: Rules) -> tuple[int, ...] | None:
    amounts = [z3.Int(f"amount:{i}") for i in range(len(units))]
    solver = z3.Solver()
    solver.add(is_legal(units, total, amounts, SYMBOLIC, rules=rules))
    if _decide(solver) == z3.unsat:
        return None
    return tuple(solver.model().eval(a, model_completion=True).as_long() for a in amounts)


# -- requirements that exclude each other (damage.exclusive) -------------------------------------


@dataclass(frozen=True)
class Exclusion:
    """A requirement pattern whose requirements cannot all be honoured.

    ``pattern``: one ``KINDS`` name per unit, sorted.  ``units`` and ``total``:
    a configuration of it where no split satisfies ``strict_rules``;
    ``core``: the rule ids of a minimal unsat core there, ``reasons`` its
    constraints in words; ``relaxed``: a split that is legal there under the
    seed's rule (``is_legal``); ``minimal``: no smaller sub-pattern is exclusive.
    """

    pattern: tuple[str, ...]
    minimal: bool
    core: tuple[str, ...]
    reasons: tuple[str, ...]
    units: tuple[DamageUnit, ...]
    total: int
    relaxed: tuple[int, ...]

    def describe(self) -> str:
        return (
            f"{' + '.join(self.pattern)}: with {describe_units(self.units)} and {self.total} damage no assignment "
            f"honours every requirement ({'; '.join(self.reasons)}; core {', '.join(self.core)}); "
            f"damage.exclusive makes {quote(self.units, self.relaxed)} legal"
        )


def patterns(max_units: int) -> Iterator[tuple[str, ...]]:
    """Every requirement pattern of 1..max_units units (multisets of ``KINDS``)."""
    for n in range(1, max_units + 1):
        yield from itertools.combinations_with_replacement(tuple(KINDS), n)


def pattern_units(pattern: Sequence[str], mights: Sequence[Any]) -> tuple[DamageUnit, ...]:
    return tuple(
        DamageUnit(chr(ord("A") + i), m, *KINDS[kind]) for i, (kind, m) in enumerate(zip(pattern, mights))
    )


def _strict_witness(units: Sequence[DamageUnit], total: Any, b: Backend) -> tuple[Any, ...]:
    """A split honouring every requirement at once wherever one always exists:
    all damage on an immune unit if there is one (damage.undamageable), else
    lethal amounts in the order tank, then tank+last and plain, then last.
    It fails only where a tank+last unit meets a plain unit."""
    rank = [_if(b, u.tank, _if(b, u.last, PLAIN, FIRST), _if(b, u.last, LAST, PLAIN)) for u in units]
    return _greedy(units, total, b, rank, sink=True)


def _configurations(mights: Sequence[Any], total: Any, max_might: int) -> list[Any]:
    # Mights from 1: a 0-might unit has the same lethal amount (1) as a 1-might one.
    return [*(z3.And(m >= 1, m <= max_might) for m in mights), total >= 0, total <= len(mights) * (max_might + 1)]


def _witness_never_fails(max_units: int, max_might: int, timeout_ms: int) -> set[tuple[str, ...]]:
    """The patterns for which no configuration makes ``_strict_witness`` break
    the strict rules (unsat): no stuck configuration exists.  One solver per
    number of units, the units' keywords left free and each pattern's fixed
    by assumptions, so that the rules' terms are built once per size rather
    than once per pattern."""
    proved: set[tuple[str, ...]] = set()
    for n in range(1, max_units + 1):
        mights = [z3.Int(f"might:{i}") for i in range(n)]
        total = z3.Int("total")
        flags = [[z3.Bool(f"{flag}:{i}") for i in range(n)] for flag in ("tank", "last", "immune")]
        units = tuple(DamageUnit(chr(ord("A") + i), mights[i], *(f[i] for f in flags)) for i in range(n))
        solver = z3.Solver()
        limits.limit(solver, timeout_ms)
        solver.add(*_configurations(mights, total, max_might),
                   z3.Not(z3.And(*strict_rules(units, total, _strict_witness(units, total, SYMBOLIC), SYMBOLIC).values())))
        for pattern in itertools.combinations_with_replacement(tuple(KINDS), n):
            fixed = [f[i] if on else z3.Not(f[i]) for i, kind in enumerate(pattern) for f, on in zip(flags, KINDS[kind])]
            if solver.check(*fixed) == z3.unsat:
                proved.add(pattern)
    return proved


def _stuck_configuration(pattern: Sequence[str], max_might: int, timeout_ms: int) -> tuple[tuple[int, ...], int] | None:
    """The first configuration of the pattern, in a fixed order (mights
    lexicographically from all 1, then totals upwards), for which no split
    satisfies ``strict_rules``; None where there is none, for a pattern where
    ``_strict_witness`` can fail.

    Each candidate is one quantifier-free query (is there a split honouring
    every requirement?) whose answer, unlike a model, is the same in any
    process, so lint's example is the same in any run.  The all-ones mights
    are stuck at a small total for every exclusive pattern up to five units,
    so that row is asked first, and only a pattern with no stuck total there
    takes the exists-forall Z3 query over mights 1..max_might (no marked
    damage: it only lowers lethal, which the mights range over anyway); the
    candidates are then searched up to the configuration it returns.
    """
    n = len(pattern)
    scan = _CandidateScan(pattern, max_might, timeout_ms)
    first = scan.first_stuck([(1,) * n])
    if first is not None:
        return first
    mights = [z3.Int(f"might:{i}") for i in range(n)]
    total = z3.Int("total")
    units = pattern_units(pattern, mights)
    bounds = _configurations(mights, total, max_might)
    amounts = [z3.Int(f"amount:{i}") for i in range(n)]
    solver = z3.Solver()
    limits.limit(solver, timeout_ms)
    solver.add(*bounds, z3.ForAll(amounts, z3.Not(z3.And(*strict_rules(units, total, amounts, SYMBOLIC).values()))))
    answer = solver.check()
    if answer == z3.unknown:
        raise RuntimeError(f"exclusive_requirements: Z3 gave up on {pattern}: {limits.why_unknown(solver.reason_unknown(), timeout_ms)}")
    if answer == z3.unsat:
        return None
    model = solver.model()
    found = tuple(model.eval(m, model_completion=True).as_long() for m in mights), model.eval(total, model_completion=True).as_long()
    # The first row (all ones) was asked above.
    return scan.first_stuck(itertools.islice(itertools.product(range(1, max_might + 1), repeat=n), 1, None), found)


class _CandidateScan:
    """Asks, configuration by configuration, whether a pattern has a split
    honouring every requirement: one solver holds the strict rules over
    symbolic mights and total, each candidate fixed by assumptions."""

    def __init__(self, pattern: Sequence[str], max_might: int, timeout_ms: int) -> None:
        n = len(pattern)
        self.totals = range(n * (max_might + 1) + 1)
        self.timeout_ms, self.pattern = timeout_ms, pattern
        self.mights = [z3.Int(f"might:{i}") for i in range(n)]
        self.total = z3.Int("total")
        amounts = [z3.Int(f"amount:{i}") for i in range(n)]
        self.solver = z3.Solver()
        limits.limit(self.solver, timeout_ms)
        self.solver.add(*strict_rules(pattern_units(pattern, self.mights), self.total, amounts, SYMBOLIC).values())

    def first_stuck(
        self, candidates: Iterable[tuple[int, ...]], until: tuple[tuple[int, ...], int] | None = None
    ) -> tuple[tuple[int, ...], int] | None:
        """The first stuck (mights, total) among ``candidates``, totals
        upwards; the search stops at ``until`` (returned), if given."""
        for candidate in candidates:
            for total in self.totals:
                if (candidate, total) == until:
                    return until
                answer = self.solver.check(*(m == c for m, c in zip(self.mights, candidate)), self.total == total)
                if answer == z3.unknown:
                    why = limits.why_unknown(self.solver.reason_unknown(), self.timeout_ms)
                    raise RuntimeError(f"exclusive_requirements: Z3 gave up on {self.pattern}: {why}")
                if answer == z3.unsat:
                    return candidate, total
        return None


def exclusive_requirements(max_units: int = 5, max_might: int = 6, timeout_ms: int = limits.GUARD_MS) -> list[Exclusion]:
    """Every requirement pattern of up to ``max_units`` units whose requirements exclude each other.

    Formulation.  A pattern is *exclusive* when some configuration of it
    (mights 0..max_might, a total) has no split satisfying ``strict_rules``
    (every requirement of every unit at once, no choice), while the seed's
    rule (damage.exclusive: each tank-and-last unit follows one of the two)
    has a legal split there, which ``prove_assignment_exists`` shows it always
    has.  Not "unsatisfiable for every total > 0": with no damage, or with
    enough to give every unit lethal, the requirements bind nothing, so
    exclusivity shows only at some totals.  Z3 finds the configuration
    (an exists-forall query); a second query at that configuration, over
    tracked strict constraints, gives the unsat core.

    Returns every exclusive pattern (their number is the count of exclusive
    patterns), smallest first, each marked ``minimal`` when no proper
    sub-pattern is exclusive.  Found: the only minimal pattern is
    ``tank+last + none``, a unit with both keywords and a plain unit: its tank
    puts it before the plain unit, its last after it.  The exclusive patterns
    are exactly those holding a tank+last unit and a plain unit and no immune
    unit (an immune unit can take all the damage, damage.undamageable), so the
    seed's example (Caitlyn with Tank and two plain units) is one of them.
    Tank-only and last-only units never clash with a tank+last one: the order
    tank, tank+last, last honours all three.  Counts: 1 exclusive pattern of
    2 units, 4 of 3, 10 of 4, 20 of 5: 35 of the 251 patterns up to 5 units.
    """
    found: dict[tuple[str, ...], Exclusion] = {}
    # First a quick proof, for most patterns, that the witness never fails.
    never_stuck = _witness_never_fails(max_units, max_might, timeout_ms)
    for pattern in patterns(max_units):
        if pattern in never_stuck:
            continue
        stuck = _stuck_configuration(pattern, max_might, timeout_ms)
        if stuck is None:
            continue
        mights, total = stuck
        units = pattern_units(pattern, mights)
        amounts = [z3.Int(f"amount:{i}") for i in range(len(units))]
        parts = _strict_parts(units, total, amounts, SYMBOLIC)
        core = _core_parts(parts)
        relaxed = tuple(greedy_assignment(units, total, CONCRETE))
        if not is_legal(units, total, relaxed, CONCRETE):  # cannot happen: prove_assignment_exists
            raise RuntimeError(f"no legal split under damage.exclusive for {describe_units(units)}, total {total}")
        subs = {
            tuple(sub) for k in range(1, len(pattern)) for sub in itertools.combinations(pattern, k)
        }
        minimal = not any(sub in found for sub in subs)
        found[pattern] = Exclusion(
            pattern,
            minimal,
            tuple(r for r in RULE_IDS if any(p.rule == r for p in core)),
            tuple(p.says for p in core),
            units,
            total,
            relaxed,
        )
    return list(found.values())

"""Explicit-state search over whole frontiers at once, with NumPy.

The same breadth-first search as ``checkers/explicit.py``, level by level:

- a state is an integer key whose digits are its location and its
  variables' values (a tuple variable one digit per slot) over their
  declared domains, each digit a field of bits (``Layout``), in 64-bit
  words (every instance of the three games needs two);
- the frontier's keys are grouped by location; each edge leaving a
  location has its guard evaluated over the ``VECTOR`` backend on every row
  of the group at once (unless its prefilter, asked once for the edges that
  share it, holds on no row), and its update on the rows that enable it.
  A digit is unpacked only when a guard or an update first reads its
  variable (``Fields``), as 32-bit integers: for a small frontier, on all
  of it at once (fewer NumPy calls); for a large one, on the group that
  asks (fewer rows).  A
  successor's key is its predecessor's with the digits the update sets
  cleared and written, so the variables an edge leaves alone cost nothing;
- each successor takes its place in the order explicit search meets them
  (by predecessor, then edge: its predecessor's first place plus its rank
  among that predecessor's successors) and the first of each new key is
  kept, so states are numbered as ``explicit.explore`` numbers them;
- a key is kept as its first word and the number of its other words' row
  among the few distinct such rows (``States``), and the states seen are an
  open-addressing hash table of state numbers over those pairs, given back
  when the search is over;
- a large level is expanded a block of states at a time, and its
  successors added to the states seen a block at a time, so that the
  arrays of a level stay bounded;
- every transition is kept in order of its source, as a bit (is it the
  first to reach its target?) and, for the others, its target; a state
  keeps the number of its set of enabled edges, which gives its
  transitions' edges and count (``VectorExploration``), so that
  ``check`` decides each property over whole arrays of states and
  transitions, each predicate reading only the digits it asks for, with
  explicit search's verdicts and shortest counterexamples, and builds the
  networkx graph only for a liveness property that is violated.  A state's
  parent and edge are not kept: the transition that first reaches it tells them;
- ``check_all`` decides the invariants and liveness properties in one pass
  over the states, each chunk's digits read once for all of them; a step
  property, on a large level, as the search takes its edges (``explore``'s
  ``watch``: on the digits the edge read and the successors' keys), and on
  the others afterwards, from the transitions of its edges alone, found by
  each state's set of enabled edges.

``benchmarks/vector.py`` measures both choices against their alternatives.

An edge whose guard or update cannot run on arrays (one that tests its
state with Python's ``if``) runs row by row over ``CONCRETE`` instead;
``row_by_row`` names those edges.  No edge of the three games needs it:
Riftbound's damage assignment, whose rules only run on plain values, asks
them once per distinct case of the frontier (``Vector.each_distinct``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, Iterator, Mapping, Sequence

import networkx as nx
import numpy as np

from model import limits
from checkers import explicit
from model.backend import CONCRETE, VECTOR
from checkers.explicit import DEFAULT_MAX_STATES
from model.machine import Edge, Guard, Machine, ModelError
from checkers.results import Result
from properties import Deadlock, Eventually, Invariant, Property, StepProperty

WORD_BITS = 64
#: Frontiers of more rows than this have each location's digits read on their own.
GROUP_READS = 1 << 16
#: States of a level expanded at a time (``explore``).
FRONTIER_ROWS = 1 << 20
#: The type of a field over arrays: every declared domain is small, and a
#: guard reads and writes half the bytes it would with 64 bits.
FIELD = np.int32


@dataclass(frozen=True)
class Digit:
    """One place of a key: the value ``lo..hi`` of a variable slot (or of the
    location), stored as ``value - lo`` in ``bits`` bits from bit ``shift``
    of word ``word``."""

    lo: int
    hi: int
    bits: int
    word: int
    shift: int

    @property
    def mask(self) -> np.uint64:
        return np.uint64((1 << self.bits) - 1)


class Layout:
    """How a machine's states pack into keys: the location first, then each
    variable in declaration order, each slot a digit of as many bits as its
    domain needs, a word starting where the next digit would not fit.

    A digit's radix is its domain's size rounded up to a power of two: a
    shift and a mask read it, where an exact mixed radix needs a division
    and a remainder (two to three times slower to unpack a level; both need
    two words on every instance measured, benchmarks/vector.py).
    """

    def __init__(self, machine: Machine) -> None:
        self.machine = machine
        domains = [(0, len(machine.location_names) - 1)]
        #: Each variable's first digit and its length (None: a single value).
        self.span: dict[str, tuple[int, int | None]] = {}
        for v in machine.variables:
            self.span[v.name] = (len(domains), v.length)
            domains += [(v.domain.lo, v.domain.hi)] * (v.length or 1)
        digits, word, shift = [], 0, 0
        for lo, hi in domains:
            bits = (hi - lo).bit_length()
            if shift + bits > WORD_BITS:
                word, shift = word + 1, 0
            digits.append(Digit(lo, hi, bits, word, shift))
            shift += bits
        self.digits = tuple(digits)
        self.words = word + 1
        self._lo = np.array([d.lo for d in digits], np.int64)[:, None]
        self._hi = np.array([d.hi for d in digits], np.int64)[:, None]
        self._shift = np.array([d.shift for d in digits], np.int64)[:, None]
        self._cleared = [((1 << d.bits) - 1) << d.shift for d in digits]
        self._span = (self._hi - self._lo).astype(np.uint64)
        self._is_bool = [False] + [v.domain.is_bool for v in machine.variables for _ in range(v.length or 1)]
        #: By the digits an update writes as arrays: ``_writing``'s constants.
        self._writes: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray, np.ndarray, list[tuple[int, Any]]]] = {}
        #: By the digits an update writes: the bits every other digit keeps (``_kept``).
        self._keeps: dict[tuple[int, ...], np.ndarray] = {}
        # Each digit's lowest value, width (highest less lowest), word and shift, as plain ints.
        self._lo_of = [d.lo for d in digits]
        self._width_of = [d.hi - d.lo for d in digits]
        self._word_of = [d.word for d in digits]
        self._shift_of = [d.shift for d in digits]

    # -- one concrete state --------------------------------------------------

    def pack(self, state: Any) -> tuple[int, ...]:
        words = [0] * self.words
        for d, value in zip(self.digits, self._flat(state)):
            words[d.word] |= (value - d.lo) << d.shift
        return tuple(words)

    def concrete(self, key: Any) -> Any:
        """The concrete state (plain ints, bools and tuples) of one key."""
        return self._assemble([bool(x) if is_bool else x for x, is_bool in zip(self._values(key), self._is_bool)])

    def _assemble(self, values: Any) -> Any:
        """The state whose digits have the values ``values`` (a list, or arrays' rows)."""
        fields = [values[0]]
        for start, length in self.span.values():
            fields.append(values[start] if length is None else tuple(values[start : start + length]))
        return self.machine.State(*fields)

    def _flat(self, state: Any) -> list[int]:
        out = [state.location]
        for v in self.machine.variables:
            value = getattr(state, v.name)
            out.extend(value if v.length is not None else (value,))
        return out

    def _values(self, key: Any) -> list[int]:
        return [(int(key[d.word]) >> d.shift & ((1 << d.bits) - 1)) + d.lo for d in self.digits]

    # -- many states -----------------------------------------------------------

    def digit(self, keys: np.ndarray, j: int) -> np.ndarray:
        """Digit ``j`` of every key, as its value."""
        d = self.digits[j]
        return ((keys[:, d.word] >> np.uint64(d.shift)) & d.mask).astype(np.int64) + d.lo

    def unpack(self, keys: np.ndarray) -> np.ndarray:
        """The values of every digit of every key: one row per digit, one column per state.

        As ``FIELD``s, as the search reads them."""
        words = [np.ascontiguousarray(keys[:, w]) for w in range(self.words)]
        out = np.empty((len(self.digits), len(keys)), FIELD)
        for j, d in enumerate(self.digits):
            out[j] = (words[d.word] >> np.uint64(d.shift)) & d.mask
        out += self._lo
        return out

    def state(self, values: np.ndarray) -> Any:
        """The state whose fields are rows of ``values`` (as ``unpack`` gives them), for ``VECTOR``."""
        return self._assemble(values)

    def reader(self, keys: np.ndarray) -> Callable[[int], np.ndarray]:
        """Digit ``j`` of every key, as its value, for any ``j``: each read once, when first asked."""
        # A digit inside one half of its word is read from that half as 32
        # bits: half the bytes of each pass, and no conversion after it.
        halves: dict[tuple[int, int], np.ndarray] = {}
        read: dict[int, np.ndarray] = {}

        def half(w: int, upper: int) -> np.ndarray:
            if (w, upper) not in halves:
                halves[w, upper] = (keys[:, w] >> np.uint64(32) if upper else keys[:, w]).astype(np.uint32)
            return halves[w, upper]

        def digit(j: int) -> np.ndarray:
            if j not in read:
                d = self.digits[j]
                upper = d.shift >= 32
                if d.bits < 32 and (upper or d.shift + d.bits <= 32):
                    x, shift = half(d.word, upper), d.shift - 32 * upper
                    x = ((x >> np.uint32(shift) if shift else x) & np.uint32(d.mask)).view(FIELD)
                else:
                    x = ((keys[:, d.word] >> np.uint64(d.shift)) & d.mask).astype(FIELD)
                read[j] = x + FIELD(d.lo) if d.lo else x
            return read[j]

        return digit

    def moved(
        self, keys: np.ndarray, pre: Any, changes: Mapping[str, Any], location: int
    ) -> tuple[np.ndarray, list[tuple[str, np.ndarray]]]:
        """The keys of the states ``pre`` (over ``VECTOR``; ``keys`` theirs)
        after the update ``changes`` and a move to ``location``, and for each
        variable that leaves its domain the rows where it does."""
        n = len(keys)
        # Each digit the update sets (the location's first) is cleared and
        # written: its old value is never read, so the update's rows need no
        # digit but those it sets.  A constant's bits are found in Python; the
        # arrays are gathered, so that their checks and key arithmetic run
        # once over all of them: a small frontier pays NumPy's cost per
        # call, not per row.
        at, parts, owners, wrong = self._written(pre, changes)
        arrays: list[np.ndarray] = []
        array_at: list[int] = []
        array_owners: list[str] = []
        fixed = [0] * self.words
        fixed[0] = location << self.digits[0].shift
        lo, width, word, shift = self._lo_of, self._width_of, self._word_of, self._shift_of
        for j, part, owner in zip(at, parts, owners):
            if type(part) is np.ndarray and part.ndim == 1 and len(part) == n and part.dtype.kind in "biu":
                arrays.append(part)
                array_at.append(j)
                array_owners.append(owner)
            elif isinstance(part, (int, np.integer, np.bool_)):
                value = int(part) - lo[j]
                if 0 <= value <= width[j]:
                    fixed[word[j]] |= value << shift[j]
                else:
                    wrong.add(owner)
            else:
                arrays.append(rows(part, n))
                array_at.append(j)
                array_owners.append(owner)
        out = keys & self._kept(tuple(at))
        if any(fixed):
            out |= np.array(fixed, np.uint64)
        bad = None
        if arrays:
            lo_, span, shift_, by_word = self._writing(tuple(array_at))
            # A digit's place value, its value less its lowest: out of the
            # domain exactly where, read as unsigned, it passes the highest.
            place = np.array(arrays, np.int64)
            place -= lo_
            bad = place.view(np.uint64) > span
            if not bad.any():
                bad = None
            # (Shifted as int64, its bits are those of the uint64 it stands for.)
            place <<= shift_
            bits = place.view(np.uint64)
            for w, mine in by_word:
                out[:, w] |= bits[mine] if type(mine) is int else bits[mine].sum(axis=0, dtype=np.uint64)
        out_of_domain = []
        if wrong or bad is not None:
            for name in changes:
                if name in wrong:
                    out_of_domain.append((name, np.ones(n, bool)))
                elif bad is not None:
                    mine = [i for i, owner in enumerate(array_owners) if owner == name]
                    if mine and bad[mine].any():
                        out_of_domain.append((name, bad[mine].any(axis=0)))
        return out, out_of_domain

    def _kept(self, at: tuple[int, ...]) -> np.ndarray:
        """The mask of every bit but those of the digits ``at`` (and the location's), per word."""
        found = self._keeps.get(at)
        if found is None:
            kept = [2**WORD_BITS - 1] * self.words
            for j in (0, *at):
                kept[self.digits[j].word] &= ~self._cleared[j]
            found = self._keeps[at] = np.array(kept, np.uint64)
        return found

    def _writing(self, at: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[tuple[int, int | slice | list[int]]]]:
        """For the digits ``at`` (an update's, written as arrays): their
        lowest values, spans and shifts as columns, and which of them lie in
        each word (one, a slice or a list of rows).  Found once: an edge
        writes the same digits at every level."""
        found = self._writes.get(at)
        if found is None:
            digits = np.array(at)
            by_word: dict[int, list[int]] = {}
            for i, j in enumerate(at):
                by_word.setdefault(self.digits[j].word, []).append(i)
            rows_of = [
                (w, mine[0] if len(mine) == 1 else slice(mine[0], mine[-1] + 1) if mine == list(range(mine[0], mine[-1] + 1)) else mine)
                for w, mine in by_word.items()
            ]
            found = self._writes[at] = (self._lo[digits], self._span[digits], self._shift[digits], rows_of)
        return found

    def _written(self, pre: Any, changes: Mapping[str, Any]) -> tuple[list[int], list[Any], list[str], set[str]]:
        """The digits the update ``changes`` sets, their new values and
        their variables (a slot handed back as it was is left alone), and
        the variables given a tuple of the wrong shape."""
        # A field the guard and update never read cannot be handed back as it
        # was: it is not unpacked to be compared.
        known = pre.__dict__ if isinstance(pre, Fields) else pre._asdict()
        at: list[int] = []
        parts: list[Any] = []
        owners: list[str] = []
        malformed: set[str] = set()
        for name, value in changes.items():
            start, length = self.span[name]
            was = known.get(name)
            if length is None:
                if value is not was:
                    at.append(start)
                    parts.append(value)
                    owners.append(name)
            elif not isinstance(value, tuple) or len(value) != length:
                malformed.add(name)
            elif was is None:
                at.extend(range(start, start + length))
                parts.extend(value)
                owners.extend([name] * length)
            else:
                for j, part, old in zip(range(start, start + length), value, was):
                    if part is not old:
                        at.append(j)
                        parts.append(part)
                        owners.append(name)
        return at, parts, owners, malformed


class Fields:
    """A state over arrays whose fields are read from the keys when a guard
    or update first asks for them: most edges read a few of a state's
    variables, and unpacking every digit of every row took a fifth of the
    search's time on WoW's ``--hand 1``.  Stands for the machine's state
    namedtuple over ``VECTOR``: fields by name and ``_replace``."""

    def __init__(self, layout: Layout, digit: Callable[[int], np.ndarray]) -> None:
        self._layout = layout
        self._digit = digit

    def __getattr__(self, name: str) -> Any:
        # Only a field not read yet gets here; it is then kept on the instance.
        if name.startswith("_"):
            raise AttributeError(name)
        if name == "location":
            value: Any = self._digit(0)
        elif name in self._layout.span:
            start, length = self._layout.span[name]
            value = self._digit(start) if length is None else tuple([self._digit(j) for j in range(start, start + length)])
        else:
            raise AttributeError(name)
        self.__dict__[name] = value
        return value

    def _replace(self, **changes: Any) -> "Fields":
        out = object.__new__(Fields)
        out.__dict__.update(self.__dict__, **changes)
        return out


class NotVectorized(Exception):
    """A guard or update gave something other than one integer or boolean per row."""


def rows(value: Any, n: int) -> np.ndarray:
    """A guard's or update's result as one value for each of ``n`` rows."""
    a = np.asarray(value)
    if a.dtype.kind not in "biu" or a.shape not in ((), (n,)):
        raise NotVectorized(f"{a.dtype} of shape {a.shape} for {n} rows")
    return a if a.shape else np.broadcast_to(a, (n,))


# --------------------------------------------------------------------------
# The states seen

#: No state's number (state numbers are int32: 4 bytes a slot).  A slot
#: holds ``EMPTY`` less the number it holds, so that a free slot holds 0: a
#: grown table is taken zeroed, pages the system hands over as they are
#: first touched, where filling it with a mark wrote every page (a second of
#: the search's page faults on WoW's ``--hand 1``).
EMPTY = np.iinfo(np.int32).max
_MIX = np.uint64(0x9E3779B97F4A7C15)
_MIX_WORD = np.uint64(0xC2B2AE3D27D4EB4F)
#: Keys put back in a grown hash table at a time.
REHASH_KEYS = 1 << 20
#: The most of its slots a hash table fills before it grows (to twice its
#: size, or to what is needed: growing by half took more rehashing, and a
#: tenth more time on WoW's ``--turns 3``).  Linear probing's runs lengthen
#: as the table fills; at most half full, it took 8 to 16 bytes a state.
FILL = 0.7
#: Blocks larger than this are mapped by the system on their own (glibc's
#: largest threshold): they grow in place, without a copy, to what is needed.
MAPPED_BYTES = 32 << 20
#: Keys added at a time: bounds the arrays that probing builds (some 40
#: bytes a key) whatever the size of the level.
ADD_KEYS = 1 << 20


def _grown(array: np.ndarray, length: int) -> np.ndarray:
    """``array`` with room for ``length`` rows, grown in place where it can be:
    the system moves a large block's pages, not its bytes, and the old rows
    and the new are never held side by side.  A small block is copied as it
    grows: it grows by an eighth at least."""
    if length <= len(array):
        return array
    shape = (length if array.nbytes > MAPPED_BYTES else max(length, len(array) * 9 // 8), *array.shape[1:])
    try:
        array.resize(shape)
        return array
    except ValueError:  # a view of the array is held elsewhere: copied instead
        grown = np.empty(shape, array.dtype)
        grown[: len(array)] = array
        return grown


def _rows_equal(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Is row ``i`` of ``a`` row ``i`` of ``b``, for each ``i``?"""
    equal = a[:, 0] == b[:, 0]
    for w in range(1, a.shape[1]):
        equal &= a[:, w] == b[:, w]
    return equal


def _trimmed(array: np.ndarray, length: int) -> np.ndarray:
    """``array``'s first ``length`` rows, the room after them given back (in place where it can be)."""
    try:
        array.resize((length, *array.shape[1:]))
        return array
    except ValueError:  # a view of the array is held elsewhere: copied instead
        return array[:length].copy()


class Visited:
    """The keys seen, numbered in the order first added.

    ``keys[i]`` is the key of number ``i``.  An open-addressing hash table
    (linear probing, at most ``FILL`` full, of any size) holds the numbers,
    so a key is stored once, in ``keys``, grown as it fills by an eighth
    (``_grown``): little room is kept for keys to come.
    """

    def __init__(self, words: int) -> None:
        self.count = 0
        self.slots = np.zeros(4096, np.int32)
        self.keys = np.empty((0, words), np.uint64)

    @property
    def nbytes(self) -> int:
        return self.keys.nbytes + self.slots.nbytes

    def rows(self, start: int, stop: int) -> np.ndarray:
        """The keys numbered ``start`` up to ``stop``, a row each."""
        return self.keys[start:stop]

    def add(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Number the keys not seen before, each once, in the order given;
        return the positions in ``keys`` of those numbered, and the number of
        every key (the probing that adds a key finds the number of one seen).
        ``ADD_KEYS`` at a time: a block's keys are numbered before the next's,
        as they would be in one go."""
        if len(keys) > ADD_KEYS:
            parts = [(a, *self.add(keys[a : a + ADD_KEYS])) for a in range(0, len(keys), ADD_KEYS)]
            return np.concatenate([a + new for a, new, _ in parts]), np.concatenate([number for _, _, number in parts])
        # (Looking first at each key's first slot, to probe and make room for
        # the others alone, cost a tenth more time on WoW's ``--hand 1``.)
        keys = self._form(keys)
        base, n = self.count, len(keys)
        self._reserve(base + n)
        # Each key is a candidate under the provisional number base + its position.
        slot = self._home(keys)
        size = len(self.slots)
        pending = np.arange(n)
        # The pending keys' provisional numbers, as the table holds numbers:
        # compared with what a slot holds in half the bytes of int64.
        candidate = np.arange(base, base + n, dtype=np.int32)
        taken = np.full(n, -1)
        number = np.empty(n, np.int32)
        # (``take`` and ``compress``, not indexing: the same rows in about
        # half the time, on the arrays of a large level.)
        at = slot
        while pending.size:
            holder = EMPTY - self.slots.take(at)
            free = np.flatnonzero(holder == EMPTY)
            if free.size:
                # Candidates racing for one free slot: the first in order
                # wins it (the least number, the greatest slot value).
                claimed = at.take(free)
                np.maximum.at(self.slots, claimed, EMPTY - candidate.take(free))
                holder[free] = EMPTY - self.slots.take(claimed)
            found = holder == candidate
            won = np.flatnonzero(found)
            taken[pending.take(won)] = at.take(won)
            # A winner holds its own key; the others' keys are compared with the holder's.
            others = np.flatnonzero(~found)
            found[others] = self._same(holder.take(others), keys, pending.take(others), base)
            known = np.flatnonzero(found)
            number[pending.take(known)] = holder.take(known)
            left = ~found
            pending, candidate = pending.compress(left), candidate.compress(left)
            at = slot.take(pending) + 1
            at[at == size] = 0  # a run that passes the table's end goes on from its start
            slot[pending] = at
        new = np.flatnonzero(taken >= 0)
        self.slots[taken.take(new)] = EMPTY - (base + np.arange(len(new), dtype=np.int32))
        self._put(keys, new, base)
        self.count += len(new)
        # A new key's provisional number becomes its place among the new ones.
        provisional = np.flatnonzero(number >= base)
        place = np.empty(n, np.int32)
        place[new] = base + np.arange(len(new), dtype=np.int32)
        number[provisional] = place.take(number.take(provisional) - base)
        return new, number

    def find(self, keys: np.ndarray) -> np.ndarray:
        """The number of each key (as ``_form`` gives them) whose first slot
        holds it, -1 for the others (keys not seen, or whose probing goes
        further): one look a key."""
        number = np.full(len(keys), -1, np.int32)
        if not self.count:
            return number
        holder = EMPTY - self.slots.take(self._home(keys))
        at = np.flatnonzero(holder != EMPTY)
        held = holder.take(at)
        same = self._equal(held, keys.take(at, axis=0))
        number[at.compress(same)] = held.compress(same)
        return number

    # -- how the keys are held: as given, a row each ---------------------------

    def _form(self, keys: np.ndarray) -> np.ndarray:
        """The keys as the hash table compares them."""
        return keys

    def _held(self, numbers: np.ndarray | slice) -> np.ndarray:
        """The keys numbered ``numbers``, as ``_form`` gives them."""
        return self.keys[numbers] if isinstance(numbers, slice) else self.keys.take(numbers, axis=0)

    def _equal(self, numbers: np.ndarray, keys: np.ndarray) -> np.ndarray:
        """Is the key numbered ``numbers[i]`` the key ``keys[i]`` (as ``_form`` gives them), for each ``i``?"""
        return _rows_equal(self.keys.take(numbers, axis=0), keys)  # whole rows at once: a key's words lie side by side

    def _put(self, keys: np.ndarray, new: np.ndarray, base: int) -> None:
        """Hold the rows ``new`` of ``keys`` (as ``_form`` gives them) under the numbers from ``base`` on."""
        self.keys = _grown(self.keys, base + len(new))
        np.take(keys, new, axis=0, out=self.keys[base : base + len(new)])

    # -- the table -----------------------------------------------------------------

    def _same(self, holder: np.ndarray, keys: np.ndarray, pending: np.ndarray, base: int) -> np.ndarray:
        """Is the key numbered ``holder`` (a provisional number from ``base``
        on: the key at that place of ``keys``) the key at ``pending``, for
        each pair?"""
        same = np.empty(len(holder), bool)
        for held in (True, False):
            at = np.flatnonzero(holder < base if held else holder >= base)
            rows = holder.take(at)
            theirs = keys.take(pending.take(at), axis=0)
            same[at] = self._equal(rows, theirs) if held else _rows_equal(keys.take(rows - base, axis=0), theirs)
        return same

    def _home(self, keys: np.ndarray) -> np.ndarray:
        """Each key's first slot: the top bits of a product of its words
        (Fibonacci hashing) scaled to the table's size, in place on one array."""
        h = keys[:, 0] * _MIX
        for w in range(1, keys.shape[1]):
            h ^= keys[:, w] * _MIX_WORD
            h *= _MIX
        h >>= np.uint64(32)
        h *= np.uint64(len(self.slots))
        h >>= np.uint64(32)
        return h.astype(np.int64)

    def _reserve(self, need: int) -> None:
        if need >= EMPTY:
            raise OverflowError(f"{need} states and successors do not fit state numbers of 32 bits")
        if need > FILL * len(self.slots):
            size = max(int(need / FILL) + 1, 2 * len(self.slots))
            del self.slots  # the old table is not read again: given back before the new one is taken
            self.slots = np.zeros(size, np.int32)
            self._rehash()

    def _rehash(self) -> None:
        """Put every number back in the (larger) table, ``REHASH_KEYS`` at a
        time, by linear probing: the keys all differ, so a number takes the
        first free slot from its first slot on, no key is compared, and
        numbers racing for one slot leave one of them there.  The table is
        at most half as full as it may be, so the runs are short.  (Sorting
        every number by its first slot and placing them in one sweep held a
        word of 8 bytes for every state at once: the search's most.)"""
        size = len(self.slots)
        for first in range(0, self.count, REHASH_KEYS):
            stop = min(first + REHASH_KEYS, self.count)
            at = self._home(self._held(slice(first, stop)))
            value = EMPTY - np.arange(first, stop, dtype=np.int32)
            while at.size:
                free = np.flatnonzero(self.slots.take(at) == 0)
                claimed = at.take(free)
                self.slots[claimed] = value.take(free)
                left = np.ones(len(at), bool)
                left[free] = self.slots.take(claimed) != value.take(free)
                at, value = at.compress(left), value.compress(left)
                at += 1
                at[at == size] = 0  # a run that passes the table's end goes on from its start


class States(Visited):
    """``Visited`` for the search's keys of several words, held from the
    start as ``VectorExploration`` keeps them: each key's first word
    (``low``) and the number of the row of its other words among the
    distinct such rows (``tail`` into ``tails``, a table of its own, numbered
    as first met), in the smallest unsigned type that holds those numbers.
    The hash table compares these pairs.  The later words hold the
    slow-moving variables: some ten thousand rows serve the 40 million
    states of WoW's ``--hand 1``, whose keys then take 10 bytes, not 16."""

    def __init__(self, words: int) -> None:
        self.count = 0
        self.slots = np.zeros(4096, np.int32)
        self.low = np.empty(0, np.uint64)
        self.tail = np.empty(0, np.uint8)
        self.tails = Visited(words - 1)

    @property
    def nbytes(self) -> int:
        return self.low.nbytes + self.tail.nbytes + self.tails.nbytes + self.slots.nbytes

    def rows(self, start: int, stop: int) -> np.ndarray:
        out = np.empty((stop - start, 1 + self.tails.keys.shape[1]), np.uint64)
        out[:, 0] = self.low[start:stop]
        out[:, 1:] = self.tails.keys.take(self.tail[start:stop], axis=0)
        return out

    def _form(self, keys: np.ndarray) -> np.ndarray:
        # A key whose later words are new is itself new: ``tails`` numbers
        # rows in the order the states that have them are first met.
        later = np.ascontiguousarray(keys[:, 1:])
        # Most rows are in the table already, and found at one look.
        number = self.tails.find(later)
        missed = np.flatnonzero(number < 0)
        if missed.size:
            number[missed] = self.tails.add(later.take(missed, axis=0))[1]
            width = np.min_scalar_type(self.tails.count - 1)
            if width.itemsize > self.tail.itemsize:
                self.tail = self.tail.astype(width)
        pairs = np.empty((len(keys), 2), np.uint64)
        pairs[:, 0] = keys[:, 0]
        pairs[:, 1] = number
        return pairs

    def _held(self, numbers: np.ndarray | slice) -> np.ndarray:
        low, tail = (self.low[numbers], self.tail[numbers]) if isinstance(numbers, slice) else (self.low.take(numbers), self.tail.take(numbers))
        pairs = np.empty((len(low), 2), np.uint64)
        pairs[:, 0] = low
        pairs[:, 1] = tail
        return pairs

    def _equal(self, numbers: np.ndarray, pairs: np.ndarray) -> np.ndarray:
        # The first words first: most keys that differ differ there, and the
        # tails of the others alone are read (a second look into memory).
        equal = self.low.take(numbers) == pairs[:, 0]
        alike = np.flatnonzero(equal)
        equal[alike] = self.tail.take(numbers.take(alike)) == pairs[:, 1].take(alike)
        return equal

    def _put(self, pairs: np.ndarray, new: np.ndarray, base: int) -> None:
        end = base + len(new)
        self.low, self.tail = _grown(self.low, end), _grown(self.tail, end)
        np.take(pairs[:, 0], new, out=self.low[base:end])
        self.tail[base:end] = pairs[:, 1].take(new)


def seen_table(words: int) -> Visited:
    """The table of the states seen for keys of ``words`` words."""
    return States(words) if words > 1 else Visited(words)


# --------------------------------------------------------------------------
# The search


@dataclass
class VectorExploration:
    """The reachable states of a machine, numbered as ``explicit.explore`` numbers them.

    State ``i`` has key ``keys[i]``; it was first reached from state
    ``parent[i]`` by edge ``machine.edges[edge[i]]`` (-1 for an initial
    state).  Level ``d`` holds states ``level_starts[d]`` up to
    ``level_starts[d + 1]``.

    A key is held as its first word (``low``) and, where it has more, the
    number of the row its other words make among the distinct such rows
    (``tail`` into ``tails``): the later words hold the slow-moving
    variables, and a few thousand rows of them serve millions of states
    (WoW's ``--hand 1``: 10 bytes a key, not 16).  ``key_rows`` puts keys
    back together; ``keys``, all of them.
    """

    machine: Machine
    layout: Layout
    low: np.ndarray
    level_starts: tuple[int, ...]
    transitions: int  # edges taken from expanded states, as explicit search counts them
    seconds: float
    complete: bool  # every reachable state was expanded
    expanded: int  # levels up to this one were expanded (all of them when complete)
    row_by_row: frozenset[str]  # edges evaluated one state at a time over CONCRETE
    #: The expanded states, outside terminal locations, that enable no edge:
    #: deadlocks (nobody and no rule can act), in the order they were found.
    dead_ends: np.ndarray
    #: Every transition taken from an expanded state, in the order explicit
    #: search takes them (by source, then edge): a bit, set where it is the
    #: first to reach its target (packed eight to a byte); and the target's
    #: number of each of the others (in the smallest unsigned type that
    #: holds every state's number).  The first to reach a state need not say
    #: which: states are numbered in the order first reached, so their
    #: targets count up from the last initial state's
    #: (``step_post``).  Where it holds fewer bytes, the targets most often
    #: reached again (``often``, at most ``OFTEN`` of them: on HotA, the
    #: dozen game-over states every concession leads to) are kept as their
    #: place in ``often`` (``seen_code``, a byte), with a bit for each such
    #: transition saying whether its target is one of them (``seen_often``);
    #: ``step_seen`` then holds the others' (``seen``: all of them).
    step_first: np.ndarray
    step_seen: np.ndarray
    often: np.ndarray
    seen_often: np.ndarray
    seen_code: np.ndarray
    #: A state takes one transition for each edge it enables, in the
    #: machine's order, and a frontier holds few distinct sets of enabled
    #: edges (48 on HotA's 20,444 states, 194 on WoW's 1.4 million of
    #: ``--turns 3``): each state keeps the number of its set (``enables``,
    #: a byte or two), each set its edges (``set_edges``, set after set) and
    #: their count (``set_sizes``), so that neither a transition's edge
    #: (``step_edge``) nor its source (``step_pre``) is stored.  An
    #: unexpanded state enables the empty set.
    enables: np.ndarray
    set_edges: np.ndarray
    set_sizes: np.ndarray
    #: The most bytes the search's arrays held, counted at the end of each
    #: block of a level: the keys and the transitions so far, the hash table
    #: of the states seen (given back at the end), and the block's states and
    #: successors; and once over, while the transitions are joined.
    peak_bytes: int
    stopped: str = ""  # why the search stopped short, in words ("" when complete)
    tail: np.ndarray | None = None  # None: a key of one word
    tails: np.ndarray | None = None
    #: The step properties the search was asked to watch (``explore``'s
    #: ``watch``), each decided on the transitions as they were taken: is
    #: one of its edges taken, and the numbers (ascending) and sources of
    #: the transitions that break it.
    watched: dict[str, tuple[bool, np.ndarray, np.ndarray]] = field(default_factory=dict)
    #: The ranges of state numbers (levels of at most ``WATCH_ROWS`` states)
    #: whose transitions the search did not ask the watched properties:
    #: ``check_all`` asks them afterwards.
    unwatched: tuple[tuple[int, int], ...] = ()

    @property
    def states(self) -> int:
        return len(self.low)

    def key_rows(self, numbers: Any) -> np.ndarray:
        """The keys of the states ``numbers`` (an array of state numbers, or a slice)."""
        low = self.low[numbers]
        if self.tails is None:
            return low[:, None]
        out = np.empty((len(low), self.layout.words), np.uint64)
        out[:, 0] = low
        out[:, 1:] = self.tails.take(self.tail[numbers], axis=0)
        return out

    @property
    def keys(self) -> np.ndarray:
        """Every state's key, put together when asked (``key_rows``: only some)."""
        return self.key_rows(slice(None))

    @property
    def levels(self) -> int:
        """The length of the longest shortest path from an initial state."""
        return len(self.level_starts) - 2

    @property
    def nbytes(self) -> int:
        """Bytes held once the search is over: the keys and the transitions."""
        keys = self.low.nbytes + (0 if self.tails is None else self.tail.nbytes + self.tails.nbytes)
        sets = self.enables.nbytes + self.set_edges.nbytes + self.set_sizes.nbytes
        seen = self.step_seen.nbytes + self.often.nbytes + self.seen_often.nbytes + self.seen_code.nbytes
        return keys + sets + self.step_first.nbytes + seen

    @property
    def _reaches_first(self) -> np.ndarray:
        """For every transition, is it the first to reach its target?"""
        return np.unpackbits(self.step_first, count=self.transitions).view(bool)

    @property
    def seen(self) -> np.ndarray:
        """The target's number of every transition that is not the first to reach it, in order."""
        return _reached_again(self.step_seen, self.often, self.seen_often, self.seen_code)

    @cached_property
    def step_post(self) -> np.ndarray:
        """The target's number of every transition (in ``step_edge``'s order), built on demand."""
        first = self._reaches_first
        post = np.empty(len(first), np.int32)
        post[first] = np.arange(self.level_starts[1], self.states, dtype=np.int32)
        post[~first] = self.seen
        return post

    @cached_property
    def _first_reached(self) -> tuple[np.ndarray, np.ndarray]:
        """Each state's parent and edge: the source and edge of the transition that first reaches it."""
        initial = self.level_starts[1]
        first = np.flatnonzero(self._reaches_first)
        parent = np.full(self.states, -1, np.int32)
        edge = np.full(self.states, -1, np.min_scalar_type(-len(self.machine.edges)))
        parent[initial:] = self.step_pre[first]
        edge[initial:] = self.step_edge[first]
        return parent, edge

    @property
    def parent(self) -> np.ndarray:
        return self._first_reached[0]

    @property
    def edge(self) -> np.ndarray:
        return self._first_reached[1]

    @cached_property
    def out_degree(self) -> np.ndarray:
        """How many transitions each state is the source of, built on demand."""
        return self.set_sizes[self.enables]

    @cached_property
    def step_edge(self) -> np.ndarray:
        """The edge's index of every transition, built on demand from each state's set of enabled edges."""
        degree = self.out_degree
        index = np.int32 if self.transitions < 2**31 else np.int64
        set_first = (np.cumsum(self.set_sizes) - self.set_sizes).astype(index)
        # A transition's place in ``set_edges``: its source's set's first
        # place, plus its rank among its source's transitions.
        place = np.repeat(set_first[self.enables] - (np.cumsum(degree, dtype=index) - degree), degree)
        place += np.arange(self.transitions, dtype=index)
        return self.set_edges[place]

    def edges_taken(self) -> np.ndarray:
        """The indices, ascending, of the edges some state takes: those of the
        sets of enabled edges some state has (no transition is read)."""
        used = np.bincount(self.enables, minlength=len(self.set_sizes)) > 0
        return np.unique(self.set_edges[np.repeat(used, self.set_sizes)])

    def edge_of(self, source: int, transition: int) -> int:
        """The edge's index of one transition of state ``source``."""
        sets = int(self.enables[source])
        return int(self.set_edges[int(self.set_sizes[:sets].sum()) + transition - int(self.first_step[source])])

    @cached_property
    def first_step(self) -> np.ndarray:
        """The number of each state's first transition (its others follow it)."""
        degree = self.out_degree
        first = np.cumsum(degree, dtype=np.int32 if self.transitions < 2**31 else np.int64)
        first -= degree
        return first

    def transitions_of(self, edges: Sequence[int], within: Sequence[tuple[int, int]] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The numbers, ascending, of the transitions of the edges numbered
        ``edges`` (from the states in the ranges ``within`` only, if given),
        and their sources.  Found from each state's set of enabled
        edges (a look-up in a table of the few sets, a state), not from every
        transition's edge: the states whose set holds one of them, each
        transition's place its source's first plus the edge's rank in the set."""
        marked = np.zeros(len(self.machine.edges), bool)
        marked[list(edges)] = True
        hit = marked[self.set_edges]
        set_of = np.repeat(np.arange(len(self.set_sizes)), self.set_sizes)
        # Each set's edges among those asked: how many, and their ranks in the set.
        count = np.bincount(set_of[hit], minlength=len(self.set_sizes))
        ranks = (np.flatnonzero(hit) - (np.cumsum(self.set_sizes) - self.set_sizes)[set_of[hit]]).astype(np.int64)
        rank_first = np.cumsum(count) - count
        per_set = count.astype(np.min_scalar_type(max(int(count.max(initial=0)), 1)))
        if within is None:
            sources = np.flatnonzero(per_set[self.enables])
        else:
            sources = np.concatenate([lo + np.flatnonzero(per_set[self.enables[lo:hi]]) for lo, hi in within] or [np.empty(0, np.int64)])
        times = per_set[self.enables[sources]]
        if int(times.max(initial=0)) == 1:
            # One such edge a source (the usual case): no source repeated.
            numbers = self.first_step[sources] + ranks[rank_first[self.enables[sources]]]
            return numbers, sources.astype(np.int32)
        sources = np.repeat(sources, times)
        nth = np.arange(len(sources)) - np.repeat(np.cumsum(times, dtype=np.int64) - times, times)
        numbers = self.first_step[sources] + ranks[rank_first[self.enables[sources]] + nth]
        return numbers, sources.astype(np.int32)

    @cached_property
    def step_pre(self) -> np.ndarray:
        """The source's number of every transition (in ``step_edge``'s order), built on demand."""
        return np.repeat(np.arange(self.states, dtype=np.int32), self.out_degree)

    @cached_property
    def depth(self) -> np.ndarray:
        """The level of every state: the length of a shortest path to it."""
        levels = len(self.level_starts) - 1
        # (In the smallest type that holds the deepest: a byte or two a state, not eight.)
        return np.repeat(np.arange(levels, dtype=np.min_scalar_type(levels)), np.diff(self.level_starts))

    @cached_property
    def graph(self) -> nx.MultiDiGraph:
        """The states and transitions as ``explicit.explore`` builds them (the
        same numbers, edges added in the same order), for the checks that
        walk the graph: built on demand."""
        graph = nx.MultiDiGraph(game=self.machine.game)
        graph.add_nodes_from(range(self.states))
        names = [e.name for e in self.machine.edges]
        graph.add_edges_from(zip(self.step_pre.tolist(), self.step_post.tolist(), (names[e] for e in self.step_edge.tolist())))
        return graph

    @cached_property
    def _tail_digit(self) -> Callable[[int], np.ndarray]:
        """Digit ``j`` (of a later word) of each of ``tails``' rows, each read once, when first asked."""
        rows = np.zeros((len(self.tails), self.layout.words), np.uint64)
        rows[:, 1:] = self.tails
        return self.layout.reader(rows)

    def reader(self, numbers: Any) -> Callable[[int], np.ndarray]:
        """Digit ``j`` of the states ``numbers`` (an array of state numbers,
        or a slice), as ``Layout.reader`` reads them, each when first asked:
        a digit of the first word from ``low``, one of a later word by the
        state's row of ``tails``, whose few rows are read once for all
        (no key is put back together).  Each of the two is gathered only
        when a digit first asks for it: most predicates read one word."""
        first: Callable[[int], np.ndarray] | None = None
        tail: np.ndarray | None = None
        later: dict[int, np.ndarray] = {}

        def digit(j: int) -> np.ndarray:
            nonlocal first, tail
            if not self.layout.digits[j].word:
                if first is None:
                    first = self.layout.reader(self.low[numbers][:, None])
                return first(j)
            if j not in later:
                if tail is None:
                    tail = self.tail[numbers]
                later[j] = self._tail_digit(j).take(tail)
            return later[j]

        return digit

    def locations(self) -> np.ndarray:
        """The location number of every state."""
        return self.layout.digit(self.low[:, None], 0)  # the location is the first digit of the first word

    def state(self, node: int) -> Any:
        """The concrete state numbered ``node``."""
        return self.layout.concrete(self.key_rows([node])[0])

    def path_to(self, node: int) -> tuple[Any, list[tuple[Edge, Any]]]:
        """The initial state and a shortest path from it to state number
        ``node``, replayed over ``CONCRETE`` (as ``explicit.Exploration.path_to``)."""
        chain = []
        while self.parent[node] >= 0:
            chain.append((self.machine.edges[self.edge[node]], node))
            node = int(self.parent[node])
        start = state = self.state(node)
        path = []
        for edge, number in reversed(chain):
            state = self.machine.apply(state, edge)
            if self.layout.pack(state) != tuple(int(w) for w in self.key_rows([number])[0]):
                raise ModelError(f"edge {edge.name!r} replayed over plain values does not reach state {number}")
            path.append((edge, state))
        return start, path


def explore(
    machine: Machine,
    max_states: int = DEFAULT_MAX_STATES,
    max_memory: int = limits.DEFAULT_MAX_MEMORY,
    watch: Sequence[Property] = (),
) -> VectorExploration:
    """Breadth-first search of every reachable state, a level at a time.

    Past ``max_states``, or once its arrays hold more than ``max_memory``
    bytes (their sizes: the same on any machine), the search finishes the
    level it is in and stops, as ``explicit.explore`` does.

    The step properties among ``watch`` are decided as each edge is taken,
    on the states it leaves and reaches while their digits are at hand
    (``VectorExploration.watched``): not afterwards, over transitions
    gathered from the whole search.
    """
    started = time.perf_counter()
    layout = Layout(machine)
    visited = seen_table(layout.words)
    initial = []
    for s in machine.initial_states():
        if machine.out_of_bounds(s):
            raise ModelError(f"an initial state is outside the declared domains: {machine.describe(s)}")
        initial.append(layout.pack(s))
    visited.add(np.array(initial, np.uint64).reshape(-1, layout.words))
    starts = [0, visited.count]
    steps_watched = [p for p in watch if isinstance(p, StepProperty)]
    expander = Expander(machine, layout, steps_watched)
    unwatched: list[tuple[int, int]] = []
    edge_type = expander.edge_type
    transitions = 0
    complete = True
    terminal = np.array([loc.terminal is not None for loc in machine.locations.values()])
    dead_ends = []
    degree_type = np.min_scalar_type(len(machine.edges))  # no state takes more transitions than there are edges
    # The distinct sets of enabled edges, one bit an edge.
    enabled_sets = Visited(max(1, -(-len(machine.edges) // WORD_BITS)))
    edge_bits = np.zeros((enabled_sets.keys.shape[1], len(machine.edges)), np.uint64)
    for e in range(len(machine.edges)):
        edge_bits[e // WORD_BITS, e] = 1 << e % WORD_BITS
    # Each block of the frontier's states' sets, the bits of its transitions' firsts and their targets.
    steps: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    block_transitions: list[int] = []
    kept = 0  # the bytes of ``steps``
    peak = visited.nbytes + enabled_sets.nbytes
    stopped = ""
    while starts[-1] > starts[-2]:
        # As explicit search: at a level boundary, once the first level is expanded.
        if len(starts) > 2:
            if visited.count > max_states:
                stopped = f"past {max_states:,} states (--max-states)"
            elif visited.nbytes + enabled_sets.nbytes + kept > max_memory:
                stopped = f"at the memory budget of {limits.show_memory(max_memory)} (--max-memory)"
            if stopped:
                complete = False
                break
        # A small level's steps are asked the watched properties afterwards,
        # all together: asked edge by edge, each costs a few NumPy calls.
        watching = starts[-1] - starts[-2] > WATCH_ROWS
        if steps_watched and not watching:
            unwatched.append((starts[-2], starts[-1]))
        # A large level is expanded a block of its states at a time, in order:
        # the successors' arrays (some 50 bytes a transition while they are
        # found) stay bounded, and they come in the same order as in one go.
        for a in range(starts[-2], starts[-1], FRONTIER_ROWS):
            frontier = visited.rows(a, min(a + FRONTIER_ROWS, starts[-1]))
            # A state's parent is not kept: the transition that first reaches it tells it (``parent``).
            keys, _, edge, degree = expander.successors(frontier, a, transitions, watching)
            transitions += len(keys)
            degree = degree.astype(degree_type)
            stuck = np.flatnonzero(degree == 0)
            dead_ends.append(a + stuck[~terminal[layout.digit(frontier[stuck], 0)]])
            new, number = visited.add(keys)
            first = np.zeros(len(keys), bool)
            first[new] = True
            # (Targets in the smallest type that holds every number so far: a small instance's in two bytes.)
            again = number.compress(~first).astype(np.min_scalar_type(visited.count - 1))
            steps.append((_numbered_sets(enabled_sets, edge_bits, edge, degree), np.packbits(first), again))
            block_transitions.append(len(keys))
            kept += sum(x.nbytes for x in steps[-1])
            peak = max(peak, visited.nbytes + enabled_sets.nbytes + kept + frontier.nbytes + keys.nbytes + edge.nbytes + number.nbytes + first.nbytes)
            del frontier, keys, edge, number, first
        starts.append(visited.count)
    if complete:
        starts.pop()  # the empty level that ended the search
    count = visited.count
    if isinstance(visited, States):
        low, tail, tails = _trimmed(visited.low, count), _trimmed(visited.tail, count), visited.tails.keys[: visited.tails.count].copy()
    else:
        low, tail, tails = visited.keys[:count, 0].copy(), None, None
    del visited  # its hash table given back before the transitions are joined
    key_bytes = low.nbytes + (0 if tail is None else tail.nbytes + tails.nbytes)
    step_first = _joined_bits([step[1] for step in steps], block_transitions)
    # Each block's targets reached again are moved into one array, given back as they are.
    repeats = sum(len(step[2]) for step in steps)
    seen = np.empty(repeats, np.min_scalar_type(max(count - 1, 0)))
    at = 0
    for i, (sets, _, targets) in enumerate(steps):
        seen[at : at + len(targets)] = targets
        at += len(targets)
        steps[i] = (sets, None, None)
    # While the targets are split (``_often_reached``): a bit and a byte a target, at most, besides.
    splitting = repeats + repeats // 8
    peak = max(peak, key_bytes + kept + step_first.nbytes, key_bytes + step_first.nbytes + sum(len(step[0]) for step in steps) + seen.nbytes + splitting)
    return VectorExploration(
        machine,
        layout,
        low,
        tuple(starts),
        transitions,
        time.perf_counter() - started,
        complete,
        len(starts) - 2 if complete else len(starts) - 3,
        frozenset(expander.row_by_row),
        np.concatenate(dead_ends) if dead_ends else np.empty(0, np.int64),
        step_first,
        *_often_reached(seen, count),
        *_edge_sets(enabled_sets, [step[0] for step in steps], count - sum(len(step[0]) for step in steps), edge_type, degree_type),
        peak,
        stopped,
        tail,
        tails,
        expander.watched(),
        tuple(_joined(unwatched)),
    )


def _joined_bits(blocks: list[np.ndarray], counts: list[int]) -> np.ndarray:
    """The bits of ``blocks`` (each packed on its own, of ``counts[i]`` bits:
    a block need not end on a byte), packed as one, a block at a time."""
    out = np.empty(-(-sum(counts) // 8), np.uint8)
    at, carry = 0, np.empty(0, np.uint8)  # bytes written; the bits of a byte not yet full
    for packed, count in zip(blocks, counts):
        bits = np.concatenate([carry, np.unpackbits(packed, count=count)])
        whole = len(bits) // 8 * 8
        out[at : at + whole // 8] = np.packbits(bits[:whole])
        at += whole // 8
        carry = bits[whole:]
    if carry.size:
        out[at] = np.packbits(carry)[0]
    return out


def _joined(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The ranges (ascending), with those that meet joined."""
    out: list[tuple[int, int]] = []
    for lo, hi in ranges:
        if out and out[-1][1] == lo:
            out[-1] = (out[-1][0], hi)
        elif lo < hi:
            out.append((lo, hi))
    return out


#: Targets reached again that ``_often_reached`` may keep as a byte.
OFTEN = 256


def _often_reached(seen: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``VectorExploration``'s ``step_seen``, ``often``, ``seen_often`` and
    ``seen_code`` for the targets ``seen`` (of the transitions that are not
    the first to reach them) among ``count`` states, ``seen`` in the
    smallest unsigned type that holds the last state's number (a small
    instance's in two bytes, not four); the ``OFTEN`` targets most often
    reached again as a byte and a bit, where that saves more than ``often``
    and the bits cost.  ``seen`` is taken over: the targets kept as numbers
    are moved to its start, ``SPLIT_TARGETS`` at a time, and the rest of it
    given back."""
    width = seen.dtype
    nothing = np.empty(0, width), np.empty(0, np.uint8), np.empty(0, np.uint8)
    if width.itemsize == 1 or not len(seen):
        return (seen, *nothing)
    # Targets reached again fewer times than this save less, all ``OFTEN``
    # of them together, than their bits cost: only the others are ranked.
    often, times = _reached_at_least(seen, count, max(1, len(seen) // (8 * OFTEN)))
    if len(often) > OFTEN:
        top = np.sort(np.argpartition(times, -OFTEN)[-OFTEN:])
        often, times = often[top], times[top]
    saved = int(times.sum()) * (width.itemsize - 1) - often.size * width.itemsize - len(seen) // 8
    if saved <= 0:
        return (seen, *nothing)
    often = often.astype(width)
    bits, code = [], []
    kept = 0  # targets kept as numbers so far, at the start of ``seen``
    for a in range(0, len(seen), SPLIT_TARGETS):  # (a multiple of 8: each block's bits fill whole bytes)
        part = seen[a : a + SPLIT_TARGETS]
        place = np.minimum(np.searchsorted(often, part), len(often) - 1)
        hit = often.take(place) == part
        rest = part[~hit]  # a copy: moved to where the kept ones end, which is not past ``a``
        seen[kept : kept + len(rest)] = rest
        kept += len(rest)
        bits.append(np.packbits(hit))
        code.append(place[hit].astype(np.uint8))
    return _trimmed(seen, kept), often, np.concatenate(bits), np.concatenate(code)


#: Targets reached again that ``_often_reached`` splits, and counts, at a time (a multiple of 8).
SPLIT_TARGETS = 1 << 22
#: ``_reached_at_least`` counts targets by blocks of ``1 << BLOCK_BITS`` first.
BLOCK_BITS = 4


def _reached_at_least(seen: np.ndarray, count: int, least: int) -> tuple[np.ndarray, np.ndarray]:
    """The targets (ascending) that ``seen`` holds ``least`` times or more,
    and how many times each.  A block of ``1 << BLOCK_BITS`` targets holds
    one only where the block's own count reaches ``least``: few blocks do
    (``len(seen) // least`` at most), and only their targets are counted one
    by one, so that no count is kept for every state (8 bytes a state)."""
    blocks = np.zeros((count >> BLOCK_BITS) + 1, np.int64)
    for a in range(0, len(seen), SPLIT_TARGETS):
        blocks += np.bincount(seen[a : a + SPLIT_TARGETS] >> BLOCK_BITS, minlength=len(blocks))
    hot = np.flatnonzero(blocks >= least)
    del blocks
    rank = np.full((count >> BLOCK_BITS) + 1, -1, np.int32)
    rank[hot] = np.arange(len(hot), dtype=np.int32)
    low = (1 << BLOCK_BITS) - 1
    times = np.zeros(len(hot) << BLOCK_BITS, np.int64)
    for a in range(0, len(seen), SPLIT_TARGETS):
        part = seen[a : a + SPLIT_TARGETS]
        inside = rank.take(part >> BLOCK_BITS)
        mine = inside >= 0
        times += np.bincount((inside[mine] << BLOCK_BITS) | (part[mine] & low), minlength=len(times))
    found = np.flatnonzero(times >= least)
    return (hot[found >> BLOCK_BITS] << BLOCK_BITS) | (found & low), times[found]


def _reached_again(rest: np.ndarray, often: np.ndarray, seen_often: np.ndarray, seen_code: np.ndarray) -> np.ndarray:
    """The targets that ``_often_reached`` split, put back in order."""
    if not len(often):
        return rest
    hit = np.unpackbits(seen_often, count=len(seen_code) + len(rest)).view(bool)
    out = np.empty(len(hit), np.int32)
    out[hit] = often[seen_code]
    out[~hit] = rest
    return out


def _numbered_sets(table: Visited, edge_bits: np.ndarray, edge: np.ndarray, degree: np.ndarray) -> np.ndarray:
    """Each state's number among the distinct sets of edges that ``table``
    holds (one bit an edge, numbered as first met), its set added if new,
    given its transitions' edges (by source, each source's in the machine's
    order) and how many each state has.  ``edge_bits[w, e]``: edge ``e``'s
    bit in word ``w`` of a set (0 outside its word)."""
    masks = np.zeros((len(degree), table.keys.shape[1]), np.uint64)
    some = np.flatnonzero(degree)
    if some.size:
        first = (np.cumsum(degree, dtype=np.int64) - degree)[some]
        for w in range(masks.shape[1]):
            # A state's edges are distinct, so adding their bits sets them.
            masks[some, w] = np.add.reduceat(edge_bits[w].take(edge), first)
    # Nearly every set is known already, and found at one look (as ``States``' rows of later words).
    number = table.find(masks)
    missed = np.flatnonzero(number < 0)
    if missed.size:
        number[missed] = table.add(masks.take(missed, axis=0))[1]
    # (Held until the search is over: in the smallest type that holds them, a byte or two a state.)
    return number.astype(np.min_scalar_type(table.count - 1))


def _edge_sets(
    table: Visited, numbers: list[np.ndarray], unexpanded: int, edge_type: np.dtype, degree_type: np.dtype
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``VectorExploration``'s ``enables``, ``set_edges`` and ``set_sizes``:
    from each expanded level's sets (``_numbered_sets``), and the
    ``unexpanded`` states of the last level, which enable the empty set."""
    if unexpanded:
        numbers = numbers + [np.full(unexpanded, table.add(np.zeros((1, table.keys.shape[1]), np.uint64))[1][0], np.int32)]
    # Bit b of a set's word w is edge 64 w + b: its bytes read least significant first.
    bits = np.unpackbits(table.keys[: table.count].astype("<u8").view(np.uint8), axis=1, bitorder="little")
    enables = np.concatenate(numbers, dtype=np.min_scalar_type(max(table.count - 1, 0)), casting="unsafe") if numbers else np.empty(0, np.uint8)
    set_edges = (np.flatnonzero(bits) % bits.shape[1]).astype(edge_type)
    return enables, set_edges, bits.sum(axis=1, dtype=degree_type)


class Expander:
    """The successors of a frontier, edge by edge over each location's rows."""

    def __init__(self, machine: Machine, layout: Layout, watch: Sequence[StepProperty] = ()) -> None:
        self.machine = machine
        self.layout = layout
        self.row_by_row: set[str] = set()
        # The step properties watched, by the edges they apply to; whether
        # each has met one of its transitions, and the transitions that break it, level by level.
        self.watching: dict[int, list[int]] = {}
        for i, p in enumerate(watch):
            for e, edge in enumerate(machine.edges):
                if p.applies(edge):
                    self.watching.setdefault(e, []).append(i)
        self.watch = list(watch)
        self.met = [False] * len(watch)
        self.broken: list[list[tuple[np.ndarray, np.ndarray]]] = [[] for _ in watch]
        # The edges leaving each location, in the order explicit search tries them.
        self.leaving = machine.out_index
        self.location_type = np.min_scalar_type(len(machine.location_names))
        self.edge_type = np.min_scalar_type(-len(machine.edges))

    def successors(self, keys: np.ndarray, first: int, taken_before: int = 0, watching: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Every successor of the states numbered ``first`` on, whose keys are
        ``keys``: its key, its predecessor's number and the edge's index, in
        the order explicit search meets them; and how many each state has.
        If ``watching``, the watched step properties are asked of each
        step's transitions, the first of which is numbered ``taken_before``."""
        by_edge = self.watching if watching else {}
        # Sorted by location, each location's rows are one slice of the digits.
        location = self.layout.digit(keys, 0)
        # (As the smallest unsigned type, which NumPy sorts stably by radix.)
        by_location = np.argsort(location.astype(self.location_type), kind="stable")
        keys, location = keys.take(by_location, axis=0), location.take(by_location)
        ends = np.flatnonzero(np.diff(location)) + 1
        # A large frontier's groups read their own digits (no digit is read
        # for a location whose edges never ask it); a small one's are read
        # once for the whole frontier, in fewer NumPy calls.
        frontier = None if len(keys) > GROUP_READS else self.layout.reader(keys)
        # Each successor's rank among its predecessor's, counted as they come:
        # a group's edges are taken in the machine's order (sorted, should one
        # go row by row), so its place in explicit search's order is its
        # predecessor's first place plus its rank, and no sort is needed.
        degree = np.zeros(len(keys), np.int64)
        found = []
        # The rows (and their ranks) whose transition breaks a watched step property, by property.
        breaking: list[tuple[int, np.ndarray, np.ndarray]] = []
        for a, b in zip([0, *ends], [*ends, len(keys)]):
            digit = self.layout.reader(keys[a:b]) if frontier is None else lambda j, a=a, b=b: frontier(j)[a:b]
            group = Group(self.layout, keys[a:b], digit)
            # (The state over an edge's rows is kept only where a watched property reads it.)
            steps = [
                (e, taken, moved, pre if e in by_edge else None)
                for e, taken, moved, pre in ((self.machine.edge_index[edge.name], *rest) for edge, *rest in self._steps(self.leaving[int(location[a])], group))
            ]
            for edge, taken, moved, pre in sorted(steps, key=lambda step: step[0]):
                rows = a + taken
                rank = degree[rows]
                found.append((edge, rows, rank, moved))
                degree[rows] += 1
                for i in by_edge.get(edge, ()) if taken.size else ():
                    bad = np.flatnonzero(~self._step_holds(self.watch[i], group, taken, moved, pre))
                    self.met[i] = True
                    if bad.size:
                        breaking.append((i, rows[bad], rank[bad]))
        out_degree = np.empty_like(degree)
        out_degree[by_location] = degree
        place = np.cumsum(out_degree) - out_degree
        for i, rows, rank in breaking:
            self.broken[i].append((taken_before + place[by_location[rows]] + rank, first + by_location[rows]))
        total = int(out_degree.sum())
        out_keys = np.empty((total, self.layout.words), np.uint64)
        # State numbers are int32 (``Visited``), edge numbers of the smallest type that holds them.
        out_parent, out_edge = np.empty(total, np.int32), np.empty(total, self.edge_type)
        if found:
            # Every step's successors put in their places at once: a NumPy call a level, not a step.
            edges, rows, rank, moved = zip(*found)
            parent = by_location[np.concatenate(rows)]
            at = place[parent] + np.concatenate(rank)
            # Each key as one item of its bytes: a scatter of rows three times faster.
            whole = np.dtype((np.void, 8 * self.layout.words))
            out_keys.view(whole).reshape(-1)[at] = np.concatenate(moved).view(whole).reshape(-1)
            out_parent[at] = first + parent
            out_edge[at] = np.repeat(edges, [len(r) for r in rows])
        return out_keys, out_parent, out_edge, out_degree

    def _step_holds(self, prop: StepProperty, group: "Group", taken: np.ndarray, moved: np.ndarray, pre: "Fields | None") -> np.ndarray:
        """Does ``prop`` hold on each step from the rows ``taken`` of
        ``group`` to the keys ``moved``: over ``VECTOR``, on the rows'
        digits as the edge read them (``pre``; None: read anew); row by row
        over ``CONCRETE`` where it cannot."""
        if pre is None:
            pre = group.state if taken.size == len(group.keys) else group.subset(taken)
        try:
            return rows(prop.holds(self.machine, pre, Fields(self.layout, self.layout.reader(moved)), VECTOR), len(taken)).astype(bool)
        except ModelError:
            raise
        except Exception:  # noqa: BLE001 - any failure on arrays: the plain values decide
            concrete = self.layout.concrete
            return np.array([bool(prop.holds(self.machine, concrete(group.keys[r]), concrete(k), CONCRETE)) for r, k in zip(taken, moved)], bool)

    def watched(self) -> dict[str, tuple[bool, np.ndarray, np.ndarray]]:
        """``VectorExploration.watched``: what the search found of each watched step property."""
        out = {}
        for p, met, broken in zip(self.watch, self.met, self.broken):
            numbers = np.concatenate([n for n, _ in broken]) if broken else np.empty(0, np.int64)
            sources = np.concatenate([s for _, s in broken]) if broken else np.empty(0, np.int64)
            order = np.argsort(numbers, kind="stable")
            out[p.name] = (met, numbers[order], sources[order])
        return out

    def _steps(self, leaving: tuple[tuple[Edge, int], ...], group: "Group") -> Iterator[tuple[Edge, np.ndarray, np.ndarray, "Fields | None"]]:
        """Each edge of ``leaving`` with the rows of ``group`` that enable it,
        their successors' keys, and (taken over arrays) the state over those rows."""
        by_row = []
        for edge, target in leaving:
            if edge.name in self.row_by_row:
                by_row.append((edge, target))
                continue
            # An edge whose prefilter holds on no row (the guard implies it)
            # is not asked its guard: most of a family of edges that share
            # one, such as WoW's combat proposals, or of Riftbound's damage
            # splits, each of its own total.
            holds = group.holds(edge.prefilter)
            if holds is not None and not holds.any():
                continue
            try:
                taken, moved, pre = self._vector_step(edge, target, group)
            except ModelError:
                raise
            except Exception:  # noqa: BLE001 - any failure on arrays: the plain values decide
                self.row_by_row.add(edge.name)
                by_row.append((edge, target))
                continue
            yield edge, taken, moved, pre
        if by_row:
            yield from ((edge, taken, moved, None) for edge, taken, moved in self._concrete_steps(by_row, group))

    def _vector_step(self, edge: Edge, target: int, group: "Group") -> tuple[np.ndarray, np.ndarray, "Fields | None"]:
        """The rows of ``group`` that enable ``edge``, their successors' keys,
        and the state over those rows as the update read it (None: none enables it)."""
        n = len(group.keys)
        taken = np.flatnonzero(rows(edge.guard(group.state, VECTOR), n))
        if not taken.size:
            return taken, np.empty((0, self.layout.words), np.uint64), None
        pre, keys = (group.state, group.keys) if taken.size == n else (group.subset(taken), group.keys.take(taken, axis=0))
        changes = edge.update(pre, VECTOR)
        unknown = set(changes) - set(self.layout.span)
        if unknown:
            raise ModelError(f"edge {edge.name!r} updates unknown variables {sorted(unknown)}")
        moved, bad = self.layout.moved(keys, pre, changes, target)
        if bad:
            first = min(int(np.argmax(rows_bad)) for _, rows_bad in bad)
            names = [name for name, rows_bad in bad if rows_bad[first]]
            raise _leaves_domain(self.machine, edge, names, self.layout.concrete(group.keys[taken[first]]))
        return taken, moved, pre

    def _concrete_steps(
        self, leaving: list[tuple[Edge, int]], group: "Group"
    ) -> Iterator[tuple[Edge, np.ndarray, np.ndarray]]:
        # A state at a time, all its edges in turn, as explicit search goes:
        # the rule book and the models keep answers for the last state asked.
        found: list[tuple[list[int], list[tuple[int, ...]]]] = [([], []) for _ in leaving]
        # Rows an edge's prefilter rules out (over arrays) are not asked its guard.
        possible = [group.holds(edge.prefilter) for edge, _ in leaving]
        for i, key in enumerate(group.keys):
            pre = self.layout.concrete(key)
            for (edge, target), (taken, moved), rows_left in zip(leaving, found, possible):
                if rows_left is not None and not rows_left[i]:
                    continue
                if edge.guard(pre, CONCRETE):
                    changes = edge.update(pre, CONCRETE)
                    post = pre._replace(location=target, **changes)
                    bad = self.machine.out_of_bounds(post, changes)
                    if bad:
                        raise _leaves_domain(self.machine, edge, bad, pre)
                    taken.append(i)
                    moved.append(self.layout.pack(post))
        for (edge, _), (taken, moved) in zip(leaving, found):
            yield edge, np.array(taken, np.int64), np.array(moved, np.uint64).reshape(-1, self.layout.words)


class Group:
    """The frontier's states at one location: keys, and the state over arrays (its digits read when asked)."""

    def __init__(self, layout: Layout, keys: np.ndarray, digit: Callable[[int], np.ndarray]) -> None:
        self.keys = keys
        self.layout = layout
        self.state = Fields(layout, digit)
        # Each prefilter's rows, asked once for all the edges that share it.
        self._holds: dict[Guard, np.ndarray | None] = {}

    def subset(self, taken: np.ndarray) -> Fields:
        """The state over the rows ``taken`` only."""
        digit = self.state._digit
        return Fields(self.layout, lambda j: digit(j).take(taken))

    def holds(self, prefilter: Guard | None) -> np.ndarray | None:
        """The rows where ``prefilter`` holds, or None (no prefilter, or one that fails on arrays: every row)."""
        if prefilter is None:
            return None
        if prefilter not in self._holds:
            try:
                self._holds[prefilter] = rows(prefilter(self.state, VECTOR), len(self.keys))
            except ModelError:
                raise
            except Exception:  # noqa: BLE001 - a prefilter that fails on arrays filters nothing
                self._holds[prefilter] = None
        return self._holds[prefilter]


def _leaves_domain(machine: Machine, edge: Edge, names: list[str], pre: Any) -> ModelError:
    return ModelError(f"edge {edge.name!r} takes {', '.join(names)} out of its declared domain; from {machine.describe(pre)}")


# --------------------------------------------------------------------------
# Properties over the states found


#: States (or transitions) a property is evaluated on at once: bounds the
#: arrays its predicates build.
CHUNK = 1 << 16
#: Levels of more states than this have their steps asked the watched step
#: properties as they are taken (``explore``'s ``watch``); smaller ones' are
#: asked afterwards, all together (edge by edge, each costs a few NumPy calls).
WATCH_ROWS = 1 << 16


def _over(exploration: VectorExploration, numbers: Sequence[np.ndarray], predicates: Sequence[Callable[..., Any]]) -> list[np.ndarray]:
    """Each of ``predicates(*states, backend)`` for each row of the state
    numbers in ``numbers`` (one array per argument), over ``VECTOR`` a chunk
    at a time, each state's digits read once for all the predicates and
    only when one asks for them (most read a few variables of many).  A
    predicate that cannot run on arrays is asked row by row over ``CONCRETE``."""
    layout = exploration.layout
    n = len(numbers[0])
    out = [np.empty(n, bool) for _ in predicates]
    for a in range(0, n, CHUNK):
        b = min(a + CHUNK, n)
        parts = [x[a:b] for x in numbers]
        readers = [exploration.reader(part) for part in parts]
        for predicate, values in zip(predicates, out):
            try:
                values[a:b] = rows(predicate(*(Fields(layout, r) for r in readers), VECTOR), b - a)
            except ModelError:
                raise
            except Exception:  # noqa: BLE001 - any failure on arrays: the plain values decide
                values[a:b] = [bool(predicate(*(exploration.state(x) for x in row), CONCRETE)) for row in zip(*(p.tolist() for p in parts))]
    return out


def _each_chunk(exploration: VectorExploration, predicates: Sequence[Callable[..., Any]]) -> Iterator[tuple[int, list[np.ndarray]]]:
    """For each ``CHUNK`` of states in order: its first state's number and
    each of ``predicates(state, backend)`` on its rows, over ``VECTOR``.  The
    chunk's digits are read once for all the predicates (the properties of
    a game read the same few variables); a predicate that cannot run on
    arrays is asked row by row over ``CONCRETE``."""
    layout, n = exploration.layout, exploration.states
    for a in range(0, n, CHUNK):
        b = min(a + CHUNK, n)
        digit = exploration.reader(slice(a, b))
        values = []
        for predicate in predicates:
            try:
                values.append(rows(predicate(Fields(layout, digit), VECTOR), b - a))
            except ModelError:
                raise
            except Exception:  # noqa: BLE001 - any failure on arrays: the plain values decide
                values.append(np.array([bool(predicate(exploration.state(x), CONCRETE)) for x in range(a, b)], bool))
        yield a, values


def _state_verdicts(exploration: VectorExploration, properties: Sequence[Property]) -> dict[str, tuple[bool, int | None, np.ndarray | None, np.ndarray | None]]:
    """For each invariant and liveness property of ``properties``, from one
    pass over the states (``_each_chunk``): whether a state meets its premise;
    for an invariant the first state (in explicit search's order) that meets
    it and breaks the property, for a liveness property every state's premise
    and whether it misses the goal."""
    m = exploration.machine
    predicates: list[Callable[..., Any]] = []
    for p in properties:
        if isinstance(p, Invariant):
            predicates += [(lambda s, b, p=p: p.premise(m, s, b)) if p.premise else (lambda s, b: True), lambda s, b, p=p: p.holds(m, s, b)]
        elif isinstance(p, Eventually):
            predicates += [lambda s, b, p=p: p.premise(m, s, b), lambda s, b, p=p: p.goal(m, s, b)]
    found: dict[str, tuple[bool, int | None, np.ndarray | None, np.ndarray | None]] = {}
    if not predicates:
        return found
    owners = [p for p in properties if isinstance(p, (Invariant, Eventually))]
    met = [False] * len(owners)
    first_bad: list[int | None] = [None] * len(owners)
    arrays = {i: (np.empty(exploration.states, bool), np.empty(exploration.states, bool)) for i, p in enumerate(owners) if isinstance(p, Eventually)}
    for a, values in _each_chunk(exploration, predicates):
        for i, p in enumerate(owners):
            premise, other = values[2 * i], values[2 * i + 1]
            met[i] = met[i] or bool(premise.any())
            if i in arrays:
                arrays[i][0][a : a + len(premise)] = premise
                np.logical_not(other, out=arrays[i][1][a : a + len(premise)])
            elif first_bad[i] is None:
                bad = np.flatnonzero(premise & ~other.astype(bool))
                if bad.size:
                    first_bad[i] = a + int(bad[0])
    for i, p in enumerate(owners):
        found[p.name] = (met[i], first_bad[i], *arrays.get(i, (None, None)))
    return found


def check(exploration: VectorExploration, prop: Property) -> Result:
    """``explicit.check`` over whole arrays of states: the same verdict, and
    the same shortest counterexample, since the states are numbered alike
    and the first violation in explicit search's order is the one kept."""
    return check_all(exploration, [prop])[0]


def check_all(exploration: VectorExploration, properties: Sequence[Property]) -> list[Result]:
    """``check`` of each property; the invariants and liveness properties
    decided in one pass over the states (``_state_verdicts``), the step
    properties of the same edges in one pass over their transitions
    (``_step_verdicts``; a step property the search watched, over the
    transitions it did not watch), the time of each pass shared out among them."""
    started = time.perf_counter()
    found: dict[str, Any] = _state_verdicts(exploration, properties)
    seconds = dict.fromkeys(found, (time.perf_counter() - started) / max(1, len(found)))
    watched = [p for p in properties if p.name in exploration.watched]
    passes = [(watched, exploration.unwatched)] if exploration.unwatched else []
    passes.append(([p for p in properties if p.name not in exploration.watched], None))
    broken: dict[str, tuple[bool, np.ndarray, np.ndarray]] = dict(exploration.watched)
    for chosen, within in passes:
        for names, (verdicts, spent) in _step_verdicts(exploration, chosen, within).items():
            for name, (met, numbers, sources) in verdicts.items():
                if name in broken:
                    # The transitions the search watched and the others, in order.
                    was_met, were, their = broken[name]
                    order = np.argsort(np.concatenate([were, numbers]), kind="stable")
                    met = was_met or met
                    numbers, sources = np.concatenate([were, numbers])[order], np.concatenate([their, sources])[order]
                broken[name] = (met, numbers, sources)
            seconds.update(dict.fromkeys(names, spent / len(names)))
    for p in properties:
        if isinstance(p, StepProperty) and p.name in broken:
            met, numbers, sources = broken[p.name]
            found[p.name] = (met, _first_broken(exploration, numbers, sources))
    return [_check(exploration, p, found.get(p.name), seconds.get(p.name, 0.0)) for p in properties]


def _step_verdicts(
    exploration: VectorExploration, properties: Sequence[Property], within: Sequence[tuple[int, int]] | None = None
) -> dict[tuple[str, ...], tuple[dict[str, tuple[bool, np.ndarray, np.ndarray]], float]]:
    """For the step properties of ``properties``, grouped by the edges they
    apply to (several read the same transitions), on the transitions from
    the states in the ranges ``within`` (None: every state): whether one of
    their edges is taken, and the numbers (ascending) and sources of the
    transitions that break each, from one pass over the group's
    transitions; and the seconds it took."""
    m = exploration.machine
    groups: dict[tuple[int, ...], list[StepProperty]] = {}
    for p in properties:
        if isinstance(p, StepProperty):
            groups.setdefault(tuple(i for i, e in enumerate(m.edges) if p.applies(e)), []).append(p)
    out = {}
    for edges, group in groups.items():
        started = time.perf_counter()
        chosen, pre = exploration.transitions_of(edges, within)
        post = exploration.step_post[chosen]
        holds = _over(exploration, [pre, post], [lambda s, t, b, p=p: p.holds(m, s, t, b) for p in group])
        verdicts = {p.name: (bool(chosen.size), chosen[~ok], pre[~ok]) for p, ok in zip(group, holds)}
        out[tuple(verdicts)] = (verdicts, time.perf_counter() - started)
    return out


def _first_broken(exploration: VectorExploration, numbers: np.ndarray, sources: np.ndarray) -> tuple[Any, list[tuple[Edge, Any]]] | None:
    """The shortest run that ends in the first, in explicit search's order,
    of the transitions ``numbers`` (ascending; their sources ``sources``)."""
    if not len(numbers):
        return None
    # The first source (sources ascend with the numbers); among its
    # transitions, explicit search meets them target by target, in the
    # order it first reached each target from it, then edge by edge.
    source = int(sources[0])
    bad = numbers[sources == source].tolist()
    first = int(exploration.first_step[source])
    targets = exploration.step_post[first : first + int(exploration.out_degree[source])].tolist()
    at = min(bad, key=lambda t: (targets.index(targets[t - first]), t))
    start, path = exploration.path_to(source)
    return start, path + [(exploration.machine.edges[exploration.edge_of(source, at)], exploration.state(targets[at - first]))]


def _check(exploration: VectorExploration, prop: Property, found: Any, seconds: float) -> Result:
    """One property's result from what its pass found (``_state_verdicts``, ``_step_verdicts``)."""
    started = time.perf_counter()
    m = exploration.machine
    violation: tuple[Any, list[tuple[Edge, Any]]] | None = None
    loop_start: int | None = None
    premise_met = True
    if isinstance(prop, Invariant):
        premise_met, bad_state, _, _ = found
        if bad_state is not None:
            violation = exploration.path_to(bad_state)
    elif isinstance(prop, StepProperty):
        premise_met, violation = found
    elif isinstance(prop, Deadlock):
        if len(exploration.dead_ends):
            violation = exploration.path_to(int(exploration.dead_ends[0]))
    elif isinstance(prop, Eventually):
        _, _, premise, missed = found
        premise_met, violation, loop_start = explicit._unmet(exploration, premise, missed)
    else:
        raise TypeError(f"explicit search cannot check {type(prop).__name__}")
    return explicit.result_of(exploration, prop, violation, loop_start, premise_met, seconds + time.perf_counter() - started)

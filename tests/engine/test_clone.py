"""`GameState.clone()` is a hand-written copy: it must behave exactly as
`copy.deepcopy` would, and share nothing that changes with the original.

Random playouts are cloned (and deep-copied) at many steps; each copy is then
played forward with the same random choices as the original, and every
observation (`legal_actions()`, `str(state)`, history, returns) must agree
with the deep copy's and, later, with the original's own. Playing a copy
forward must leave the original as it was. The copy is also compared with
the deep copy structurally: the same values, and the same objects held in
the same places (a link held by the chain, a task and a decision is one
object in both), while no list, dict, set or mutable object is shared with
the original (the card pool, which nothing changes, is shared on purpose).
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import random

import pytest

from engine.wowtcg import WowTcgGame
from engine.wowtcg.arrange import arrange
from engine.wowtcg.cards import Card, Pool, Power, Step
from engine.wowtcg.objects import Action, Link, Packet
from engine.wowtcg.state import GameState

IMMUTABLE = (int, float, str, bool, type(None), frozenset)
SHARED = (Card, Power, Step, Action)  # frozen: a copy may share them or hold equal ones
EVERY = 8  # clone at every 8th step, and wherever a decision waits (they are rarer)
AHEAD = 10  # and play each copy this many steps forward
STEP_CAP = 3000


def observe(st: GameState) -> tuple:
    """What a step shows: the history's newest entry stands for the whole
    history, since every copy starts from the same one (checked structurally)."""
    return (st.current_player(), repr(st.legal_actions()), str(st), len(st.history), st.history[-1:],
            st.returns(), st.is_terminal())


def play_ahead(st: GameState, rng: random.Random, steps: int) -> list[tuple]:
    seen = []
    for _ in range(steps):
        seen.append(observe(st))
        if st.is_terminal():
            break
        st.apply_action(rng.choice(st.legal_actions()))
    seen.append((observe(st), list(st.history)))
    return seen


def fork(rng: random.Random) -> random.Random:
    twin = random.Random()
    twin.setstate(rng.getstate())
    return twin


@functools.cache
def field_names(cls: type) -> tuple[str, ...] | None:
    return tuple(f.name for f in dataclasses.fields(cls)) if dataclasses.is_dataclass(cls) else None


def parts(value) -> list:
    """The values directly inside `value`, in a fixed order."""
    if isinstance(value, GameState):
        return [getattr(value, key) for key in sorted(GameState.__slots__)]  # an unset field raises here
    names = field_names(type(value))
    if names is not None:
        return [getattr(value, name) for name in names]
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, dict):
        return [value[key] for key in sorted(value, key=repr)]
    return []


#: Where a part lies, as (where its holder lies, the holder's type, its place
#: there), the state itself as None: put in words (`show`) only for a failure,
#: since every part of every cloned state is visited.
Path = tuple | None


def show(path: Path) -> str:
    steps = []
    while path is not None:
        path, holder, i = path
        steps.append(f"{holder}[{i}]")
    return "/".join(["state", *reversed(steps)])


def assert_same_structure(deep, twin, pairs: dict[int, int], path: Path = None) -> None:
    """`twin` holds what `deep` holds, and where `deep` holds one object in
    two places `twin` does too (`pairs` maps deep's objects to twin's)."""
    if isinstance(deep, IMMUTABLE + SHARED):
        assert type(deep) is type(twin) and deep == twin, show(path)
        return
    assert type(deep) is type(twin), f"{show(path)}: {type(deep).__name__} against {type(twin).__name__}"
    if isinstance(deep, Pool):
        assert deep.cards.keys() == twin.cards.keys(), show(path)
        return
    if not isinstance(deep, tuple):  # a tuple is a value: only what it holds can be shared
        if id(deep) in pairs:
            assert pairs[id(deep)] == id(twin), f"{show(path)}: held in two places by the deep copy, not by the clone"
            return
        assert id(twin) not in pairs.values(), f"{show(path)}: held in two places by the clone, not by the deep copy"
        pairs[id(deep)] = id(twin)
    if isinstance(deep, random.Random):
        assert deep.getstate() == twin.getstate(), show(path)
        return
    if isinstance(deep, set):
        assert deep == twin, show(path)
        return
    if isinstance(deep, GameState):
        # Every field is a slot (no other can be set): each is set in both.
        set_in = [name for name in GameState.__slots__ if hasattr(deep, name)]
        assert set_in == [name for name in GameState.__slots__ if hasattr(twin, name)] == list(GameState.__slots__), show(path)
    if isinstance(deep, dict):
        assert sorted(deep, key=repr) == sorted(twin, key=repr), show(path)
    mine, theirs = parts(deep), parts(twin)
    assert len(mine) == len(theirs), show(path)
    holder = type(deep).__name__
    for i, (a, b) in enumerate(zip(mine, theirs)):
        assert_same_structure(a, b, pairs, (path, holder, i))


def mutable_parts(value, found: dict[int, Path], path: Path = None) -> dict[int, Path]:
    """Every mutable object reachable from `value`, by id, with where it is
    (the pool and its frozen cards excepted)."""
    if isinstance(value, IMMUTABLE + SHARED + (Pool,)) or id(value) in found:
        return found
    if not isinstance(value, tuple):
        found[id(value)] = path
    holder = type(value).__name__
    for i, part in enumerate(parts(value)):
        mutable_parts(part, found, (path, holder, i))
    return found


def check_clone(st: GameState, rng: random.Random) -> list[tuple]:
    """Clone `st` and deep-copy it, compare them, play both (and a clone of
    the clone) ahead with the choices `rng` will make; returns what the
    original must show on those steps."""
    before = (observe(st), list(st.history))
    twin, deep = st.clone(), copy.deepcopy(st)
    assert twin.pool is st.pool
    assert_same_structure(deep, twin, {})
    shared = mutable_parts(st, {}).keys() & mutable_parts(twin, {}).keys()
    assert not shared, f"the clone shares {sorted(show(mutable_parts(st, {})[i]) for i in shared)} with the original"
    again = twin.clone()
    ahead = play_ahead(twin, fork(rng), AHEAD)
    assert ahead == play_ahead(deep, fork(rng), AHEAD)
    assert ahead == play_ahead(again, fork(rng), AHEAD)
    assert (observe(st), list(st.history)) == before, "playing the clone changed the original"
    return ahead


def has_link_in_two_places(st: GameState) -> bool:
    held = [v for v in (st.decision.context.values() if st.decision else ()) if isinstance(v, (Link, Packet))]
    held += [v for task in st.tasks for v in task if isinstance(v, (Link, Packet))]
    held += [st.resolving] if st.resolving is not None else []
    return len(held) != len({id(v) for v in held})


# Seeds whose playouts hold, at some decision, a link or a packet in two places.
@pytest.mark.parametrize(("players", "seed"), [(2, 0), (2, 2), (3, 0), (4, 3)])
def test_clone_plays_on_as_a_deep_copy(players, seed):
    st = WowTcgGame(players=players).new_initial_state(seed)
    rng = random.Random(seed)
    expected: dict[int, tuple] = {}  # step -> what the original must show then
    found = {"setup": 0, "combat": 0, "chain": 0, "decision": 0, "link or packet held twice": 0}
    for step in range(STEP_CAP):
        if step in expected:
            assert observe(st) == expected.pop(step), f"step {step}: the original differs from its clone's playout"
        if step % EVERY == 0 or st.decision is not None:
            found["setup"] += st.step == "setup"
            found["combat"] += st.combat is not None
            found["chain"] += bool(st.chain)
            found["decision"] += st.decision is not None
            found["link or packet held twice"] += has_link_in_two_places(st)
            ahead = check_clone(st, rng)
            expected.update({step + i: seen for i, seen in enumerate(ahead[:-1])})
        if st.is_terminal():
            break
        st.apply_action(rng.choice(st.legal_actions()))
    assert st.is_terminal()
    assert all(found.values()), f"not every kind of state was cloned: {found}"


def test_clone_of_an_arranged_state_mid_combat_with_a_chain():
    """An arranged game (it never set up, but has an RNG) cloned while an
    attack is proposed on the chain and then while the combat is fought."""
    st = arrange(["Valthak Spiritdrinker", "Valthak Spiritdrinker"],
                 play={0: ["Ashen Recruit"], 1: ["Ashen Recruit"]}, resources={0: 3, 1: 3})
    rng = random.Random(7)
    propose = next(a for a in st.legal_actions() if a.kind == "propose")
    st.apply_action(propose)
    assert st.chain
    check_clone(st, rng)
    while st.combat is None:
        st.apply_action(next(a for a in st.legal_actions() if a.kind == "pass"))
    check_clone(st, rng)


def test_an_action_made_fast_is_the_action_built_the_plain_way():
    """`Action.made` (the priority actions offered, the frequent decisions)
    gives what `Action(...)` gives: an `Action` equal to it with the same
    hash, text and fields, frozen, copied and replaced as one."""
    plain = Action("play", 0, 5, (3,), 2, None, label="P1 plays Fireball on P2's Hero")
    made = Action.made("play", 0, 5, (3,), 2, None, label="P1 plays Fireball on P2's Hero")
    assert type(made) is Action and made == plain and hash(made) == hash(plain)
    assert repr(made) == repr(plain) and str(made) == str(plain)
    assert dataclasses.astuple(made) == dataclasses.astuple(plain)
    assert Action.made("pass", 1) == Action("pass", 1) and Action.made("pass", 1) != Action.made("pass", 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.x = 3
    assert copy.deepcopy(made) == made and copy.deepcopy(made).label == made.label
    assert dataclasses.replace(made, x=0) == Action("play", 0, 5, (3,), 0)

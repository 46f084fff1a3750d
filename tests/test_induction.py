"""k-induction (``checkers/induction.py``) held to exhaustive explicit search.

On a finite model of games of every length, explicit search of every reachable
state (searched over arrays, ``checkers/vector.py``, which tests/test_vector.py
holds to explicit search state by state) decides each safety property exactly,
so k-induction must agree with it:
a proof only of what holds, ``vacuous`` by proof only of what is vacuous, a
violation only of what is violated, with the same shortest transcript (its base
case is bounded model checking).  Tiny synthetic machines pin the cases the
game cannot show on its own: a violation or a premise at a terminal state past
the base case (a step asserted outright once hid both), and a proof that needs
the simple-path constraint.

Bounds: the any-length WoW model with the default board does not finish
exploring even at the smallest bounds (players 2, chain 1, no allies, no
cards, no resources: over 300,000 states and still going), because of the
heroes' two weapons, armor and health.  So the cross-checks build the same
any-length model (``wowtcg.build(..., any_length=True)``, what
``Game.any_length_machine`` calls) on a smaller board: heroes with 1 health,
one weapon that costs nothing, no armor; with ``allies=1`` each party also has
a stealthy ally that must attack if able.  Both explore completely in a few
seconds (about 6,800 and 61,000 states, shortest paths up to 74 and 131 steps).
"""

from __future__ import annotations

from functools import cache

import pytest

from chainproof.games import get_game
from model import wowtcg
from checkers import induction, vector
from model.backend import CONCRETE
from model.machine import BOOL, Edge, IntRange, Location, Machine, Var
from checkers.results import HOLDS_TO_DEPTH, PROVED, UNKNOWN, VACUOUS, VIOLATED, Result
from model.wowtcg.board import Board, Character, Party, Weapon
from properties import Deadlock, Eventually, Invariant, Property, StepProperty, validate
from tests.conftest import reachable_states
from tests.test_mutants import MUTANTS, caught

GAME = get_game("wowtcg")
SAFETY: tuple[Property, ...] = tuple(
    p for p in GAME.properties if not isinstance(p, Eventually)
)
BY_NAME = {p.name: p for p in GAME.properties}
MUTANT = {m.name: m for m in MUTANTS}

#: Deep enough for every proof on the tiny boards (the deepest is k=4, at the
#: time of writing: the one-ally board's; the heroes' deepest is k=3).  No
#: deeper: the properties that no k proves unroll to it, and k=6 cost twice
#: as much for the same proofs.
PROOF_K = 4
#: Deep enough for the base case to reach the shorter any-length mutant
#: counterexamples below (up to 9 steps).
MAX_K = 9
PROVED_UNREACHABLE = "premise proved unreachable"

#: The bounds of the tiny any-length instances; ``turns``, ``deck`` and
#: ``combats`` bound nothing there.
TINY = {"players": 2, "chain_depth": 1, "hand": 0, "hand_limit": 0, "resources": 0}


def _party() -> Party:
    prowler = Character("prowler", atk=1, health=1, keywords=frozenset({"stealth"}), must_attack=True)
    hero = Character("hero", atk=0, health=1)
    return Party(hero=hero, allies=(prowler,), weapons=(Weapon("axe", 1, 0),), armor_def=0)


def tiny_any_length(allies: int) -> Machine:
    machine = wowtcg.build(**TINY, allies=allies, board=Board((_party(), _party())), any_length=True)
    validate(machine, SAFETY)
    return machine


@cache
def tiny(allies: int) -> tuple[Machine, vector.VectorExploration]:
    machine = tiny_any_length(allies)
    exploration = vector.explore(machine)
    assert exploration.complete
    return machine, exploration


@cache
def tiny_proofs(allies: int, simple_path: bool = True) -> tuple[Result, ...]:
    machine, _ = tiny(allies)
    return tuple(induction.check_all(machine, SAFETY, max_k=PROOF_K, simple_path=simple_path))


def premise_depth(exploration: vector.VectorExploration, prop: Property) -> int | None:
    """The length of a shortest run to the property's premise (None: never met)."""
    m, depth = exploration.machine, exploration.depth
    if isinstance(prop, Invariant):
        if prop.premise is None:
            return 0
        # Nodes are numbered breadth first: the first premise state is a nearest one.
        return next((int(depth[i]) for i, s in enumerate(reachable_states(exploration)) if prop.premise(m, s, CONCRETE)), None)
    if isinstance(prop, StepProperty):
        applies = [prop.applies(e) for e in m.edges]
        return min((int(depth[pre]) + 1 for pre, k in zip(exploration.step_pre.tolist(), exploration.step_edge.tolist()) if applies[k]), default=None)
    assert isinstance(prop, Deadlock)
    return 0


def agrees(exploration: vector.VectorExploration, prop: Property, r: Result, max_k: int) -> Result:
    """k-induction's verdict on ``prop`` is the one exhaustive search allows; returns the explicit one."""
    assert exploration.complete, "only a complete exploration decides a property exactly"
    e = vector.check(exploration, prop)
    context = f"{prop.name}: k-induction {r.verdict} at {r.depth} ({r.note}); explicit {e.verdict} at {e.depth}"
    assert r.method == "k-induction" and r.property == prop.name, context
    # Only a proof, or a premise proved unreachable, speaks for runs of every length.
    assert r.unbounded == (r.verdict == PROVED or r.note.startswith(PROVED_UNREACHABLE)), context
    if e.verdict == VIOLATED and e.depth <= max_k:
        # The base case is bounded model checking to max_k: it finds a shortest violation.
        assert r.verdict == VIOLATED, context
    if r.verdict == VIOLATED:
        assert e.verdict == VIOLATED and r.depth == e.depth, context
        assert r.counterexample is not None and len(r.counterexample) == e.depth, context
        assert prop.name in r.counterexample.text(), context
    elif r.verdict == PROVED:
        assert e.verdict in (HOLDS_TO_DEPTH, VACUOUS), context
        assert 0 <= r.depth <= max_k, context
    elif r.verdict == VACUOUS:
        if r.note.startswith(PROVED_UNREACHABLE):
            assert e.verdict == VACUOUS, context
        else:
            # The base case's own: no premise within max_k steps, and not a word more.
            met = premise_depth(exploration, prop)
            assert met is None or met > max_k, context
            assert e.verdict != VIOLATED or e.depth > max_k, context
    elif r.verdict == HOLDS_TO_DEPTH:
        assert e.verdict != VIOLATED or e.depth > max_k, context
        met = premise_depth(exploration, prop)
        assert met is not None and met <= max_k, context  # the base case saw the premise
        assert r.depth == max_k or "no run is longer than" in r.note, context
    else:
        pytest.fail(f"unexpected verdict with the default timeout: {context}")
    if e.verdict == VACUOUS:
        assert r.verdict in (VACUOUS, PROVED), context
    return e


def only_bounded(r: Result, k: int) -> None:
    """Neither proved nor violated: the base case's own verdict to ``k`` steps,
    ``holds-to-depth``, or ``vacuous`` when the premise is first met past ``k``
    (as bounded model checking says it), never vacuous by proof."""
    assert r.verdict in (HOLDS_TO_DEPTH, VACUOUS) and r.depth == k, r.note
    assert r.counterexample is None and not r.note.startswith(PROVED_UNREACHABLE), r.note
    assert f"not k-inductive up to k={k}" in r.note, r.note


# -- 1. against exhaustive search of games of every length ------------------------------


@pytest.mark.parametrize("allies", [0, 1], ids=["heroes", "one-ally"])
def test_every_verdict_agrees_with_exhaustive_search(allies: int) -> None:
    _, exploration = tiny(allies)
    results = tiny_proofs(allies)
    assert [r.property for r in results] == [p.name for p in SAFETY]
    found = {r.property: agrees(exploration, p, r, PROOF_K).verdict for p, r in zip(SAFETY, results)}
    verdicts = [r.verdict for r in results]
    # Not a vacuous cross-check: most properties are proved, some are vacuous by
    # proof, and explicit search sees the premises of several proved ones only
    # past the base case.
    # (The inductive step assumes only the inductive domain bounds, not the declared
    # domains: 17 on the heroes-only board.)
    assert verdicts.count(PROVED) >= 15, verdicts
    assert sum(r.note.startswith(PROVED_UNREACHABLE) for r in results) >= 3
    assert any(
        r.verdict == PROVED and found[r.property] == HOLDS_TO_DEPTH and "premise was not met" in r.note for r in results
    )


#: Mutants (tests/test_mutants.py) applied to the tiny any-length model with
#: heroes only, with the length of explicit search's shortest counterexample
#: there.  Those within MAX_K must be found by the base case at that length; the
#: one past it must not be proved (it holds only up to MAX_K).
ANY_LENGTH_MUTANTS = {
    "passing skips the next player": 2,
    "a link resolves one pass early": 6,
    "a window closes with links on the chain": 7,
    "the player who adds a link loses priority": 14,
}


@pytest.mark.parametrize("name", ANY_LENGTH_MUTANTS)
def test_a_broken_any_length_model_is_never_proved(name: str) -> None:
    mutant = MUTANT[name]
    prop = BY_NAME[mutant.caught_by]
    machine = mutant.mutate(tiny_any_length(0))
    exploration = vector.explore(machine)
    r = induction.check(machine, prop, max_k=MAX_K)
    e = agrees(exploration, prop, r, MAX_K)
    assert e.verdict == VIOLATED and e.depth == ANY_LENGTH_MUTANTS[name]
    if e.depth <= MAX_K:
        assert r.verdict == VIOLATED and len(r.counterexample) == e.depth
        assert r.counterexample.steps[-1].edge.startswith(mutant.broken_edge)
    else:
        only_bounded(r, MAX_K)


# -- 2. a premise or a violation at a terminal state ------------------------------------


def test_a_premise_at_game_over_is_not_called_unreachable() -> None:
    """game_over has no successor; a path whose steps were asserted outright
    made every state have one, and 'proved' the game never ends (vacuous)."""
    prop = BY_NAME["game_ends_with_one_winner_or_a_draw"]
    for allies in (0, 1):
        machine, exploration = tiny(allies)
        met = premise_depth(exploration, prop)
        assert met is not None and met > PROOF_K  # reached, but past the base case
        assert vector.check(exploration, prop).verdict == HOLDS_TO_DEPTH
        results = [tiny_proofs(allies)[SAFETY.index(prop)]]
        if allies == 0:
            results.append(induction.check(machine, prop, max_k=4))  # alone, as well as in rounds
        for r in results:
            assert r.verdict == PROVED, r.note
            assert "is not proved unreachable" in r.note


def countdown(n: int) -> Machine:
    """Count to ``n``, then the game ends at a terminal location with ``bad``
    raised.  ``drift`` is never enabled (``w`` starts at 0) but makes ``w < 6``
    hold without being k-inductive below k=6, so proving it first unrolls the
    path to the full ``max_k`` before the other properties are asked."""
    return Machine(
        "countdown",
        [Var("x", IntRange(0, n), (0,)), Var("bad", BOOL, (False,)), Var("w", IntRange(0, 6), (0,))],
        [
            Location("counting", ("409.1",), "counting up"),
            Location("over", ("102.1",), "the game is over", terminal="game over"),
        ],
        "counting",
        [
            Edge("count", "counting", "counting", ("409.1",), lambda s, b: s.x < n, lambda s, b: {"x": s.x + 1}),
            Edge("finish", "counting", "over", ("102.1",), lambda s, b: s.x == n, lambda s, b: {"bad": True}),
            Edge(
                "drift",
                "counting",
                "counting",
                ("409.1",),
                guard=lambda s, b: b.And(s.w > 0, s.w < 6),
                update=lambda s, b: {"w": s.w + 1},
            ),
        ],
        GAME.registry,
        {},
        lambda m, s: {"x": str(s.x), "bad": str(s.bad), "w": str(s.w)},
    )


drift_bounded = Invariant("drift_bounded", ("409.1",), "w stays below 6", holds=lambda m, s, b: s.w < 6)
never_bad = Invariant("never_bad", ("102.1",), "bad is never raised", holds=lambda m, s, b: b.Not(s.bad))
ends_counted = Invariant(
    "ends_counted",
    ("102.1",),
    "the game ends only once the count is done",
    premise=lambda m, s, b: m.at(s, "over", b=b),
    holds=lambda m, s, b: s.x == m.var["x"].domain.hi,
)


def countdown_results(steps: int, max_k: int) -> tuple[vector.VectorExploration, list[Result]]:
    """k-induction on the countdown's three properties, each checked against exhaustive search."""
    m = countdown(steps)
    exploration = vector.explore(m)
    props = [drift_bounded, never_bad, ends_counted]
    results = induction.check_all(m, props, max_k=max_k)
    for p, r in zip(props, results):
        agrees(exploration, p, r, max_k)
    return exploration, results


def test_a_violation_at_a_terminal_state_past_the_base_case_is_not_proved_away() -> None:
    m = countdown(5)
    exploration, results = countdown_results(5, 3)
    by_name = {r.property: r for r in results}
    # Violated in 6 steps, the last into the terminal location: past max_k, so
    # only 'holds up to 3 steps'.  With the steps asserted outright, the state
    # at 'over' needed a successor and this was 'proved'.
    assert vector.check(exploration, never_bad).depth == 6
    assert by_name["never_bad"].verdict == HOLDS_TO_DEPTH, by_name["never_bad"].note
    # Its premise is met in 6 steps: proved (k=1), never vacuous.
    assert by_name["ends_counted"].verdict == PROVED, by_name["ends_counted"].note
    assert "is not proved unreachable" in by_name["ends_counted"].note
    assert by_name["drift_bounded"].verdict == HOLDS_TO_DEPTH
    # Alone, its own proof at k=1 is the longer query before its premise's k=0.
    alone = induction.check(m, ends_counted, max_k=3)
    assert alone.verdict == PROVED and "is not proved unreachable" in alone.note, alone.note


def test_a_violation_at_a_terminal_state_two_steps_away_is_found() -> None:
    _, results = countdown_results(1, 4)
    r = results[1]
    assert r.verdict == VIOLATED and r.depth == 2
    assert [s.edge for s in r.counterexample.steps] == ["count", "finish"]
    assert results[2].verdict == PROVED


# -- 3. mutants of the bounded model: the base case is bounded model checking -------------

#: The mutants whose shortest counterexample is short and quick to find (up to
#: 12 steps, at most a few seconds each); the longer ones (13 to 16 steps) are
#: left to tests/test_mutants.py, which holds BMC to explicit search on all.
#: max_k is the explicit length itself, so the base case just reaches it.
FAST_MUTANTS = [
    "passing skips the next player",
    "the first player draws on the first turn",
    "the bottom link resolves first",
    "a protection leaves a sabotage a sabotage",
]


def mutant_machine(name: str) -> tuple[Machine, Result]:
    """The mutant's machine and explicit search's verdict on the property that
    catches it, shared for the session with tests/test_mutants.py."""
    machine, found = caught(name)
    assert found.property == MUTANT[name].caught_by
    return machine, found


@pytest.mark.parametrize("name", FAST_MUTANTS)
def test_mutant_is_violated_with_the_shortest_counterexample(name: str) -> None:
    mutant = MUTANT[name]
    machine, found = mutant_machine(name)
    assert found.verdict == VIOLATED
    r = induction.check(machine, BY_NAME[mutant.caught_by], max_k=found.depth)
    assert r.verdict == VIOLATED and r.method == "k-induction", r.note
    assert r.depth == found.depth and len(r.counterexample) == found.depth
    assert r.counterexample.steps[-1].edge.startswith(mutant.broken_edge)
    assert "base case" in r.note


# -- 4. lemmas -------------------------------------------------------------------------------


#: 501.2b read as a state invariant: the game's first turn is the first player's.
first_turn_is_first_players = Invariant(
    "first_turn_is_first_players",
    ("501.2b",),
    "during the game's first turn the first player is the turn player",
    holds=lambda m, s, b: b.Implies(s.first_turn, s.turn_player == 0),
)


def test_a_property_proved_only_with_a_lemma() -> None:
    """'Only the first player's first turn skips its draw' is not k-inductive
    on its own (an unreachable state, the second player's turn marked as the
    first, breaks it at every k), but it is 1-inductive given that the first
    turn is the first player's.  (On this machine no catalogue property needs
    another as a lemma any more: the unsat cores that name one are not minimal.)"""
    machine, exploration = tiny(0)
    target, lemma = BY_NAME["first_player_skips_first_draw"], first_turn_is_first_players
    # The lemma is itself proved, so the proof resting on it is sound.
    assert induction.check(machine, lemma, max_k=PROOF_K).verdict == PROVED
    alone = induction.check(machine, target, max_k=3)
    assert alone.verdict != PROVED and "not k-inductive up to k=3" in alone.note
    helped = induction.check(machine, target, max_k=3, lemmas=[lemma])
    assert helped.verdict == PROVED and helped.depth == 1, helped.note
    assert "first_turn_is_first_players" in helped.note
    assert vector.check(exploration, target).verdict == HOLDS_TO_DEPTH


# -- 5. honesty --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["the first player draws on the first turn", "the bottom link resolves first"])
def test_a_counterexample_past_max_k_is_neither_proved_nor_found(name: str) -> None:
    """One step short of the shortest counterexample.  (The first mutant's
    premise, a draw on the first turn, is first met by the violating step itself,
    so its verdict is the base case's 'vacuous'; the second's 'holds-to-depth'.)"""
    mutant = MUTANT[name]
    machine, found = mutant_machine(name)
    short = found.depth - 1
    r = induction.check(machine, BY_NAME[mutant.caught_by], max_k=short)
    only_bounded(r, short)
    if name == "the bottom link resolves first":
        assert r.verdict == HOLDS_TO_DEPTH


#: A timeout that gives up on every query, and one that (on this machine, at
#: the time of writing) lets the base case finish and gives up on some of the
#: deeper inductive steps; what it gives up on varies from run to run, so the
#: assertions only ask that every verdict be one the truth allows.
SOME = ("priority_exclusive", "deadlock", "game_ends_with_one_winner_or_a_draw", "one_protector_per_combat")
TIMEOUTS = [(1, SAFETY, 4), (30, tuple(BY_NAME[n] for n in SOME), 6)]


@pytest.mark.parametrize("timeout_ms, props, max_k", TIMEOUTS, ids=["1ms", "30ms"])
def test_a_solver_timeout_is_never_a_wrong_verdict(timeout_ms: int, props: tuple[Property, ...], max_k: int) -> None:
    machine, exploration = tiny(0)
    results = induction.check_all(machine, props, max_k=max_k, timeout_ms=timeout_ms)
    for p, r in zip(props, results):
        e = vector.check(exploration, p)
        context = f"{p.name}: {r.verdict} ({r.note}); explicit {e.verdict}"
        assert r.verdict != VIOLATED, context  # nothing is violated here
        if r.verdict == UNKNOWN:
            assert "base case incomplete" in r.note, context
        elif r.verdict == PROVED:
            assert e.verdict in (HOLDS_TO_DEPTH, VACUOUS), context
        elif r.verdict == VACUOUS and r.note.startswith(PROVED_UNREACHABLE):
            assert e.verdict == VACUOUS, context
        else:
            # The base case's own bounded verdict, with why no proof was found.
            assert "not k-inductive" in r.note or "the solver gave up" in r.note, context
    if timeout_ms == 1:
        assert {r.verdict for r in results} == {UNKNOWN}


def test_liveness_is_refused() -> None:
    machine, _ = tiny(0)
    liveness = next(p for p in GAME.properties if isinstance(p, Eventually))
    with pytest.raises(TypeError, match="safety"):
        induction.check(machine, liveness, max_k=1)
    with pytest.raises(TypeError):
        induction.check_all(machine, [BY_NAME["priority_exclusive"], liveness], max_k=1)


# -- 6. the simple-path constraint ---------------------------------------------------------


def test_without_simple_paths_nothing_more_is_proved_and_nothing_else_is_violated() -> None:
    """Leaving out the simple-path constraint only weakens the inductive step.
    (On the WoW model, at the time of writing, no proof needs it: here and on
    the default any-length model every proof goes through without it at the
    same k, so the WoW model cannot show what it adds; ``detour`` does.)"""
    _, exploration = tiny(0)
    simple, loose = tiny_proofs(0), tiny_proofs(0, simple_path=False)
    for p, s, l in zip(SAFETY, simple, loose):
        agrees(exploration, p, l, PROOF_K)
        if l.verdict == PROVED:
            assert s.verdict == PROVED, (p.name, s.note, l.note)
        assert (s.verdict == VIOLATED) == (l.verdict == VIOLATED)
        assert "with the simple-path constraint" not in l.note


def detour() -> Machine:
    """The game idles at x=0; x=2 is unreachable, but spins on itself and falls to x=3."""
    edges = [
        Edge("idle", "play", "play", ("409.1",), guard=lambda s, b: s.x == 0),
        Edge("spin", "play", "play", ("409.1",), guard=lambda s, b: s.x == 2),
        Edge("fall", "play", "play", ("409.1",), guard=lambda s, b: s.x == 2, update=lambda s, b: {"x": 3}),
    ]
    return Machine(
        "detour",
        [Var("x", IntRange(0, 3), (0,))],
        [Location("play", ("409.1",), "playing")],
        "play",
        edges,
        GAME.registry,
        {},
        lambda m, s: {"x": str(s.x)},
    )


def test_the_simple_path_constraint_makes_a_proof() -> None:
    """x=3 can only follow x=2, which only follows itself: any path into x=3
    repeats x=2 before it, so no simple one of two steps exists; a path
    allowed to repeat states spins there for ever."""
    m = detour()
    never_three = Invariant("never_three", ("409.1",), "x never reaches 3", holds=lambda m, s, b: s.x != 3)
    assert vector.check(vector.explore(m), never_three).verdict == HOLDS_TO_DEPTH
    proved = induction.check(m, never_three, max_k=4)
    assert proved.verdict == PROVED and proved.depth == 2, proved.note
    assert "with the simple-path constraint" in proved.note
    loose = induction.check(m, never_three, max_k=4, simple_path=False)
    assert loose.verdict == HOLDS_TO_DEPTH and "not k-inductive up to k=4" in loose.note


def lingering(n: int) -> Machine:
    """Count to ``n``, then linger there for ever (a step back to the same state)."""
    return Machine(
        "lingering",
        [Var("x", IntRange(0, n), (0,))],
        [Location("play", ("409.1",), "playing")],
        "play",
        [
            Edge("count", "play", "play", ("409.1",), guard=lambda s, b: s.x < n, update=lambda s, b: {"x": s.x + 1}),
            Edge("linger", "play", "play", ("409.1",), guard=lambda s, b: s.x == n),
        ],
        GAME.registry,
        {},
        lambda m, s: {"x": str(s.x)},
    )


def test_a_violating_step_may_return_to_the_state_it_left() -> None:
    """Only a step's pre-states must be distinct: the violating step of a
    shortest run may well repeat a state (here it is a self-loop, 6 steps in)."""
    m = lingering(5)
    moves = StepProperty(
        "every_step_counts",
        ("409.1",),
        "every step changes the count",
        applies=lambda e: True,
        holds=lambda m, pre, post, b: pre.x != post.x,
    )
    e = vector.check(vector.explore(m), moves)
    assert e.verdict == VIOLATED and e.depth == 6
    short = induction.check(m, moves, max_k=3)
    assert short.verdict == HOLDS_TO_DEPTH and "not k-inductive up to k=3" in short.note, short.note
    found = induction.check(m, moves, max_k=6)
    assert found.verdict == VIOLATED and len(found.counterexample) == 6
    assert found.counterexample.steps[-1].edge == "linger"

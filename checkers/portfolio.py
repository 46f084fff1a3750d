"""One verdict per property from several methods: the strongest honest one wins.

The methods, in the order they run, and what each may conclude:

1. **Explicit search of the bounded instance** (the bounds as given, turns and
   deck included), over whole frontiers (``checkers/vector.py``: the states and
   verdicts of ``checkers/explicit.py``, at arrays' speed and size).  Exhaustive when it completes: a violation there is real
   and its transcript is a shortest one; otherwise it says ``holds-to-depth``
   (every game within the bounds) or ``vacuous`` (the premise is never met
   within them).
2. **The any-length model** (``any_length``: the same rules with nothing that
   bounds how long a game lasts; see ``abstracted:`` in the rules registry).
   Its reachable states cover games of every length, so a verdict on it that
   covers all of its runs is a verdict for games of any length:
   a. explicit search, when it completes under ``any_length_states``: the
      only method here for liveness (``Eventually``), whose lassos and dead
      ends it looks for in the whole graph;
   b. k-induction (``checkers/induction.py``) in lemma rounds;
   c. Spacer (``checkers/spacer.py``) for what k-induction left open; where
      an invariant Spacer found before is kept (``checkers/invariants.py``),
      it is re-checked first, and Spacer searches only if it does not hold.
   Where it abstracts (the deck to empty / not empty, resources to a cap), it
   over-approximates: it has every run of the game and perhaps more, so its
   proofs hold in the game; but a counterexample found only there may come
   from the abstraction, or need a longer game than the bounds allow: it is
   reported beside the bounded verdict, never as a violation.
3. **Bounded model checking** to ``depth`` when explicit search of the bounded
   instance did not complete: ``holds-to-depth`` at that depth or a shortest
   violation.

Verdict order: a violation on the bounded instance; then ``proved`` (or a
``vacuous`` whose premise is proved unreachable) from step 2; then the
bounded verdicts.  A method that times out says ``unknown``; the verdict is
``unknown`` only when no method decided anything.  Liveness (``Eventually``)
keeps its bounded verdict unless the any-length model was searched whole.
Every attempt is kept on the result (``Result.attempts``).

With ``Budget.workers`` above one (two by default, on a system that can
fork), steps 1 and 3 run in one worker process while step 2 runs in another,
and Spacer's queries, one property each, share the workers; on a large
instance the liveness properties are checked beside the others, in a process
forked for them from the search's (``_checked``).  Several games
share one pool (``verify_games``): while one game's bounded search holds a
worker, the other games' searches and every game's step 2 run in the others.
Sharing changes when a verdict comes, not what it is: a solver query is
bounded by counted work, not by time (``model/limits.py``), and Spacer
answers each query in a process of its own.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import time
from concurrent.futures import FIRST_EXCEPTION, Future, ProcessPoolExecutor, ThreadPoolExecutor, as_completed, wait
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Callable, Sequence

from model import limits
from checkers import bmc, explicit, induction, invariants, spacer, vector
from model.machine import Machine
from checkers.results import HOLDS_TO_DEPTH, PROVED, UNKNOWN, VACUOUS, VIOLATED, Attempt, Result
from properties import Eventually, Invariant, Property

BOUNDED = "bounded"
ANY_LENGTH = "any-length"
#: Explicit search that explored the whole any-length model.
EXHAUSTIVE = "explicit (any length)"


@dataclass(frozen=True)
class Budget:
    """How much each method may spend."""

    #: The wall-clock guard per solver query (a k-induction step, a BMC depth,
    #: one Spacer property); the resource limit (``model/limits.py``) decides first.
    timeout_ms: int = limits.GUARD_MS
    #: Explicit search of the bounded instance stops past this many states.
    max_states: int = explicit.DEFAULT_MAX_STATES
    #: ... or once its arrays hold more than this many bytes.
    max_memory: int = limits.DEFAULT_MAX_MEMORY
    #: Explicit search of the any-length model is tried up to this many states.
    any_length_states: int = 20_000
    #: Longest inductive step for k-induction (and its base case).
    max_k: int = 4
    #: Bounded model checking depth, when explicit search is incomplete.
    depth: int = 30
    #: Worker processes: the bounded search beside the any-length methods,
    #: then one Spacer query per worker.
    workers: int = field(default_factory=lambda: min(2, os.cpu_count() or 1))
    #: Re-check a kept invariant (``checkers/invariants.py``) before asking Spacer.
    kept_invariants: bool = True


Progress = Callable[[str, int, int], None]


def _quiet(description: str, done: int, total: int) -> None:
    """No progress display."""


@dataclass
class Run:
    """What a portfolio run found, per property, and what it cost."""

    results: list[Result]
    stats: dict[str, Any]
    #: The edges some reachable state of the bounded instance takes, when its
    #: explicit search finished (None otherwise): the others are never enabled there.
    edges_taken: frozenset[str] | None = None


@dataclass(frozen=True)
class Job:
    """One game's check: its bounded instance, its any-length model (None:
    it has none), the properties and the budget; ``any_length_search`` as for
    ``verify``."""

    bounded: Machine
    any_length: Machine | None
    properties: Sequence[Property]
    budget: Budget = Budget()
    any_length_search: vector.VectorExploration | None = None


def verify(
    bounded: Machine,
    any_length: Machine | None,
    properties: Sequence[Property],
    budget: Budget = Budget(),
    advance: Progress = _quiet,
    any_length_search: vector.VectorExploration | None = None,
) -> Run:
    """``any_length_search``: the any-length model's search to
    ``budget.any_length_states``, where the caller has it already (lint reads
    the same search for its own query): step 2a reads it instead of searching again."""
    (run,) = verify_games([Job(bounded, any_length, properties, budget, any_length_search)], advance)
    return run


def verify_games(jobs: Sequence[Job], advance: Progress = _quiet) -> list[Run]:
    """Each job's ``Run``, in the jobs' order, from one pool of workers (as
    many as the largest ``Budget.workers``): every bounded search is queued
    first, in the jobs' order, and while the first ones run, the others' and
    every any-length method fill the workers they leave free (verify's
    default run: WoW's bounded search takes one worker for most of the run,
    and the other worker does everything else).  Each game's ``seconds``
    runs from the start of the whole run to its last verdict."""
    started = time.perf_counter()
    _SHARED.update(enumerate(jobs))
    with _workers(max(job.budget.workers for job in jobs)) as pool:
        on_bounded = []
        for key, job in enumerate(jobs):
            advance(f"{job.bounded.game}: exploring states", 0, 1)
            on_bounded.append(pool.submit(_bounded_job, key))
        return _side_by_side(pool, [partial(_verify_one, pool, key, on_bounded[key], started, advance) for key in range(len(jobs))])


def _verify_one(pool: Any, key: int, on_bounded: Future, started: float, advance: Progress) -> Run:
    """One job's verdicts: its any-length methods, run here over the pool, and its bounded search's."""
    job: Job = _SHARED[key]
    properties, budget, any_length = job.properties, job.budget, job.any_length
    attempts: dict[str, list[Attempt]] = {p.name: [] for p in properties}

    def note(r: Result, model: str) -> Result:
        attempts[r.property].append(Attempt(r.method, model, r.verdict, r.seconds, r.note))
        return r

    safety = [p for p in properties if not isinstance(p, Eventually)]
    on_any_length: dict[str, Result] = {}
    if any_length is not None:
        advance(f"{job.bounded.game}: games of any length", 0, 1)
        on_any_length, lemmas = _any_length(pool, key, [p.name for p in properties], [p.name for p in safety], advance, note)
    stats, found, taken = on_bounded.result()
    if any_length is not None:
        #: The proved invariants Spacer's queries assumed (what a kept invariant names).
        stats["lemmas"] = lemmas
    bounded_result: dict[str, Result] = {}
    for r in found:
        note(r, BOUNDED)
        if r.property not in bounded_result or _stronger_bounded(r, bounded_result[r.property]):
            bounded_result[r.property] = r

    # Bounded attempts first, whichever finished first.
    ordered = {name: tuple(sorted(tried, key=lambda a: a.model != BOUNDED)) for name, tried in attempts.items()}
    results = [replace(_decide(bounded_result[p.name], on_any_length.get(p.name)), attempts=ordered[p.name]) for p in properties]
    if any_length is not None:
        # Say why a liveness verdict stays bounded: nothing else decides it beyond the bounds.
        unsearched = (f"not decided for games of any length: the any-length model was not searched whole "
                      f"(past {budget.any_length_states:,} states), and k-induction and Spacer decide safety only")
        results = [
            replace(r, note=f"{r.note}; {unsearched}")
            if isinstance(p, Eventually) and p.name not in on_any_length and r.verdict != VIOLATED else r
            for p, r in zip(properties, results)
        ]
    stats["seconds"] = round(time.perf_counter() - started, 3)
    return Run(results, stats, taken)


def _side_by_side(pool: Any, calls: Sequence[Callable[[], Run]]) -> list[Run]:
    """Each call's answer, in order: in threads of this process where the
    pool's workers run the jobs (the calls only submit jobs and wait), so that
    no game waits for another's; one after another where the jobs run here,
    since Z3 is stopped by Ctrl-C in the main thread only (``model/limits.py``)."""
    if isinstance(pool, _InProcess) or len(calls) == 1:
        return [call() for call in calls]
    with ThreadPoolExecutor(len(calls)) as threads:
        waiting = [threads.submit(call) for call in calls]
        try:
            # A call that failed is raised at once, not after the calls before it.
            wait(waiting, return_when=FIRST_EXCEPTION)
            return [w.result() for w in waiting]
        except BaseException:
            # Ctrl-C, or a job that failed: the calls still waiting must not
            # go on submitting work; jobs not yet started are dropped.
            pool.shutdown(wait=False, cancel_futures=True)
            raise


# --------------------------------------------------------------------------
# Jobs, run in worker processes forked from this one: they read the machines
# from ``_SHARED``, by the number of their job (a machine's guards are
# closures, which cannot be pickled), and send back only results.

_SHARED: dict[int, Job] = {}
#: Spacer's clauses for a job's any-length model with given lemmas, built
#: once in each worker that answers that job's queries.
_CLAUSES: dict[tuple[int, tuple[str, ...]], Any] = {}


def _bounded_job(key: int) -> tuple[dict[str, Any], list[Result], frozenset[str] | None]:
    """Explicit search of the bounded instance; BMC as well where it stopped short."""
    job = _SHARED[key]
    machine, properties, budget = job.bounded, job.properties, job.budget
    started = time.perf_counter()
    exploration = vector.explore(machine, budget.max_states, budget.max_memory, watch=properties)
    stats = {
        "complete": exploration.complete,
        "stopped": exploration.stopped or None,
        "states": exploration.states,
        "transitions": exploration.transitions,
        "exploration_seconds": round(exploration.seconds, 3),
        # What the memory guard (--max-memory) counts: the most bytes its arrays held.
        "peak_bytes": exploration.peak_bytes,
    }
    found = _checked(exploration, properties, budget)
    if not exploration.complete:
        found += bmc.check_all(machine, properties, budget.depth, budget.timeout_ms)
    taken = frozenset(machine.edges[i].name for i in exploration.edges_taken()) if exploration.complete else None
    # The job's own time, search and checks (a game's ``seconds`` may include waiting for a worker).
    stats["bounded_seconds"] = round(time.perf_counter() - started, 3)
    return stats, found, taken


#: From how many states the liveness properties are checked in a process of
#: their own (``_checked``): below it a fork costs more than it saves.
SPLIT_CHECKS_FROM = 1_000_000


def _checked(exploration: vector.VectorExploration, properties: Sequence[Property], budget: Budget) -> list[Result]:
    """``vector.check_all``, with the liveness properties checked in a child
    process forked for them, beside the others, where more than one worker is
    allowed and the states are many: on verify's default run, WoW's liveness
    check (its premise's cycles and dead ends) takes longer than every other
    property together, and by then the other workers are idle.  The child
    reads the search's arrays as they are (a fork copies nothing it only reads)."""
    live = [p for p in properties if isinstance(p, Eventually)]
    rest = [p for p in properties if not isinstance(p, Eventually)]
    if budget.workers < 2 or not live or not rest or exploration.states < SPLIT_CHECKS_FROM or not hasattr(os, "fork"):
        return vector.check_all(exploration, properties)
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:
        # The child only answers: whatever happens, it never returns into the worker's loop.
        try:
            os.close(reader)
            try:
                answer: tuple[bool, Any] = (True, vector.check_all(exploration, live))
            except BaseException as exc:  # noqa: BLE001 - sent to the worker, which raises it
                answer = (False, exc)
            with os.fdopen(writer, "wb") as out:
                pickle.dump(answer, out)
        finally:
            os._exit(0)
    os.close(writer)
    back = os.fdopen(reader, "rb")
    try:
        found = vector.check_all(exploration, rest)
        done, answer = pickle.load(back)
    except (EOFError, pickle.UnpicklingError):
        raise RuntimeError("the process checking the liveness properties ended without an answer") from None
    finally:
        back.close()  # first: a child still writing then stops, rather than wait for a reader
        os.waitpid(child, 0)
    if not done:
        raise answer
    by_name = {r.property: r for r in [*found, *answer]}
    return [by_name[p.name] for p in properties]


def _by_name(key: int, names: Sequence[str]) -> list[Property]:
    wanted = set(names)
    return [p for p in _SHARED[key].properties if p.name in wanted]


def _exhaustive_job(key: int, names: Sequence[str]) -> list[Result] | None:
    """Exhaustive search of the any-length model, if it ends under the budget's states."""
    job = _SHARED[key]
    machine, budget, exploration = job.any_length, job.budget, job.any_length_search
    if exploration is None:
        exploration = vector.explore(machine, budget.any_length_states)
    if not exploration.complete:
        return None
    everything = f"all {exploration.states} reachable states of the any-length model"
    found = []
    for r in vector.check_all(exploration, _by_name(key, names)):
        r = replace(r, method=EXHAUSTIVE, seconds=exploration.seconds)
        # Finished, so whatever it found holds for every run of the model.
        if r.verdict == HOLDS_TO_DEPTH:
            r = replace(r, verdict=PROVED, note=f"exhaustive search: {everything}", unbounded=True)
        elif r.verdict == VACUOUS:
            r = replace(r, note=f"premise never reached in {everything}", unbounded=True)
        found.append(r)
    return found


def _induction_job(key: int, names: Sequence[str]) -> list[Result]:
    job = _SHARED[key]
    return induction.check_all(job.any_length, _by_name(key, names), job.budget.max_k, job.budget.timeout_ms)


def _spacer_job(key: int, name: str, lemmas: Sequence[str]) -> Result:
    (p,) = _by_name(key, [name])
    job = _SHARED[key]
    machine, budget = job.any_length, job.budget
    stale = ""
    kept = invariants.find(machine, name, lemmas) if budget.kept_invariants else None
    if kept is not None:
        again = invariants.recheck(machine, p, kept, _by_name(key, lemmas), budget.timeout_ms)
        if again.unbounded:
            return again
        stale = f"; {again.note}, so Spacer searched anew"
    # A worker answers several properties' queries with the same lemmas: it
    # builds the model's clauses once (the query's text is the same either way).
    built = (key, tuple(lemmas))
    if built not in _CLAUSES:
        _CLAUSES[built] = spacer._Clauses(machine, _by_name(key, lemmas))
    # The invariant is re-checked but not printed here: ``verify --explain``
    # prints one that stands alone, without lemmas.
    found = spacer.check(machine, p, budget.timeout_ms, _clauses=_CLAUSES[built], print_invariant=False, lemmas=_by_name(key, lemmas))
    return replace(found, note=found.note + stale) if stale else found


class _InProcess:
    """The executor interface, running each job at once in this process."""

    def __enter__(self) -> "_InProcess":
        return self

    def __exit__(self, *exc: Any) -> None:
        _forget()

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        future: Future = Future()
        future.set_result(fn(*args))
        return future


class _Forked(ProcessPoolExecutor):
    def __exit__(self, *exc: Any) -> Any:
        try:
            return super().__exit__(*exc)
        finally:
            _forget()


def _forget() -> None:
    """The jobs' machines and Spacer's clauses, once their pool is done."""
    _SHARED.clear()
    _CLAUSES.clear()


def _end_on_interrupt() -> None:
    """A worker stopped by Ctrl-C ends at once and in silence: the command's
    own process says it was interrupted, once (not one traceback per worker)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _workers(n: int) -> Any:
    """``n`` worker processes, forked so that they share the machines; in
    this process where forking is not available (or ``n`` is 1)."""
    if n > 1 and "fork" in multiprocessing.get_all_start_methods():
        return _Forked(max_workers=n, mp_context=multiprocessing.get_context("fork"), initializer=_end_on_interrupt)
    return _InProcess()


def _stronger_bounded(new: Result, old: Result) -> bool:
    """Between two bounded verdicts: a violation, else the deeper check."""
    if old.verdict == VIOLATED:
        return False
    if new.verdict == VIOLATED:
        return True
    if new.verdict == UNKNOWN:
        return False
    return old.verdict == UNKNOWN or new.depth > old.depth


def _any_length(
    pool: Any, key: int, everything: list[str], safety: list[str], advance: Progress, note: Callable[[Result, str], Result]
) -> tuple[dict[str, Result], list[str]]:
    """The best verdict on the any-length model for each property: exhaustive
    search if it ends (liveness too: the model has every run of the game, so
    what every one of its runs meets, every game meets), else k-induction,
    then Spacer on what is left of the safety properties, one per worker;
    and the lemmas Spacer's queries assumed."""
    budget = _SHARED[key].budget
    exhaustive = pool.submit(_exhaustive_job, key, everything).result()
    if exhaustive is not None:
        return {r.property: note(r, ANY_LENGTH) for r in exhaustive}, []
    stopped = f"search of the any-length model stopped past {budget.any_length_states} states"
    names = safety
    if not names:
        return {}, []

    advance("k-induction", 0, 1)
    best = {r.property: note(r, ANY_LENGTH) for r in pool.submit(_induction_job, key, names).result()}
    left = [n for n in names if not best[n].unbounded and best[n].verdict != VIOLATED]
    # What k-induction proved of every reachable state helps Spacer (it need
    # not find those facts again): the invariants among its proofs.
    invariants = {p.name for p in _SHARED[key].properties if isinstance(p, Invariant)}
    lemmas = [n for n in names if best[n].verdict == PROVED and best[n].unbounded and n in invariants]
    pending = {pool.submit(_spacer_job, key, n, lemmas): n for n in left}
    for i, future in enumerate(as_completed(pending)):
        advance(f"spacer: {pending[future]}", i + 1, len(pending))
        r = note(future.result(), ANY_LENGTH)
        if r.unbounded or r.verdict == VIOLATED:
            best[r.property] = r
    for name, r in best.items():
        if not r.unbounded and r.verdict != VIOLATED:
            best[name] = replace(r, note=f"{r.note}; {stopped}")
    return best, lemmas


def _decide(bounded: Result, found: Result | None) -> Result:
    """The verdict to report for one property: see the module docstring for the order."""
    if bounded.verdict == VIOLATED or found is None:
        return bounded
    if found.unbounded:
        note = f"games of any length: {found.note}"
        if found.verdict == PROVED and bounded.verdict == VACUOUS:
            note += f"; within the bounded instance the premise is never reached ({bounded.note})"
        return replace(found, method=_unbounded_method(found), note=note)
    if found.verdict == VIOLATED:
        # Not reproduced within the bounds: a longer game, or the abstraction.
        steps = len(found.counterexample) if found.counterexample else found.depth
        return replace(
            bounded,
            counterexample=found.counterexample,
            note=f"{bounded.note}; the any-length model has a run of {steps} steps that violates it "
            f"({found.method}), not found within the bounds: it needs a longer game or comes from "
            "an abstraction (see abstracted: rules)",
        )
    return replace(bounded, note=f"{bounded.note}; not proved for games of any length: {found.note}")


def _unbounded_method(r: Result) -> str:
    return r.method if r.method == EXHAUSTIVE else f"{r.method} (any length)"

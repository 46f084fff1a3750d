"""The agreement run: Hypothesis plays an engine through its adapter, and after
every step the game's checker compares it with the model.

Per step the harness checks soundness and completeness (the checker), that
actions the engine offers apply (on a copy), that proposals and strikes the
model forbids are refused with a rule, and, once per run, that the same seed
gives the same game.  A failure shrinks to a short game and is reported as a
transcript whose script can be pasted into a scenario file.

**Coverage that steers.**  The run is split into rounds.  Before each round
the edge families of the model that no step has exercised yet become the
targets; within the round, a choice may be *steered*: the model, searched
breadth-first from the current state, gives the first edge of a shortest way
to a target edge, and the engine action standing for that edge is taken.
Whether to steer is itself drawn by Hypothesis, so a failing game still
shrinks, and the targets stay fixed inside a round, so every game replays
exactly.
"""

from __future__ import annotations

import gc
import random
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterator

import yaml
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.internal.conjecture import providers

from agreement.adapter import AdapterError, Guarded
from agreement.findings import Finding

#: The most steps one game may take (its setup is the first) before the
#: harness stops it: a game the model would let go on, not a finding, but one
#: the report names (``Report.capped``).
MOST_STEPS = 600
#: Offered actions tried on a copy at each step, and forbidden ones asked about.
TRIED_PER_STEP = 1


class AgreementFailure(Exception):
    """The engine disagreed with the model; carries the findings and the transcript."""

    def __init__(self, findings: list[Finding], transcript: "Transcript") -> None:
        self.findings = findings
        self.transcript = transcript
        super().__init__("\n".join(str(f) for f in findings))


@dataclass
class Transcript:
    """One game as the harness played it: the setup and every action, by label."""

    game: str
    setup: dict[str, Any]
    script: list[str] = field(default_factory=list)
    model_reading: str = ""  # the model's reading of the state before the failing step

    def as_yaml(self, findings: list[Finding]) -> str:
        doc = {
            "game": self.game,
            "setup": self.setup,
            "script": self.script,
            "finding": [str(f) for f in findings],
            "rules": sorted({r for f in findings for r in f.rules}),
            "model state before the last step": self.model_reading,
        }
        return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=100)


@dataclass(frozen=True)
class CappedGame:
    """A game that stopped before the rules ended it: by the harness's step cap,
    or by the engine's own limit on a game's length.  Not a disagreement, but a
    game whose end was not checked."""

    game: int  # its number among the games the run played, from 1
    setup_seed: int  # the seed of the random.Random that adapter.random_setup drew the game from
    steps: int  # steps checked before it stopped
    cap: str  # what stopped it

    def __str__(self) -> str:
        return f"game {self.game} (setup seed {self.setup_seed}) stopped after {self.steps} checked steps by {self.cap}"

    def as_json(self) -> dict[str, Any]:
        return {"game": self.game, "setup_seed": self.setup_seed, "steps": self.steps, "cap": self.cap}


@dataclass
class Report:
    """What a run found and exercised."""

    game: str
    examples: int
    steps: int = 0
    games_played: int = 0
    games_finished: int = 0  # ended by the rules; the others played are in ``capped``
    capped: list[CappedGame] = field(default_factory=list)
    edges: Counter = field(default_factory=Counter)
    rules: Counter = field(default_factory=Counter)
    reachable: dict[str, tuple[str, ...]] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    transcript: str = ""
    skipped: list[str] = field(default_factory=list)
    offered_tried: int = 0
    forbidden_tried: int = 0
    shrunk: bool = True  # whether a failing game was shrunk before it was reported

    @property
    def missed(self) -> list[str]:
        """Edge families reachable in the model at its default bounds that no step exercised."""
        return sorted(set(self.reachable) - set(self.edges))

    @property
    def ok(self) -> bool:
        return not self.findings

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "status": "agree" if self.ok else "disagree",
            "examples": self.examples,
            "steps": self.steps,
            "games_played": self.games_played,
            "games_finished": self.games_finished,
            "games_capped": len(self.capped),
            "capped_games": [c.as_json() for c in self.capped],
            "findings": [{"kind": f.kind, "rules": list(f.rules), "detail": f.detail} for f in self.findings],
            "transcript": self.transcript,
            "transcript_shrunk": self.shrunk,
            "coverage": {
                "edges": dict(sorted(self.edges.items())),
                "rules": dict(sorted(self.rules.items())),
                "reachable_edges": len(self.reachable),
                "missed_edges": {name: list(self.reachable[name]) for name in self.missed},
            },
            "checks": {"offered_actions_tried": self.offered_tried, "forbidden_actions_tried": self.forbidden_tried},
            "skipped": self.skipped,
        }


def conform(adapter: Any, checker: Any, examples: int = 60, seed: int = 0, players: tuple[int, ...] | None = None,
            rounds: int = 4, shrink: bool = True, most_steps: int = MOST_STEPS) -> Report:
    """Play ``examples`` games (in ``rounds``, re-aimed between rounds) and check every step.

    ``players``: the seat counts to draw from; by default the checker's
    (``checker.players``), else two and three.  ``most_steps``: the step cap
    of one game (``MOST_STEPS``).

    With ``shrink`` a failing game is shrunk to a short one before it is
    reported; that replays the game many times, which can take minutes.
    """
    players = players or getattr(checker, "players", (2, 3))
    guarded = Guarded(adapter, checker.check_state, checker.check_action)
    reachable = checker.reachable_families()
    report = Report(adapter.game, examples, reachable=reachable, shrunk=shrink)
    for what in ("clone", "refusal", "candidate_actions"):
        if not guarded.has(what):
            report.skipped.append(f"the adapter has no {what}(): " + ("offered actions are not tried on copies" if what == "clone" else "forbidden actions are not tried"))
    with _collections_between_games():
        return _rounds(guarded, checker, examples, seed, players, rounds, shrink, most_steps, reachable, report)


#: Games played between two of the harness's own collections (``_collections_between_games``).
GAMES_PER_COLLECTION = 100


@contextmanager
def _collections_between_games() -> Iterator[None]:
    """Python's cyclic collector off while games are played, and run once
    every ``GAMES_PER_COLLECTION`` games and at the end instead.

    A step's states and views are freed by reference counting; what the
    collector finds is the models of boards the caches let go (about 12,000
    objects over WoW's 60 games).  Its passes, each over the states the
    caches keep, were about a tenth of WoW's run (2.0 CPU s of 23 at seed 0),
    where the collections here cost about 0.8 s.  The one at the end reads
    only what the run made (the two younger generations): what the
    collector's next pass after the run would read.  Restored afterwards."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
        # Not on an interruption, which should end the run at once.
        gc.collect(1)
    finally:
        if was:
            gc.enable()


def _rounds(guarded: Guarded, checker: Any, examples: int, seed: int, players: tuple[int, ...], rounds: int, shrink: bool,
            most_steps: int, reachable: Any, report: Report) -> Report:
    _check_determinism(guarded, checker, seed, report)
    if report.findings:
        return report
    per_round = [examples // rounds + (1 if r < examples % rounds else 0) for r in range(rounds)]
    for r, count in enumerate(per_round):
        if count == 0:
            continue
        targets = frozenset(set(reachable) - set(checker.edges))
        round_seed = seed * 7919 + r
        play = settings(
            max_examples=count,
            deadline=None,
            database=None,
            derandomize=True,
            # Not Hypothesis's explain phase: it notes which draws of the shrunk
            # game could vary, for a report the harness does not print, by
            # playing hundreds of games to their end.
            phases=[p for p in Phase if p is not Phase.explain and (shrink or p is not Phase.shrink)],
            verbosity=Verbosity.quiet,
            suppress_health_check=list(HealthCheck),
        )(_games(guarded, checker, targets, report, round_seed, players, most_steps))
        try:
            # Hypothesis draws from the round's seed, not from a digest of this
            # module's source: an edit to the harness plays the same games.
            with _draws_from_the_seed_alone():
                hypothesis_seed(round_seed)(play)()
        except AgreementFailure as failure:
            report.findings = failure.findings
            report.transcript = failure.transcript.as_yaml(failure.findings)
            break
    report.edges = Counter(checker.edges)
    report.rules = Counter(checker.rules)
    return report


@contextmanager
def _draws_from_the_seed_alone() -> Iterator[None]:
    """Hypothesis's draws made from the seed alone, for the harness's rounds.

    Hypothesis's default provider now and then draws a literal constant read
    from the source of every local module the process has imported, so the
    same seed played other games depending on what else was imported (the
    CLI, a test worker's other modules).  Turning those draws off for the
    round keeps "same seed, same games"; the harness's draws are setups and
    choice indices, where a constant of the project's code finds nothing the
    seed would not."""
    provider = providers.HypothesisProvider
    original = provider.__dict__.get("_maybe_draw_constant")
    if original is None:  # a Hypothesis without constant draws
        yield
        return
    provider._maybe_draw_constant = lambda self, *args, **kwargs: None  # type: ignore[method-assign]
    try:
        yield
    finally:
        provider._maybe_draw_constant = original  # type: ignore[method-assign]


def _index(data: Any, n: int) -> int:
    """An index below ``n``, drawn for the game being played; with one to
    choose from, none is drawn (a choice of one would lengthen the game's
    choices, and let two of them differ where the games do not).

    Drawn straight from the example's choice sequence, not through
    ``data.draw``, which also writes a printable note of every draw for a
    report the harness does not use (it reports its own transcript), at
    several times the cost of the draw."""
    return 0 if n == 1 else data.conjecture_data.draw_integer(0, n - 1)


def _steers(data: Any) -> bool:
    """Whether this choice is steered: three times in four, and when
    Hypothesis draws its simplest value (it often does), since a way to a
    target is several steps long.  One yes-or-no draw: with a draw of four
    values three of which steer, games that differed only there were the
    same game played again."""
    return not data.conjecture_data.draw_boolean(0.25)


@lru_cache(maxsize=1 << 14)
def _tried(step: int, n: int, most: int) -> tuple[int, ...]:
    """The indices of the (at most ``most``) of ``n`` actions tried at a step:
    a sample drawn from a generator seeded with the step's number, so a game
    replays the same tries.  Kept: a run meets each step number with the
    same counts again and again, and seeding a generator twice a step was
    about a hundredth of WoW's run (``Random.sample`` picks by index, so the
    indices are those of a sample of the actions themselves)."""
    return tuple(random.Random(step).sample(range(n), min(most, n)))


def _check_determinism(guarded: Guarded, checker: Any, seed: int, report: Report) -> None:
    """The same setup and the same choices give the same game, twice."""
    games = []
    for _ in range(2):
        rng = random.Random(seed)
        setup = guarded.call("random_setup", rng, 2)
        state = guarded.call("new_game", setup)
        seen = []
        for _ in range(200):
            if guarded.is_terminal(state):
                break
            actions = guarded.legal_actions(state)
            if not actions:
                break
            action = actions[rng.randrange(len(actions))]
            seen.append((guarded.call("action_label", state, action), repr(guarded.observe(state))))
            guarded.call("apply_action", state, action)
        games.append(seen)
    first, second = games
    if first != second:
        at = next((i for i, (a, b) in enumerate(zip(first, second)) if a != b), min(len(first), len(second)))
        report.findings.append(Finding("nondeterministic", (), f"the same seed and choices gave another game from step {at + 1}"))


def _games(guarded: Guarded, checker: Any, targets: frozenset[str], report: Report, round_seed: int,
           players: tuple[int, ...], most_steps: int) -> Any:
    """The round's test: one game from its setup to its end or the step cap.

    A game is one Hypothesis example whose choices are drawn in a loop that
    stops when the game ends (a state machine would go on drawing steps
    that do nothing up to its step count), so a failing game still shrinks."""

    @given(setup_seed=st.integers(0, 2**32 - 1), seats=st.sampled_from(players), data=st.data())
    def play(setup_seed: int, seats: int, data: Any) -> None:
        game = Agreement()
        try:
            game.start(setup_seed, seats)
            while not game.over and game.calls + 1 < most_steps:
                game.step(data)
        finally:
            game.stop()

    class Agreement:
        #: Set once a game fails: the games Hypothesis plays after it replay the
        #: failing one while shrinking, and are neither counted nor named.
        failed = False
        #: Games begun in this round, those replayed while shrinking too.
        started = 0

        def start(self, setup_seed: int, seats: int) -> None:
            guarded.step = 0
            Agreement.started += 1
            if Agreement.started % GAMES_PER_COLLECTION == 0:
                gc.collect()
            self.setup_seed = setup_seed ^ round_seed
            self.calls = self.checked = 0  # steps run after the setup, and steps checked, in this game
            if not Agreement.failed:
                report.games_played += 1
            self.number = report.games_played
            setup = guarded.call("random_setup", random.Random(self.setup_seed), seats)
            self.state = guarded.call("new_game", setup)
            self.transcript = Transcript(guarded.game, setup.as_dict() if hasattr(setup, "as_dict") else dict(setup))
            self.obs = guarded.observe(self.state)
            self.over = guarded.is_terminal(self.state)
            checker.begin(self.obs)
            if not checker.waits_for_choice(self.obs):
                self._fail([Finding("adapter", (), "the game does not start at a point where a player chooses")])

        def stop(self) -> None:
            if hasattr(self, "state") and not (self.over or Agreement.failed):
                # The setup is the first of the game's steps.
                cap = (f"the harness's step cap ({most_steps} steps, the setup the first)" if self.calls + 1 >= most_steps
                       else "Hypothesis, when the choices drawn for the game fill its buffer")
                self._capped(cap)

        def _capped(self, cap: str) -> None:
            report.capped.append(CappedGame(self.number, self.setup_seed, self.checked, cap))

        def _fail(self, findings: list[Finding]) -> None:
            Agreement.failed = True
            self.transcript.model_reading = checker.describe(self.obs)
            raise AgreementFailure(findings, self.transcript)

        def _choose(self, data: Any, actions: list[Any], offered: list[dict[str, Any]]) -> int:
            """The index of the action to take."""
            if len(actions) > 1 and targets and _steers(data):
                fitting = checker.steer(self.obs, offered, targets)
                if fitting:
                    return fitting[_index(data, len(fitting))]
            return _index(data, len(actions))

        def step(self, data: Any) -> None:
            self.calls += 1
            guarded.step += 1
            pre = self.obs
            actions = guarded.legal_actions(self.state)
            if not actions:
                self._fail([Finding("incomplete", (), "the game is not over but the engine offers no action")])
            offered = [guarded.observe_action(self.state, a) for a in actions]
            findings = self._try_offered(actions) + self._try_forbidden(pre)
            chosen = self._choose(data, actions, offered)
            action, choice = actions[chosen], offered[chosen]
            self.transcript.script.append(guarded.call("action_label", self.state, action))
            guarded.call("apply_action", self.state, action)
            # Choices the model folds into automatic edges (armor, 304.2) are made here.
            while True:
                self.obs = guarded.observe(self.state)
                self.over = guarded.is_terminal(self.state)
                if self.over or checker.waits_for_choice(self.obs):
                    break
                inner = guarded.legal_actions(self.state)
                if not inner:
                    self._fail([Finding("incomplete", (), "the engine waits for a choice but offers no action")])
                pick = inner[_index(data, len(inner))]
                self.transcript.script.append(guarded.call("action_label", self.state, pick))
                guarded.call("apply_action", self.state, pick)
            limit = guarded.call("ended_by_limit", self.state) if self.over and guarded.has("ended_by_limit") else None
            if limit:
                # The engine's own limit ended the game, by no rule of the model:
                # its last step has nothing in the model to be compared with.
                if findings:
                    self.obs = pre
                    self._fail(findings)
                self._capped(f"the engine's limit on a game's length ({limit})")
                return
            report.steps += 1
            self.checked += 1
            findings += checker.step(pre, choice, self.obs, offered)
            if findings:
                self.obs = pre
                self._fail(findings)
            if self.over:
                report.games_finished += 1

        def _try_offered(self, actions: list[Any]) -> list[Finding]:
            """Offered means accepted: a few offered actions, applied to copies."""
            if not guarded.has("clone"):
                return []
            out = []
            for a in (actions[i] for i in _tried(guarded.step, len(actions), TRIED_PER_STEP)):
                copy = guarded.call("clone", self.state)
                try:
                    guarded.inner.apply_action(copy, a)
                except Exception as exc:  # noqa: BLE001 - an offered action that fails is the finding
                    out.append(Finding("refused-offered", (), f"the engine offered {guarded.call('action_label', self.state, a)} but applying it raised {type(exc).__name__}: {exc}"))
                report.offered_tried += 1
            return out

        def _try_forbidden(self, pre: dict[str, Any]) -> list[Finding]:
            """Not offered means refused with a rule: proposals and strikes the model forbids."""
            if not (guarded.has("refusal") and guarded.has("candidate_actions")):
                return []
            forbidden = checker.forbidden_choices(pre)
            out = []
            for rules, observed in (forbidden[i] for i in _tried(guarded.step, len(forbidden), TRIED_PER_STEP)):
                for a in guarded.call("candidate_actions", self.state, observed):
                    report.forbidden_tried += 1
                    if guarded.call("refusal", self.state, a) is None:
                        out.append(Finding("accepted-illegal", rules, f"the engine accepts {guarded.call('action_label', self.state, a)}, which the model forbids here"))
            return out

    return play


__all__ = ["AdapterError", "AgreementFailure", "CappedGame", "Report", "Transcript", "conform"]

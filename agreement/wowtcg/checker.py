"""The WoW side of the agreement harness: one game's observations checked step
by step against the model (soundness and completeness), with coverage."""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from agreement import reachable
from agreement.findings import Finding
from agreement.model_steps import KEPT
from agreement.steering import Pace
from agreement.wowtcg import abstraction as ab
from agreement.wowtcg.observation import check_action, check_state
from model.machine import Machine
from model.wowtcg import build

#: The edge families reachable at the model's default bounds: what a
#: conformance run should exercise.
REACHABLE_FILE = reachable.kept_file("wowtcg")
#: The engine decisions the model has a choice point for; any other decision
#: (armor against a packet, 304.2) is folded into the model's automatic edges.
CHOICE_DECISIONS = ("protect", "discard")
#: Instant resolutions the model tracks, with the combatant each acts on
#: (model/wowtcg/windows.py): the role a steered play should target.
INSTANT_AIMS = {
    "resolve_instant[exhaust proposed attacker]": "attacker",
    "resolve_instant[remove attacker from combat]": "attacker",
    "resolve_instant[remove defender from combat]": "defender",
}


@dataclass(frozen=True)
class Plan:
    """The first edge of a shortest way to a target, the first tracked
    instant resolution on that way (its family), if any, and the target
    family the way ends with."""

    lead: str
    aim: str | None
    goal: str


class WowChecker:
    """Checks one game at a time; coverage accumulates over games."""

    game = "wowtcg"
    @staticmethod
    def reference_machine() -> Machine:
        """The model at its default bounds: the edges a conformance run should exercise."""
        return build()

    check_state = staticmethod(check_state)
    check_action = staticmethod(check_action)

    def __init__(self) -> None:
        self.edges: Counter[str] = Counter()
        self.rules: Counter[str] = Counter()
        self.binding: ab.Binding | None = None
        self.carried: dict[str, Any] = {}
        self._last_view: tuple[dict[str, Any], tuple[ab.View, Any, Any]] | None = None
        #: The observation the last step checked came to, its model and its model state.
        self._reached: tuple[dict[str, Any], ab.View, Any] | None = None
        self._way: list[tuple[Machine, Any, frozenset[str], Plan]] = []  # the plans kept along a way found
        self.pace = Pace()  # when the game's next search may run (agreement.steering)
        self._last: Plan | None = None  # the plan steering gave, if it is the last of its way
        self._unfollowed: frozenset[str] = frozenset()  # targets whose way this game's engine did not take

    def begin(self, obs: dict[str, Any]) -> None:
        self._last_view = None
        self._reached = None
        self._way = []
        self.pace = Pace()
        self._last = None
        self._unfollowed = frozenset()
        self.binding = ab.Binding(len(obs["players"]))
        self.binding.seat(obs)
        self.carried = ab.initial_carry(ab.view(self.binding, [obs]).machine)

    @staticmethod
    def waits_for_choice(obs: dict[str, Any]) -> bool:
        """Is this engine state one where the model too waits for a player?"""
        decision = obs.get("decision")
        if obs["step"] == "game_over":
            return True
        if decision is not None:
            return decision["kind"] in CHOICE_DECISIONS
        return obs.get("priority") is not None

    def model_view(self, pre: dict[str, Any], post: dict[str, Any] | None = None) -> tuple[ab.View, Any, Any]:
        """The model for a step, with the model states of its two ends."""
        assert self.binding is not None, "begin() first"
        if post is None and self._last_view is not None and self._last_view[0] is pre:
            # Steering, refusals and the step itself all read the same state: build its model once.
            return self._last_view[1]
        self.binding.release(pre)
        if post is not None:
            self.binding.seat(post)
        v = ab.view(self.binding, [pre] if post is None else [pre, post])
        last, reached = self._last_view, self._reached
        if last is not None and last[0] is pre and last[1][0] is v:
            s_pre = last[1][1]  # the step's model is the one steering read: so is its state
        elif reached is not None and reached[0] is pre and reached[1] is v:
            s_pre = reached[2]  # the last step came here on this model: its state is this one's
        else:
            s_pre = ab.model_state(v, pre, self.carried)
        s_post = None if post is None else ab.model_state(v, post, self.carried)
        if post is None:
            self._last_view = (pre, (v, s_pre, None))
        return v, s_pre, s_post

    def step(self, pre: dict[str, Any], choice: dict[str, Any], post: dict[str, Any], offered: list[dict[str, Any]] | None) -> list[Finding]:
        """Check one step from choice point ``pre`` to choice point ``post``;
        without ``offered`` (a trace that does not list them) completeness is not checked."""
        self.pace.checked += 1
        v, s_pre, s_post = self.model_view(pre, post)
        findings = []
        # Completeness: every choice the model enables is offered (409.2, 602.2, 503.2a).
        for e in ab.missing_choices(v, s_pre, offered, pre) if offered is not None else ():
            findings.append(Finding("incomplete", e.rules, f"the model enables {e.name} but the engine offers no action for it"))
        # Offered actions are all choices the model allows here.
        allowed = ab.choice_edges(v.machine, s_pre)
        for a in offered or ():
            if not any(ab.matches(v, e, a, v.machine.actor(e, s_pre)) for e, _ in allowed):
                if a["kind"] == "protect" and a.get("protector") is None:
                    continue  # declining to protect: the model's no_protection or the next opponent's turn to answer
                rules, names = ab.disabled_like(v, s_pre, a)
                findings.append(Finding("unsound-offer", rules, f"the engine offers {_show_action(a)}, which the model does not allow here (edges of this kind, all disabled: {names})"))
        # Soundness of the step taken.
        stutter = choice["kind"] == "protect" and choice.get("protector") is None
        result = ab.check_step(v, s_pre, choice, s_post, stutter)
        if not result.sound:
            findings.append(Finding("unsound", result.rules, result.detail))
            return findings
        self.carried = result.carried
        self._last_view = None
        # What the model does not read off an engine is carried from the step's end.
        self._reached = (post, v, s_post._replace(**self.carried))
        taken = {ab.family(e.name) for e in result.path}
        for e in result.path:
            self.edges[ab.family(e.name)] += 1
            for r in e.rules:
                self.rules[r] += 1
        if self._last is not None and self._last.goal not in taken:
            # The game took the last choice of a way and the engine went
            # another way the model allows: the model is wider here than the
            # engine (an instant's effect the engine fixes by its target), so
            # steering toward that family again would take the same turn.
            self._unfollowed |= {self._last.goal}
        self._last = None
        return findings

    def forbidden_choices(self, pre: dict[str, Any]) -> list[tuple[tuple[str, ...], dict[str, Any]]]:
        """Proposals and strikes the model forbids at ``pre`` between cards in play,
        as observed actions with the rules of their edges: the engine must refuse each."""
        v, s, _ = self.model_view(pre)
        m, t = v.machine, v.table
        holder = s.priority_holder
        if holder >= t.nobody:
            return []
        enabled = {e.name for e, _ in ab.choice_edges(m, s)}
        ident = {number: i for i, number in v.number.items()}
        weapon_in = {i: w for w, i in v.weapon_slot.items()}
        out = []
        for e, attacker, defender, slot in ab.proposals_and_strikes(m, s.location):
            if e.name in enabled:
                continue
            if slot is None:
                if attacker in ident and defender in ident:
                    sabotage = defender >= t.count
                    out.append((e.rules, {"kind": "propose", "player": holder, "attacker": ident[attacker], "defender": ident[defender], "sabotage": sabotage}))
            elif slot // t.weapons == holder:
                out.append((e.rules, {"kind": "strike", "player": holder, "weapon": weapon_in[slot]}))
        return out

    def describe(self, obs: dict[str, Any]) -> str:
        """The model's reading of an observation, one line (for transcripts)."""
        v, s, _ = self.model_view(obs)
        return v.machine.describe(s)

    def choice_names(self, pre: dict[str, Any], choices: list[dict[str, Any]]) -> list[set[str]]:
        """For each observed choice at ``pre``, the model edges it could be."""
        v, s, _ = self.model_view(pre)
        m = v.machine
        enabled = [(e, m.actor(e, s)) for e, _ in ab.choice_edges(m, s)]
        return [{e.name for e, actor in enabled if ab.matches(v, e, c, actor)} for c in choices]

    def plan(self, pre: dict[str, Any], targets: frozenset[str], budget: int = 150) -> Plan | None:
        """The plan at ``pre``: the first choice of a shortest way, in the model,
        to an edge of a target family (``shortest_way``), or None.  The rest of
        a shortest way is a shortest way from where it has come to, so while a
        game follows the way it is steered along it without searching again.
        After searches that find no way, the next search waits (``agreement.steering``).
        Targets whose way the engine did not take in this game are left out."""
        v, start, _ = self.model_view(pre)
        targets = targets - self._unfollowed
        if not targets:
            return None
        # Along the way found (a point where the engine offered one action
        # was passed without steering), the plan kept for this point.
        at = next((i for i, kept in enumerate(self._way) if kept[:3] == (v.machine, start, targets)), None)
        if at is not None:
            plan = self._way[at][3]
            del self._way[: at + 1]
            return plan
        if not self.pace.may_search():
            return None
        way = shortest_way(v.machine, start, targets, budget)
        self.pace.searched(bool(way))
        self._way = [(v.machine, s, targets, plan) for s, plan in way[1:]]
        return way[0][1] if way else None

    def steer(self, pre: dict[str, Any], offered: list[dict[str, Any]], targets: frozenset[str]) -> list[int]:
        """The offered choices at ``pre`` that begin a shortest way to an edge of a
        target family (their indices; none when the model knows no way)."""
        plan = self.plan(pre, targets)
        if plan is None:
            return []
        fitting = [i for i, names in enumerate(self.choice_names(pre, offered)) if plan.lead in names]
        # One of these is taken: the step checks whether it reaches the goal.
        self._last = plan if fitting and not self._way else None
        # Reading: the model picks an instant's effect as the link resolves (links
        # carry no targets there), so every play of an instant is the same edge;
        # in the engine the target decides.  Prefer the plays aimed at the
        # combatant that the instant resolution on the way acts on.
        aim = plan.aim
        if aim is None and plan.lead.startswith("play_instant@"):
            # The play is itself a target: aim it at a target resolution of the same window too.
            aim = next((f for f in sorted(targets) if _resolution(f) in INSTANT_AIMS and _window(f) == _window(plan.lead)), None)
        role = INSTANT_AIMS.get(_resolution(aim)) if aim else None
        combatant = (pre.get("combat") or {}).get(role) if role else None
        aimed = [i for i in fitting if combatant is not None and combatant in offered[i].get("targets", ())]
        return aimed or fitting

    @staticmethod
    def reachable_families() -> dict[str, tuple[str, ...]]:
        """Edge families reachable in the model at its default bounds, with their
        rules: kept as data (REACHABLE_FILE), pinned by a test that explores the model."""
        return reachable.load(REACHABLE_FILE)

    @staticmethod
    def explore_reachable_families() -> dict[str, tuple[str, ...]]:
        """The same, computed by exploring the model (about ten seconds)."""
        return reachable.explore(WowChecker.reference_machine(), ab.family)


@lru_cache(maxsize=KEPT)
def shortest_way(m: Machine, start: Any, targets: frozenset[str], budget: int = 150) -> tuple[tuple[Any, Plan], ...]:
    """A shortest way, in the model, from ``start`` to an edge of a target family
    (breadth-first over at most ``budget`` choice points), as the plan at each of
    its choice points, first to last; empty when none is found.  Kept: a game
    comes back to a state it searched from (after a turn that changed nothing
    the model tracks, say), and the search is a function of its arguments."""
    # Instants are kept for the windows the targets are in: a way that
    # spends one elsewhere leaves none for the target (and widens the search).
    windows = {_window(f) for f in targets} - {""}
    seen = {start}
    # A queued point: its state, and how the search came to it (the point
    # before, the choice taken there, the families of that choice and its way on).
    queue: deque[tuple[Any, Any]] = deque([(start, None)])
    while queue and len(seen) < budget:
        here = queue.popleft()
        for e, post in ab.choice_edges(m, here[0]):
            chosen = ab.family(e.name)
            if chosen.startswith("play_instant@") and chosen not in targets and _window(chosen) not in windows:
                continue
            if chosen in targets:
                return _plans_along(here, e.name, (chosen,))
            for path, end in ab.automatic_paths(m, post):
                families = tuple(ab.family(x.name) for x in path)
                hit = next((i for i, f in enumerate(families) if f in targets), None)
                if hit is not None:
                    return _plans_along(here, e.name, (chosen, *families[: hit + 1]))
                if end not in seen:
                    seen.add(end)
                    queue.append((end, (here, e.name, (chosen, *families))))
    return ()


def _plans_along(last: tuple[Any, Any], choice: str, families: tuple[str, ...]) -> tuple[tuple[Any, Plan], ...]:
    """The plan at each point of the way the search found, first to last: the way
    ends with ``choice`` at the queued point ``last``, passing ``families``.  A
    plan's aim is the first tracked instant resolution from its point on."""
    steps = [(last[0], choice, families)]
    came = last[1]
    while came is not None:
        here, taken, passed = came
        steps.append((here[0], taken, passed))
        came = here[1]
    plans, aim = [], None
    for s, taken, passed in steps:  # last to first
        aim = next((f for f in passed if _resolution(f) in INSTANT_AIMS), None) or aim
        plans.append((s, Plan(taken, aim, families[-1])))
    plans.reverse()
    return tuple(plans)


def _resolution(family: str) -> str:
    """The edge family without its window: ``resolve_top_link@attack_window`` -> ``resolve_top_link``."""
    return family.split("@", 1)[0]


def _window(family: str) -> str:
    """The window of an edge family (``attack_window``), or "" for an edge of no window."""
    return family.split("@", 1)[1] if "@" in family else ""


def _show_action(a: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in a.items())

"""The agreement harness's checker for games whose model is built per table
(Riftbound, Heroes of Ancients): each engine game is checked against the
model of exactly its cards, read off its first observation.

An engine action stands for one or more model edges; after it the engine has
made every automatic step, so the model follows its automatic edges to the
next choice point and must arrive at the engine's state. What differs from
game to game is given by a subclass: the model for a first observation, the
model state an observation stands for, which edges an observed action stands
for, and which steps count as choices (a player's, or chance's).
"""

from __future__ import annotations

from collections import Counter, deque
from typing import Any, Callable

from agreement import reachable
from agreement.findings import Finding
from agreement.model_steps import successors
from agreement.steering import Pace
from model.machine import Edge, Machine


def family(name: str) -> str:
    """``move[P1:Caitlyn to bf1]`` -> ``move``: the edge with its arguments left out."""
    return name.split("[", 1)[0]


class TableChecker:
    """Checks one game at a time; coverage accumulates over games."""

    game = ""
    #: Steer by every shortest way to a target, not only the first found: for
    #: a game whose choices often lead to two targets at once (accept or
    #: refuse), where the first would always be taken.
    spread = False

    def __init__(self) -> None:
        self.edges: Counter[str] = Counter()
        self.rules: Counter[str] = Counter()
        self.machine: Machine | None = None
        self.pace = Pace()
        #: The rest of the way the last search found: each choice point's
        #: state with the edge to take there, for the targets searched for.
        self._way: list[tuple[Any, str]] = []
        self._way_targets: frozenset[str] = frozenset()

    # -- what a game gives ------------------------------------------------------------

    def machine_for(self, first: dict[str, Any]) -> Machine:
        raise NotImplementedError

    def model_state(self, m: Machine, obs: dict[str, Any]) -> Any:
        raise NotImplementedError

    def action_name(self, m: Machine, s: Any, choice: dict[str, Any]) -> str:
        """The model edge an observed action names (for messages and rules)."""
        raise NotImplementedError

    def stands_for(self, m: Machine, s: Any, e: Edge, choice: dict[str, Any]) -> bool:
        """Does edge ``e``, enabled in ``s``, stand for the observed action ``choice``?"""
        raise NotImplementedError

    def is_choice(self, e: Edge) -> bool:
        """A step the engine waits for (a player's decision)."""
        return e.actor is not None

    def stops_at(self, e: Edge) -> bool:
        """An enabled edge that makes its state a point where the engine waits."""
        return self.is_choice(e)

    def family(self, name: str) -> str:
        return family(name)

    @staticmethod
    def reference_machine() -> Machine:
        raise NotImplementedError

    #: The kinds of action an observed action may have.
    kinds: tuple[str, ...] = ()

    # -- the harness's protocol ------------------------------------------------------------

    def check_action(self, obs: Any) -> None:
        """A well-formed observed action, or ValueError saying what is wrong."""
        if not isinstance(obs, dict) or obs.get("kind") not in self.kinds or not isinstance(obs.get("player"), int):
            raise ValueError(f"expected {{kind: one of {', '.join(self.kinds)}, player: seat, ...}}, got {obs!r}")

    def begin(self, obs: dict[str, Any]) -> None:
        self.machine = self.machine_for(obs)
        self.pace = Pace()
        self._way = []

    def _m(self) -> Machine:
        assert self.machine is not None, "begin() first"
        return self.machine

    def describe(self, obs: dict[str, Any]) -> str:
        m = self._m()
        return m.describe(self.model_state(m, obs))

    def reachable_families(self) -> dict[str, tuple[str, ...]]:
        """Edge families the reference model reaches: what a conformance run should
        exercise, kept as data (``agreement/<game>/reachable.yaml``), pinned by a test."""
        return reachable.load(reachable.kept_file(self.game))

    def explore_reachable_families(self) -> dict[str, tuple[str, ...]]:
        """The same, computed by exploring the reference model (tens of seconds)."""
        return reachable.explore(self.reference_machine(), self.family)

    def choice_edges(self, m: Machine, s: Any) -> list[tuple[Edge, Any]]:
        return [(e, post) for e, post in successors(m, s) if self.is_choice(e)]

    def automatic_ends(self, m: Machine, s: Any, limit: int = 200,
                       leaves: Callable[[Any], bool] | None = None) -> list[tuple[list[Edge], Any]]:
        """Every state the model's automatic edges lead to from ``s`` where a
        choice is made again (or the game is over), with the edges taken;
        the search does not go on into a state ``leaves`` picks out."""
        out, queue, seen = [], deque([([], s)]), {s}
        while queue and len(seen) < limit:
            path, state = queue.popleft()
            steps = successors(m, state)
            if m.is_terminal(state) or any(self.stops_at(e) for e, _ in steps):
                out.append((path, state))
                continue
            for e, post in steps:
                # A choice open where the game acts by itself (a concession) is not taken for it.
                if post not in seen and not self.is_choice(e) and not (leaves and leaves(post)):
                    seen.add(post)
                    queue.append((path + [e], post))
        return out

    def step(self, pre: dict[str, Any], choice: dict[str, Any], post: dict[str, Any],
             offered: list[dict[str, Any]] | None) -> list[Finding]:
        m = self._m()
        self.pace.checked += 1
        s_pre, s_post = self.model_state(m, pre), self.model_state(m, post)
        enabled = self.choice_edges(m, s_pre)
        findings = []
        if offered is not None:
            for e, _ in enabled:
                if not any(self.stands_for(m, s_pre, e, a) for a in offered):
                    findings.append(Finding("incomplete", e.rules, f"the model enables {e.name} but the engine offers no action for it"))
            for a in offered:
                if not any(self.stands_for(m, s_pre, e, a) for e, _ in enabled):
                    n = self.action_name(m, s_pre, a)
                    rules = m.edge(n).rules if n in m.edge_index else ()
                    findings.append(Finding("unsound-offer", rules, f"the engine offers {n} ({_show(a)}), which the model does not allow here"))
        name = self.action_name(m, s_pre, choice)
        taken = [(e, post_state) for e, post_state in enabled if self.stands_for(m, s_pre, e, choice)]
        if not taken:
            rules = m.edge(name).rules if name in m.edge_index else ()
            findings.append(Finding("unsound", rules, f"the engine took {name}, which the model does not allow in: {m.describe(s_pre)}"))
            return findings
        ends = [(e, path, end) for e, first in taken for path, end in self.automatic_ends(m, first)]
        match = next(((e, path) for e, path, end in ends if end == s_post), None)
        if match is None:
            e, path, end = ends[0]
            seen = m.aspects(s_post)
            differ = {k: (v, seen[k]) for k, v in m.aspects(end).items() if seen.get(k) != v}
            differ.update({k: ("-", v) for k, v in seen.items() if k not in m.aspects(end)})
            shown = "; ".join(f"{k}: model {a} / engine {b}" for k, (a, b) in differ.items())
            findings.append(
                Finding("unsound", tuple(dict.fromkeys(r for x in [e, *path] for r in x.rules)), f"after {name} the engine's state is not the model's: {shown}")
            )
            return findings
        e, path = match
        for x in [e, *path]:
            self.edges[self.family(x.name)] += 1
            for r in x.rules:
                self.rules[r] += 1
        return findings

    def choice_names(self, pre: dict[str, Any], choices: list[dict[str, Any]]) -> list[set[str]]:
        m = self._m()
        s = self.model_state(m, pre)
        enabled = self.choice_edges(m, s)
        return [{e.name for e, _ in enabled if self.stands_for(m, s, e, c)} for c in choices]

    def steer(self, pre: dict[str, Any], offered: list[dict[str, Any]], targets: frozenset[str], budget: int = 300) -> list[int]:
        """The offered choices that begin a shortest way, in the model, to an
        edge of a target family (breadth first, expanding no point once
        ``budget`` choice points are seen, but to finish a level where a way
        was found): the first such way found, or with ``spread`` every shortest one.

        The rest of a shortest way is a shortest way from where it has come
        to, so while a game follows the way found it is steered along it
        without searching again; after searches that find no way the next
        one waits (``agreement.steering``)."""
        m = self._m()
        start = self.model_state(m, pre)
        # Along the way found (a point where the engine offered one action
        # was passed without steering), the choice kept for this point.
        at = next((i for i, (s, _) in enumerate(self._way) if s == start), None) if self._way_targets == targets else None
        if at is not None:
            choice = self._way[at][1]
            del self._way[: at + 1]
            return self._leading(pre, offered, {choice})
        self._way = []
        if not self.pace.may_search():
            return []
        leads, way = self._search(m, start, targets, budget)
        self.pace.searched(bool(leads))
        self._way, self._way_targets = way[1:], targets
        return self._leading(pre, offered, leads)

    def _search(self, m: Machine, start: Any, targets: frozenset[str], budget: int) -> tuple[set[str], list[tuple[Any, str]]]:
        """The first edges of the shortest ways to a target (one, or with
        ``spread`` all), and without ``spread`` the way itself: each choice
        point's state with the edge taken there, first to last."""
        seen = {start}
        # A point of the search: its state, and how the search came to it
        # (the point before and the choice taken there).
        level: list[tuple[Any, Any]] = [(start, None)]
        leads: set[str] = set()
        while level and len(seen) < budget and not leads:
            following: list[tuple[Any, Any]] = []
            for here in level:
                if len(seen) >= budget and not leads:
                    # The budget is spent inside a level too: expanding the
                    # rest of the level a search ends in was most of what a
                    # search that finds nothing cost (HotA's from a shuffle).
                    break
                for e, post in self.choice_edges(m, here[0]):
                    for path, end in self.automatic_ends(m, post):
                        if any(self.family(x.name) in targets for x in [e, *path]):
                            leads.add(_way_to(here, e.name)[0][1])
                            if not self.spread:
                                return leads, _way_to(here, e.name)
                        elif end not in seen:
                            seen.add(end)
                            following.append((end, (here, e.name)))
            level = following
        return leads, []

    def _leading(self, pre: dict[str, Any], offered: list[dict[str, Any]], leads: set[str]) -> list[int]:
        if not leads:
            return []
        return [i for i, names in enumerate(self.choice_names(pre, offered)) if names & leads]


def _way_to(point: tuple[Any, Any], choice: str) -> list[tuple[Any, str]]:
    """The way the search came to ``point`` by, then ``choice``: each choice point's state and its choice."""
    way = [(point[0], choice)]
    while point[1] is not None:
        point, choice = point[1]
        way.append((point[0], choice))
    way.reverse()
    return way


def _show(a: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in a.items() if v is not None)

"""The WoW side of the agreement harness: one game's observations checked step
by step against the model (soundness and completeness), with coverage."""

from __future__ import annotations

from collections import Counter
from typing import Any

from agreement.findings import Finding
from agreement.wowtcg import abstraction as ab
from agreement.wowtcg.observation import check_action, check_state
from model.machine import Machine
from model.wowtcg import build

#: The engine decisions the model has a choice point for; any other decision
#: (armor against a packet, 304.2) is folded into the model's automatic edges.
CHOICE_DECISIONS = ("protect", "discard")


def reference_machine() -> Machine:
    """The model at its default bounds: the edges a conformance run should exercise."""
    return build()


class WowChecker:
    """Checks one game at a time; coverage accumulates over games."""

    game = "wowtcg"
    check_state = staticmethod(check_state)
    check_action = staticmethod(check_action)

    def __init__(self) -> None:
        self.edges: Counter[str] = Counter()
        self.rules: Counter[str] = Counter()
        self.binding: ab.Binding | None = None
        self.carried: dict[str, Any] = {}

    def begin(self, obs: dict[str, Any]) -> None:
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
        self.binding.release(pre)
        if post is not None:
            self.binding.seat(post)
        v = ab.view(self.binding, [pre] if post is None else [pre, post])
        s_pre = ab.model_state(v, pre, self.carried)
        s_post = None if post is None else ab.model_state(v, post, self.carried)
        return v, s_pre, s_post

    def step(self, pre: dict[str, Any], choice: dict[str, Any], post: dict[str, Any], offered: list[dict[str, Any]]) -> list[Finding]:
        """Check one step from choice point ``pre`` to choice point ``post``."""
        v, s_pre, s_post = self.model_view(pre, post)
        findings = []
        # Completeness: every choice the model enables is offered (409.2, 602.2, 503.2a).
        for e in ab.missing_choices(v, s_pre, offered, pre):
            findings.append(Finding("incomplete", e.rules, f"the model enables {e.name} but the engine offers no action for it"))
        # Offered actions are all choices the model allows here.
        allowed = ab.choice_edges(v.machine, s_pre)
        for a in offered:
            if not any(ab.matches(v, e, a, v.machine.actor(e, s_pre)) for e, _ in allowed):
                if a["kind"] == "protect" and a.get("protector") is None:
                    continue  # declining to protect: the model's no_protection or the next opponent's turn to answer
                findings.append(Finding("unsound-offer", (), f"the engine offers {_show_action(a)}, which the model does not allow here"))
        # Soundness of the step taken.
        stutter = choice["kind"] == "protect" and choice.get("protector") is None
        result = ab.check_step(v, s_pre, choice, s_post, stutter)
        if not result.sound:
            findings.append(Finding("unsound", result.rules, result.detail))
            return findings
        self.carried = result.carried
        for e in result.path:
            self.edges[ab.family(e.name)] += 1
            for r in e.rules:
                self.rules[r] += 1
        return findings

    def describe(self, obs: dict[str, Any]) -> str:
        """The model's reading of an observation, one line (for transcripts)."""
        v, s, _ = self.model_view(obs)
        return v.machine.describe(s)

    def next_edge_families(self, pre: dict[str, Any], choice: dict[str, Any]) -> set[str]:
        """The edge families a choice could take from ``pre`` (for steering)."""
        v, s, _ = self.model_view(pre)
        return {ab.family(e.name) for e, _ in ab.choice_edges(v.machine, s) if ab.matches(v, e, choice, v.machine.actor(e, s))}

    @staticmethod
    def reachable_families() -> dict[str, tuple[str, ...]]:
        """Edge families reachable in the model at its default bounds, with their rules."""
        from model import explicit

        m = reference_machine()
        out: dict[str, tuple[str, ...]] = {}
        for _, _, name in explicit.explore(m).graph.edges(keys=True):
            e = m.edge(name)
            if not e.has("bound"):
                out.setdefault(ab.family(e.name), e.rules)
        return out


def _show_action(a: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in a.items())

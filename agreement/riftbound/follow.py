"""Follow one game of the built-in Riftbound engine against the model, action
by action (for ``chainproof scenarios``): soundness of each step and
completeness of what the engine offers, as the agreement harness checks
them, and, for an action a ruling says is illegal, whether the model forbids
it too. A situation with a card the model does not abstract is said to be
not covered, with the reason; it is never counted as agreeing."""

from __future__ import annotations

from typing import Any

from agreement.findings import Finding, follow_verdict
from agreement.riftbound.builtin import OUTSIDE_THE_MODEL, BuiltinRiftboundAdapter
from agreement.riftbound.checker import RiftboundChecker
from engine.riftbound import Action, RiftboundState


class ModelFollower:
    def __init__(self, st: RiftboundState) -> None:
        self.adapter = BuiltinRiftboundAdapter()
        self.checker = RiftboundChecker()
        self.steps = 0
        self.refusals_checked = 0
        self.findings: list[Finding] = []
        outside = sorted({u.card.name for u in st.units if u.card.name in OUTSIDE_THE_MODEL})
        self.not_covered = f"cards the model does not abstract: {', '.join(outside)}" if outside else ""
        self._pending: tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]] | None = None
        if not self.not_covered:
            self.checker.begin(self.adapter.observe(st))

    @property
    def following(self) -> bool:
        return not (self.not_covered or self.findings)

    def before(self, st: RiftboundState, action: Action) -> None:
        if self.following:
            offered = [self.adapter.observe_action(st, a) for a in st.legal_actions()]
            self._pending = (self.adapter.observe(st), self.adapter.observe_action(st, action), offered)

    def after(self, st: RiftboundState) -> list[Finding]:
        if not self.following or self._pending is None:
            return []
        pre, choice, offered = self._pending
        self._pending = None
        self.findings = self.checker.step(pre, choice, self.adapter.observe(st), offered)
        self.steps += 1
        return self.findings

    def allows(self, st: RiftboundState, action: Action) -> str:
        """For an action a ruling says is illegal: the model edges that would
        allow it here ("" when the model forbids it too)."""
        if not self.following or action.kind == "assign":
            return ""
        self.refusals_checked += 1
        (names,) = self.checker.choice_names(self.adapter.observe(st), [self.adapter.observe_action(st, action)])
        return ", ".join(sorted(names))

    def verdict(self) -> str:
        return follow_verdict(self.findings, self.not_covered, self.steps, self.refusals_checked, "action")

"""Follow one game of a built-in engine against the model, action by action
(for ``chainproof scenarios``): soundness of each step and completeness of
what the engine offers, as the agreement harness checks them, and, for an
action a ruling says is illegal, whether the model forbids it too. A game
the model does not hold is said to be not covered, with the reason; it is
never counted as agreeing. Each game gives its adapter, its checker and why
a game is not covered (``agreement/<game>/follow.py``)."""

from __future__ import annotations

from typing import Any

from agreement.findings import Finding, follow_verdict


class ModelFollower:
    def __init__(self, adapter: Any, checker: Any, st: Any, not_covered: str = "") -> None:
        self.adapter = adapter
        self.checker = checker
        self.steps = 0
        self.refusals_checked = 0
        self.findings: list[Finding] = []
        self.not_covered = not_covered
        self._pending: tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]] | None = None
        if not self.not_covered:
            self.checker.begin(self.adapter.observe(st))

    @property
    def following(self) -> bool:
        return not (self.not_covered or self.findings)

    def asks_about(self, action: Any) -> bool:
        """Whether the model is asked about a refusal of this action."""
        return True

    def before(self, st: Any, action: Any) -> None:
        if self.following:
            offered = [self.adapter.observe_action(st, a) for a in self.adapter.legal_actions(st)]
            self._pending = (self.adapter.observe(st), self.adapter.observe_action(st, action), offered)

    def after(self, st: Any) -> list[Finding]:
        if not self.following or self._pending is None:
            return []
        pre, choice, offered = self._pending
        self._pending = None
        self.findings = self.checker.step(pre, choice, self.adapter.observe(st), offered)
        self.steps += 1
        return self.findings

    def allows(self, st: Any, action: Any) -> str:
        """For an action a ruling says is illegal: the model edges that would
        allow it here ("" when the model forbids it too)."""
        if not self.following or not self.asks_about(action):
            return ""
        self.refusals_checked += 1
        (names,) = self.checker.choice_names(self.adapter.observe(st), [self.adapter.observe_action(st, action)])
        return ", ".join(sorted(names))

    def verdict(self) -> str:
        return follow_verdict(self.findings, self.not_covered, self.steps, self.refusals_checked, "action")

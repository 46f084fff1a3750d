"""What the harness can find wrong with an engine."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    """One disagreement: its kind, the rule numbers of the model edges in question, and what differs.

    Kinds: ``unsound`` (the engine took a step the model does not allow),
    ``unsound-offer`` (it offers such a step), ``incomplete`` (it does not offer
    a step the model allows), ``accepted-illegal`` (it accepted an action the
    model forbids), ``refused-offered`` (an action it offered failed to apply),
    ``nondeterministic`` (the same seed gave another game), ``adapter`` (the
    adapter raised or returned something that is not an observation).
    """

    kind: str
    rules: tuple[str, ...]
    detail: str

    def __str__(self) -> str:
        rules = f" ({', '.join(self.rules)})" if self.rules else ""
        return f"{self.kind}{rules}: {self.detail}"


def follow_verdict(findings: list[Finding], not_covered: str, steps: int, refusals: int, refused: str) -> str:
    """One line on how the model read an engine game it followed (``chainproof
    scenarios``): disagrees, not covered (why), or agrees over N steps;
    ``refused`` names the refusals the model is asked about."""
    if findings:
        return "disagrees: " + "; ".join(str(f) for f in findings)
    if not_covered:
        return f"not covered ({not_covered})" + (f" after {steps} agreeing steps" if steps else "")
    if not (steps or refusals):
        return f"covered, with nothing to check (no action applied, no {refused} refused)"
    return f"agrees over {steps} steps and {refusals} refusals"

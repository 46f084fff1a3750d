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

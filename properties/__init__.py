"""Properties of a rulebook's machine, by kind (``kinds.py``), and each game's catalogue."""

from properties.kinds import Property, Invariant, StepProperty, Deadlock, Eventually, validate, select

__all__ = ["Property", "Invariant", "StepProperty", "Deadlock", "Eventually", "validate", "select"]

"""Rule variants: named, documented readings of a rulebook other than the one
the model encodes, each a patch to the model that cites where its text is.

A variant changes the model in one or more of four ways, all declared here
so that a reader sees the whole difference in one place:

- ``source_reading``: a source's reading of some questions (``SOURCE@question``),
  where the variant is one source's answer to declared questions
  (``model/rulings.py``): its name is then an alias of that reading;
- ``without``: precedence principles or rulings it removes (``model/rulings.py``);
- ``patch``: edges it replaces, adds or removes, applied to the built machine;
- ``board``: the table it needs, when the default board cannot show the
  difference (a hero with a keyword no default party has), and ``bounds``
  it needs (instants in the starting hands).

``chainproof diff GAME A B`` compares two variants (``seed`` is the model as
encoded) and ``chainproof lint`` compares each variant with the seed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from model.machine import Machine

#: The name of the model as encoded, for ``diff``.
SEED = "seed"


@dataclass(frozen=True)
class Variant:
    name: str
    #: What this reading says, in one line.
    reading: str
    #: The rules whose reading changes.
    rules: tuple[str, ...]
    #: Where the text of this reading is: ``file:lines`` of the seeds or reference.
    sources: tuple[str, ...]
    #: The entry of ``docs/findings-<game>.md`` (generated from the known-findings file) that discusses it ("G1", "B2"...).
    finding: str
    without: tuple[str, ...] = ()
    patch: Callable[[Machine], Machine] | None = None
    #: The source reading this variant names (``001@priority_after_resolution``).
    source_reading: str | None = None
    #: The bounds (by name) -> the board this reading is compared on.
    board: Callable[[Mapping[str, int]], Any] | None = None
    #: Bounds the comparison needs to show the difference (bounds a user gives win).
    bounds: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not (self.without or self.patch or self.source_reading):
            raise ValueError(f"variant {self.name!r} changes nothing: give it rulings to remove, a patch or a reading")
        if self.name == SEED:
            raise ValueError(f"{SEED!r} names the model as encoded; a variant needs another name")

    def apply(self, machine: Machine) -> Machine:
        """The patched machine (the rulings were removed at build time)."""
        patched = machine if self.patch is None else self.patch(machine)
        patched.variant = self.name
        return patched

"""The games chainproof knows, each as its model builder, bounds, properties and registry."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from model.machine import BoundError, BoundSpec, Machine, resolve_bounds
from model.registry import Registry
from model.variants import Variant
from properties import Property, validate


class BadInput(ValueError):
    """A game, property or bound the user asked for does not exist or is out of range."""


@dataclass(frozen=True)
class Game:
    name: str
    title: str
    bounds: tuple[BoundSpec, ...]
    build: Callable[..., Machine]
    properties: tuple[Property, ...]
    registry: Registry
    #: Named readings of the rules other than the seed's (``model/variants.py``).
    variants: Mapping[str, Variant] = field(default_factory=dict)
    #: The bounds that only limit how long a game is explored; the any-length
    #: model (for unbounded proofs) has none of them.
    length_bounds: tuple[str, ...] = ()
    #: Properties of the catalogue that the proofs of lint's queries rest on
    #: (deadlock freedom needs the playable-state invariants as lemmas).
    lemmas: tuple[Property, ...] = ()

    def variant(self, name: str) -> Variant:
        if name not in self.variants:
            known = ", ".join(self.variants) or "none"
            raise BadInput(f"{self.name}: unknown variant {name!r}; variants: {known}")
        return self.variants[name]

    def resolve(self, given: Mapping[str, int | None], variant: str | None = None) -> dict[str, int]:
        """The bounds to build with: those given, then the variant's, then the defaults."""
        wanted = dict(self.variant(variant).bounds) if variant is not None else {}
        wanted.update({k: v for k, v in given.items() if v is not None})
        try:
            return resolve_bounds(self.bounds, wanted)
        except BoundError as exc:
            raise BadInput(f"{self.name}: {exc}") from None

    def machine(self, given: Mapping[str, int | None], variant: str | None = None, **extra: Any) -> Machine:
        """The bounded model; ``extra`` goes to the builder (a ``board``)."""
        bounds = self.resolve(given, variant)
        machine = self.build(**bounds, **extra) if variant is None else self.build(**bounds, variant=variant, **extra)
        validate(machine, self.properties)
        return machine

    @property
    def proves_any_length(self) -> bool:
        return bool(self.length_bounds)

    def any_length_machine(self, given: Mapping[str, int | None], variant: str | None = None) -> Machine:
        """The model of games of any length at the given bounds (those in
        ``length_bounds`` bound nothing there)."""
        bounds = {k: v for k, v in self.resolve(given, variant).items() if k not in self.length_bounds}
        machine = self.build(**bounds, any_length=True, **({} if variant is None else {"variant": variant}))
        validate(machine, self.properties)
        return machine

    def cited_rules(self) -> set[str]:
        """Every rule that the default model, the any-length model or a property
        cites, with the default model on each board a variant brings (the
        seed's reading of a keyword no default party has)."""
        machines = [self.machine({})] + ([self.any_length_machine({})] if self.proves_any_length else [])
        for v in self.variants.values():
            if v.board is not None:
                machines.append(self.machine({}, board=v.board(self.resolve({}))))
        return set().union(*(m.cited_rules() for m in machines)) | {
            r for p in self.properties for r in p.rules
        }


def _wowtcg() -> Game:
    from model import wowtcg
    from properties.wowtcg import CATALOGUE, PLAYABLE_PROPERTIES

    return Game(
        "wowtcg",
        "World of Warcraft TCG: turn, priority, the chain and combat",
        wowtcg.BOUNDS,
        wowtcg.build,
        CATALOGUE,
        wowtcg.REGISTRY,
        wowtcg.VARIANTS,
        length_bounds=("turns", "deck", "combats"),
        lemmas=PLAYABLE_PROPERTIES,
    )


_LOADERS: dict[str, Callable[[], Game]] = {"wowtcg": _wowtcg}
GAME_NAMES = tuple(_LOADERS)


def get_game(name: str) -> Game:
    loader = _LOADERS.get(name)
    if loader is None:
        raise BadInput(f"unknown game {name!r}; known games: {', '.join(GAME_NAMES)}")
    return loader()

"""The games chainproof knows, each as its model builder, bounds, properties and registry."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

from model.machine import BoundError, BoundSpec, Machine, resolve_bounds
from model.registry import Registry
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
    #: Named readings of the rules other than the seed's, with what each changes.
    variants: Mapping[str, str] = field(default_factory=dict)

    def machine(self, given: Mapping[str, int | None], variant: str | None = None) -> Machine:
        try:
            bounds = resolve_bounds(self.bounds, given)
        except BoundError as exc:
            raise BadInput(f"{self.name}: {exc}") from None
        if variant is not None and variant not in self.variants:
            known = ", ".join(self.variants) or "none"
            raise BadInput(f"{self.name}: unknown variant {variant!r}; variants: {known}")
        machine = self.build(**bounds) if variant is None else self.build(**bounds, variant=variant)
        validate(machine, self.properties)
        return machine


def _wowtcg() -> Game:
    from model import wowtcg
    from properties.wowtcg import CATALOGUE

    return Game(
        "wowtcg",
        "World of Warcraft TCG: turn, priority, the chain and combat",
        wowtcg.BOUNDS,
        wowtcg.build,
        CATALOGUE,
        wowtcg.REGISTRY,
        wowtcg.VARIANTS,
    )


_LOADERS: dict[str, Callable[[], Game]] = {"wowtcg": _wowtcg}
GAME_NAMES = tuple(_LOADERS)


def get_game(name: str) -> Game:
    loader = _LOADERS.get(name)
    if loader is None:
        raise BadInput(f"unknown game {name!r}; known games: {', '.join(GAME_NAMES)}")
    return loader()

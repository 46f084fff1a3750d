"""Heroes of Ancients, general rules 101-109 (seed 004): starting and ending
the game, the golden rules, simultaneous choices, tokens and loops."""

from pathlib import Path

from model.registry import Registry

REGISTRY = Registry.load(Path(__file__).with_name("rules.yaml"))

from model.hota.game import BOUNDS, build  # noqa: E402

__all__ = ["BOUNDS", "REGISTRY", "build"]

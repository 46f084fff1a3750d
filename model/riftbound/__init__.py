"""Riftbound combat as a state-machine graph (seed 003), with Z3 damage assignment."""

from pathlib import Path

from model.registry import Registry

REGISTRY = Registry.load(Path(__file__).with_name("rules.yaml"))

from model.riftbound.combat import BOUNDS, build  # noqa: E402

__all__ = ["BOUNDS", "REGISTRY", "build"]

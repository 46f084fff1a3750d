"""World of Warcraft TCG as a state-machine graph (seed 000 and CR7.4)."""

from pathlib import Path

from model.registry import Registry

REGISTRY = Registry.load(Path(__file__).with_name("rules.yaml"))

from model.wowtcg.turn import BOUNDS, VARIANTS, build  # noqa: E402

__all__ = ["BOUNDS", "REGISTRY", "VARIANTS", "build"]

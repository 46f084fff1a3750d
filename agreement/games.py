"""The games the harness can check, each with its checker and built-in engine adapter."""

from __future__ import annotations

from typing import Any

from agreement.adapter import AdapterError


def checker_for(game: str) -> Any:
    if game == "wowtcg":
        from agreement.wowtcg.checker import WowChecker

        return WowChecker()
    if game == "riftbound":
        from agreement.riftbound.checker import RiftboundChecker

        return RiftboundChecker()
    if game == "hota":
        from agreement.hota.checker import HotaChecker

        return HotaChecker()
    raise AdapterError(f"no agreement checker for game {game!r}; games: {', '.join(GAMES)}")


def builtin_adapter(game: str) -> Any:
    if game == "wowtcg":
        from agreement.wowtcg.builtin import BuiltinWowAdapter

        return BuiltinWowAdapter()
    if game == "riftbound":
        from agreement.riftbound.builtin import BuiltinRiftboundAdapter

        return BuiltinRiftboundAdapter()
    if game == "hota":
        from agreement.hota.builtin import BuiltinHotaAdapter

        return BuiltinHotaAdapter()
    raise AdapterError(f"no built-in engine for game {game!r}; games: {', '.join(GAMES)}")


#: Games with an agreement checker.
GAMES = ("wowtcg", "riftbound", "hota")

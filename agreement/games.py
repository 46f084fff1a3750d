"""The games the harness can check, each with its checker and built-in engine adapter."""

from __future__ import annotations

from typing import Any

from agreement.adapter import AdapterError


def checker_for(game: str) -> Any:
    if game == "wowtcg":
        from agreement.wowtcg.checker import WowChecker

        return WowChecker()
    raise AdapterError(f"no agreement checker for game {game!r}; games: wowtcg")


def builtin_adapter(game: str) -> Any:
    if game == "wowtcg":
        from agreement.wowtcg.builtin import BuiltinWowAdapter

        return BuiltinWowAdapter()
    raise AdapterError(f"no built-in engine for game {game!r}; games: wowtcg")


#: Games with an agreement checker.
GAMES = ("wowtcg",)

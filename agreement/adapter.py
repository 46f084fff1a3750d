"""The adapter protocol: how the harness drives any engine.

An adapter is an object with these methods (``state`` and ``action`` are the
engine's own objects; the harness never looks inside them)::

    game: str                                   # the model to check against: "wowtcg"
    random_setup(rng, players) -> setup         # a game to play, drawn from rng; setup.as_dict() is JSON
    new_game(setup) -> state
    legal_actions(state) -> list[action]
    apply_action(state, action) -> None         # in place
    is_terminal(state) -> bool
    observe(state) -> dict                      # the observation format (README, "Traces from any engine")
    observe_action(state, action) -> dict       # read before the action applies
    action_label(state, action) -> str          # for people and transcripts

and, if it can, ``clone(state)``, ``refusal(state, action) -> rule or None``
(apply on a copy; the rule the engine cites when it refuses) and
``candidate_actions(state, observed_action) -> list[action]`` (engine actions,
offered or not, that an observed action stands for).  Without them the checks
that need them are skipped and the report says so.  An engine that ends a game
by a limit of its own on the game's length, not by a rule, says so with
``ended_by_limit(state) -> str or None`` (the limit, for a game it ended so):
that game's last step is not compared with the model, and the report names it.

``load_adapter("package.module:factory")`` imports the factory and calls it
with no arguments.  ``Guarded`` wraps an adapter so that an exception or a
malformed return value becomes one ``AdapterError`` naming the method and the
step, never a traceback from inside the harness.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable

REQUIRED = ("random_setup", "new_game", "legal_actions", "apply_action", "is_terminal", "observe", "observe_action", "action_label")
OPTIONAL = ("clone", "refusal", "candidate_actions", "ended_by_limit")


class AdapterError(Exception):
    """An adapter could not be loaded, raised, or returned something that is not what the protocol says."""


def load_adapter(spec: str) -> Any:
    """``package.module:factory`` -> the adapter the factory returns."""
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise AdapterError(f"--engine {spec!r}: expected package.module:factory")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # noqa: BLE001 - any import failure of user code is reported, not raised
        raise AdapterError(f"--engine {spec!r}: cannot import {module_name}: {type(exc).__name__}: {exc}") from None
    factory = getattr(module, attr, None)
    if not callable(factory):
        raise AdapterError(f"--engine {spec!r}: {module_name} has no callable {attr!r}")
    try:
        adapter = factory()
    except Exception as exc:  # noqa: BLE001
        raise AdapterError(f"--engine {spec!r}: {attr}() raised {type(exc).__name__}: {exc}") from None
    missing = [m for m in REQUIRED if not callable(getattr(adapter, m, None))]
    if missing or not isinstance(getattr(adapter, "game", None), str):
        what = ", ".join(missing + ([] if isinstance(getattr(adapter, "game", None), str) else ["game (a string attribute)"]))
        raise AdapterError(f"--engine {spec!r}: the adapter lacks {what} (see the adapter protocol in the README)")
    return adapter


class Guarded:
    """An adapter whose every call is checked: errors name the method and the step."""

    def __init__(self, adapter: Any, check_state: Callable[[Any], None], check_action: Callable[[Any], None]) -> None:
        self.inner = adapter
        self.game = adapter.game
        self.step = 0
        self._check_state = check_state
        self._check_action = check_action

    def has(self, method: str) -> bool:
        return callable(getattr(self.inner, method, None))

    def call(self, method: str, *args: Any) -> Any:
        try:
            return getattr(self.inner, method)(*args)
        except Exception as exc:  # noqa: BLE001 - the adapter's failure is the finding
            raise AdapterError(f"adapter.{method} raised {type(exc).__name__}: {exc} (at step {self.step})") from None

    def observe(self, state: Any) -> dict[str, Any]:
        obs = self.call("observe", state)
        self._valid("observe", obs, self._check_state)
        return obs

    def observe_action(self, state: Any, action: Any) -> dict[str, Any]:
        obs = self.call("observe_action", state, action)
        self._valid("observe_action", obs, self._check_action)
        return obs

    def legal_actions(self, state: Any) -> list[Any]:
        actions = self.call("legal_actions", state)
        if not isinstance(actions, (list, tuple)):
            raise AdapterError(f"adapter.legal_actions returned {type(actions).__name__}, not a list (at step {self.step})")
        return list(actions)

    def is_terminal(self, state: Any) -> bool:
        done = self.call("is_terminal", state)
        if not isinstance(done, bool):
            raise AdapterError(f"adapter.is_terminal returned {done!r}, not true or false (at step {self.step})")
        return done

    def _valid(self, method: str, value: Any, check: Callable[[Any], None]) -> None:
        try:
            check(value)
        except ValueError as exc:
            raise AdapterError(f"adapter.{method} returned a malformed observation at step {self.step}: {exc}") from None

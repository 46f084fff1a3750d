"""What every command shares: the bound options, the one-line error, and the
guard that turns bad input or an internal error into it (exit 2)."""

from __future__ import annotations

import ctypes
import sys
from typing import Any, Callable

import click

from agreement.adapter import AdapterError
from agreement.trace import TraceFileError
from chainproof import report
from chainproof.games import BadInput
from checkers.invariants import KeptInvariantError
from model import limits
from model.machine import ModelError
from model.registry import RegistryError

#: Z3 takes its timeout in milliseconds as a 32-bit number; a day is plenty.
MAX_TIMEOUT = 86_400.0


#: The wall-clock guard per solver query, in seconds (``model/limits.py``).
DEFAULT_GUARD_S = limits.GUARD_MS / 1000


def check_rlimit(rlimit: int) -> None:
    """A resource limit that allows some work; from now on every query has it."""
    if rlimit < 1:
        raise BadInput(f"--rlimit {rlimit} allows no work: give at least 1 unit")
    limits.set_rlimit(rlimit)


def check_timeout(timeout: float) -> None:
    """A solver timeout in seconds Z3 can take (NaN is refused too)."""
    if not 0.001 <= timeout <= MAX_TIMEOUT:
        raise BadInput(f"--timeout {timeout} is out of range: allowed 0.001..{MAX_TIMEOUT:g} seconds")


def fail(message: str) -> None:
    click.echo(f"chainproof: error: {message}", err=True)
    sys.exit(2)


def interrupted() -> None:
    # 130: the shell's code for a run stopped by Ctrl-C; nothing partial is printed as an answer.
    click.echo("chainproof: interrupted: no result", err=True)
    sys.exit(130)


def guarded(run: Callable[[], int]) -> None:
    """Turn bad input, a broken model or an internal error into one line and
    exit 2, and Ctrl-C into one line and exit 130.

    ``--debug`` (before the command) lets an internal error raise with its traceback.
    """
    try:
        code = run()
    except (BadInput, AdapterError, TraceFileError, KeptInvariantError) as exc:
        fail(str(exc))
    except (ModelError, RegistryError) as exc:
        fail(f"the model is ill-formed: {exc}")
    except report.RenderError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        interrupted()
    except Exception as exc:  # noqa: BLE001 - the last line of defence of a command-line tool
        # Ctrl-C while Z3's ctypes layer converts an argument arrives wrapped.
        if isinstance(exc, ctypes.ArgumentError) and "KeyboardInterrupt" in str(exc):
            interrupted()
        if click.get_current_context().find_root().params.get("debug"):
            raise
        fail(f"internal error: {type(exc).__name__}: {exc} (run 'chainproof --debug ...' for the traceback)")
    sys.exit(code)


#: The bounds a user may set on the command line (each game's ``BoundSpec`` checks the value).
BOUND_OPTIONS = (
    ("--players", "players at the table"),
    ("--chain-depth", "most links on the chain at once"),
    ("--turns", "turns explored"),
    ("--hand", "cards of each kind in every starting hand"),
    ("--deck", "most cards in a starting deck"),
    ("--hand-limit", "maximum hand size in the end step"),
    ("--allies", "allies in each party at the start"),
    ("--resources", "resources each player has in play at the start"),
    ("--combats", "combats explored per turn"),
    ("--battlefields", "battlefields on the table (riftbound)"),
    ("--spells", "showdown spells each player may cast (riftbound)"),
    ("--victory-points", "points that win the game (riftbound)"),
)


def bound_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The bound options, passed to the command as keyword arguments."""
    for flag, doc in reversed(BOUND_OPTIONS):
        command = click.option(flag, type=int, help=doc)(command)
    return command

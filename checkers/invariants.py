"""Kept invariants: Spacer's proofs, stored so that a later run re-checks them
instead of searching again.

A Spacer proof ends in an inductive invariant, which plain Z3 queries
re-check (``spacer.check_inductive``: it holds initially, every edge keeps
it, it implies the property).  The invariant is the proof; finding it is the
costly part (WoW's ``combat_damage_equals_atk``: some 95 million resource
units), re-checking it is cheap (about a second).

``chainproof certify`` runs Spacer on each game's any-length model at the
default bounds and writes the invariants it finds, in the model's own
variable names as SMT-LIB, to ``checkers/invariants/GAME.json``.  The
portfolio (``verify``) re-checks a kept invariant before it asks Spacer, and
asks Spacer only where none is kept, or where the kept one does not re-check
(the model changed under it; the note says so).  A kept invariant cannot
prove what does not hold: the re-check alone decides, on the model as it is
now.  Each entry names the lemmas its proof assumed; it is used only where
this run proved those lemmas too.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Sequence

import z3

from checkers import spacer
from checkers.results import PROVED, UNKNOWN, VACUOUS, Result
from model.machine import Machine
from properties import Property

DIRECTORY = Path(__file__).with_name("invariants")
FORMAT = 1


class KeptInvariantError(ValueError):
    """A kept-invariants file that cannot be read: named, with the reason."""


@dataclass(frozen=True)
class Kept:
    """One property's kept invariant, for one model at one set of bounds."""

    property: str
    lemmas: tuple[str, ...]
    vacuous: bool
    #: SMT-LIB: a comment line saying how Spacer found it, then the invariant.
    smt2: str

    @property
    def found(self) -> str:
        return self.smt2.partition("\n")[0].lstrip("; ")


def path_for(game: str) -> Path:
    return DIRECTORY / f"{game}.json"


def bounds_key(machine: Machine) -> str:
    """The model a kept invariant was found for: its game's bounds, as text."""
    return ",".join(f"{k}={v}" for k, v in sorted(machine.bounds.items()))


def load(game: str, path: Path | None = None) -> dict[str, dict[str, Kept]]:
    """Every kept invariant of the game: bounds key -> property -> entry."""
    path = path or path_for(game)
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != FORMAT or data.get("game") != game:
            raise KeptInvariantError(f"{path}: not a kept-invariants file of {game} in format {FORMAT}")
        return {
            key: {name: Kept(name, tuple(e["lemmas"]), bool(e["vacuous"]), e["invariant"]) for name, e in entries.items()}
            for key, entries in data["models"].items()
        }
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        if isinstance(exc, KeptInvariantError):
            raise
        raise KeptInvariantError(f"{path}: not a kept-invariants file: {exc}") from None


def save(game: str, machine: Machine, kept: Sequence[Kept], path: Path | None = None) -> Path:
    """Write ``kept`` as the invariants of ``machine``'s bounds, keeping other bounds' entries."""
    path = path or path_for(game)
    models = {key: {name: _entry(k) for name, k in entries.items()} for key, entries in load(game, path).items()}
    models[bounds_key(machine)] = {k.property: _entry(k) for k in sorted(kept, key=lambda k: k.property)}
    text = json.dumps({"format": FORMAT, "game": game, "models": models}, indent=1, sort_keys=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + "\n", encoding="utf-8")
    return path


def _entry(k: Kept) -> dict[str, Any]:
    return {"lemmas": list(k.lemmas), "vacuous": k.vacuous, "invariant": k.smt2}


def find(machine: Machine, name: str, proved: Sequence[str]) -> Kept | None:
    """The kept invariant of property ``name`` for this model, if its lemmas are among ``proved``."""
    k = load(machine.game).get(bounds_key(machine), {}).get(name)
    if k is None or not set(k.lemmas) <= set(proved):
        return None
    return k


def recheck(machine: Machine, prop: Property, kept: Kept, lemmas: Sequence[Property], timeout_ms: int) -> Result:
    """``proved`` (or ``vacuous``) when the kept invariant re-checks on the
    model as it is now; else ``unknown`` saying which obligation failed."""
    started = time.perf_counter()
    assuming = [p for p in lemmas if p.name in kept.lemmas]
    result = Result(machine.game, prop.name, prop.rules, prop.kind, UNKNOWN, 0, "spacer", 0.0, bounds=machine.bounds)
    try:
        invariant = spacer.parse_invariant(machine, kept.smt2)
    except z3.Z3Exception as exc:
        return replace(result, seconds=time.perf_counter() - started, note=f"the kept invariant names what the model no longer has ({_message(exc)})")
    checked = spacer.check_inductive(machine, prop, invariant, timeout_ms=timeout_ms, premise_unreachable=kept.vacuous, lemmas=assuming)
    seconds = time.perf_counter() - started
    if not checked:
        return replace(result, seconds=seconds, note=f"the kept invariant no longer re-checks: {checked.failed}")
    what = "premise proved unreachable" if kept.vacuous else "proved"
    also = f" assuming the proved {', '.join(kept.lemmas)}" if kept.lemmas else ""
    note = (
        f"{what} by the invariant {kept.found}, kept in {shown(path_for(machine.game))} and re-checked "
        f"by plain Z3 queries: initial, preserved by all {len(machine.edges)} edges{also}, "
        f"{'excludes the premise' if kept.vacuous else 'implies the property'}"
    )
    return replace(result, verdict=VACUOUS if kept.vacuous else PROVED, seconds=seconds, note=note, unbounded=True)


def from_result(r: Result, lemmas: Sequence[str]) -> Kept | None:
    """What to keep of a Spacer result: its invariant, if it decided the property."""
    if not r.method.startswith("spacer") or not r.unbounded or r.verdict not in (PROVED, VACUOUS) or not r.certificate:
        return None
    return Kept(r.property, tuple(sorted(lemmas)), r.verdict == VACUOUS, r.certificate)


def _message(exc: z3.Z3Exception) -> str:
    value = exc.value.decode() if isinstance(exc.value, bytes) else str(exc.value)
    return value.strip().splitlines()[0] if value.strip() else "unreadable"


def shown(path: Path) -> str:
    """The file as the project names it (relative to the checkout)."""
    return str(path.relative_to(DIRECTORY.parent.parent))

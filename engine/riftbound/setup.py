"""Reading a setup (the table a game starts from) and drawing random ones.

A setup is a plain dict; every field is optional:

    {"turn_player": 0, "turn": 1,
     "battlefields": [{"controller": 1, "contested_by": None}, ...],   # one per battlefield
     "units": [{"card": "Caitlyn", "owner": 0, "zone": "battlefield", "battlefield": 0,
                "damage": 0, "moved": False, "stunned": False, "grant": ["tank"], "name": "Tank Caitlyn"},
               ...],
     "points": [0, 0], "scored": [[False, False], [False, False]], "spells": [1, 0], "reactions": [0, 1]}

Seats and battlefields count from 0. A unit's `moved` is true/false or the
number of moves it made this turn (Kayn counts them); `grant` adds keywords;
`name` is the name labels use (needed when a player has two units of one card,
which are otherwise numbered "Border Scout #1", "Border Scout #2"); `might`
(0 to 6) is the might an effect in force gives a unit in play instead of its
printed one, until it leaves play. `spells` are cast in an open showdown by the
focus holder; `reactions` are the same spells cast on a chain, while it waits
to resolve (assumed:chain-reactions); `action_spells` are recalls and plays the
turn player casts outside a showdown, in his action phase (assumed:action-spells).
"""

from __future__ import annotations

import random
from typing import Any

from .cards import KEYWORDS, Pool
from .objects import ZONES, Battlefield, EngineSetupError, Unit

SETUP_FIELDS = ("turn_player", "turn", "battlefields", "units", "points", "scored", "spells", "reactions", "action_spells")
UNIT_FIELDS = ("card", "owner", "zone", "battlefield", "damage", "moved", "stunned", "grant", "name", "might")
BATTLEFIELD_FIELDS = ("controller", "contested_by")


def _int(value: Any, where: str, low: int = 0, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise EngineSetupError(where, f"must be a whole number, got {value!r}")
    if value < low or (high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise EngineSetupError(where, f"must be {span}, got {value}")
    return value


def _seat(value: Any, where: str, players: int, none_ok: bool = True) -> int | None:
    if value is None and none_ok:
        return None
    return _int(value, where, 0, players - 1)


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise EngineSetupError(where, f"must be true or false, got {value!r}")
    return value


def _known(raw: Any, fields: tuple[str, ...], where: str) -> dict:
    if not isinstance(raw, dict):
        raise EngineSetupError(where, f"must be a mapping, got {raw!r}")
    for key in raw:
        if key not in fields:
            raise EngineSetupError(f"{where}.{key}" if where != "setup" else key,
                                   f"unknown field; known fields: {', '.join(fields)}")
    return raw


def read_setup(setup: dict | None, players: int, battlefields: int, victory_points: int, pool: Pool) -> dict:
    """Check a setup and turn it into the state's parts; raises EngineSetupError
    naming the first bad field."""
    setup = _known(setup or {}, SETUP_FIELDS, "setup")
    turn_player = _seat(setup.get("turn_player", 0), "turn_player", players, none_ok=False)
    turn = _int(setup.get("turn", 1), "turn", 1)

    raw_bfs = setup.get("battlefields", [{} for _ in range(battlefields)])
    if not isinstance(raw_bfs, list) or len(raw_bfs) != battlefields:
        raise EngineSetupError("battlefields", f"must list {battlefields} battlefields, got {raw_bfs!r}")
    bfs = []
    for i, raw in enumerate(raw_bfs):
        raw = _known(raw, BATTLEFIELD_FIELDS, f"battlefields[{i}]")
        bfs.append(Battlefield(_seat(raw.get("controller"), f"battlefields[{i}].controller", players),
                               _seat(raw.get("contested_by"), f"battlefields[{i}].contested_by", players)))

    raw_units = setup.get("units", [])
    if not isinstance(raw_units, list):
        raise EngineSetupError("units", f"must be a list, got {raw_units!r}")
    entries = []
    for i, raw in enumerate(raw_units):
        where = f"units[{i}]"
        raw = _known(raw, UNIT_FIELDS, where)
        card = raw.get("card")
        if card not in pool:
            raise EngineSetupError(f"{where}.card", f"unknown card {card!r}; cards: {', '.join(pool.names())}")
        owner = _seat(raw.get("owner"), f"{where}.owner", players, none_ok=False)
        zone = raw.get("zone", "base")
        if zone not in ZONES:
            raise EngineSetupError(f"{where}.zone", f"unknown zone {zone!r}; zones: {', '.join(ZONES)}")
        bf = raw.get("battlefield")
        if zone == "battlefield":
            bf = _int(bf, f"{where}.battlefield", 0, battlefields - 1)
        elif bf is not None:
            raise EngineSetupError(f"{where}.battlefield", f"a unit in zone {zone!r} is at no battlefield")
        damage = _int(raw.get("damage", 0), f"{where}.damage")
        if damage and zone not in ("base", "battlefield"):
            raise EngineSetupError(f"{where}.damage", f"a unit in zone {zone!r} has no damage")
        moved = raw.get("moved", False)
        moves = int(moved) if isinstance(moved, bool) else _int(moved, f"{where}.moved", 0, 2)
        stunned = _bool(raw.get("stunned", False), f"{where}.stunned")
        grant = raw.get("grant", [])
        if not isinstance(grant, list) or any(g not in KEYWORDS for g in grant):
            raise EngineSetupError(f"{where}.grant", f"must be a list of {', '.join(KEYWORDS)}, got {grant!r}")
        set_might = raw.get("might")
        if set_might is not None:
            set_might = _int(set_might, f"{where}.might", 0, 6)
            if zone not in ("base", "battlefield"):
                raise EngineSetupError(f"{where}.might", f"a unit in zone {zone!r} is not in play: no effect sets its might")
        name = raw.get("name")
        if name is not None and (not isinstance(name, str) or not name.strip()):
            raise EngineSetupError(f"{where}.name", f"must be a non-empty text, got {name!r}")
        entries.append(dict(card=pool[card], owner=owner, zone=zone, battlefield=bf, damage=damage, moves=moves,
                            stunned=stunned, grants=frozenset(grant), name=name, set_might=set_might))
    units = _name_units(entries)

    for i, b in enumerate(bfs):
        owners = sorted({u.owner for u in units if u.zone == "battlefield" and u.battlefield == i})
        where = f"battlefields[{i}]"
        if len(owners) > 2:
            raise EngineSetupError(where, f"holds units of {len(owners)} players; a combat has two (combat.two-players)")
        if b.contested_by is not None and b.contested_by not in owners:
            raise EngineSetupError(f"{where}.contested_by", f"P{b.contested_by + 1} has no unit there to contest it")
        strangers = [p for p in owners if p != b.controller]
        if strangers and b.contested_by is None:
            raise EngineSetupError(f"{where}.contested_by",
                                   f"P{strangers[0] + 1} has units there without controlling it: say who contests it")

    def per_player(key: str, default: Any, check) -> list:
        raw = setup.get(key, [default] * players)
        if not isinstance(raw, list) or len(raw) != players:
            raise EngineSetupError(key, f"must list one value per player ({players}), got {raw!r}")
        return [check(v, f"{key}[{p}]") for p, v in enumerate(raw)]

    points = per_player("points", 0, lambda v, w: _int(v, w, 0, victory_points - 1))
    spells = per_player("spells", 0, lambda v, w: _int(v, w))
    reactions = per_player("reactions", 0, lambda v, w: _int(v, w))
    action_spells = per_player("action_spells", 0, lambda v, w: _int(v, w))

    def scored_row(v: Any, w: str) -> list[bool]:
        if not isinstance(v, list) or len(v) != battlefields:
            raise EngineSetupError(w, f"must list one true/false per battlefield ({battlefields}), got {v!r}")
        return [_bool(x, f"{w}[{i}]") for i, x in enumerate(v)]

    scored = per_player("scored", [False] * battlefields, scored_row)
    return dict(turn_player=turn_player, turn=turn, battlefields=bfs, units=units, points=points,
                scored=scored, spells=spells, reactions=reactions, action_spells=action_spells)


def _name_units(entries: list[dict]) -> list[Unit]:
    """Names and ids: a name given in the setup, else the card's, numbered
    "#1", "#2" when one player has several units of that card. The id is
    "P<seat>:<name>", unique and stable."""
    counts: dict[tuple[int, str], int] = {}
    for e in entries:
        if e["name"] is None:
            counts[(e["owner"], e["card"].name)] = counts.get((e["owner"], e["card"].name), 0) + 1
    seen: dict[tuple[int, str], int] = {}
    units, ids = [], set()
    for i, e in enumerate(entries):
        name = e.pop("name")
        if name is None:
            key = (e["owner"], e["card"].name)
            name = e["card"].name
            if counts[key] > 1:
                seen[key] = seen.get(key, 0) + 1
                name = f"{name} #{seen[key]}"
        uid = f"P{e['owner'] + 1}:{name}"
        if uid in ids:
            raise EngineSetupError(f"units[{i}].name", f"P{e['owner'] + 1} has two units named {name!r}")
        ids.add(uid)
        units.append(Unit(id=uid, name=name, **e))
    return units


def random_setup(rng: random.Random, players: int = 2, battlefields: int = 2, victory_points: int = 8,
                 pool: Pool | None = None, reactions: bool = False) -> dict:
    """A small legal table drawn from the pool: 1 to 3 units per player, some
    in hand, some at base, some at a battlefield their owner controls; spell
    budgets 0 to 2; a few points; with `reactions`, reaction budgets 0 to 2 as
    well (drawn last, so a table drawn without them is the same). Nothing is
    contested and nothing is damaged, so the game starts in the turn player's
    action phase with nothing for a cleanup to do."""
    from .cards import load_pool

    pool = pool if pool is not None else load_pool()
    names = pool.names()
    controllers = [rng.choice([None] + list(range(players))) for _ in range(battlefields)]
    units = []
    for p in range(players):
        mine = [i for i, c in enumerate(controllers) if c == p]
        for _ in range(rng.randint(1, 3)):
            unit: dict[str, Any] = {"card": rng.choice(names), "owner": p}
            where = rng.random()
            if where < 0.25:
                unit["zone"] = "hand"
            elif where < 0.5 and mine:
                unit["zone"], unit["battlefield"] = "battlefield", rng.choice(mine)
            else:
                unit["zone"] = "base"
            if unit["zone"] != "hand" and rng.random() < 0.1:
                unit["grant"] = [rng.choice(["tank", "last"])]
            units.append(unit)
    setup = {
        "turn_player": rng.randrange(players),
        "battlefields": [{"controller": c, "contested_by": None} for c in controllers],
        "units": units,
        "points": [rng.randint(0, victory_points - 2) for _ in range(players)],
        "spells": [rng.randint(0, 2) for _ in range(players)],
    }
    if reactions:
        setup["reactions"] = [rng.randint(0, 2) for _ in range(players)]
    return setup

"""The observation format of the WoW agreement harness: what an engine shows
of its state and of an action, in the model's vocabulary.

An adapter writes these (see ``builtin.py`` for the built-in engine), and
``chainproof check-trace`` reads them as JSON Lines from an engine in any
language; README.md documents the format.  ``check_state`` and
``check_action`` reject a malformed observation with the path of the field
at fault, so an adapter that returns garbage is told what and where.
"""

from __future__ import annotations

from typing import Any

#: Where a game can stop for a player's choice, as the model names it: the
#: windows (409), the protect point (602.2), the combat conclusion (armor
#: against a combat packet, 304.2), the end step's discard (503.2a), and the
#: end of the game (102).
STEPS = ("ready_step", "draw_step", "action_phase", "attack_window", "protect_point", "defend_window", "combat_conclusion", "end_phase", "end_step", "game_over")
CARD_KINDS = ("instant", "non_instant", "quest")
LINK_KINDS = ("instant", "non_instant", "resource", "proposal", "strike")
KEYWORDS = ("protector", "stealth", "elusive", "ferocity", "long_range", "sabotage")
ACTION_KINDS = ("pass", "play", "resource", "propose", "strike", "protect", "discard", "prevent")


class ObservationError(ValueError):
    """An observation does not follow the format; the message names the field."""


def _need(cond: bool, path: str, what: str) -> None:
    if not cond:
        raise ObservationError(f"{path}: {what}")


def _int(value: Any, path: str, lo: int = 0) -> None:
    _need(isinstance(value, int) and not isinstance(value, bool) and value >= lo, path, f"expected an integer >= {lo}, got {value!r}")


def _bool(value: Any, path: str) -> None:
    _need(isinstance(value, bool), path, f"expected true or false, got {value!r}")


def _object(value: Any, path: str, fields: dict[str, str]) -> None:
    _need(isinstance(value, dict), path, f"expected an object with {', '.join(fields)}, got {type(value).__name__}")
    missing = [f for f in fields if f not in value]
    _need(not missing, path, f"missing field(s) {', '.join(missing)}")
    for name, kind in fields.items():
        v, where = value[name], f"{path}.{name}"
        if kind == "int":
            _int(v, where)
        elif kind == "bool":
            _bool(v, where)
        elif kind == "str":
            _need(isinstance(v, str) and v, where, f"expected a name, got {v!r}")
        elif kind == "health":
            _int(v, where, 1)
        elif kind == "id":
            _need(isinstance(v, (int, str)) and not isinstance(v, bool), where, f"expected an id (integer or string), got {v!r}")


def check_state(obs: Any) -> None:
    """Raise ObservationError unless ``obs`` is a well-formed state observation."""
    _object(obs, "state", {"step": "", "turn_player": "int", "turn": "int", "first_turn": "bool", "passes": "int", "chain": "", "players": ""})
    _need(obs["step"] in STEPS, "state.step", f"expected one of {', '.join(STEPS)}, got {obs['step']!r}")
    players = obs["players"]
    _need(isinstance(players, list) and 2 <= len(players) <= 4, "state.players", "expected a list of 2 to 4 players")
    n = len(players)
    _need(obs["turn_player"] < n, "state.turn_player", f"no player {obs['turn_player']} among {n}")
    priority = obs.get("priority")
    _need(priority is None or (isinstance(priority, int) and 0 <= priority < n), "state.priority", f"expected null or a player index, got {priority!r}")
    _need(isinstance(obs["chain"], list), "state.chain", "expected a list of links, bottom first")
    for i, link in enumerate(obs["chain"]):
        _object(link, f"state.chain[{i}]", {"controller": "int", "kind": ""})
        _need(link["kind"] in LINK_KINDS, f"state.chain[{i}].kind", f"expected one of {', '.join(LINK_KINDS)}, got {link['kind']!r}")
    combat = obs.get("combat")
    if combat is not None:
        _object(combat, "state.combat", {"attacker": "", "defender": "", "sabotage": "bool", "protected": "bool"})
    decision = obs.get("decision")
    if decision is not None:
        _object(decision, "state.decision", {"kind": "str", "player": "int"})
    for p, pl in enumerate(players):
        where = f"state.players[{p}]"
        _object(pl, where, {"in_game": "bool", "deck": "int", "hand": "", "resources": "int", "resources_exhausted": "int", "resource_placed": "bool", "hero": "", "allies": "", "weapons": ""})
        _need(isinstance(pl["hand"], dict) and set(pl["hand"]) == set(CARD_KINDS), f"{where}.hand", f"expected the costs of the cards in hand by kind: {', '.join(CARD_KINDS)}")
        for kind, costs in pl["hand"].items():
            _need(isinstance(costs, list), f"{where}.hand.{kind}", "expected a list of costs")
            for j, c in enumerate(costs):
                _int(c, f"{where}.hand.{kind}[{j}]")
        _object(pl["hero"], f"{where}.hero", {"id": "id", "name": "str", "health": "health", "damage": "int", "exhausted": "bool", "in_play": "bool", "dual_wield": "bool"})
        _need(isinstance(pl["allies"], list), f"{where}.allies", "expected a list")
        for j, ally in enumerate(pl["allies"]):
            _object(ally, f"{where}.allies[{j}]", {"id": "id", "name": "str", "atk": "int", "health": "health", "keywords": "", "damage": "int", "exhausted": "bool", "new": "bool"})
            bad = [k for k in ally["keywords"] if k not in KEYWORDS] if isinstance(ally["keywords"], list) else ["(not a list)"]
            _need(not bad, f"{where}.allies[{j}].keywords", f"unknown keyword(s) {bad}; the model knows {', '.join(KEYWORDS)}")
        _need(isinstance(pl["weapons"], list), f"{where}.weapons", "expected a list")
        for j, w in enumerate(pl["weapons"]):
            _object(w, f"{where}.weapons[{j}]", {"id": "id", "name": "str", "atk": "int", "strike_cost": "int", "melee": "bool", "exhausted": "bool", "struck": "bool"})
        if pl.get("armor") is not None:
            _object(pl["armor"], f"{where}.armor", {"id": "id", "defense": "int", "exhausted": "bool"})
        if pl.get("item") is not None:
            _object(pl["item"], f"{where}.item", {"id": "id", "name": "str"})


def check_action(obs: Any) -> None:
    """Raise ObservationError unless ``obs`` is a well-formed action observation."""
    _object(obs, "action", {"kind": "", "player": "int"})
    kind = obs["kind"]
    _need(kind in ACTION_KINDS, "action.kind", f"expected one of {', '.join(ACTION_KINDS)}, got {kind!r}")
    if kind in ("play", "resource", "discard"):
        _need(obs.get("card_kind") in CARD_KINDS, "action.card_kind", f"expected one of {', '.join(CARD_KINDS)}, got {obs.get('card_kind')!r}")
    if kind == "play" and "targets" in obs:
        targets = obs["targets"]
        _need(isinstance(targets, list), "action.targets", f"expected a list of hero or ally ids, got {targets!r}")
        for i, t in enumerate(targets):
            _need(isinstance(t, (int, str)) and not isinstance(t, bool), f"action.targets[{i}]", f"expected an id (integer or string), got {t!r}")
    if kind == "propose":
        _object(obs, "action", {"attacker": "id", "defender": "id", "sabotage": "bool"})
    if kind == "strike":
        _object(obs, "action", {"weapon": "id"})

"""The observation format of the WoW agreement harness: what an engine shows
of its state and of an action, in the model's vocabulary.

An adapter writes these (see ``builtin.py`` for the built-in engine), and
``chainproof check-trace`` reads them as JSON Lines from an engine in any
language; README.md documents the format.  ``check_state`` and
``check_action`` reject a malformed observation with the path of the field
at fault, so an adapter that returns garbage is told what and where.
"""

from __future__ import annotations

from typing import Any, NoReturn

#: Where a game can stop for a player's choice, as the model names it: the
#: windows (409), the protect point (602.2), the combat conclusion (armor
#: against a combat packet, 304.2), the end step's discard (503.2a), and the
#: end of the game (102).
STEPS = ("ready_step", "draw_step", "action_phase", "attack_window", "protect_point", "defend_window", "combat_conclusion", "end_phase", "end_step", "game_over")
CARD_KINDS = ("instant", "non_instant", "quest")
LINK_KINDS = ("instant", "non_instant", "resource", "proposal", "strike", "power", "bear_form_trigger")
KEYWORDS = ("protector", "stealth", "elusive", "ferocity", "long_range", "sabotage")
#: What a non-instant ability that deals no damage does (state.abilities).
ABILITY_EFFECTS = ("heal", "exhaust and draw", "ally from the graveyard", "take control of an ally")
ACTION_KINDS = ("pass", "play", "resource", "propose", "strike", "protect", "discard", "prevent", "power")


class ObservationError(ValueError):
    """An observation does not follow the format; the message names the field."""


def _fail(path: str, what: str) -> NoReturn:
    raise ObservationError(f"{path}: {what}")


# The checks below build a message only for a field at fault: the harness
# checks every observation of every step, and nearly all are well formed.


def _int(value: Any, path: str, lo: int = 0) -> None:
    if not (isinstance(value, int) and not isinstance(value, bool) and value >= lo):
        _fail(path, f"expected an integer >= {lo}, got {value!r}")


def _object(value: Any, path: str, fields: dict[str, str]) -> None:
    if not isinstance(value, dict):
        _fail(path, f"expected an object with {', '.join(fields)}, got {type(value).__name__}")
    if not value.keys() >= fields.keys():
        _fail(path, f"missing field(s) {', '.join(f for f in fields if f not in value)}")
    for name, kind in fields.items():
        v = value[name]
        # Each test reads the usual value first (a plain int, a bool, a name)
        # and looks closer only when it fails.
        if kind == "int":
            if type(v) is not int or v < 0:
                _int(v, f"{path}.{name}")
        elif kind == "bool":
            if not isinstance(v, bool):
                _fail(f"{path}.{name}", f"expected true or false, got {v!r}")
        elif kind == "str":
            if not (isinstance(v, str) and v):
                _fail(f"{path}.{name}", f"expected a name, got {v!r}")
        elif kind == "health":
            if type(v) is not int or v < 1:
                _int(v, f"{path}.{name}", 1)
        elif kind == "id":
            if not isinstance(v, (int, str)) or isinstance(v, bool):
                _fail(f"{path}.{name}", f"expected an id (integer or string), got {v!r}")


def check_state(obs: Any) -> None:
    """Raise ObservationError unless ``obs`` is a well-formed state observation."""
    _object(obs, "state", {"step": "", "turn_player": "int", "turn": "int", "first_turn": "bool", "passes": "int", "chain": "", "players": ""})
    if obs["step"] not in STEPS:
        _fail("state.step", f"expected one of {', '.join(STEPS)}, got {obs['step']!r}")
    players = obs["players"]
    if not (isinstance(players, list) and 2 <= len(players) <= 4):
        _fail("state.players", "expected a list of 2 to 4 players")
    n = len(players)
    if obs["turn_player"] >= n:
        _fail("state.turn_player", f"no player {obs['turn_player']} among {n}")
    priority = obs.get("priority")
    if not (priority is None or (isinstance(priority, int) and 0 <= priority < n)):
        _fail("state.priority", f"expected null or a player index, got {priority!r}")
    if not isinstance(obs["chain"], list):
        _fail("state.chain", "expected a list of links, bottom first")
    for i, link in enumerate(obs["chain"]):
        _object(link, f"state.chain[{i}]", {"controller": "int", "kind": ""})
        if link["kind"] not in LINK_KINDS:
            _fail(f"state.chain[{i}].kind", f"expected one of {', '.join(LINK_KINDS)}, got {link['kind']!r}")
    combat = obs.get("combat")
    if combat is not None:
        _object(combat, "state.combat", {"attacker": "", "defender": "", "sabotage": "bool", "protected": "bool"})
    decision = obs.get("decision")
    if decision is not None:
        _object(decision, "state.decision", {"kind": "str", "player": "int"})
    for p, pl in enumerate(players):
        where = f"state.players[{p}]"
        _object(pl, where, {"in_game": "bool", "deck": "int", "hand": "", "resources": "int", "resources_exhausted": "int", "resource_placed": "bool", "hero": "", "allies": "", "weapons": ""})
        if not (isinstance(pl["hand"], dict) and set(pl["hand"]) == set(CARD_KINDS)):
            _fail(f"{where}.hand", f"expected the costs of the cards in hand by kind: {', '.join(CARD_KINDS)}")
        for kind, costs in pl["hand"].items():
            if not isinstance(costs, list):
                _fail(f"{where}.hand.{kind}", "expected a list of costs")
            for j, c in enumerate(costs):
                _int(c, f"{where}.hand.{kind}[{j}]")
        _object(pl["hero"], f"{where}.hero", {"id": "id", "name": "str", "health": "health", "damage": "int", "exhausted": "bool", "in_play": "bool", "dual_wield": "bool"})
        for flag in ("ranged_dual_wield", "flips_to_heal", "flipped", "bear_form"):
            if not isinstance(pl["hero"].get(flag, False), bool):
                _fail(f"{where}.hero.{flag}", f"expected true or false, got {pl['hero'][flag]!r}")
        if not isinstance(pl["allies"], list):
            _fail(f"{where}.allies", "expected a list")
        for j, ally in enumerate(pl["allies"]):
            _object(ally, f"{where}.allies[{j}]", {"id": "id", "name": "str", "atk": "int", "health": "health", "keywords": "", "damage": "int", "exhausted": "bool", "new": "bool"})
            if not isinstance(ally.get("draws_attacks", False), bool):
                _fail(f"{where}.allies[{j}].draws_attacks", f"expected true or false, got {ally['draws_attacks']!r}")
            if not isinstance(ally.get("held_exhausted", False), bool):
                _fail(f"{where}.allies[{j}].held_exhausted", f"expected true or false, got {ally['held_exhausted']!r}")
            if not isinstance(ally.get("totem", False), bool):
                _fail(f"{where}.allies[{j}].totem", f"expected true or false, got {ally['totem']!r}")
            if ally.get("totem") and ally["atk"]:
                _fail(f"{where}.allies[{j}].atk", f"a totem has no ATK (306.3a), got {ally['atk']}")
            if "power_cost" in ally:
                _int(ally["power_cost"], f"{where}.allies[{j}].power_cost")
            if "attack_tax" in ally:
                _int(ally["attack_tax"], f"{where}.allies[{j}].attack_tax")
            bad = [k for k in ally["keywords"] if k not in KEYWORDS] if isinstance(ally["keywords"], list) else ["(not a list)"]
            if bad:
                _fail(f"{where}.allies[{j}].keywords", f"unknown keyword(s) {bad}; the model knows {', '.join(KEYWORDS)}")
        if not isinstance(pl["weapons"], list):
            _fail(f"{where}.weapons", "expected a list")
        for j, w in enumerate(pl["weapons"]):
            _object(w, f"{where}.weapons[{j}]", {"id": "id", "name": "str", "atk": "int", "strike_cost": "int", "melee": "bool", "exhausted": "bool", "struck": "bool"})
            if not isinstance(w.get("unpreventable", False), bool):
                _fail(f"{where}.weapons[{j}].unpreventable", f"expected true or false, got {w['unpreventable']!r}")
            if "power_cost" in w:
                _int(w["power_cost"], f"{where}.weapons[{j}].power_cost")
        if pl.get("armor") is not None:
            _object(pl["armor"], f"{where}.armor", {"id": "id", "defense": "int", "exhausted": "bool"})
        if pl.get("item") is not None:
            _object(pl["item"], f"{where}.item", {"id": "id", "name": "str"})
    spells = obs.get("spells")
    if spells is not None:
        if not isinstance(spells, list):
            _fail("state.spells", "expected a list of the abilities that deal damage as they resolve")
        for i, sp in enumerate(spells):
            _object(sp, f"state.spells[{i}]", {"name": "str", "amount": "int", "each_opposing": "bool", "instant": "bool"})
            for flag in ("taunts", "doubles", "power"):
                if not isinstance(sp.get(flag, False), bool):
                    _fail(f"state.spells[{i}].{flag}", f"expected true or false, got {sp[flag]!r}")
            if sp["amount"] < 1 and not sp.get("doubles"):
                _fail(f"state.spells[{i}].amount", f"expected at least 1, got {sp['amount']}")
            further = sp.get("further", [])
            if not (isinstance(further, list) and all(isinstance(x, int) and not isinstance(x, bool) and x >= 1 for x in further)):
                _fail(f"state.spells[{i}].further", f"expected a list of amounts, each at least 1, got {further!r}")
    abilities = obs.get("abilities")
    if abilities is not None:
        if not isinstance(abilities, list):
            _fail("state.abilities", "expected a list of the non-instant abilities that deal no damage")
        for i, ab in enumerate(abilities):
            _object(ab, f"state.abilities[{i}]", {"name": "str", "effect": "str"})
            if ab["effect"] not in ABILITY_EFFECTS:
                _fail(f"state.abilities[{i}].effect", f"expected one of {', '.join(ABILITY_EFFECTS)}, got {ab['effect']!r}")
    for p, pl in enumerate(players):
        for where, ch in [(f"state.players[{p}].hero", pl["hero"])] + [(f"state.players[{p}].allies[{j}]", a) for j, a in enumerate(pl["allies"])]:
            taunt = ch.get("taunted_by")
            if not (taunt is None or (isinstance(taunt, int) and not isinstance(taunt, bool) and 0 <= taunt < n)):
                _fail(f"{where}.taunted_by", f"expected null or a player index, got {taunt!r}")


def check_action(obs: Any) -> None:
    """Raise ObservationError unless ``obs`` is a well-formed action observation."""
    _object(obs, "action", {"kind": "", "player": "int"})
    kind = obs["kind"]
    if kind not in ACTION_KINDS:
        _fail("action.kind", f"expected one of {', '.join(ACTION_KINDS)}, got {kind!r}")
    if kind in ("play", "resource", "discard"):
        if obs.get("card_kind") not in CARD_KINDS:
            _fail("action.card_kind", f"expected one of {', '.join(CARD_KINDS)}, got {obs.get('card_kind')!r}")
    if kind == "play" and "targets" in obs:
        targets = obs["targets"]
        if not isinstance(targets, list):
            _fail("action.targets", f"expected a list of hero or ally ids, got {targets!r}")
        for i, t in enumerate(targets):
            if not isinstance(t, (int, str)) or isinstance(t, bool):
                _fail(f"action.targets[{i}]", f"expected an id (integer or string), got {t!r}")
    if kind == "propose":
        _object(obs, "action", {"attacker": "id", "defender": "id", "sabotage": "bool"})
    if kind == "strike":
        _object(obs, "action", {"weapon": "id"})
    if kind == "power":
        _object(obs, "action", {"source": "id"})

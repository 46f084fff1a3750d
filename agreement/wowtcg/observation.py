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


#: Where a field is: a path, or the parts of one (written out only for a
#: field at fault: the harness checks every observation of every step, and
#: nearly all are well formed).
Path = str | tuple[Any, ...]


def _path(where: Path, *more: Any) -> str:
    return "".join(map(str, (*where, *more) if isinstance(where, tuple) else (where, *more)))


def _fail(path: Path, what: str) -> NoReturn:
    raise ObservationError(f"{_path(path)}: {what}")


def _int(value: Any, path: Path, lo: int = 0) -> None:
    if not (isinstance(value, int) and not isinstance(value, bool) and value >= lo):
        _fail(path, f"expected an integer >= {lo}, got {value!r}")


class Fields:
    """The fields an object must have, each with its kind: ``int`` (at least
    0), ``health`` (at least 1), ``bool``, ``str`` (a name), ``id`` (an
    integer or a string), or "" (checked by the caller).  Made once, grouped
    by kind, so that a check asks each field the test of its kind alone."""

    def __init__(self, **kinds: str) -> None:
        self.names = tuple(kinds)
        self.keys = kinds.keys()
        self.by_kind = tuple((kind, tuple(n for n, k in kinds.items() if k == kind)) for kind in ("int", "bool", "str", "health", "id"))


def _object(value: Any, path: Path, fields: Fields) -> None:
    if not isinstance(value, dict):
        _fail(path, f"expected an object with {', '.join(fields.names)}, got {type(value).__name__}")
    if not value.keys() >= fields.keys:
        _fail(path, f"missing field(s) {', '.join(f for f in fields.names if f not in value)}")
    # Each test reads the usual value first (a plain int, a bool, a name)
    # and looks closer only when it fails.
    (_, ints), (_, bools), (_, strs), (_, healths), (_, ids) = fields.by_kind
    for name in ints:
        v = value[name]
        if type(v) is not int or v < 0:
            _int(v, _path(path, ".", name))
    for name in bools:
        v = value[name]
        if v is not True and v is not False:
            _fail(_path(path, ".", name), f"expected true or false, got {v!r}")
    for name in strs:
        v = value[name]
        if not (isinstance(v, str) and v):
            _fail(_path(path, ".", name), f"expected a name, got {v!r}")
    for name in healths:
        v = value[name]
        if type(v) is not int or v < 1:
            _int(v, _path(path, ".", name), 1)
    for name in ids:
        v = value[name]
        if not isinstance(v, (int, str)) or isinstance(v, bool):
            _fail(_path(path, ".", name), f"expected an id (integer or string), got {v!r}")


_STATE = Fields(step="", turn_player="int", turn="int", first_turn="bool", passes="int", chain="", players="")
_LINK = Fields(controller="int", kind="")
_COMBAT = Fields(attacker="", defender="", sabotage="bool", protected="bool")
_DECISION = Fields(kind="str", player="int")
_PLAYER = Fields(in_game="bool", deck="int", hand="", resources="int", resources_exhausted="int", resource_placed="bool", hero="", allies="", weapons="")
_HERO = Fields(id="id", name="str", health="health", damage="int", exhausted="bool", in_play="bool", dual_wield="bool")
_ALLY = Fields(id="id", name="str", atk="int", health="health", keywords="", damage="int", exhausted="bool", new="bool")
_WEAPON = Fields(id="id", name="str", atk="int", strike_cost="int", melee="bool", exhausted="bool", struck="bool")
_ARMOR = Fields(id="id", defense="int", exhausted="bool")
_ITEM = Fields(id="id", name="str")
_SPELL = Fields(name="str", amount="int", each_opposing="bool", instant="bool")
_ABILITY = Fields(name="str", effect="str")
_ACTION = Fields(kind="", player="int")
_PROPOSAL = Fields(attacker="id", defender="id", sabotage="bool")
_STRIKE = Fields(weapon="id")
_POWER = Fields(source="id")


def check_state(obs: Any) -> None:
    """Raise ObservationError unless ``obs`` is a well-formed state observation."""
    _object(obs, "state", _STATE)
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
        _object(link, ("state.chain[", i, "]"), _LINK)
        if link["kind"] not in LINK_KINDS:
            _fail(f"state.chain[{i}].kind", f"expected one of {', '.join(LINK_KINDS)}, got {link['kind']!r}")
    combat = obs.get("combat")
    if combat is not None:
        _object(combat, "state.combat", _COMBAT)
    decision = obs.get("decision")
    if decision is not None:
        _object(decision, "state.decision", _DECISION)
    for p, pl in enumerate(players):
        where = ("state.players[", p, "]")
        _object(pl, where, _PLAYER)
        if not (isinstance(pl["hand"], dict) and set(pl["hand"]) == set(CARD_KINDS)):
            _fail((*where, ".hand"), f"expected the costs of the cards in hand by kind: {', '.join(CARD_KINDS)}")
        for kind, costs in pl["hand"].items():
            if not isinstance(costs, list):
                _fail((*where, ".hand.", kind), "expected a list of costs")
            for j, c in enumerate(costs):
                if type(c) is not int or c < 0:
                    _int(c, (*where, ".hand.", kind, "[", j, "]"))
        _object(pl["hero"], (*where, ".hero"), _HERO)
        for flag in ("ranged_dual_wield", "flips_to_heal", "flipped", "bear_form"):
            if not isinstance(pl["hero"].get(flag, False), bool):
                _fail((*where, ".hero.", flag), f"expected true or false, got {pl['hero'][flag]!r}")
        if not isinstance(pl["allies"], list):
            _fail((*where, ".allies"), "expected a list")
        for j, ally in enumerate(pl["allies"]):
            _object(ally, (*where, ".allies[", j, "]"), _ALLY)
            if not isinstance(ally.get("draws_attacks", False), bool):
                _fail((*where, ".allies[", j, "].draws_attacks"), f"expected true or false, got {ally['draws_attacks']!r}")
            if not isinstance(ally.get("held_exhausted", False), bool):
                _fail((*where, ".allies[", j, "].held_exhausted"), f"expected true or false, got {ally['held_exhausted']!r}")
            if not isinstance(ally.get("totem", False), bool):
                _fail((*where, ".allies[", j, "].totem"), f"expected true or false, got {ally['totem']!r}")
            if ally.get("totem") and ally["atk"]:
                _fail((*where, ".allies[", j, "].atk"), f"a totem has no ATK (306.3a), got {ally['atk']}")
            if "power_cost" in ally:
                _int(ally["power_cost"], (*where, ".allies[", j, "].power_cost"))
            if "attack_tax" in ally:
                _int(ally["attack_tax"], (*where, ".allies[", j, "].attack_tax"))
            bad = [k for k in ally["keywords"] if k not in KEYWORDS] if isinstance(ally["keywords"], list) else ["(not a list)"]
            if bad:
                _fail((*where, ".allies[", j, "].keywords"), f"unknown keyword(s) {bad}; the model knows {', '.join(KEYWORDS)}")
        if not isinstance(pl["weapons"], list):
            _fail((*where, ".weapons"), "expected a list")
        for j, w in enumerate(pl["weapons"]):
            _object(w, (*where, ".weapons[", j, "]"), _WEAPON)
            if not isinstance(w.get("unpreventable", False), bool):
                _fail((*where, ".weapons[", j, "].unpreventable"), f"expected true or false, got {w['unpreventable']!r}")
            if "power_cost" in w:
                _int(w["power_cost"], (*where, ".weapons[", j, "].power_cost"))
        if pl.get("armor") is not None:
            _object(pl["armor"], (*where, ".armor"), _ARMOR)
        if pl.get("item") is not None:
            _object(pl["item"], (*where, ".item"), _ITEM)
    spells = obs.get("spells")
    if spells is not None:
        if not isinstance(spells, list):
            _fail("state.spells", "expected a list of the abilities that deal damage as they resolve")
        for i, sp in enumerate(spells):
            _object(sp, ("state.spells[", i, "]"), _SPELL)
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
            _object(ab, ("state.abilities[", i, "]"), _ABILITY)
            if ab["effect"] not in ABILITY_EFFECTS:
                _fail(f"state.abilities[{i}].effect", f"expected one of {', '.join(ABILITY_EFFECTS)}, got {ab['effect']!r}")
    for p, pl in enumerate(players):
        for where, ch in [(("state.players[", p, "].hero"), pl["hero"])] + [(("state.players[", p, "].allies[", j, "]"), a) for j, a in enumerate(pl["allies"])]:
            taunt = ch.get("taunted_by")
            if not (taunt is None or (isinstance(taunt, int) and not isinstance(taunt, bool) and 0 <= taunt < n)):
                _fail((*where, ".taunted_by"), f"expected null or a player index, got {taunt!r}")


def check_action(obs: Any) -> None:
    """Raise ObservationError unless ``obs`` is a well-formed action observation."""
    _object(obs, "action", _ACTION)
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
        _object(obs, "action", _PROPOSAL)
    if kind == "strike":
        _object(obs, "action", _STRIKE)
    if kind == "power":
        _object(obs, "action", _POWER)

"""The Riftbound side of the agreement harness: an engine game's observations
checked step by step against the model of the same table.

The model's table is read off the game's first observation (its units, their
printed might, keywords and card triggers, where each starts, the
battlefields' controllers, points, spell and reaction budgets), and the model
of games of any length is built for it, so every engine game is checked
against a model of exactly its cards.
An engine action names the model edge it stands for (``move[P1:Caitlyn to
bf1]``, ``assign_damage[P2: P1:Hill Raider 3]``); after it, the engine has
made every automatic step (cleanups, the initial chain, dealing damage, the
combat cleanup), so the model follows its automatic edges to the next choice
point and must arrive at the engine's state.

The observation format is ``RiftboundState.to_dict()`` of the reference
engine (``engine/riftbound``) plus ``victory_points``, ``asked`` (the player
asked to act on the chain, at step ``chain``) and, optionally, each unit's
card trigger: ``when_played`` ("stun", "damage", "destroy" or "":
assumed:here-trigger) and ``afar`` (assumed:afar-trigger), and Kayn's
ability, ``immune_after_two_moves``, with ``moves``, the unit's moves this
turn (damage.undamageable: his ``immune`` is then what they make it); an action is
``{"kind", "player", "unit", "battlefield", "assignment": {unit id: amount}}``,
a spell cast on a chain being a reaction (assumed:chain-reactions).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from agreement.table_checker import TableChecker, family
from model.machine import Edge, Machine
from model.riftbound import build
from model.riftbound.table import BASE, FIRST_BATTLEFIELD, HAND, NOBODY, TRASH, Table, Unit

KINDS = ("move", "end_turn", "start_combat", "pass", "recall", "stun", "move_to_combat", "play_unit", "assign")
STEPS = ("action", "cleanup", "showdown", "chain", "damage", "game_over")
ZONES = {"hand": HAND, "base": BASE, "trash": TRASH}
ROLES = {None: 0, "attacker": 1, "defender": 2}
LOCATIONS = {"action": "action_phase", "cleanup": "cleanup", "showdown": "showdown", "chain": "chain",
             "damage": "combat_damage_step", "game_over": "game_over"}
#: The engine's kinds of link on a chain, as the model's spells name them (Table.castable).
LINK_KINDS = {"recall": "recall", "stun": "stun", "move_to_combat": "move_to_combat", "play": "play_unit"}
UNIT_FIELDS = ("id", "owner", "might", "tank", "last", "immune", "rallying", "zone", "battlefield", "damage", "role", "stunned", "moved", "buffed")
STATE_FIELDS = ("players", "turn_player", "step", "battlefields", "units", "combat", "points", "scored", "spells", "victory_points")


def check_state(obs: Any) -> None:
    """A well-formed observation, or ValueError saying what is wrong."""
    if not isinstance(obs, dict):
        raise ValueError(f"expected a mapping, got {type(obs).__name__}")
    missing = [f for f in STATE_FIELDS if f not in obs]
    if missing:
        raise ValueError(f"missing {', '.join(missing)}")
    if obs["step"] not in STEPS:
        raise ValueError(f"step {obs['step']!r} is not one of {', '.join(STEPS)}")
    for i, u in enumerate(obs["units"]):
        lacking = [f for f in UNIT_FIELDS if f not in u]
        if lacking:
            raise ValueError(f"units[{i}] lacks {', '.join(lacking)}")
        if u["zone"] not in (*ZONES, "battlefield"):
            raise ValueError(f"units[{i}].zone {u['zone']!r} is not hand, base, trash or battlefield")
        if u["role"] not in ROLES:
            raise ValueError(f"units[{i}].role {u['role']!r} is not None, attacker or defender")


def table_of(obs: dict[str, Any]) -> Table:
    """The model's table for the game whose first observation this is."""
    units = tuple(
        Unit(
            u["id"],
            u["owner"],
            u["might"] - (1 if u["buffed"] else 0),
            _zone(u),
            tank=u["tank"],
            last=u["last"],
            # Kayn's immunity comes and goes with his moves: only a unit always immune is so by keyword.
            immune=u["immune"] and not (kayn(u) and _moves(u) >= 2),
            immune_after_two_moves=kayn(u),
            rallying=u["rallying"],
            # Optional in an observation: an engine whose units are all destructible,
            # or whose cards have no trigger, may leave them out.
            indestructible=bool(u.get("indestructible", False)),
            afar=bool(u.get("afar", False)),
            when_played=u.get("when_played", ""),
        )
        for u in obs["units"]
    )
    reactions = tuple(obs.get("reactions") or (0,) * obs["players"])
    action_spells = tuple(obs.get("action_spells") or (0,) * obs["players"])
    players, battlefields = obs["players"], len(obs["battlefields"])
    return Table(
        players,
        battlefields,
        units,
        tuple(NOBODY if b["controller"] is None else b["controller"] for b in obs["battlefields"]),
        max(obs["spells"]),
        1,
        obs["victory_points"],
        turn_player=obs["turn_player"],
        points=tuple(obs["points"]),
        scored=tuple(bool(x) for row in obs["scored"] for x in row),
        spell_budgets=tuple(obs["spells"]),
        reactions=max(reactions),
        reaction_budgets=reactions,
        action_spells=max(action_spells),
        action_spell_budgets=action_spells,
    )


@lru_cache(maxsize=32)
def machine_for(table: Table) -> Machine:
    return build(table=table, any_length=True)


def kayn(u: dict[str, Any]) -> bool:
    """The unit has Kayn's ability (immune this turn once moved twice this turn, damage.undamageable)."""
    return bool(u.get("immune_after_two_moves", False))


def _moves(u: dict[str, Any]) -> int:
    """The unit's moves this turn, as far as Kayn's immunity counts them (two or more: two)."""
    return min(2, u.get("moves", int(bool(u["moved"]))))


def _zone(u: dict[str, Any]) -> int:
    return FIRST_BATTLEFIELD + u["battlefield"] if u["zone"] == "battlefield" else ZONES[u["zone"]]


def _seat(x: Any) -> int:
    return NOBODY if x is None else x


def model_state(m: Machine, obs: dict[str, Any]) -> Any:
    """The model state an observation at a choice point stands for."""
    combat = obs["combat"]
    units = obs["units"]
    # A chain outside a showdown (assumed:action-spells) is the model's action_chain.
    where = "action_chain" if obs["step"] == "chain" and combat is None else LOCATIONS[obs["step"]]
    fields: dict[str, Any] = {
        "location": m.location_index[where],
        "turn_player": obs["turn_player"],
        "zone": tuple(_zone(u) for u in units),
        "damage": tuple(u["damage"] for u in units),
        "role": tuple(ROLES[u["role"]] for u in units),
        "stunned": tuple(bool(u["stunned"]) for u in units),
        "moved": tuple(bool(u["moved"]) for u in units),
        "buffed": tuple(bool(u["buffed"]) for u in units),
        "assigned": tuple((combat or {}).get("assigned", {}).get(u["id"], 0) for u in units),
        "controller": tuple(_seat(b["controller"]) for b in obs["battlefields"]),
        "contested_by": tuple(_seat(b["contested_by"]) for b in obs["battlefields"]),
        "points": tuple(obs["points"]),
        "scored": tuple(bool(x) for row in obs["scored"] for x in row),
        "spells": tuple(obs["spells"]),
        "combat_bf": NOBODY,
        "attacker": NOBODY,
        "defender": NOBODY,
        "focus": NOBODY,
        "passes": 0,
        "stage": 0,
    }
    t: Table = m.table
    if t.casts_outside:
        fields["action_spells"] = tuple(obs["action_spells"])
    if t.counts_moves:
        fields["moves"] = tuple(_moves(u) if unit.immune_after_two_moves else 0 for u, unit in zip(units, t.units))
    if t.reacts:
        spells = [k for k in obs["chain"] if k["kind"] != "trigger"]
        codes = [t.link_code(_spell_index(t, k), k["player"]) for k in reversed(spells)]
        fields.update(reactions=tuple(obs["reactions"]), links=tuple(codes) + (0,) * (t.chain_depth - len(codes)),
                      asked=_seat(obs.get("asked")))
    # The initial chain's triggers still waiting (without reactions, it has resolved before anyone chooses).
    waiting = {k["unit"] for k in obs.get("chain", ()) if k["kind"] == "trigger"}
    fields["trigger"] = tuple(u["id"] in waiting for u in units)
    if combat is not None:
        fields.update(combat_bf=combat["battlefield"], attacker=combat["attacker"], defender=combat["defender"])
        if obs["step"] in ("showdown", "chain"):
            fields.update(focus=combat["focus"], passes=combat["passes"])
        elif obs["step"] == "damage":
            # The model's showdown ended with the last pass: focus is nobody's, every player passed.
            fields.update(passes=obs["players"], stage=0 if combat["assigning"] == combat["attacker"] else 1)
    return m.State(**fields)


def _spell_index(t: Table, link: dict[str, Any]) -> int:
    """The model's spell (Table.castable) an engine link or action names."""
    bf = link.get("battlefield") if link["kind"] in ("play", "play_unit") else None
    unit = next(i for i, u in enumerate(t.units) if u.name == link["unit"])
    return t.castable.index((LINK_KINDS.get(link["kind"], link["kind"]), unit, NOBODY if bf is None else bf))


#: The edge family of a spell cast at each location other than the showdown:
#: a reaction on a showdown's chain or on one outside a showdown, or a spell of
#: the action phase (assumed:chain-reactions, assumed:action-spells).
CAST_AT = {"chain": "reaction", "action_chain": "action_reaction", "action_phase": "action_spell"}


def edge_name(m: Machine, choice: dict[str, Any], location: str = "showdown") -> str:
    """The model edge an observed action stands for, taken at ``location``:
    on a chain a spell is a reaction, in the action phase an action spell."""
    t: Table = m.table
    kind, unit, bf = choice["kind"], choice.get("unit"), choice.get("battlefield")
    where = t.battlefield_name(bf) if bf is not None else ""
    if location in CAST_AT and kind in LINK_KINDS.values():
        return f"{CAST_AT[location]}[{t.spell_name(_spell_index(t, choice))}]"
    if kind == "move":
        return f"move[{unit} to {where}]"
    if kind == "end_turn":
        return "end_turn"
    if kind == "start_combat":
        return f"start_combat[{where}]"
    if kind in ("recall", "stun", "move_to_combat"):
        return f"{kind}[{unit}]"
    if kind == "play_unit":
        return f"play_unit[{unit} to {where}]"
    if kind == "assign":
        amounts = choice.get("assignment", {})
        shown = ", ".join(f"{u.name} {amounts[u.name]}" for u in t.units if amounts.get(u.name)) or "nothing"
        return f"assign_damage[{t.player_name(choice['player'])}: {shown}]"
    return "pass"


def _stands_for(m: Machine, s: Any, e: Edge, name: str, player: int) -> bool:
    """Does edge ``e``, enabled in ``s``, stand for the action ``name`` taken by ``player``?"""
    return (e.name == name or (name == "pass" and e.has("passes"))) and m.actor(e, s) == player


class RiftboundChecker(TableChecker):
    game = "riftbound"
    check_state = staticmethod(check_state)
    kinds = KINDS

    def machine_for(self, first: dict[str, Any]) -> Machine:
        return machine_for(table_of(first))

    def model_state(self, m: Machine, obs: dict[str, Any]) -> Any:
        return model_state(m, obs)

    def action_name(self, m: Machine, s: Any, choice: dict[str, Any]) -> str:
        return edge_name(m, choice, m.location_of(s))

    def stands_for(self, m: Machine, s: Any, e: Edge, choice: dict[str, Any]) -> bool:
        return _stands_for(m, s, e, edge_name(m, choice, m.location_of(s)), choice["player"])

    @staticmethod
    def reference_machine() -> Machine:
        return build()

    @staticmethod
    def waits_for_choice(obs: dict[str, Any]) -> bool:
        return obs["step"] in STEPS

    def forbidden_choices(self, pre: dict[str, Any]) -> list[tuple[tuple[str, ...], dict[str, Any]]]:
        """Moves, spells and assignments the model forbids to the player choosing
        at ``pre``, as observed actions with the rules of their edges: the engine must refuse each."""
        m = self._m()
        s = model_state(m, pre)
        enabled = {e.name for e, _ in self.choice_edges(m, s)}
        chooser = _chooser(pre)
        out = []
        for e in m.edges_leaving(s):
            if e.name in enabled or e.actor is None or e.has("bound"):
                continue
            observed = _observed(e, chooser)
            if observed is not None:
                out.append((e.rules, observed))
        return out


def _chooser(obs: dict[str, Any]) -> int:
    combat = obs["combat"] or {}
    if obs["step"] == "chain":
        return obs["asked"]
    if obs["step"] == "showdown":
        return combat["focus"]
    if obs["step"] == "damage":
        return combat["assigning"]
    return obs["turn_player"]


def _observed(e: Edge, player: int) -> dict[str, Any] | None:
    """The observed action a model edge stands for, when ``player`` takes it (assignments are left out:
    the engine offers every legal one, and completeness already compares them)."""
    kind = family(e.name)
    inner = e.name[len(kind) + 1 : -1]
    if kind in CAST_AT.values():  # "reaction[stun P2:Brute]": the spell, cast on a chain or in the action phase
        kind, _, inner = inner.partition(" ")
    if kind in ("recall", "stun", "move_to_combat"):
        return {"kind": kind, "player": player, "unit": inner}
    if kind in ("move", "play_unit"):
        unit, _, where = inner.rpartition(" to ")
        return {"kind": kind, "player": player, "unit": unit, "battlefield": int(where[2:]) - 1}
    if kind == "start_combat":
        return {"kind": kind, "player": player, "battlefield": int(inner[2:]) - 1}
    return None

"""From observations of a WoW engine to states and edges of the WoW model,
and the check of one engine step against the model.

The model's characters sit in numbered slots of fixed boards
(``model/wowtcg/board.py``); an engine's allies come and go.  A ``Binding``
follows one game: each ally keeps the slot it entered (the lowest free one,
as the model's ``resolve_ally`` fills them), and the model is built for the
board as it stands at each step (cheap, and cached).  Bounds that are only
exploration limits (turns, combats) are set out of reach, and the chain is
at least one link deeper than the engine's, so the model never stops a game
the rules let go on.

One engine *step* runs from one point where a player chooses, as the model
sees it (a priority window, the protect point with a protector able to
protect, the end step's discard, the end of the game), to the next.  It is
the player's choice plus any choices the model folds into automatic edges
(armor against a combat packet, 304.2).  The step is **sound** when some
enabled model edge matching the choice, followed by automatic edges, reaches
the observed successor; it is **complete** when every choice the model
enables is offered by the engine.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field, replace
from functools import lru_cache
from operator import itemgetter
from typing import Any, Iterable

from model.backend import CONCRETE
from model.machine import Edge, Machine
from model.wowtcg import build
from model.wowtcg.combat import IN_BEAR_FORM
from model.wowtcg.board import Ability, Board, Character, Party, Spell, Weapon, has_flip_powers
from model.wowtcg.table import ALL_LINK_KINDS, LINK_KINDS

from agreement.model_steps import KEPT, successors
from agreement.wowtcg.observation import ObservationError

#: Exploration bounds set out of reach: the engine's game decides when it ends.
FAR = 10**6
#: The most automatic model edges between two choices (a turn change with a
#: draw, or a combat conclusion with its pre-priority batches, takes fewer than 12).
MOST_AUTOMATIC = 40
#: The least depth of the model's chain.  The model is built per board and
#: chain depth, and steering searches it: one depth for the chains a game
#: mostly has (at most two links) keeps one model, and its searches, from one
#: step to the next, and lets a way put a link on top of another (413.7a).
LEAST_DEPTH = 3

#: Variables the harness does not read off an engine: a monitor of the
#: properties (``passed``) and an exploration bound (``combats``).  They are
#: carried over from the model's own successor.
UNOBSERVED = ("passed", "combats")
#: Per-character variables that say nothing about a character out of play.
PER_CHARACTER = ("exhausted", "fresh", "damage", "taunted_by", "cant_attack", "flipped")
#: Per-player variables that say nothing about a player who left the game:
#: his cards left with him (102.2), which the model does not bother to count.
PER_PLAYER = ("hand_instant", "hand_non_instant", "hand_quest", "deck", "resources", "resources_exhausted", "armor_exhausted", "armor_in_play")


@lru_cache(maxsize=KEPT)
def family(edge_name: str) -> str:
    """An edge's name without the characters it is about: ``propose_combat[P1 x -> P2 y]``
    and every other proposal are one family, so coverage reads the same on every board
    (kept: steering asks it of every edge it tries)."""
    return re.sub(r"\[P\d[^\]]*\]", "", edge_name)


def frame(edge: Edge, pre: Any, machine: Machine) -> frozenset[str]:
    """Variables an engine may change on this edge beyond what the model's update says.

    - Playing a card pays its cost (402.1): the model has no costs.
    - An instant resolving with an effect the model leaves untracked
      (``resolve_top_link``) may exhaust, ready or heal a character; in the
      harness's part of the pool that is all an instant does (see builtin.py).
    - A non-instant ability or a flip power that heals (``resolve_ability[heal]``,
      ``resolve_power[heal]``) changes damage, which the model does not track (406.2).
    - A flip power's X (``use_power_x``) is a cost, which the model does not count.
    """
    name = family(edge.name)
    if name.startswith(("play_instant", "play_non_instant")):
        return frozenset({"resources_exhausted"})
    if name.startswith(("resolve_ability[heal]", "resolve_power[heal]")):
        return frozenset({"damage"})
    if name.startswith("use_power_x"):
        return frozenset({"resources_exhausted"})
    if name.startswith("resolve_top_link") and machine.table.chain.top(pre, CONCRETE, "kind") == LINK_KINDS.index("instant"):
        return frozenset({"exhausted", "damage"})
    return frozenset()


# -- binding observations to boards -----------------------------------------------------

@dataclass
class Binding:
    """The slots of one game: which ally sits where, and the equipment bound at the start."""

    players: int
    slots: list[list[Any]] = field(default_factory=list)  # per player: ally id or None, slot 1.. (slot 0 is the hero)

    def __post_init__(self) -> None:
        if not self.slots:
            self.slots = [[] for _ in range(self.players)]

    def seat(self, obs: dict[str, Any]) -> None:
        """Give every ally of ``obs`` a slot: the one it has, or the lowest free one."""
        for p, pl in enumerate(obs["players"]):
            here = {a["id"] for a in pl["allies"]}
            row = self.slots[p]
            for ally in pl["allies"]:
                if ally["id"] in row:
                    continue
                free = next((i for i, held in enumerate(row) if held is None or held not in here), None)
                if free is None:
                    row.append(ally["id"])
                else:
                    row[free] = ally["id"]

    def release(self, obs: dict[str, Any]) -> None:
        """Slots of allies no longer in play become free."""
        for p, pl in enumerate(obs["players"]):
            here = {a["id"] for a in pl["allies"]}
            self.slots[p] = [held if held in here else None for held in self.slots[p]]


@dataclass(frozen=True)
class View:
    """A model instance for one step and how observed ids map onto it."""

    machine: Machine
    number: dict[Any, int]  # observed character or item id -> model object number
    weapon_slot: dict[Any, int]  # observed weapon id -> index in the per-weapon tuples
    missing_object: frozenset[int]  # players with no item a sabotage could take
    #: (player, ally id) -> the ally's number in that player's party: an ally
    #: whose control changes during a step has a slot in each (401.3), and
    #: ``number`` gives the last.
    seat_number: dict[tuple[int, Any], int] = field(default_factory=dict)

    @property
    def table(self) -> Any:
        return self.machine.table


def _character(
    name: str, ident: Any, atk: int, health: int, keywords: Iterable[str] = (), attacks_only: tuple[int, int] | None = None,
    attack_tax: int = 0, totem: bool = False, held_exhausted: bool = False, power_cost: int | None = None,
) -> Character:
    # Names carry the id: two copies of a card are two characters with two sets of edges.
    return Character(f"{name}#{ident}", atk=atk, health=health, keywords=frozenset(keywords), attacks_only=attacks_only, attack_tax=attack_tax,
                     totem=totem, held_exhausted=held_exhausted, power_cost=power_cost)


@lru_cache(maxsize=256)
def _machine(players: int, allies: int, depth: int, board: Board) -> Machine:
    return build(
        players=players,
        chain_depth=depth,
        turns=FAR,
        hand=0,
        deck=0,
        hand_limit=7,  # 503.2a
        allies=allies,
        resources=0,
        combats=FAR,
        board=board,
    )


def view(binding: Binding, observations: list[dict[str, Any]]) -> View:
    """The model for a step whose observations (before and after) are given;
    the first observation's players fix the equipment of the board, and a
    weapon or armor seen only later starts the step in hand."""
    allies_seen = {a["id"]: a for obs in observations for pl in obs["players"] for a in pl["allies"]}
    # One free slot more than any party uses: a resolving non-instant always finds one (302.1).
    width = max(len(row) for row in binding.slots) + 1
    parties = []
    for p, pl in enumerate(observations[0]["players"]):
        hero, item, row = pl["hero"], pl.get("item"), binding.slots[p]
        # A weapon or armor first seen after the step's start was played from
        # hand during it (303.1, 304.1): the board holds it in hand at the start.
        later = [obs["players"][p] for obs in observations[1:]]
        weapons = list(pl["weapons"])
        known = {wp["id"] for wp in weapons}
        for seen in later:
            for wp in seen["weapons"]:
                if wp["id"] not in known:
                    known.add(wp["id"])
                    weapons.append({**wp, "from_hand": True})
        armor, armor_from_hand = pl.get("armor"), False
        if armor is None:
            armor = next((seen["armor"] for seen in later if seen.get("armor")), None)
            armor_from_hand = armor is not None
        slots = []
        for i in range(width):
            held = row[i] if i < len(row) else None
            a = None if held is None else allies_seen[held]
            slots.append(None if a is None else (
                held, a["name"], a["atk"], a["health"], frozenset(a["keywords"]), a.get("draws_attacks", False), a.get("attack_tax", 0),
                a.get("totem", False), a.get("held_exhausted", False), a.get("power_cost")))
        parties.append((
            (hero["id"], hero["name"], hero["health"], hero["dual_wield"], hero.get("ranged_dual_wield", False), hero.get("flips_to_heal", False),
             hero.get("bear_form", False)),
            tuple(slots),
            tuple(
                (wp["id"], wp["name"], wp["atk"], wp["strike_cost"], wp["melee"], wp.get("unpreventable", False), wp.get("from_hand", False),
                 wp.get("power_cost"))
                for wp in weapons
            ),
            (armor["defense"] if armor else 0, armor_from_hand),
            None if item is None else (item["id"], item["name"]),
        ))
    depth = max(LEAST_DEPTH, max(len(obs["chain"]) for obs in observations) + 1)
    spells = tuple(
        (sp["name"], sp["amount"], sp["each_opposing"], sp["instant"], sp.get("taunts", False), tuple(sp.get("further", ())),
         sp.get("doubles", False), sp.get("power", False))
        for sp in observations[0].get("spells", ())
    )
    abilities = tuple((ab["name"], ab["effect"]) for ab in observations[0].get("abilities", ()))
    return _view(tuple(parties), width, depth, spells, abilities)


@lru_cache(maxsize=KEPT)
def _view(
    parties: tuple[Any, ...], width: int, depth: int, spells: tuple[tuple[Any, ...], ...] = (), abilities: tuple[tuple[str, str], ...] = (),
) -> View:
    """The view of a board read off the observations (kept: a board stands for
    many steps, and building its characters is most of the cost of a view)."""
    board, number, weapon_slot, missing, seat_number = [], {}, {}, set(), {}
    weapons_most = max(len(weapons) for _, _, weapons, _, _ in parties)
    count = len(parties) * (width + 1)
    # 601.2c: an ally that opposing characters can attack only, if able
    # (Sarmoth), as (seat, slot); the model gives each opposing character that
    # printed modifier, and has room for one such ally per game.
    drawing = [(p, i + 1) for p, (_, slots, _, _, _) in enumerate(parties) for i, a in enumerate(slots) if a is not None and a[5]]
    if len(drawing) > 1:
        raise ObservationError("state.players: more than one ally that opposing characters can attack only; the model holds one")

    def only(p: int) -> tuple[int, int] | None:
        return next((((q - p) % len(parties), slot) for q, slot in drawing if q != p), None)

    for p, (hero, slots, weapons, (armor_def, armor_from_hand), item) in enumerate(parties):
        allies = []
        for i, ally in enumerate(slots):
            if ally is None:
                allies.append(Character(f"free slot {i + 1}", atk=0, health=1))
                continue
            ident, name, atk, health, keywords, _, tax, totem, held_exhausted, power_cost = ally
            allies.append(_character(name, ident, atk, health, keywords, only(p), tax, totem, held_exhausted, power_cost))
            number[ident] = seat_number[p, ident] = p * (width + 1) + i + 1
        hero_id, hero_name, hero_health, dual_wield, ranged_dual_wield, flips_to_heal, bear_form = hero
        number[hero_id] = p * (width + 1)
        for w, (ident, *_) in enumerate(weapons):
            weapon_slot[ident] = p * weapons_most + w
        if item is None:
            missing.add(p)
        else:
            number[item[0]] = count + p
        board.append(
            Party(
                hero=replace(_character(hero_name, hero_id, 0, hero_health, attacks_only=only(p)), flips_to_heal=flips_to_heal),
                allies=tuple(allies),
                weapons=tuple(
                    Weapon(f"{name}#{ident}", atk=atk, strike_cost=cost, melee=melee, unpreventable=sure, from_hand=in_hand, power_cost=power)
                    for ident, name, atk, cost, melee, sure, in_hand, power in weapons
                ),
                armor_def=armor_def,
                armor_from_hand=armor_from_hand,
                dual_wield=dual_wield,
                ranged_dual_wield=ranged_dual_wield,
                object_name=f"{item[1]}#{item[0]}" if item else "no object",
                bear_form=bear_form,
            )
        )
    machine = _machine(len(parties), width, depth, Board(
        tuple(board), spells=tuple(
            Spell(name, amount, each_opposing=each, instant=instant, taunts=taunts, further=further, doubles=doubles, power=power)
            for name, amount, each, instant, taunts, further, doubles, power in spells
        ), abilities=tuple(Ability(*ab) for ab in abilities),
    ))
    return View(machine, number, weapon_slot, frozenset(missing), seat_number)


# -- observation -> model state ------------------------------------------------------------

def model_state(v: View, obs: dict[str, Any], carried: dict[str, Any]) -> Any:
    """The model state an observation stands for; ``carried`` gives the unobserved variables."""
    m, t = v.machine, v.table
    n = t.n
    step = obs["step"]
    if step not in m.locations:
        raise ObservationError(f"state.step: {step!r} is not a place where the model waits for a choice")
    players = obs["players"]
    values: dict[str, Any] = {
        "turn_player": obs["turn_player"],
        "first_turn": obs["first_turn"],
        "turn_number": obs["turn"],
        "priority_holder": t.nobody if obs.get("priority") is None else obs["priority"],
        "passes": obs["passes"],
        "resource_placed": players[obs["turn_player"]]["resource_placed"],
        "deck": tuple(pl["deck"] for pl in players),
        "in_game": tuple(pl["in_game"] for pl in players),
        "resources": tuple(pl["resources"] for pl in players),
        "resources_exhausted": tuple(pl["resources_exhausted"] for pl in players),
        "armor_exhausted": tuple(bool(pl.get("armor") and pl["armor"]["exhausted"]) for pl in players),
    }
    for kind in ("instant", "non_instant", "quest"):
        values[f"hand_{kind}"] = tuple(len(pl["hand"][kind]) for pl in players)
    in_play = [False] * t.count
    exhausted = [False] * t.count
    fresh = [False] * t.count
    damage = [0] * t.count
    taunted_by = [t.nobody] * t.count
    for p, pl in enumerate(players):
        hero = pl["hero"]
        entries = [(hero, False)] + [(a, a["new"]) for a in pl["allies"]]
        for ch, new in entries:
            c = v.seat_number.get((p, ch["id"]), v.number[ch["id"]])
            if ch is hero and not (hero["in_play"] and pl["in_game"]):
                continue
            in_play[c], exhausted[c], fresh[c], damage[c] = True, ch["exhausted"], new, ch["damage"]
            if ch.get("taunted_by") is not None:
                taunted_by[c] = ch["taunted_by"]
    values.update(in_play=tuple(in_play), exhausted=tuple(exhausted), fresh=tuple(fresh), damage=tuple(damage))
    if t.taunting:
        values["taunted_by"] = tuple(taunted_by)
    elif any(x != t.nobody for x in taunted_by):
        raise ObservationError("a character must attack whose hero this turn, but no spell of the game says so (state.spells)")
    if has_flip_powers(t.board):
        values["flipped"] = tuple(
            bool(players[t.owner[c]]["hero"].get("flipped", False)) if t.is_hero[c] else False for c in range(t.count)
        )
    if t.stopping:
        # The engine's Frost Nova is the seed's, which stops no attack (as in the model's reading).
        values["cant_attack"] = (False,) * t.count
    width = t.weapons
    weapon_exhausted = [False] * (n * width)
    struck = [False] * (n * width)
    for pl in players:
        for wp in pl["weapons"]:
            if wp["id"] not in v.weapon_slot:
                raise ObservationError(f"weapon {wp['name']}#{wp['id']} entered play during the game; the model's weapons are fixed at the start")
            i = v.weapon_slot[wp["id"]]
            weapon_exhausted[i], struck[i] = wp["exhausted"], wp["struck"]
    values.update(weapon_exhausted=tuple(weapon_exhausted), struck=tuple(struck))
    if t.gear_from_hand:
        # 303.1, 304.1: what is observed is in play; a weapon or armor of the board not observed is in hand.
        weapon_in_play = [False] * (n * width)
        for pl in players:
            for wp in pl["weapons"]:
                weapon_in_play[v.weapon_slot[wp["id"]]] = True
        values.update(weapon_in_play=tuple(weapon_in_play), armor_in_play=tuple(bool(pl.get("armor")) for pl in players))
    combat = obs.get("combat") or {}
    values.update(
        attacker=_role(v, combat.get("attacker")),
        defender=_role(v, combat.get("defender")),
        sabotage=bool(combat.get("sabotage", False)),
        protected=bool(combat.get("protected", False)),
    )
    chain = obs["chain"]
    depth = t.chain.depth
    values.update(
        chain_len=len(chain),
        chain_controller=tuple(link["controller"] for link in chain) + (n,) * (depth - len(chain)),
        chain_kind=tuple(ALL_LINK_KINDS.index(link["kind"]) for link in chain) + (0,) * (depth - len(chain)),
    )
    if any(t.bear):
        # Bear form lasts while a card giving it is in play (Maul; CR7.4 glossary).
        values["bear_form"] = tuple(bool(pl["hero"].get("bear_form", False)) for pl in players)
    values.update({name: carried[name] for name in UNOBSERVED})
    return m.State(location=m.location_index[step], **values)


def _role(v: View, ident: Any) -> int:
    if ident is None:
        return v.table.none
    if ident not in v.number:
        raise ObservationError(f"state.combat: {ident!r} is neither a character nor an item in play")
    return v.number[ident]


def initial_carry(machine: Machine) -> dict[str, Any]:
    n = machine.table.n
    return {"passed": (False,) * n, "combats": 0}


def differences(v: View, predicted: Any, observed: Any, ignore: frozenset[str]) -> list[str]:
    """The variables on which an observed state differs from the model's, as ``name: model -> engine``."""
    compared = _compared(type(predicted), ignore)
    if type(observed) is type(predicted) and compared(predicted) == compared(observed):
        # Equal on every variable compared, masks or none: nearly every step's
        # first path, which ``field_differences`` is a slow way to find alike.
        return []
    return field_differences(v, predicted, observed, ignore)


def field_differences(v: View, predicted: Any, observed: Any, ignore: frozenset[str]) -> list[str]:
    """``differences``, variable by variable."""
    t = v.table
    out = []
    for name in predicted._fields:
        if name in ignore or name in UNOBSERVED:
            continue
        a, b = getattr(predicted, name), getattr(observed, name)
        if name in PER_CHARACTER:
            # A character out of play carries nothing the rules read.
            a = tuple(x if observed.in_play[c] else None for c, x in enumerate(a))
            b = tuple(x if observed.in_play[c] else None for c, x in enumerate(b))
        elif name in ("weapon_exhausted", "struck", "weapon_in_play"):
            a = tuple(x if observed.in_game[i // t.weapons] else None for i, x in enumerate(a))
            b = tuple(x if observed.in_game[i // t.weapons] else None for i, x in enumerate(b))
        elif name in PER_PLAYER:
            # Armor without DEF is no armor (304.2).
            kept = [observed.in_game[p] and (name != "armor_exhausted" or t.armor_def[p]) for p in range(t.n)]
            a = tuple(x if kept[p] else None for p, x in enumerate(a))
            b = tuple(x if kept[p] else None for p, x in enumerate(b))
        if a != b:
            out.append(f"{name}: model {_show(v, name, a)}, engine {_show(v, name, b)}")
    return out


@lru_cache(maxsize=KEPT)
def _compared(state_type: type, ignore: frozenset[str]) -> Any:
    """The variables of a state that ``differences`` compares, read in one call (a tuple)."""
    return itemgetter(*(i for i, name in enumerate(state_type._fields) if name not in ignore and name not in UNOBSERVED))


def _show(v: View, name: str, value: Any) -> str:
    if name == "location":
        return v.machine.location_names[value]
    if name in ("attacker", "defender"):
        return v.table.name(value)
    return str(value)


# -- choices ----------------------------------------------------------------------------------

def is_choice_point(m: Machine, s: Any) -> bool:
    """Does the model wait for a player here?  A window with priority held, the
    protect point while someone can protect, the end step while a discard is due,
    and the end of the game."""
    loc = m.location_of(s)
    if m.is_terminal(s) or loc in ("protect_point", "end_step") and any(
        e.has("protects") or e.has("discards") for e, _ in successors(m, s)
    ):
        return True
    return s.priority_holder < m.table.nobody


def choice_edges(m: Machine, s: Any) -> list[tuple[Edge, Any]]:
    """The enabled edges that are a player's choice at a choice point."""
    out = []
    loc = m.location_of(s)
    for e, post in successors(m, s):
        if loc == "protect_point" or loc == "end_step" or e.actor is not None and not e.has("chance"):
            out.append((e, post))
    return out


def matches(v: View, edge: Edge, action: dict[str, Any], actor: int | None) -> bool:
    """Could this engine action be this model edge?"""
    kind, p = action["kind"], action["player"]
    name = family(edge.name)
    t = v.table
    if kind == "pass":
        return edge.has("passes") and actor == p
    if kind == "play":
        return name.startswith("play_instant" if action["card_kind"] == "instant" else "play_non_instant") and actor == p
    if kind == "resource":
        return name == f"place_resource[{action['card_kind']}]" and actor == p
    if kind == "discard":
        return name == f"discard[{action['card_kind']}]"
    if kind == "propose":
        a, d = v.number.get(action["attacker"]), v.number.get(action["defender"])
        # 601.2b: a proposal is a sabotage exactly when its defender is an item
        # (the model's numbers past the characters); the flag must say so.
        return (a is not None and d is not None and action["sabotage"] == (d >= t.count)
                and edge.name == f"propose_combat[{t.name(a)} -> {t.name(d)}]")
    if kind == "strike":
        i = v.weapon_slot.get(action["weapon"])
        return i is not None and edge.name.removesuffix(IN_BEAR_FORM) == strike_edge_name(t, i)
    if kind == "power":
        c, i = v.number.get(action["source"]), v.weapon_slot.get(action["source"])
        if i is not None:
            owner, w = divmod(i, t.weapons)
            return edge.name.startswith(f"use_power[{t.player_name(owner)} {t.board.parties[owner].weapons[w].name}]@") and actor == p
        return c is not None and edge.name.startswith((f"use_power[{t.name(c)}]@", f"use_power_x[{t.name(c)}]@")) and actor == p
    if kind == "protect":
        if action.get("protector") is None:
            return edge.name == "no_protection"
        c = v.number.get(action["protector"])
        return c is not None and edge.name == f"protect[{t.name(c)}]"
    return False


def strike_edge_name(t: Any, i: int) -> str:
    """The name of the strike edge of weapon slot ``i``."""
    owner, w = divmod(i, t.weapons)
    return f"strike[{t.player_name(owner)} {t.board.parties[owner].weapons[w].name}]"


def roles_of(proposal_edge_name: str) -> tuple[str, str]:
    """The attacker's and defender's names in a proposal edge's name."""
    inside = proposal_edge_name[proposal_edge_name.index("[") + 1 : -1]
    attacker, _, defender = inside.partition(" -> ")
    return attacker, defender


@lru_cache(maxsize=KEPT)
def proposals_and_strikes(m: Machine, location: int) -> tuple[tuple[Edge, int | None, int | None, int | None], ...]:
    """The proposals and strikes out of a location (by its index): each with its
    attacker and defender by number, or with its weapon slot (kept: asked at every step)."""
    t = m.table
    numbered = {t.name(c): c for c in range(t.none)}
    slots = {strike_edge_name(t, p * t.weapons + w): p * t.weapons + w
             for p, party in enumerate(t.board.parties) for w in range(len(party.weapons))}
    out = []
    for e, _ in m.out_index[location]:
        if e.has("proposes"):
            attacker, defender = (numbered[part] for part in roles_of(e.name))
            out.append((e, attacker, defender, None))
        elif e.has("strikes"):
            out.append((e, None, None, slots[e.name.removesuffix(IN_BEAR_FORM)]))
    return tuple(out)


@lru_cache(maxsize=KEPT)
def automatic_paths(m: Machine, start: Any) -> tuple[tuple[tuple[Edge, ...], Any], ...]:
    """Every way the model goes on by itself from ``start`` to its next choice
    point (kept: steering's search and the step's check both follow them)."""
    if is_choice_point(m, start):
        return (((), start),)
    out, queue = [], deque([((), start)])
    while queue:
        path, s = queue.popleft()
        if len(path) > MOST_AUTOMATIC:
            continue
        for e, post in successors(m, s):
            step = (*path, e)
            if is_choice_point(m, post):
                out.append((step, post))
            else:
                queue.append((step, post))
    return tuple(out)


@dataclass
class StepCheck:
    """What one engine step came to against the model."""

    sound: bool
    path: tuple[Edge, ...] = ()
    carried: dict[str, Any] = field(default_factory=dict)
    rules: tuple[str, ...] = ()
    detail: str = ""


def check_step(v: View, pre: Any, action: dict[str, Any], post: Any, stutter_allowed: bool) -> StepCheck:
    """Soundness of one step: a matching enabled choice, then automatic edges, reach ``post``."""
    m = v.machine
    candidates = [(e, s) for e, s in choice_edges(m, pre) if matches(v, e, action, m.actor(e, pre))]
    if stutter_allowed and pre == post:
        return StepCheck(True, (), {n: getattr(pre, n) for n in UNOBSERVED})
    if not candidates:
        rules, names = disabled_like(v, pre, action)
        return StepCheck(False, rules=rules, detail=f"the model allows no such choice here (edges of this kind, all disabled: {names})")
    best: tuple[int, list[str], tuple[Edge, ...]] | None = None
    framed: StepCheck | None = None
    for e, first in candidates:
        ignore = frame(e, pre, m)
        for path, end in automatic_paths(m, first):
            diff = differences(v, end, post, ignore)
            if not diff:
                found = StepCheck(True, (e, *path), {n: getattr(end, n) for n in UNOBSERVED})
                # A path whose own updates explain the step is the reading: a
                # Hamstring on the proposed attacker is the tracked
                # resolve_instant[exhaust proposed attacker], not an untracked
                # resolution whose frame happens to allow the exhaustion.
                if not ignore or not differences(v, end, post, frozenset()):
                    return found
                framed = framed or found
            elif best is None or len(diff) < best[0]:
                best = (len(diff), diff, (e, *path))
    if framed is not None:
        return framed
    assert best is not None
    _, diff, path = best
    rules = tuple(dict.fromkeys(r for e in path for r in e.rules))
    if post.location != pre.location and m.location_of(post) in ("protect_point", "end_step"):
        # The engine waits for a choice where the model went on by itself: the
        # rules of that choice (602.2a's stealth, say) are in question too.
        waiting = m.location_of(post)
        rules += tuple(dict.fromkeys(r for e in m.edges if e.source == waiting and (e.has("protects") or e.has("discards")) for r in e.rules if r not in rules))
    detail = "the engine's successor is not the model's: nearest model path " + " > ".join(e.name for e in path) + "; " + "; ".join(diff)
    return StepCheck(False, path, rules=rules, detail=detail)


def disabled_like(v: View, s: Any, action: dict[str, Any]) -> tuple[tuple[str, ...], str]:
    """The rules and names of the edges out of ``s`` that would stand for ``action`` but are disabled."""
    m = v.machine
    disabled = [e for e in m.edges_leaving(s) if matches(v, e, action, _actor_or_none(m, e, s))]
    return tuple(dict.fromkeys(r for e in disabled for r in e.rules)), ", ".join(e.name for e in disabled) or "none"


def _actor_or_none(m: Machine, e: Edge, s: Any) -> int | None:
    try:
        return m.actor(e, s)
    except (IndexError, TypeError):
        return None


def missing_choices(v: View, s: Any, offered: list[dict[str, Any]], obs: dict[str, Any]) -> list[Edge]:
    """Completeness: choices the model enables at ``s`` that no offered engine action stands for.

    Playing a card is owed only when its controller can pay for the cheapest
    card of that kind in hand: the model leaves costs out (402.1), so the
    harness adds that condition rather than demand a play the rules forbid.
    Sabotage against a player with no item is not owed either (601.2b).
    """
    m, t = v.machine, v.table
    missing = []
    decision = obs.get("decision") or {}
    for e, _ in choice_edges(m, s):
        actor = m.actor(e, s)
        if decision.get("kind") == "protect" and e.has("protects") and actor != decision["player"]:
            # Reading: 602.2 names no order among opponents; an engine may ask
            # them one at a time, and the others' protectors are owed only
            # after this player declines (a step the model does not see).
            continue
        if not any(matches(v, e, a, actor) for a in offered):
            name = family(e.name)
            if name.startswith(("play_instant", "play_non_instant")):
                kind = "instant" if name.startswith("play_instant") else "non_instant"
                pl = obs["players"][actor]
                if min(pl["hand"][kind]) > pl["resources"] - pl["resources_exhausted"]:
                    continue
            if name == "propose_combat" and any(e.name.endswith(f"-> {t.name(t.count + p)}]") for p in v.missing_object):
                continue
            missing.append(e)
    return missing

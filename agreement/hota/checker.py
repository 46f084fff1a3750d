"""The Heroes of Ancients side of the agreement harness: an engine game's
snapshots checked step by step against the model of the same table.

The model's table (the entities and who controls them, the deck size) is read
off the game's first snapshot, and the model is built for it with every
mulligan count the engine allows. Chance steps (the shuffle, who goes first)
are choices here as in the engine; a concession is an action of any player
still in the game, at every point where the engine waits. After an action
the engine has made every automatic step (the draw, the priority check,
mandatory triggers, the council's end), so the model follows its automatic
edges to the next choice point and must arrive at the engine's state.

The observation format is ``HotaState.snapshot()`` of the reference engine
(``engine/hota``); an action is ``{"kind", "player", "source", "target",
"target_card", "count", "card", "choice"}`` as the engine's ``Action``. A
game that plays cards from hand adds ``named_cards`` to each observation
(every library and hand by name, the attribute points, the council's chosen
cards by name and who convened it) and ``card_name`` to a council choice:
the model of its table counts the playable cards by name
(``model/hota/plays.py``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from agreement.findings import Finding
from agreement.table_checker import TableChecker
from model.hota import build, plays
from model.hota.game import (
    CHANCE, CONCEDES, NO_TRIGGER, NOBODY, NOT_YET, OUTCOME, PLAYER_NAMES, REFUSE, ACCEPT, slug, variables,
)
from model.hota.table import ATTRIBUTES, MAX_PLAYERS, OPENING_HAND, PLAYERS, STARTING_LIFE, Table
from model.hota.table import table_of as table_of_model
from model.machine import Edge, Machine

STEPS = ("shuffle", "first_player", "mulligan", "priority", "council", "optional_trigger", "game_over")
LOCATIONS = {"optional_trigger": "triggers"}
KINDS = ("shuffle", "first_player", "mulligan", "pass", "activate", "play", "choose", "answer", "optional", "concede")
STATE_FIELDS = ("step", "players", "first_player", "active", "first_turn", "priority", "passes", "library", "hand",
                "damage", "drew_from_empty", "status", "mulligan_declared", "mulligan_done", "tokens",
                "tokens_elsewhere", "entities", "waiting_triggers", "council")
#: The engine's chance player.
CHANCE_PLAYER = -1
OWNED = re.compile(r"^P([1-9])'s (.+)$")


def check_state(obs: Any) -> None:
    """A well-formed snapshot, or ValueError saying what is wrong."""
    if not isinstance(obs, dict):
        raise ValueError(f"expected a mapping, got {type(obs).__name__}")
    missing = [f for f in STATE_FIELDS if f not in obs]
    if missing:
        raise ValueError(f"missing {', '.join(missing)}")
    if obs["step"] not in STEPS:
        raise ValueError(f"step {obs['step']!r} is not one of {', '.join(STEPS)}")
    if not PLAYERS <= obs["players"] <= MAX_PLAYERS:
        raise ValueError(f"the model seats {PLAYERS} to {MAX_PLAYERS} players; this game has {obs['players']}")
    bad = [s for s in obs["status"] if s not in ("playing", "won", "lost", "drew")]
    if bad:
        raise ValueError(f"status {bad[0]!r} is not playing, won, lost or drew")


def table_of(obs: dict[str, Any]) -> Table:
    """The model's table for the game whose first snapshot this is: with
    ``named_cards``, each deck's playable cards by name."""
    named = obs.get("named_cards")
    decks = () if named is None else tuple(
        {n: library.count(n) for n in named["playable"] if n in library} for library in named["library"])
    return table_of_model([(e["card"], e["controller"]) for e in obs["entities"]], tuple(obs["library"]),
                          obs["players"], decks)


@lru_cache(maxsize=32)
def machine_for(table: Table) -> Machine:
    # Every count the engine lets a player declare (103.4).
    return build(table=table, mulligan=OPENING_HAND)


_ANSWERS = {None: NOT_YET, "refuse": REFUSE, "accept": ACCEPT}
_PICKED = {None: NOT_YET, False: 0, True: 1}


def model_state(m: Machine, obs: dict[str, Any]) -> Any:
    """The model state a snapshot at a choice point stands for."""
    step = obs["step"]
    status = obs["status"]
    council = obs["council"] or {}
    waiting = NO_TRIGGER
    if step == "optional_trigger":
        # The trigger being asked about is the first that waits.
        waiting = m.table.echo_waits + obs["waiting_triggers"][0]["token_controller"]
    # The entities still on the battlefield, by owner and card: those of a
    # player who left are gone (assumed:leaver-objects), marks and all.
    present = {(e["owner"], e["card"]): e for e in obs["entities"]}
    marks = [present.get((x.owner, x.card), {"used": False, "silenced": False, "controller": x.owner})
             for x in m.table.entities]
    n = obs["players"]
    fields: dict[str, Any] = {
        "location": m.location_index[LOCATIONS.get(step, step)],
        "first": obs["first_player"],
        "active": obs["active"],
        "first_turn": bool(obs["first_turn"]),
        # The model keeps, between priority steps, who receives priority next:
        # the active player once the first turn has begun.
        "priority": obs["priority"] if step == "priority" else (obs["active"] if obs["active"] != NOBODY else NOBODY),
        "passes": obs["passes"] if step == "priority" else 0,
        "library": tuple(obs["library"]),
        "hand": tuple(obs["hand"]),
        "damage": tuple(min(d, STARTING_LIFE) for d in obs["damage"]),  # abstracted:damage-at-starting-life
        "drew_from_empty": tuple(bool(x) for x in obs["drew_from_empty"]),
        "won": tuple(s == "won" for s in status),
        "lost": tuple(s == "lost" for s in status),
        "drew": tuple(s == "drew" for s in status),
        "declared": tuple(obs["mulligan_declared"]),
        "mulligan_done": bool(obs["mulligan_done"]),
        "tokens": tuple(obs["tokens"]),
        "tokens_elsewhere": tuple(obs["tokens_elsewhere"]),
        "waiting": waiting,
        "used": tuple(bool(e["used"]) for e in marks),
        "silenced": tuple(bool(e["silenced"]) for e in marks),
        "chooser": council.get("chooser", NOBODY) if council else NOBODY,
        "picked": tuple(_PICKED[x] for x in council["picked"]) if council else (NOT_YET,) * n,
        "answer": tuple(_ANSWERS[x] for x in council["answers"]) if council else (NOT_YET,) * n,
        "rechoosing": bool(council.get("rechoosing", False)) if council else False,
    }
    if m.table.control_moves:
        fields["controller"] = tuple(e["controller"] for e in marks)
    if m.table.takes_tokens:
        fields["tokens_taken"] = tuple(k for row in obs["tokens_taken"] for k in row)
    if m.table.names:
        fields.update(_named(m.table, obs["named_cards"]))
    if step == "game_over":
        # An ended game keeps its outcome and what decided it (model/hota/game.py).
        for v in variables(m.table):
            if v.name not in OUTCOME:
                fields[v.name] = v.start if v.start is not None else (
                    (v.initial[0],) * v.length if v.length is not None else v.initial[0])
    return m.State(**fields)


def _named(t: Table, named: dict[str, Any]) -> dict[str, Any]:
    """The model's counts by name (``model/hota/plays.py``) off ``named_cards``."""
    out: dict[str, Any] = {}
    for name in t.names:
        out[plays.library_var(name)] = tuple(x.count(name) for x in named["library"])
        out[plays.hand_var(name)] = tuple(x.count(name) for x in named["hand"])
    for a in ATTRIBUTES:
        out[plays.points_var(a)] = tuple(x[a] for x in named["points"])
    out["chosen"] = tuple(t.names.index(c) if c in t.names else NOBODY for c in named["chosen"])
    if t.council_convened_by_play and t.players > PLAYERS:
        out["convener"] = named["convener"]
    return out


def edge_names(m: Machine, s: Any, choice: dict[str, Any]) -> tuple[str, ...]:
    """The model edges an observed action may stand for, as many as the model
    splits it into (a pass that ends the turn or not; an effect that ends the
    game or is stopped)."""
    kind, p = choice["kind"], choice["player"]
    if kind == "shuffle":
        return ("shuffle_decks",)
    if kind == "first_player":
        return (f"{PLAYER_NAMES[choice['target']].lower()}_goes_first",)
    if kind == "mulligan":
        return (f"declare_mulligan_{choice['count']}",)
    if kind == "pass":
        return ("pass_priority", "pass_ends_turn")
    if kind == "choose":
        name = choice.get("card_name")
        return (f"council_chooses_a_card@{plays.slug(name)}",) if name in m.table.names else ("council_chooses_a_card",)
    if kind == "play":
        given = choice.get("target_card")
        return (plays.play_name(p, str(choice["source"]), choice.get("choice"), given,
                                choice.get("target") if given is not None else None),)
    if kind == "answer":
        return ("council_accepts",) if choice["choice"] == "accept" else ("council_refuses",)
    if kind == "optional":
        return ("whispering_echo_creates",) if choice["choice"] == "create" else ("whispering_echo_declines",)
    if kind == "concede":
        # Ending the game or not, and at a larger table what goes on after it.
        return _concessions(m, f"{PLAYER_NAMES[p].lower()}_concedes_at_{m.location_of(s)}")
    # activate: an entity another player owns is named by its owner, as the engine names it
    base = f"{PLAYER_NAMES[p].lower()}_{slug(choice['source'])}"
    target, card = choice.get("target"), choice.get("target_card")
    if target is not None and card is None:
        base += f"_on_{PLAYER_NAMES[target].lower()}"
    elif _spirit(card):
        # A Spirit by its controller and, once another took it, its owner (109.5e);
        # Rewind Portal's own Spirit is its edge alone.
        owner = _owned(card, target)[0]
        if owner != target:
            base += f"_on_{PLAYER_NAMES[target].lower()}s_{PLAYER_NAMES[owner].lower()}s_spirit"
        elif _owned(choice["source"], p)[1] != "Rewind Portal":
            base += f"_on_{PLAYER_NAMES[target].lower()}s_spirit"
    elif card is not None:
        owner, name = _owned(card, target)
        base += f"_on_{PLAYER_NAMES[owner].lower()}s_{slug(name)}"
    return (base, f"{base}_stopped")


def _taken_by(m: Machine, s: Any, e: Edge, names: tuple[str, ...], player: int) -> bool:
    """Edge ``e`` is one of ``names`` and ``player``'s to take (chance's, for the engine's chance player)."""
    actor = m.actor(e, s)
    # A play that draws is one edge per way its card can come (model/hota/plays.py).
    return e.name.split("@draws_")[0] in names and (actor == player or (actor is None and player == CHANCE_PLAYER))


@lru_cache(maxsize=256)
def _concessions(m: Machine, base: str) -> tuple[str, ...]:
    """A concession's edges at one location: ending the game, or each way play goes on."""
    return (base, *(e.name for e in m.edges if e.name.startswith(base + "_")))


def _spirit(ref: Any) -> bool:
    """A Spirit token as actions name it: "Spirit", or "P2's Spirit" while another controls it."""
    return ref == "Spirit" or (isinstance(ref, str) and _owned(ref, 0)[1] == "Spirit")


def _owned(ref: str, controller: int) -> tuple[int, str]:
    """The owner and card of an entity as actions name it: "P2's Ember Bolt",
    or its card alone while its controller owns it."""
    found = OWNED.match(ref)
    return (int(found.group(1)) - 1, found.group(2)) if found else (controller, ref)


def family(name: str) -> str:
    """Edges of one kind whatever their seat, target or location: an
    activation is its card's (``ember_bolt``), a concession ``concedes_at``."""
    name = name.split("@", 1)[0]  # a named card drawn or chosen (model/hota/plays.py)
    for part in ("_concedes_at_", "_goes_first", "declare_mulligan_"):
        if part in name:
            return part.strip("_")
    name = name.removesuffix("_stopped")
    for part in ("_choosing_", "_giving_"):
        name = name.split(part, 1)[0]
    if name[:1] == "p" and name[1:2].isdigit() and name[2:3] == "_":
        # An entity another player owns is named by its owner ("p1_p2_s_ember_bolt").
        return re.sub(r"^p[0-9]_s_", "", name[3:].split("_on_", 1)[0])
    return name


@lru_cache(maxsize=32)
def families_of(m: Machine) -> frozenset[str]:
    """The edge families of ``m``: those a game at its table may take."""
    return frozenset(family(e.name) for e in m.edges)


class HotaChecker(TableChecker):
    game = "hota"
    #: The model seats as many as the engine: two to four.
    players = tuple(range(PLAYERS, MAX_PLAYERS + 1))
    spread = True
    check_state = staticmethod(check_state)
    kinds = KINDS

    def machine_for(self, first: dict[str, Any]) -> Machine:
        return machine_for(table_of(first))

    def model_state(self, m: Machine, obs: dict[str, Any]) -> Any:
        return model_state(m, obs)

    def is_choice(self, e: Edge) -> bool:
        # The engine waits at chance steps as at a player's decision.
        return e.actor is not None or e.has(CHANCE)

    def stops_at(self, e: Edge) -> bool:
        # A concession is open everywhere, even where the game acts by itself.
        return self.is_choice(e) and not e.has(CONCEDES)

    def action_name(self, m: Machine, s: Any, choice: dict[str, Any]) -> str:
        return edge_names(m, s, choice)[0]

    #: The engine's state after the action being checked, on a table with named cards.
    _goal: Any = None

    def step(self, pre: dict[str, Any], choice: dict[str, Any], post: dict[str, Any],
             offered: list[dict[str, Any]] | None) -> list[Finding]:
        m = self._m()
        self._goal = self.model_state(m, post) if m.table.names else None
        try:
            return super().step(pre, choice, post, offered)
        finally:
            self._goal = None

    def automatic_ends(self, m: Machine, s: Any, limit: int = 200) -> list[tuple[list[Edge], Any]]:
        """As for every game; on a table with named cards, each draw is an
        edge per way its cards can fall (``model/hota/plays.py``), too many
        to search them all: a way that leaves fewer copies of a named card in
        a library than the engine's has left the engine's path for good (only
        a pending mulligan puts cards back), so the search leaves it."""
        if self._goal is None:
            return super().automatic_ends(m, s, limit)
        goal = self._goal
        names = [plays.library_var(n) for n in m.table.names]
        mulligan = m.location_index["mulligan"]

        def strayed(x: Any) -> bool:
            return any(getattr(x, v)[p] < getattr(goal, v)[p] and not (x.location == mulligan and x.declared[p] > 0)
                       for v in names for p in range(m.table.players))

        if strayed(s):
            return [([], s)]
        return super().automatic_ends(m, s, limit, leaves=strayed) or [([], s)]

    def stands_for(self, m: Machine, s: Any, e: Edge, choice: dict[str, Any]) -> bool:
        return _taken_by(m, s, e, edge_names(m, s, choice), choice["player"])

    def family(self, name: str) -> str:
        return family(name)

    @staticmethod
    def reference_machine() -> Machine:
        return build()

    def steer(self, pre: dict[str, Any], offered: list[dict[str, Any]], targets: frozenset[str],
              budget: int = 300) -> list[int]:
        """Steering toward only the target families this table's model has an
        edge of: a family whose card is not on the table (the council's, where
        nobody has Council of Elders) can never be reached, and searching for
        it would cost the whole budget at every step."""
        m = self._m()
        within = targets & families_of(m)
        return super().steer(pre, offered, within, budget) if within else []

    @staticmethod
    def waits_for_choice(obs: dict[str, Any]) -> bool:
        return obs["step"] in STEPS

    def forbidden_choices(self, pre: dict[str, Any]) -> list[tuple[tuple[str, ...], dict[str, Any]]]:
        """Activations the model forbids to the player with priority (used this
        turn, silenced, no target), as observed actions with their edge's rules:
        the engine must refuse each."""
        if pre["step"] != "priority":
            return []
        m = self._m()
        s = model_state(m, pre)
        enabled = [e for e, _ in self.choice_edges(m, s)]
        holder = pre["priority"]
        out = []
        for e in m.edges_leaving(s):
            if e in enabled or not e.name.startswith(f"{PLAYER_NAMES[holder].lower()}_") or e.has(CONCEDES):
                continue
            observed = _activation(m, s, e, holder)
            if observed is None:
                continue
            # An action the model splits (an effect that ends the game or is
            # stopped) is forbidden only when no edge of it is enabled.
            names = edge_names(m, s, observed)
            if not any(_taken_by(m, s, x, names, holder) for x in enabled):
                out.append((e.rules, observed))
        return out


def _activation(m: Machine, s: Any, e: Edge, player: int) -> dict[str, Any] | None:
    """The observed activation a model edge stands for, or None for an edge of another kind."""
    t: Table = m.table
    controllers = s.controller if t.control_moves else tuple(x.owner for x in t.entities)

    def ref(i: int) -> str:
        # As the engine names an entity: by its owner while another controls it.
        x = t.entities[i]
        return x.card if controllers[i] == x.owner else f"{PLAYER_NAMES[x.owner]}'s {x.card}"

    def named(owner: int, card: str) -> str:
        return card if owner == player else f"{PLAYER_NAMES[owner]}'s {card}"

    for x in t.entities:
        base = f"{PLAYER_NAMES[player].lower()}_{slug(named(x.owner, x.card))}"
        name = e.name.removesuffix("_stopped")
        if name != base and not name.startswith(base + "_on_"):
            continue
        action = {"kind": "activate", "player": player, "source": named(x.owner, x.card), "target": None,
                  "target_card": None}
        rest = name[len(base):].removeprefix("_on_")
        if not rest:
            if x.card == "Rewind Portal":
                action.update(target=player, target_card="Spirit")
            return action
        seat = PLAYER_NAMES.index(rest[:2].upper())
        if rest == f"p{seat + 1}s_spirit":
            action.update(target=seat, target_card="Spirit")
        elif rest.endswith("s_spirit") and len(rest) == len("p1s_p2s_spirit"):
            action.update(target=seat, target_card=f"{rest[4:6].upper()}'s Spirit")
        elif len(rest) > 2:
            i = next(i for i, y in enumerate(t.entities) if y.owner == seat and rest == f"p{seat + 1}s_{slug(y.card)}")
            action.update(target=controllers[i], target_card=ref(i))
        else:
            action.update(target=seat)
        return action
    return None

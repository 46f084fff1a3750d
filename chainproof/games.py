"""The games chainproof knows, each as its model builder, bounds, properties and registry."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence

from model.machine import BoundError, BoundSpec, Machine, resolve_bounds
from model.registry import Registry
from model.sources import GAME_SOURCES, SourceError
from model.variants import Variant
from properties import Property, validate


class BadInput(ValueError):
    """A game, property or bound the user asked for does not exist or is out of range."""


@dataclass(frozen=True)
class NearbyBoard:
    """The default board or table with one change, as the game's builder takes it."""

    key: str  # stable, for finding keys: "P1-guard+elusive"
    label: str  # what changed, in the rulebook's words: "P1's guard gains elusive"
    #: The builder's keyword: {"board": ...} or {"table": ...}, with any bound
    #: the board is built at instead of the caller's ({"players": 4}: WoW's team table).
    extra: Mapping[str, Any]


@dataclass(frozen=True)
class NearbyBounds:
    """The default bounds with a few changed, for a clash that play reaches only a little further."""

    key: str  # stable, for finding keys: "spells2-turns1"
    label: str  # what changed, in words: "two showdown spells each, over one turn"
    bounds: Mapping[str, int]  # the bounds that change


@dataclass(frozen=True)
class Game:
    name: str
    title: str
    bounds: tuple[BoundSpec, ...]
    build: Callable[..., Machine]
    properties: tuple[Property, ...]
    registry: Registry
    #: Named readings of the rules other than the seed's (``model/variants.py``).
    variants: Mapping[str, Variant] = field(default_factory=dict)
    #: The bounds that only limit how long a game is explored; the any-length
    #: model (for unbounded proofs) has none of them.
    length_bounds: tuple[str, ...] = ()
    #: Properties of the catalogue that the proofs of lint's queries rest on
    #: (deadlock freedom needs the playable-state invariants as lemmas).
    lemmas: tuple[Property, ...] = ()
    #: Contradiction queries over a rule alone (``properties.contradictions.RuleQuery``),
    #: given a solver timeout in milliseconds; lint asks them besides the model's.
    rule_queries: Callable[[int], list[Any]] | None = None
    #: How many states the portfolio's exhaustive search of the any-length
    #: model may visit: enough for a finite model to be searched whole
    #: (Riftbound's has about 49,000 at default bounds), not so many that a
    #: model too large to finish wastes seconds on every run (WoW's).
    exhaustive_states: int = 20_000
    #: Boards (or tables) one change from the default, given the resolved
    #: bounds: where the default board alone keeps a ruling from applying,
    #: lint compares the texts on these (``linting.wake_dead_rulings``).
    nearby_boards: Callable[[Mapping[str, int]], Sequence[NearbyBoard]] | None = None
    #: Given the resolved bounds, the build options of a board holding every
    #: piece the model has but the default board lacks (WoW: gear in hand,
    #: spells), whose rules ``cited_rules`` counts as cited.
    option_board: Callable[[Mapping[str, int]], Mapping[str, Any]] | None = None
    #: Bounds a little past the default, given the resolved bounds: where the
    #: texts' rulings could clash on the default board but no game within its
    #: bounds gets there, lint searches these once (``linting.wake_quiet_clashes``).
    nearby_bounds: Callable[[Mapping[str, int]], Sequence[NearbyBounds]] | None = None
    #: The bounds ``chainproof verify`` checks where neither the user nor the
    #: variant sets them, over the search defaults (``bounds``).  They are
    #: larger because verify searches each bounded instance once, while lint,
    #: diff, graph, export and the scenarios build at the search defaults and
    #: lint searches dozens of readings there.  They are sized so that
    #: verify's default run, all three games, ends within about a minute on
    #: two cores (the README's verify section gives the measured time).
    verify_bounds: Mapping[str, int] = field(default_factory=dict)

    def budget(self, budget: Any) -> Any:
        """The portfolio budget for this game: ``budget`` with its own exhaustive-search cap."""
        return replace(budget, any_length_states=self.exhaustive_states)

    def variant(self, name: str) -> Variant:
        if name not in self.variants:
            known = ", ".join(self.variants) or "none"
            raise BadInput(f"{self.name}: unknown variant {name!r}; variants: {known}")
        return self.variants[name]

    def resolve(self, given: Mapping[str, int | None], variant: str | None = None) -> dict[str, int]:
        """The bounds to build with: those given that this game has, then the
        variant's, then the defaults (``bounds_apply`` refuses a bound no chosen game has)."""
        wanted = dict(self.variant(variant).bounds) if variant is not None else {}
        own = {spec.name for spec in self.bounds}
        wanted.update({k: v for k, v in given.items() if v is not None and k in own})
        try:
            return resolve_bounds(self.bounds, wanted)
        except BoundError as exc:
            raise BadInput(f"{self.name}: {exc}") from None

    def verify_given(self, given: Mapping[str, int | None], variant: str | None = None) -> dict[str, int | None]:
        """The bounds ``verify`` builds with, as ``given`` for ``machine``: the
        user's, else the variant's, else ``verify_bounds``, else the search defaults."""
        held = set(self.variant(variant).bounds) if variant is not None else set()
        chosen = {k: v for k, v in given.items() if v is not None}
        return {**{k: v for k, v in self.verify_bounds.items() if k not in held}, **chosen}

    def machine(
        self, given: Mapping[str, int | None], variant: str | None = None, reading: str | None = None, **extra: Any
    ) -> Machine:
        """The bounded model, under a variant or a source reading (``SOURCE`` or
        ``SOURCE@question,...``) if named; ``extra`` goes to the builder (a
        ``board``), save the bounds it names, which replace those given."""
        own = {spec.name for spec in self.bounds}
        given = {**given, **{k: v for k, v in extra.items() if k in own}}
        extra = {k: v for k, v in extra.items() if k not in own}
        bounds = self.resolve(given, variant)
        chosen = {**({} if variant is None else {"variant": variant}), **({} if reading is None else {"reading": reading})}
        try:
            machine = self.build(**bounds, **chosen, **extra)
        except SourceError as exc:
            raise BadInput(f"{self.name}: {exc}") from None
        validate(machine, self.properties)
        return machine

    @property
    def proves_any_length(self) -> bool:
        return bool(self.length_bounds)

    def any_length_machine(self, given: Mapping[str, int | None], variant: str | None = None, reading: str | None = None) -> Machine:
        """The model of games of any length at the given bounds (those in
        ``length_bounds`` bound nothing there)."""
        bounds = {k: v for k, v in self.resolve(given, variant).items() if k not in self.length_bounds}
        chosen = {**({} if variant is None else {"variant": variant}), **({} if reading is None else {"reading": reading})}
        machine = self.build(**bounds, any_length=True, **chosen)
        validate(machine, self.properties)
        return machine

    def cited_rules(self) -> set[str]:
        """Every rule that the default model, the any-length model or a property
        cites, with the default model on each board a variant brings (the
        seed's reading of a keyword no default party has), on the game's
        board of every option, and at a table of one more player, with the
        default board and with the board of every option (rules of a game that
        goes on after a player leaves)."""
        machines = [self.machine({})] + ([self.any_length_machine({})] if self.proves_any_length else [])
        if self.option_board is not None:
            machines.append(self.machine({}, **self.option_board(self.resolve({}))))
        seats = next((b for b in self.bounds if b.name == "players"), None)
        if seats is not None and seats.default < seats.hi:
            more = {"players": seats.default + 1}
            machines.append(self.machine(more))
            # A game that goes on after a player leaves with pieces of the
            # option board (WoW: a card under another player's control goes
            # back to its owner, 401.3b) exists only at that table.
            if self.option_board is not None:
                machines.append(self.machine(more, **self.option_board(self.resolve(more))))
        for v in self.variants.values():
            if v.board is not None:
                machines.append(self.machine({}, board=v.board(self.resolve({}))))
        return set().union(*(m.cited_rules() for m in machines)) | {
            r for p in self.properties for r in p.rules
        }


def _wowtcg() -> Game:
    from model import wowtcg
    from model.wowtcg import teams
    from model.wowtcg.board import every_option_board, nearby_boards
    from properties.wowtcg import CATALOGUE, PLAYABLE_PROPERTIES

    return Game(
        "wowtcg",
        "World of Warcraft TCG: turn, priority, the chain and combat",
        wowtcg.BOUNDS,
        wowtcg.build,
        CATALOGUE,
        wowtcg.REGISTRY,
        wowtcg.VARIANTS,
        length_bounds=("turns", "deck", "combats"),
        lemmas=PLAYABLE_PROPERTIES,
        # The team table last: it sits four players, the most costly to search.
        nearby_boards=lambda b: [NearbyBoard(k, label, {"board": board}) for k, label, board in nearby_boards(b["players"], b["allies"])]
        + [NearbyBoard(*teams.nearby(b["allies"]))],
        option_board=lambda b: {"board": every_option_board(b["players"], b["allies"])},
        # Who may protect (602.2, the basic rules' multiplayer section) tells
        # the texts apart only where a third player can protect; over one
        # turn that table has about 18,000 states.
        nearby_bounds=lambda b: [
            NearbyBounds("players3-turns1", "a third player at the table, over one turn", {"players": 3, "turns": 1})
        ] if b["players"] == 2 else [],
        # A card of each kind in every opening hand: 40,631,412 states over
        # two turns.  A third turn at hand 1 was still growing past 60 million
        # states at its 59th level (a third turn multiplies hand 0's states
        # by nine), past verify's memory guard; the any-length proofs cover
        # every turn for the properties they prove.
        verify_bounds={"hand": 1},
    )


def _riftbound() -> Game:
    from model import riftbound
    from model.riftbound.table import nearby_tables
    from properties.riftbound import CATALOGUE, PLAYABLE_PROPERTIES, damage_assignment_queries

    return Game(
        "riftbound",
        "Riftbound: pending combats, the showdown, damage assignment and conquest",
        riftbound.BOUNDS,
        riftbound.build,
        CATALOGUE,
        riftbound.REGISTRY,
        length_bounds=("turns",),
        lemmas=PLAYABLE_PROPERTIES,
        rule_queries=damage_assignment_queries,
        exhaustive_states=60_000,
        nearby_boards=lambda b: [
            NearbyBoard(key, label, {"table": table})
            for key, label, table in nearby_tables(b["players"], b["battlefields"], b["spells"], b["victory_points"])
        ],
        # Three turns: 43,084 states against 18,105 at two.
        verify_bounds={"turns": 3},
        # A second showdown spell lets units of both players stand on an open
        # battlefield when a combat's cleanup comes (R8); one turn and a game
        # won at the first point keep the search near six times the default's
        # (about 110,000 states).
        nearby_bounds=lambda b: [
            NearbyBounds(f"spells{b['spells'] + 1}-turns1-points1",
                         f"{b['spells'] + 1} showdown spells each, over one turn, won at 1 point",
                         {"spells": b["spells"] + 1, "turns": 1, "victory_points": 1})
        ],
    )


def _hota() -> Game:
    from model import hota
    from model.hota.table import every_play_table, nearby_tables
    from checkers.hota_loops import loop_queries
    from properties.hota import CATALOGUE, PLAYABLE_PROPERTIES

    return Game(
        "hota",
        "Heroes of Ancients: starting and ending the game, the golden rules, choices, tokens and loops",
        hota.BOUNDS,
        hota.build,
        CATALOGUE,
        hota.REGISTRY,
        # Every game is finite (each turn draws from a finite library), but
        # the deck sets how long: the any-length model counts libraries,
        # hands and tokens up to caps (abstracted:library-cap, hand-cap,
        # token-cap) and so covers every deck size.
        length_bounds=("deck",),
        lemmas=PLAYABLE_PROPERTIES,
        rule_queries=loop_queries,
        # The any-length model of the default table has about 1,007,000
        # states, which vectorized search explores whole in seconds: it
        # settles every safety property, and lint asks of it whether every
        # game can still end (``linting.unending``).
        exhaustive_states=1_200_000,
        nearby_boards=lambda b: [NearbyBoard(k, label, {"table": table}) for k, label, table in nearby_tables(b["deck"], b["players"])],
        # The plays from hand are edges only where a deck holds playable cards.
        option_board=lambda b: {"table": every_play_table(b["deck"], b["players"])},
    )


_LOADERS: dict[str, Callable[[], Game]] = {"wowtcg": _wowtcg, "riftbound": _riftbound, "hota": _hota}
GAME_NAMES = tuple(_LOADERS)


def bounds_apply(games: Sequence[Game], given: Mapping[str, int | None]) -> None:
    """Refuse a bound that none of the chosen games has (each game takes only its own)."""
    for name, value in given.items():
        if value is None or any(name in {spec.name for spec in g.bounds} for g in games):
            continue
        owners = [n for n in GAME_NAMES if name in {spec.name for spec in get_game(n).bounds}]
        flag = "--" + name.replace("_", "-")
        raise BadInput(
            f"{flag} is a bound of {', '.join(owners) or 'no game'}, not of {', '.join(g.name for g in games)}"
        )


def games_with_variant(names: Sequence[str], variant: str | None) -> tuple[str, ...]:
    """The games to check: those named; else, with a variant, the games that
    define it; else every game."""
    if names or variant is None:
        return tuple(names)
    owners = tuple(n for n in GAME_NAMES if variant in get_game(n).variants)
    if not owners:
        known = ", ".join(v for n in GAME_NAMES for v in get_game(n).variants)
        raise BadInput(f"no game has the variant {variant!r}; variants: {known}")
    return owners


def games_with_reading(names: Sequence[str], reading: str | None) -> tuple[str, ...]:
    """The games to check: those named; else, with a source reading, the games whose rules that source states."""
    if names or reading is None:
        return tuple(names)
    source = reading.partition("@")[0]
    owners = tuple(n for n in GAME_NAMES if source in GAME_SOURCES[n])
    if not owners:
        known = ", ".join(f"{n}: {' '.join(GAME_SOURCES[n])}" for n in GAME_NAMES)
        raise BadInput(f"no game has the source {source!r}; sources: {known}")
    return owners


def get_game(name: str) -> Game:
    loader = _LOADERS.get(name)
    if loader is None:
        raise BadInput(f"unknown game {name!r}; known games: {', '.join(GAME_NAMES)}")
    return loader()

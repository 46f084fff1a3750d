"""Heroes of Ancients scenarios: the adapter between scenario files and the
reference engine (`engine/hota`). The shared runner (`scenarios/runner.py`)
reads the file, checks the common fields and walks the script; this module
checks the HotA parts, starts a real game, matches each scripted action to
the engine's legal actions by its label, and reads the expectations off the
engine's `snapshot()`.

    situation:
      players: 2                            # 2 (default) to 4; P1 is seat 0
      table:                                # entities on the battlefield, per seat
        P1: [Council of Elders]
        P2: [Aegis of Immortality, Ember Bolt]
      decks: 7                              # every seat: that many copies of the filler deck card
      seed: 0                               # the engine's random seed
    script:
      - shuffle decks                       # 103.1, a chance action
      - P1 goes first                       # 103.2, a chance action
      - everyone keeps                      # each player declares mulligan 0, in order
      - P1 passes
      - P2 activates Ember Bolt targeting P1    # a label, as state.action_label reads it
      - P1 activates Council of Elders
      - {illegal: P1 accepts, rule: "101.4c"}   # the card is chosen first
      - P1 chooses a card face down
      - P2 concedes                         # state.concede, allowed at any time
    expect:
      status: {P1: won, P2: lost}

The game is always played from its start: there is no mid-game set-up, so
every ruling is reached by legal play. See scenarios/hota/README.md for the
expectations.
"""

from __future__ import annotations

import fnmatch
import math
import re
from pathlib import Path
from typing import Any

import yaml

from agreement.hota.follow import ModelFollower
from engine.hota import (
    CHANCE as CHANCE_ID, FORMATS, Action, DeckError, EngineSetupError, HotaGame, IllegalAction, deck_problems, load_pool,
)
from scenarios.runner import (
    EVERYONE_PASSES, Checker, GameAdapter, Map, Mismatch, RulingFailed, Scenario, ScenarioFileError, Seq, Session,
    CONCEDES, check_illegal_rules, concede, illegal_rules, kind_of, legal_mismatches, model_disagrees, show_rules,
)

RULES_FILE = Path(__file__).resolve().parents[2] / "model" / "hota" / "rules.yaml"
SITUATION_FIELDS = ("players", "table", "decks", "seed", "format")
STEPS = ("shuffle", "first_player", "mulligan", "priority", "council", "optional_trigger", "game_over")
STATUSES = ("playing", "won", "lost", "drew")
ANSWERS = ("accept", "refuse")
PER_SEAT_COUNTS = ("library", "hand", "damage", "tokens", "tokens_elsewhere", "mulligan_declared")
SEATS = ("first_player", "active", "priority")  # a player, or `nobody` (-1)
ENTITY_FIELDS = ("used", "silenced", "controller", "owner", "attributes")
STACK_FIELDS = ("card", "kind", "owner", "controller")
STACK_KINDS = ("played card", "ability")
#: An object's expected state (108.1): where it is, who owns and controls it, its attributes and requirements.
OBJECT_FIELDS = ("zone", "controller", "attributes", "requires", "count")
ZONES = ("library", "hand", "stack", "battlefield", "discard", "exile")
DECK_FIELDS = ("format", "cards")
ATTRIBUTE_NAMES = ("strength", "agility", "intelligence")
TRIGGER_FIELDS = ("card", "controller", "token_controller")
COUNCIL_FIELDS = ("chooser", "picked", "answers", "rechoosing")
EXPECT_FIELDS = ("step", "current_player", "first_player", "active", "first_turn", "priority", "passes", "library",
                 "hand", "damage", "drew_from_empty", "status", "mulligan_declared", "mulligan_done", "tokens",
                 "tokens_elsewhere", "attributes", "entities", "waiting_triggers", "council", "terminal", "returns", "chance",
                 "observation", "legal", "not_legal", "legal_exactly", "illegal", "events", "no_events", "stack",
                 "cards", "deck_legality", "setup")
PLAYER = re.compile(r"^P([1-9])$")
OWNED = re.compile(r"^P([1-9])'s (.+)$")
SHUFFLE = "shuffle decks"
EVERYONE_KEEPS = "everyone keeps"
NOBODY, CHANCE, TERMINAL = "nobody", "chance", "terminal"
GONE = "gone"  # an entity no longer on the battlefield (its controller left, 104.5)
FILLER = "Wandering Courier"  # the deck card a deck given by its size is made of

_RULES: set[str] | None = None
_POOL = None


def rule_ids() -> set[str]:
    global _RULES
    if _RULES is None:
        _RULES = {str(r["id"]) for r in yaml.safe_load(RULES_FILE.read_text(encoding="utf-8"))["rules"]}
    return _RULES


def pool():
    global _POOL
    if _POOL is None:
        _POOL = load_pool()
    return _POOL


def card_names(kind: str) -> list[str]:
    return sorted(c.name for c in pool().values() if c.kind == kind)


def _nobody(v: Any) -> bool:
    return v is None or v == NOBODY


class HotaAdapter(GameAdapter):
    name = "hota"

    def check_rule_number(self, c: Checker, rule: str, line: int) -> None:
        if rule not in rule_ids():
            raise c.error(line, f"unknown rule id {rule!r}: not in {RULES_FILE.name} "
                                "(write the seed's numbers as text, '104.3b', or an assumed id, 'assumed:priority')")

    # situation -------------------------------------------------------------------------

    def check_situation(self, c: Checker, s: Map) -> None:
        c.fields(s, s.line, "'situation'", (), SITUATION_FIELDS)
        self.n = c.type(s.get("players", 2), int, s.at("players"), "'players'")
        if not 2 <= self.n <= 4:
            raise c.error(s.at("players"), f"'players' is {self.n}: the engine seats 2 to 4")
        if "seed" in s:
            c.type(s["seed"], int, s.at("seed"), "'seed'")
        if s.get("format") is not None and s["format"] not in FORMATS:
            raise c.error(s.at("format"), f"unknown format {s['format']!r}; 100.2a's formats: {', '.join(FORMATS)}")
        self.table: dict[int, list[str]] = {p: [] for p in range(self.n)}
        if "table" in s:
            table = c.fields(s["table"], s.at("table"), "'table'", (), self._players())
            for p_name, cards in table.items():
                p = int(p_name[1:]) - 1
                cards = c.seq(cards, table.at(p_name), f"{p_name}'s table")
                for j, card in enumerate(cards):
                    self._card(c, card, cards.at(j), "entity", f"an entity on {p_name}'s table")
                    if card in self.table[p]:
                        raise c.error(cards.at(j),
                                      f"{p_name} has two {card!r}: a player has at most one of each entity")
                    self.table[p].append(card)
        if "decks" in s:
            decks = s["decks"]
            if isinstance(decks, Map):
                c.fields(decks, s.at("decks"), "'decks'", (), self._players())
                for p_name, deck in decks.items():
                    self._deck(c, deck, decks.at(p_name), f"{p_name}'s deck")
            else:
                self._deck(c, decks, s.at("decks"), "'decks' (a size for every deck, or a deck per player)")

    def _deck(self, c: Checker, deck: Any, line: int, what: str) -> None:
        if isinstance(deck, Seq):
            for j, card in enumerate(deck):
                self._card(c, card, deck.at(j), "deck", f"a card of {what}")
            return
        if isinstance(deck, Map):  # {card: copies}
            for card, copies in deck.items():
                self._card(c, card, deck.key_lines[card], "deck", f"a card of {what}")
                if c.type(copies, int, deck.at(card), f"the copies of {card!r}") < 1:
                    raise c.error(deck.at(card), f"the copies of {card!r}: 1 or more")
            return
        if c.type(deck, (int, Seq, Map), line, what) < 0:
            raise c.error(line, f"{what} can't hold a negative number of cards")

    def _card(self, c: Checker, name: Any, line: int, kind: str, what: str) -> None:
        c.type(name, str, line, what)
        card = pool().get(name)
        if card is None or card.kind != kind:
            raise c.error(line, f"unknown {kind} card {name!r}; {kind} cards: {', '.join(card_names(kind))}")

    def _players(self) -> list[str]:
        return [f"P{i + 1}" for i in range(self.n)]

    def player(self, c: Checker, v: Any, line: int, what: str = "a player") -> int:
        c.type(v, str, line, what)
        m = PLAYER.match(v)
        if not m or not 1 <= int(m.group(1)) <= self.n:
            raise c.error(line, f"{v!r} is not a player here: write P1 to P{self.n}")
        return int(m.group(1)) - 1

    def _player_or_nobody(self, c: Checker, v: Any, line: int, what: str) -> None:
        if not _nobody(v):
            self.player(c, v, line, f"{what} (a player or {NOBODY!r})")

    def entity_ref(self, c: Checker, ref: Any, line: int) -> None:
        c.type(ref, str, line, "an entity")
        m = OWNED.match(ref)
        if m:
            p = self.player(c, f"P{m.group(1)}", line)
            if m.group(2) not in self.table[p]:
                raise c.error(line, f"P{p + 1} has no entity {m.group(2)!r} on the table; "
                                    f"P{p + 1}'s: {', '.join(self.table[p]) or 'none'}")
            return
        owners = [p for p, cards in self.table.items() if ref in cards]
        if not owners:
            every = sorted({x for cards in self.table.values() for x in cards})
            raise c.error(line, f"no entity {ref!r} on the table; entities: {', '.join(every) or 'none'}")
        if len(owners) > 1:
            raise c.error(line, f"{ref!r} could be {len(owners)} players' entities: write \"P{owners[0] + 1}'s {ref}\"")

    # steps ----------------------------------------------------------------------------------

    def check_label(self, c: Checker, label: str, line: int, players: int) -> None:  # type: ignore[override]
        if label in (SHUFFLE, EVERYONE_KEEPS):
            return
        super().check_label(c, label, line, players)

    def check_step(self, c: Checker, step: Any, line: int, situation: Map) -> None:
        if isinstance(step, str):
            self.check_label(c, step, line, self.n)
            return
        if isinstance(step, Map) and "illegal" in step:
            c.fields(step, line, "an illegal step", ("illegal", "rule"))
            self.check_label(c, c.type(step["illegal"], str, step.at("illegal"), "'illegal' (an action's label)"),
                             step.at("illegal"), self.n)
            check_illegal_rules(c, self, step)
            return
        if isinstance(step, Map) and "action" in step:
            c.fields(step, line, "an action with its card", ("action", "card"))
            self.check_label(c, c.type(step["action"], str, step.at("action"), "'action'"), step.at("action"), self.n)
            self._card(c, step["card"], step.at("card"), "deck", "'card' (the card in the hand the action is about)")
            return
        raise c.error(line, f"a script step is an action's label, '{EVERYONE_PASSES}', '{EVERYONE_KEEPS}', "
                            f"'{SHUFFLE}', an {{action, card}} mapping, or an expect or illegal mapping; "
                            f"got {kind_of(step)}")

    # expectations -----------------------------------------------------------------------------

    def check_expect(self, c: Checker, e: Map, situation: Map) -> None:
        c.fields(e, e.line, "'expect'", (), EXPECT_FIELDS)
        for key, v in e.items():
            line = e.at(key)
            if key == "step":
                if v not in STEPS:
                    raise c.error(line, f"unknown step {v!r}; steps: {', '.join(STEPS)}")
            elif key == "passes":
                c.type(v, int, line, "'passes'")
            elif key in ("first_turn", "mulligan_done", "terminal"):
                c.type(v, bool, line, f"'{key}'")
            elif key in SEATS:
                self._player_or_nobody(c, v, line, f"'{key}'")
            elif key == "current_player":
                if v not in (CHANCE, TERMINAL):
                    self.player(c, v, line, f"'current_player' (a player, {CHANCE!r} or {TERMINAL!r})")
            elif key in PER_SEAT_COUNTS:
                self._per_seat(c, v, line, key, lambda x, at, what: self._count(c, key, x, at, what))
            elif key == "drew_from_empty":
                self._per_seat(c, v, line, key, lambda x, at, what: c.type(x, bool, at, what))
            elif key == "status":
                self._per_seat(c, v, line, key, lambda x, at, what: self._one_of(c, x, STATUSES, at, what))
            elif key == "returns":
                vs = c.seq(v, line, "'returns'")
                if len(vs) != self.n:
                    raise c.error(line, f"'returns' lists {len(vs)} values for {self.n} players")
                for i, x in enumerate(vs):
                    c.type(x, (int, float), vs.at(i), "a return")
            elif key == "entities":
                m = c.fields(v, line, "'entities'", (), list(v) if isinstance(v, Map) else ())
                for ref, x in m.items():
                    self.entity_ref(c, ref, m.key_lines[ref])
                    if x == GONE:
                        continue
                    f = c.fields(x, m.at(ref), f"{ref}'s expected state (or {GONE!r})", (), ENTITY_FIELDS)
                    for k, y in f.items():
                        if k in ("controller", "owner"):
                            self.player(c, y, f.at(k), f"'{k}'")
                        elif k == "attributes":
                            self._attribute_list(c, y, f.at(k))
                        else:
                            c.type(y, bool, f.at(k), f"'{k}'")
            elif key == "waiting_triggers":
                vs = c.seq(v, line, "'waiting_triggers'")
                for i, x in enumerate(vs):
                    f = c.fields(x, vs.at(i), "a waiting trigger", (), TRIGGER_FIELDS)
                    for k, y in f.items():
                        if k == "card":
                            self._card(c, y, f.at(k), "entity", "'card'")
                        else:
                            self.player(c, y, f.at(k), f"'{k}'")
            elif key == "council":
                if not _nobody(v) and v != "none":
                    f = c.fields(v, line, "'council' (or none)", (), COUNCIL_FIELDS)
                    for k, y in f.items():
                        at = f.at(k)
                        if k == "chooser":
                            self._player_or_nobody(c, y, at, "the council's chooser")
                        elif k == "rechoosing":
                            c.type(y, bool, at, "'rechoosing'")
                        elif k == "picked":
                            self._per_seat(c, y, at, "picked",
                                           lambda x, a, what: x is None or x == "none" or c.type(x, bool, a, what))
                        else:
                            self._per_seat(c, y, at, "answers", lambda x, a, what: x is None or x == "none"
                                           or self._one_of(c, x, ANSWERS, a, what))
            elif key == "stack":
                vs = c.seq(v, line, "'stack' (what is resolving, oldest first; [] for nothing)")
                for i, x in enumerate(vs):
                    f = c.fields(x, vs.at(i), "an object on the stack", (), STACK_FIELDS)
                    for k, y in f.items():
                        if k == "kind":
                            self._one_of(c, y, STACK_KINDS, f.at(k), "'kind'")
                        elif k == "card":
                            c.type(y, str, f.at(k), "'card'")
                        else:
                            self.player(c, y, f.at(k), f"'{k}'")
            elif key == "cards":
                m = c.fields(v, line, "'cards' (objects named by their owner: {\"P1's Arcane Study\": {zone: hand}})",
                             (), list(v) if isinstance(v, Map) else ())
                for ref, x in m.items():
                    at = m.key_lines[ref]
                    own = OWNED.match(ref) if isinstance(ref, str) else None
                    if not own:
                        raise c.error(at, f"name an object by its owner: \"P1's {ref}\"")
                    self.player(c, f"P{own.group(1)}", at)
                    if own.group(2) != "Spirit" and own.group(2) not in pool():
                        raise c.error(at, f"no card {own.group(2)!r} in the pool, and it is not a Spirit token")
                    f = c.fields(x, m.at(ref), f"{ref}'s expected state", (), OBJECT_FIELDS)
                    for k, y in f.items():
                        if k == "zone":
                            self._one_of(c, y, ZONES, f.at(k), "'zone'")
                        elif k == "controller":
                            self._player_or_nobody(c, y, f.at(k), "'controller'")
                        elif k == "attributes":
                            self._attribute_list(c, y, f.at(k))
                        elif k == "requires":
                            r = c.fields(y, f.at(k), "'requires'", (), ATTRIBUTE_NAMES)
                            for a_name, n in r.items():
                                c.type(n, int, r.at(a_name), f"the {a_name} required")
                        else:
                            c.type(y, int, f.at(k), "'count'")
            elif key == "deck_legality":
                vs = c.seq(v, line, "'deck_legality'")
                for i, x in enumerate(vs):
                    f = c.fields(x, vs.at(i), "a deck to judge", ("deck", "violations"), ("problems",))
                    d = c.fields(f["deck"], f.at("deck"), "'deck'", DECK_FIELDS)
                    if d["format"] not in FORMATS:
                        raise c.error(d.at("format"), f"unknown format {d['format']!r}; 100.2a's formats: {', '.join(FORMATS)}")
                    self._deck(c, c.type(d["cards"], Map, d.at("cards"), "'cards' ({card: copies})"), d.at("cards"),
                               "the deck judged")
                    rules = c.seq(f["violations"], f.at("violations"), "'violations' (the rules the deck breaks; [] if legal)")
                    for j, rule in enumerate(rules):
                        self.check_rule_number(c, c.type(rule, str, rules.at(j), "a rule number"), rules.at(j))
                    if "problems" in f:
                        ps = c.seq(f["problems"], f.at("problems"), "'problems' (size, or copies of a name)")
                        for j, prob in enumerate(ps):
                            c.type(prob, str, ps.at(j), "a problem ('size' or 'copies of <name>')")
            elif key == "setup":
                if v != "started":
                    f = c.fields(v, line, "'setup' ('started', or {refused: <rule>, player: <seat>})", ("refused",),
                                 ("player",))
                    self.check_rule_number(c, c.type(f["refused"], str, f.at("refused"), "'refused' (a rule)"),
                                           f.at("refused"))
                    if "player" in f:
                        self.player(c, f["player"], f.at("player"))
            elif key == "chance":
                m = c.fields(v, line, "'chance' (each chance action's label and its probability)", (),
                             list(v) if isinstance(v, Map) else ())
                for label, x in m.items():
                    c.type(x, (int, float), m.at(label), f"the probability of {label!r}")
            elif key == "observation":
                m = c.fields(v, line, "'observation'", (), self._players())
                for p_name, x in m.items():
                    c.fields(x, m.at(p_name), f"{p_name}'s observation", (), list(x) if isinstance(x, Map) else ())
            elif key in ("legal", "not_legal", "legal_exactly", "no_events", "events"):
                vs = c.seq(v, line, f"'{key}'")
                for i, x in enumerate(vs):
                    c.type(x, str, vs.at(i), f"an entry of '{key}'")
            elif key == "illegal":
                vs = c.seq(v, line, "'illegal'")
                for i, x in enumerate(vs):
                    m = c.fields(x, vs.at(i), "an illegal action", ("action", "rule"))
                    self.check_label(c, c.type(m["action"], str, m.at("action"), "'action'"), m.at("action"), self.n)
                    check_illegal_rules(c, self, m)

    def _attribute_list(self, c: Checker, v: Any, line: int) -> None:
        """105.2: none, one or more of the three attributes."""
        vs = c.seq(v, line, "'attributes' (a list: [] for none)")
        for i, x in enumerate(vs):
            self._one_of(c, x, ATTRIBUTE_NAMES, vs.at(i), "an attribute")

    def _per_seat(self, c: Checker, v: Any, line: int, key: str, check) -> None:
        """Per player: a mapping {P1: x} naming some of them, or a list of one value per seat."""
        if isinstance(v, Seq):
            if len(v) != self.n:
                raise c.error(line, f"'{key}' lists {len(v)} values for {self.n} players (or write {{P1: ...}})")
            for i, x in enumerate(v):
                check(x, v.at(i), f"P{i + 1}'s {key}")
            return
        m = c.fields(v, line, f"'{key}' (per player: {{P1: ...}} or a list)", (), self._players())
        for p_name, x in m.items():
            check(x, m.at(p_name), f"{p_name}'s {key}")

    @staticmethod
    def _count(c: Checker, key: str, x: Any, line: int, what: str) -> None:
        if key == "mulligan_declared" and _nobody(x):
            return
        if c.type(x, int, line, what) < 0:
            raise c.error(line, f"{what} can't be negative" + (" (write 'nobody' for not declared)"
                                                              if key == "mulligan_declared" else ""))

    @staticmethod
    def _one_of(c: Checker, x: Any, allowed: tuple[str, ...], line: int, what: str) -> None:
        if x not in allowed:
            raise c.error(line, f"{what} is {x!r}: one of {', '.join(allowed)}")

    def start(self, scenario: Scenario) -> "HotaSession":
        self.check_situation(Checker(scenario.path), scenario.situation)  # per-file state, set again
        return HotaSession(scenario, self)


ADAPTER = HotaAdapter()


# --- running ------------------------------------------------------------------------------------


class HotaSession(Session):
    def __init__(self, scenario: Scenario, adapter: HotaAdapter):
        self.path = scenario.path
        s = scenario.situation
        self.n = adapter.n
        self.table = {p: list(cards) for p, cards in adapter.table.items()}
        table = {f"P{p + 1}": cards for p, cards in self.table.items() if cards}
        decks = self._decks(s.get("decks"))
        #: 100.2a: a deck the game's format refuses stops the game before it starts;
        #: a ruling may expect that (`setup: {refused: "100.2a"}`), and nothing else.
        self.refused: DeckError | None = None
        try:
            game = HotaGame(players=self.n, table=table or None, decks=decks, format=s.get("format"))
            self.st = game.new_initial_state(seed=s.get("seed", 0))
            # Where the model holds the game (two players, its cards), each step is checked against it too.
            self.model = ModelFollower(self.st)
        except DeckError as exc:
            self.refused = exc
        except EngineSetupError as exc:
            field = str(getattr(exc, "field", "") or "")
            head = re.split(r"[.\[]", field)[0]
            line = s.at(head) if head in s else s.line
            raise ScenarioFileError(self.path, line, f"the engine can't set this situation up: {exc}") from None

    def _decks(self, v: Any) -> dict[str, list[str]] | None:
        if v is None:
            return None
        if isinstance(v, Map):
            return {p: self._deck_list(d) for p, d in v.items()}
        return {f"P{p + 1}": self._deck_list(v) for p in range(self.n)}

    @staticmethod
    def _deck_list(d: Any) -> list[str]:
        """A deck as written: a list of names, {name: copies} in that order, or a size of fillers."""
        if isinstance(d, dict):
            return [name for name, copies in d.items() for _ in range(copies)]
        return list(d) if isinstance(d, list) else [FILLER] * d

    def _no_game(self, line: int) -> RulingFailed:
        """A step or expectation that needs the game the engine refused to set up."""
        return RulingFailed("", [Mismatch(line, "the set-up", "a game that starts",
                                          f"refused by {self.refused.rule}: {self.refused}")], self.snapshot())

    def snapshot(self) -> str:
        if self.refused is not None:
            return f"no game: the set-up was refused ({self.refused})"
        tail = self.st.history[-8:]
        return str(self.st) + ("\nlast events: " + " | ".join(tail) if tail else "")

    def describe_step(self, step: Any) -> str:
        if isinstance(step, Map):
            return ", ".join(f"{k}: {v}" for k, v in step.items())
        return str(step)

    # actions -------------------------------------------------------------------------------------

    def labels(self) -> list[str]:
        return [self.st.action_label(a) for a in self.st.legal_actions()]

    def model_verdict(self) -> str:
        if self.refused is not None:
            return f"not covered (no game: the engine refused the set-up by {self.refused.rule})"
        return self.model.verdict()

    def _offered(self) -> str:
        if self.st.is_terminal():
            return "the game is over: no action is legal"
        return "legal actions now: " + "; ".join(repr(x) for x in self.labels())

    def act(self, step: Any, line: int) -> None:
        if self.refused is not None:
            raise self._no_game(line)
        if step == EVERYONE_PASSES:
            # Each player still in the game passes once, from the priority holder.
            for _ in range(self._in_game()):
                p = self.st.snapshot()["priority"]
                self._apply(self._legal(f"P{p + 1} passes" if p >= 0 else "a pass", line), step, line)
            return
        if step == EVERYONE_KEEPS:
            # 103.4: each player declares no mulligan, in the order the engine asks.
            for _ in range(self.n):
                if self.st.snapshot()["step"] != "mulligan":
                    break
                p = self.st.current_player()
                label = f"P{p + 1} declares mulligan 0" if p >= 0 else "a declaration"
                self._apply(self._legal(label, line), step, line)
            return
        if isinstance(step, str) and CONCEDES.match(step):
            concede(self, self.st, step, line, "104.3a", IllegalAction)
            return
        if isinstance(step, Map):
            self._apply(self._legal(step["action"], line, card=step["card"]), step["action"], line)
            return
        self._apply(self._legal(step, line), step, line)

    def _in_game(self) -> int:
        return sum(s == "playing" for s in self.st.snapshot()["status"])

    def _apply(self, action, step: str, line: int) -> None:
        self.model.before(self.st, action)
        try:
            self.st.apply_action(action)
        except IllegalAction as exc:
            refused = Mismatch(line, f"the engine offered {step!r} as legal, then refused it",
                               "accepted", f"illegal by {exc.rule}: {exc.reason}")
            raise RulingFailed("", [refused], self.snapshot()) from None
        findings = self.model.after(self.st)
        if findings:
            raise model_disagrees(line, step, findings, self.snapshot())

    def _legal(self, label: str, line: int, card: str | None = None):
        found = [a for a in self.st.legal_actions() if self.st.action_label(a) == label]
        if card is not None:
            found = [a for a in found if self._card_of(a) == card]
        if len(found) == 1:
            return found[0]
        if not found:
            what = f"{label!r}" + (f" about {card!r}" if card else "")
            raise ScenarioFileError(self.path, line, f"{what} matches no legal action; {self._offered()}")
        cards = sorted({str(self._card_of(a)) for a in found})
        raise ScenarioFileError(self.path, line, f"{label!r} matches {len(found)} legal actions, about the cards "
                                                 f"{', '.join(cards)}: write {{action: {label!r}, card: <name>}}")

    def _card_of(self, action: Action) -> str | None:
        """The name of the hand card a face-down choice is about (101.4a)."""
        if action.kind != "choose" or action.card is None:
            return None
        return self.st.hands[action.player][action.card]

    def _every_action(self) -> list[Action]:
        """Every action the game could ever take at this table, legal now or not."""
        st, n = self.st, self.n
        every = [Action("shuffle", CHANCE_ID)] + [Action("first_player", CHANCE_ID, target=p) for p in range(n)]
        # As actions name them: an entity its owner no longer controls is "P2's Ember Bolt".
        names = [(e["card"] if e["owner"] == e["controller"] else f"P{e['owner'] + 1}'s {e['card']}", e["controller"])
                 for e in st.snapshot()["entities"]]
        names += [(card, p) for p, cards in self.table.items() for card in cards]
        for p in range(n):
            every += [Action("pass", p)] + [Action("mulligan", p, count=k) for k in range(len(st.hands[p]) + 2)]
            every += [Action("choose", p, card=0)] + [Action("answer", p, choice=x) for x in ("accept", "refuse")]
            # A play names a card of the pool, in the hand or not (assumed:play-from-hand).
            every += [Action("play", p, source=c.name, choice=x) for c in self.st.pool.deck_cards()
                      for x in (None, "strength", "agility", "intelligence")]
            # A play that gives an entity to a player (Gift of Fealty), whoever controls it now; a
            # Spirit among them, named by its owner once another's (109.5e).
            spirits = ["Spirit"] + [f"P{o + 1}'s Spirit" for o in range(n)]
            every += [Action("play", p, source=c.name, target=q, target_card=ref) for c in self.st.pool.deck_cards()
                      if c.effect == "give_control" for ref in [r for r, _ in names] + spirits for q in range(n)]
            for card, owner in names:
                if owner != p:
                    continue
                every.append(Action("activate", p, card))
                every += [Action("activate", p, card, q) for q in range(n)]
                every += [Action("activate", p, card, q, "Spirit") for q in range(n)]
                # A Spirit another player took (109.5e) is named by its owner: "P2's Spirit".
                every += [Action("activate", p, card, q, f"P{o + 1}'s Spirit") for q in range(n) for o in range(n) if o != q]
                every += [Action("activate", p, card, other_owner, other) for other, other_owner in names]
                # A card in a hand named as an entity's target (107.3: it has no controller).
                every += [Action("activate", p, card, q, c.name) for q in range(n) for c in self.st.pool.deck_cards()]
                every += [Action("optional", p, source=card, choice=x) for x in ("create", "decline")]
        return every

    def _build(self, label: str, line: int) -> Action:
        """Any action with that label, legal or not."""
        found = [a for a in self._every_action() if self.st.action_label(a) == label]
        if not found:
            raise ScenarioFileError(self.path, line, f"{label!r} reads as no action of this game: write it as "
                                                     "the engine labels it, e.g. 'P1 passes', "
                                                     "'P2 activates Ember Bolt targeting P1'")
        return found[0]

    def illegal(self, step: Map, line: int) -> list[Mismatch]:
        if self.refused is not None:
            return self._no_game(line).mismatches
        return self._check_illegal(step["illegal"], illegal_rules(step), line)

    def _check_illegal(self, label: str, rules: tuple[str, ...], line: int) -> list[Mismatch]:
        what = f"the action {label!r}"
        if label in self.labels():
            return [Mismatch(line, what, f"illegal by {show_rules(rules)}", "offered as a legal action")]
        action = self._build(label, line)
        try:
            self.st.clone().apply_action(action)
        except IllegalAction as exc:
            if exc.rule not in rules:
                return [Mismatch(line, what, f"illegal by {show_rules(rules)}", f"illegal by {exc.rule} ({exc.reason})")]
            allowed = self.model.allows(self.st, action)
            if allowed:
                return [Mismatch(line, what, f"illegal by {show_rules(rules)}, in the model too", f"the model allows it as {allowed}")]
            return []
        return [Mismatch(line, what, f"illegal by {show_rules(rules)}", "accepted by the engine")]

    # expectations ---------------------------------------------------------------------------------

    def _seat(self, p: int) -> str:
        return NOBODY if p is None or p < 0 else f"P{p + 1}"

    def expect(self, e: Map) -> list[Mismatch]:
        if self.refused is not None:
            return self._refused_expect(e)
        st, d = self.st, self.st.snapshot()
        out: list[Mismatch] = []

        def check(what: str, expected: Any, actual: Any, line: int) -> None:
            if expected != actual:
                out.append(Mismatch(line, what, expected, actual))

        def per_seat(key: str, v: Any, line: int, actual: list, read=lambda x: x, norm=lambda x: x) -> None:
            items = [(f"P{i + 1}", x, v.at(i)) for i, x in enumerate(v)] if isinstance(v, Seq) else \
                [(p, x, v.at(p)) for p, x in v.items()]
            for p_name, x, at in items:
                check(f"{p_name}'s {key}", norm(x), read(actual[int(p_name[1:]) - 1]), at)

        for key, v in e.items():
            line = e.at(key)
            if key in ("step", "passes", "first_turn", "mulligan_done"):
                check(key, v, d[key], line)
            elif key in SEATS:
                check(key, NOBODY if _nobody(v) else v, self._seat(d[key]), line)
            elif key == "current_player":
                p = st.current_player()
                got = TERMINAL if st.is_terminal() else CHANCE if st.is_chance_node() else self._seat(p)
                check(key, v, got, line)
            elif key == "mulligan_declared":
                per_seat(key, v, line, d[key], norm=lambda x: -1 if _nobody(x) else x)
            elif key in PER_SEAT_COUNTS or key in ("drew_from_empty", "status"):
                per_seat(key, v, line, d[key])
            elif key == "attributes":
                # Per seat, the attributes named: {P1: {strength: 1}} (106.1).
                for p_name, want in v.items():
                    if not PLAYER.match(p_name) or int(p_name[1:]) > self.n or not isinstance(want, Map):
                        raise ScenarioFileError(self.path, v.at(p_name), f"write attributes as {{P1: {{strength: 1}}}}, not {p_name}: {want!r}")
                    got = d["attributes"][int(p_name[1:]) - 1]
                    for attr, n in want.items():
                        if attr not in got:
                            raise ScenarioFileError(self.path, want.at(attr), f"unknown attribute {attr!r}; attributes: {', '.join(got)}")
                        check(f"{p_name}'s {attr}", n, got[attr], want.at(attr))
            elif key == "terminal":
                check(key, v, st.is_terminal(), line)
            elif key == "setup":
                check(key, _plain(v), "started", line)
            elif key == "stack":
                got = [{"card": o["card"], "kind": o["kind"], "owner": self._seat(o["owner"]),
                        "controller": self._seat(o["controller"])} for o in d["stack"]]
                shown = [{k: x[k] for k in w} for w, x in zip(v, got)] if len(got) == len(v) else got
                check(key, [dict(w) for w in v], shown, line)
            elif key == "cards":
                out.extend(self._cards(v, st.objects()))
            elif key == "deck_legality":
                out.extend(_deck_legality(v))
            elif key == "returns":
                check(key, [float(x) for x in v], [float(x) for x in st.returns()], line)
            elif key == "entities":
                for ref, want in v.items():
                    at = v.at(ref)
                    got = self._entity(ref, d)
                    if want == GONE or got is None:
                        here = "on the battlefield"
                        check(ref, GONE if want == GONE else here, GONE if got is None else here, at)
                        continue
                    for f, y in want.items():
                        actual = self._seat(got[f]) if f in ("controller", "owner") else got[f]
                        if f == "attributes":  # 105.2: a set, written in any order
                            y, actual = sorted(y), sorted(actual)
                        check(f"{ref} {f}", y, actual, want.at(f))
            elif key == "waiting_triggers":
                got = [{"card": t["card"], "controller": self._seat(t["controller"]),
                        "token_controller": self._seat(t["token_controller"])} for t in d["waiting_triggers"]]
                shown = [{k: x[k] for k in w} for w, x in zip(v, got)] if len(got) == len(v) else got
                check(key, [dict(w) for w in v], shown, line)
            elif key == "council":
                council = d["council"]
                if _nobody(v) or v == "none":
                    check(key, "none", "none" if council is None else council, line)
                elif council is None:
                    check(key, dict(v), "none", line)
                else:
                    self._council(v, council, out)
            elif key == "chance":
                got = {st.action_label(a): p for a, p in st.chance_outcomes()} if st.is_chance_node() else {}
                if set(got) != set(v) or any(not math.isclose(got[k], v[k], abs_tol=1e-9) for k in v):
                    out.append(Mismatch(line, "the chance outcomes", dict(v), got))
            elif key == "observation":
                for p_name, want in v.items():
                    obs = st.observation_for(int(p_name[1:]) - 1)
                    for f, y in want.items():
                        if f not in obs:
                            raise ScenarioFileError(self.path, want.key_lines[f],
                                                    f"no field {f!r} in an observation; fields: {', '.join(obs)}")
                        got = obs[f]
                        if isinstance(y, Map) and isinstance(got, list) and len(got) == self.n:
                            # A per-seat list, written {P1: ...} naming some seats.
                            for q, x in y.items():
                                if not PLAYER.match(q) or int(q[1:]) > self.n:
                                    raise ScenarioFileError(self.path, y.key_lines[q],
                                                            f"{q!r} is not a player here: write P1 to P{self.n}")
                                check(f"{p_name}'s observation {f} of {q}", _plain(x), got[int(q[1:]) - 1], y.at(q))
                            continue
                        check(f"{p_name}'s observation {f}", _plain(y), got, want.at(f))
            elif key in ("legal", "not_legal", "legal_exactly"):
                labels = self.labels()
                if key == "legal_exactly":
                    check("the legal actions", sorted(v), sorted(labels), line)
                    continue
                out.extend(legal_mismatches(key, v, labels))
            elif key == "illegal":
                for i, x in enumerate(v):
                    out.extend(self._check_illegal(x["action"], illegal_rules(x), v.at(i)))
            elif key == "events":
                pos = 0
                for i, pattern in enumerate(v):
                    while pos < len(st.history) and not fnmatch.fnmatchcase(st.history[pos], pattern):
                        pos += 1
                    if pos == len(st.history):
                        out.append(Mismatch(v.at(i), f"event {i + 1} of {len(v)} (in order)", pattern, st.history))
                        break
                    pos += 1
            elif key == "no_events":
                for i, pattern in enumerate(v):
                    hits = [h for h in st.history if fnmatch.fnmatchcase(h, pattern)]
                    if hits:
                        out.append(Mismatch(v.at(i), "no event like", pattern, hits))
        return out

    def _refused_expect(self, e: Map) -> list[Mismatch]:
        """After a refused set-up only `setup` and `deck_legality` can be judged."""
        out: list[Mismatch] = []
        for key, v in e.items():
            if key == "setup":
                got = {"refused": self.refused.rule}
                if isinstance(v, Map) and "player" in v:
                    got["player"] = self.refused.seat
                if _plain(v) != got:
                    out.append(Mismatch(e.at(key), "the set-up", _plain(v), f"{got} ({self.refused})"))
            elif key == "deck_legality":
                out.extend(_deck_legality(v))
            else:
                out.extend(self._no_game(e.at(key)).mismatches)
        return out

    def _cards(self, v: Map, objects: list[dict]) -> list[Mismatch]:
        """108.1: the objects a player owns of that name (in `zone`, if given): how
        many, and the controller (107.3: `nobody` off the stack and the
        battlefield), attributes (105.2) and requirements (106.3) of each."""
        out = []
        for ref, want in v.items():
            m = OWNED.match(ref)
            owner, name = int(m.group(1)) - 1, m.group(2)
            found = [o for o in objects if o["owner"] == owner and o["name"] == name
                     and ("zone" not in want or o["zone"] == want["zone"])]
            where = ref + (f" in {want['zone']}" if "zone" in want else "")
            if "count" in want and want["count"] != len(found):
                out.append(Mismatch(want.at("count"), f"how many of {where}", want["count"], len(found)))
            if not found:
                if "count" not in want:
                    out.append(Mismatch(v.at(ref), where, "an object", "none"))
                continue
            for f, y in want.items():
                if f in ("count", "zone"):
                    continue
                # 105.2: attributes are a set, written in any order.
                norm = (lambda x: sorted(x)) if f == "attributes" else (lambda x: x)
                got = sorted({(self._seat(o[f]) if f == "controller" else repr(norm(o[f]))) for o in found})
                expected = (NOBODY if _nobody(y) else y) if f == "controller" else repr(norm(_plain(y)))
                if got != [expected]:
                    out.append(Mismatch(want.at(f), f"{where}: {f}", _plain(y),
                                        got[0] if len(got) == 1 and f == "controller" else got))
        return out

    def _entity(self, ref: str, d: dict) -> dict | None:
        m = OWNED.match(ref)
        if m:
            owner, card = int(m.group(1)) - 1, m.group(2)
        else:
            owner, card = next(p for p, cards in self.table.items() if ref in cards), ref
        # Named by their owner, who keeps them whoever controls them (107.1, 109.2).
        return next((x for x in d["entities"] if x["card"] == card and x["owner"] == owner), None)

    def _council(self, v: Map, council: dict, out: list[Mismatch]) -> None:
        for k, want in v.items():
            at = v.at(k)
            if k == "chooser":
                got = self._seat(council["chooser"])
                if (NOBODY if _nobody(want) else want) != got:
                    out.append(Mismatch(at, "the council's chooser", want, got))
            elif k == "rechoosing":
                if want != council[k]:
                    out.append(Mismatch(at, "the council's rechoosing", want, council[k]))
            else:
                items = [(f"P{i + 1}", x, want.at(i)) for i, x in enumerate(want)] if isinstance(want, Seq) else \
                    [(p, x, want.at(p)) for p, x in want.items()]
                for p_name, x, line in items:
                    x = None if x == "none" else x
                    got = council[k][int(p_name[1:]) - 1]
                    if x != got:
                        out.append(Mismatch(line, f"the council's {k} of {p_name}", x, got))


def _deck_legality(v: Seq) -> list[Mismatch]:
    """100.2a: each deck judged by the engine's deck check, in its format: the
    rules it breaks and, where written, which parts (size, copies of a name)."""
    out = []
    for i, x in enumerate(v):
        d = x["deck"]
        found = deck_problems(HotaSession._deck_list(d["cards"]), d["format"], pool())
        rules = sorted({f.rule for f in found})
        if sorted(set(x["violations"])) != rules:
            out.append(Mismatch(x.at("violations"), f"the rules deck {i + 1} breaks", sorted(set(x["violations"])),
                                [f.message for f in found] or []))
        if "problems" in x:
            got = ["size" if f.part == "size" else f"copies of {f.name}" for f in found]
            if list(x["problems"]) != got:
                out.append(Mismatch(x.at("problems"), f"what deck {i + 1} breaks", list(x["problems"]), got))
    return out


def _plain(v: Any) -> Any:
    """A YAML value as plain Python (mappings and lists without their line numbers)."""
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return v

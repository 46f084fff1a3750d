"""World of Warcraft TCG scenarios: the adapter between scenario files and the
reference engine (`engine/wowtcg`). The file format is described in
`scenarios/README.md`; this module checks a file's WoW parts (heroes, cards,
steps, players, actions, expectations), sets the situation up with
`engine.wowtcg.arrange.arrange`, matches each scripted action to exactly one
of the engine's legal actions, and reads the state the expectations name.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import re
from typing import Any, Callable

from agreement.wowtcg.follow import ModelFollower
from engine.wowtcg import Action, Deck, EngineSetupError, IllegalAction, WowTcgGame, load_pool
from engine.wowtcg.arrange import STEPS as ARRANGE_STEPS
from engine.wowtcg.arrange import arrange
from engine.wowtcg.deck import FORMATS, MIN_DECK_SIZE, validate_deck
from engine.wowtcg.objects import ZONES
from scenarios.runner import (
    EVERYONE_PASSES, Checker, GameAdapter, Map, Mismatch, RulingFailed, Scenario, ScenarioFileError, Seq, Session,
    CONCEDES, check_illegal_rules, concede, illegal_rules, kind_of, legal_mismatches, show_rules,
)

# Every step the engine reports in `state.step`.
ENGINE_STEPS = ("ready_step", "draw_step", "action_phase", "attack_window", "protect_point", "defend_window",
                "combat_conclusion", "end_phase", "end_step", "game_over")
# The kinds of `Action` the engine offers, with priority (409.2) or as a decision.
KINDS = ("pass", "play", "resource", "power", "complete", "propose", "strike", "prevent", "choose", "protect", "repair",
         "order_trigger", "trigger_target", "inspire", "discard", "mulligan", "first_player")
DECISIONS = ("first_player", "mulligan", "prevent", "order_trigger", "trigger_target", "protect", "choose",
             "choose_another", "ready_resources", "reattach", "uniqueness", "inspire", "discard", "discard_for_effect")
RESULTS = {"won": "won", "lost": "lost", "drew": "drew", "playing": None}
TERMINAL = "terminal"  # `current_player` once the game is over
TERMINAL_ID = -4  # OpenSpiel's id for it, as `state.current_player()` returns it
RULE = re.compile(r"^(CR7\.4 )?\d{3}(\.\d+[a-z]?)?$")
PLAYER = re.compile(r"^P([1-9])$")
OWNED = re.compile(r"^P([1-9])'s (.+)$")
PASS_UNTIL = "pass until"
MOST_PASSES = 200  # `pass until` gives up after this many passes
# Decks default to this card: no example names it, so names stay unambiguous.
FILLER = "Scout the Barrens"
MID_GAME_DECK = 10  # cards in a default deck of a game set up in its middle
START_DECK = MIN_DECK_SIZE["sealed"]  # a game played from its start needs legal decks (100.1)

PLAY_FIELDS = ("card", "token", "owner", "damage", "exhausted", "new", "on", "as")
HERO_FIELDS = ("hero", "damage", "exhausted", "flipped")
#: A player's resources in the situation: a count of ready ones, or both counts.
RESOURCE_STATES = ("ready", "exhausted")
SITUATION_FIELDS = ("players", "turn_player", "turn", "step", "play", "hands", "graveyards", "decks", "deck_tops",
                    "resources", "seed", "prelude", "start", "teams")
# A game played from its real start (101.1-101.2) has only its heroes, decks and seed.
START_FIELDS = ("players", "start", "decks", "seed", "prelude")
ACTION_FIELDS = ("player", "kind", "card", "target", "targets", "x", "option", "sabotage", "face_up")
UNTIL_FIELDS = ("turn_player", "step", "turn", "priority")
CARD_FIELDS = ("zone", "damage", "exhausted", "controller", "owner", "attached_to", "resource", "face_up",
               "token", "flipped", "type", "cost", "atk", "health", "damage_type")
PRINTED = ("type", "cost", "atk", "health", "damage_type")  # read off the card (a token's are the effect's)
EXPECT_FIELDS = ("priority", "current_player", "turn_player", "turn", "step", "passes", "decision", "chain", "resolved",
                 "interrupted", "combat", "cards", "zones", "damage", "exhausted", "ready_resources", "hand",
                 "graveyard", "results", "returns", "terminal", "legal", "not_legal", "legal_exactly",
                 "illegal", "events", "no_events", "deck_legality")
#: A deck to judge in a deck_legality expectation (100.1-100.4).
DECK_FIELDS = ("hero", "format", "cards", "sideboard")

_POOL = None


def pool():
    global _POOL
    if _POOL is None:
        _POOL = load_pool()
    return _POOL


def token_names() -> set[str]:
    """Names of the tokens the pool's cards create (403.2)."""
    return set(pool().tokens)


def _suggest(name: str, known: list[str]) -> str:
    import difflib

    close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    return f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""


# --- static checks ----------------------------------------------------------------------------


class WowAdapter(GameAdapter):
    name = "wowtcg"

    # situation ------------------------------------------------------------

    def check_rule_number(self, c: Checker, rule: str, line: int) -> None:
        if not RULE.match(rule):
            raise c.error(line, f"rule number {rule!r} is not written like '409.4a' or 'CR7.4 709.1'")

    def check_situation(self, c: Checker, s: Map) -> None:
        c.fields(s, s.line, "'situation'", ("players",), SITUATION_FIELDS)
        from_start = "start" in s and c.type(s["start"], bool, s.at("start"), "'start'")
        if from_start:
            c.fields(s, s.line, "a 'situation' that starts the game (start: true)", ("players",), START_FIELDS)
        heroes = c.seq(s["players"], s.at("players"), "'players'")
        if not 2 <= len(heroes) <= 4:
            raise c.error(s.at("players"), f"'players' lists {len(heroes)} heroes: the engine seats 2 to 4")
        for i, h in enumerate(heroes):
            line = heroes.at(i)
            if isinstance(h, Map) and from_start:
                raise c.error(line, "a game played from its start begins with ready, undamaged, unflipped heroes (301.1): "
                                    "name the hero only")
            if isinstance(h, Map):
                c.fields(h, line, f"player P{i + 1}", ("hero",), HERO_FIELDS)
                self._card(c, h["hero"], h.at("hero"), kind="hero")
                self._count(c, h, "damage")
                self._flag(c, h, "exhausted")
                self._flag(c, h, "flipped")
            else:
                self._card(c, h, line, kind="hero")
        n = len(heroes)
        if "teams" in s:
            # Basic rules, multiplayer: a team name for each seat, P1 first; the engine checks the seating.
            teams = c.seq(s["teams"], s.at("teams"), "'teams'")
            if len(teams) != n or not all(isinstance(t, str) and t for t in teams):
                raise c.error(s.at("teams"), f"'teams' names a team for each of the {n} players, P1 first (like [A, B, A, B])")
        if "turn_player" in s:
            self._player(c, s["turn_player"], s.at("turn_player"), n)
        if "turn" in s:
            turn = c.type(s["turn"], int, s.at("turn"), "'turn'")
            if turn < 1:
                raise c.error(s.at("turn"), "'turn' counts from 1")
        if "seed" in s:
            c.type(s["seed"], int, s.at("seed"), "'seed'")
        if "step" in s:
            step = c.type(s["step"], str, s.at("step"), "'step'")
            if step not in ARRANGE_STEPS:
                raise c.error(s.at("step"), f"unknown step {step!r}: a situation starts in one of {', '.join(ARRANGE_STEPS)}"
                              + _suggest(step, list(ARRANGE_STEPS)))
        aliases: dict[str, int] = {}
        for key in ("play", "hands", "graveyards", "decks", "deck_tops", "resources"):
            if key not in s:
                continue
            per = c.fields(s[key], s.at(key), f"'{key}'", (), [f"P{i + 1}" for i in range(n)])
            for p, entries in per.items():
                line = per.at(p)
                if key == "resources":
                    counts = c.fields(entries, line, f"{p}'s resources", (), RESOURCE_STATES) if isinstance(entries, Map) \
                        else {"ready": c.type(entries, int, line, f"{p}'s resources (a count, or {{ready, exhausted}})")}
                    for state, count in counts.items():
                        if c.type(count, int, line, f"{p}'s {state} resources") < 0:
                            raise c.error(line, f"{p}'s resources can't be negative")
                    continue
                entries = c.seq(entries, line, f"{p}'s {key}")
                for j, e in enumerate(entries):
                    self._entry(c, key, e, entries.at(j), p, aliases, n)
        self._aliases = aliases  # for the checks of this file's script and expectations
        self._players = n
        if "prelude" in s:
            prelude = c.seq(s["prelude"], s.at("prelude"), "'prelude'")
            for j, step in enumerate(prelude):
                if isinstance(step, Map) and ("expect" in step or "illegal" in step):
                    raise c.error(prelude.at(j), "the prelude only sets the situation up: put expectations in the script")
                self.check_step(c, step, prelude.at(j), s)

    def _entry(self, c: Checker, key: str, e: Any, line: int, p: str, aliases: dict, n: int) -> None:
        if key in ("decks", "deck_tops"):
            self._card(c, e, line)
            return
        if isinstance(e, str):
            self._card(c, e, line, kind="in_play" if key == "play" else None)
            return
        allowed = PLAY_FIELDS if key == "play" else ("card", "as")
        if key == "play" and "token" in e:
            # 403.2: a token in play from the start, one a card of the pool creates.
            c.fields(e, line, f"an entry of {p}'s {key}", ("token",), tuple(f for f in PLAY_FIELDS if f not in ("card", "on", "owner")))
            name = c.text(e, "token", "the entry's")
            if name not in token_names():
                raise c.error(e.at("token"), f"unknown token {name!r}: no card of the pool creates it"
                              + _suggest(name, sorted(token_names())))
        else:
            c.fields(e, line, f"an entry of {p}'s {key}", ("card",), tuple(f for f in allowed if f != "token"))
            self._card(c, e["card"], e.at("card"), kind="in_play" if key == "play" else None)
            if "owner" in e:
                self._player(c, e["owner"], e.at("owner"), n, "'owner' (the player whose card it is)")
        self._count(c, e, "damage")
        self._flag(c, e, "exhausted")
        self._flag(c, e, "new")
        if "on" in e:
            self._ref(c, e["on"], e.at("on"), n, aliases)
        if "as" in e:
            alias = c.text(e, "as", "the entry's")
            if alias in aliases:
                raise c.error(e.at("as"), f"the name {alias!r} is given twice (first at line {aliases[alias]})")
            if PLAYER.match(alias) or OWNED.match(alias) or alias in pool() or alias in token_names():
                raise c.error(e.at("as"), f"{alias!r} can't be a name given with 'as': it reads as a player or a card")
            aliases[alias] = e.at("as")

    def _card(self, c: Checker, name: Any, line: int, kind: str | None = None) -> None:
        c.type(name, str, line, "a card name")
        if name not in pool():
            raise c.error(line, f"unknown card {name!r}: not in the engine's pool" + _suggest(name, [x.name for x in pool()]))
        card = pool()[name]
        if kind == "hero" and card.type != "hero":
            raise c.error(line, f"{name!r} is not a hero (it is a {card.type})")
        if kind == "in_play" and card.type == "hero":
            raise c.error(line, f"{name!r} is a hero: heroes are listed under 'players'")

    def _count(self, c: Checker, m: Map, key: str) -> None:
        if key in m and c.type(m[key], int, m.at(key), f"'{key}'") < 0:
            raise c.error(m.at(key), f"'{key}' can't be negative")

    def _flag(self, c: Checker, m: Map, key: str) -> None:
        if key in m:
            c.type(m[key], bool, m.at(key), f"'{key}'")

    def _player(self, c: Checker, value: Any, line: int, n: int | None = None, what: str = "a player") -> int:
        c.type(value, str, line, what)
        m = PLAYER.match(value)
        n = n or self._players
        if not m or not 1 <= int(m.group(1)) <= n:
            raise c.error(line, f"{value!r} is not a player here: write P1 to P{n}")
        return int(m.group(1)) - 1

    def _ref(self, c: Checker, value: Any, line: int, n: int | None = None, aliases: dict | None = None,
             players: bool = False) -> None:
        """A card reference: a name given with 'as', "P2's Card Name" or "Card Name";
        where `players` is set, "P2" names a player."""
        c.type(value, str, line, "a card reference")
        aliases = self._aliases if aliases is None else aliases
        n = n or self._players
        if value in aliases:
            return
        if players and PLAYER.match(value):
            self._player(c, value, line, n)
            return
        m = OWNED.match(value)
        name = value
        if m:
            self._player(c, f"P{m.group(1)}", line, n)
            name = m.group(2)
        if name not in pool() and name not in token_names():
            known = [x.name for x in pool()] + sorted(token_names()) + list(aliases)
            raise c.error(line, f"unknown card {name!r}: not in the engine's pool, not a token, not a name given with 'as'"
                          + _suggest(name, known))

    # actions --------------------------------------------------------------

    def check_step(self, c: Checker, step: Any, line: int, situation: Map) -> None:
        if isinstance(step, str):
            self.check_label(c, step, line, self._players)
            return
        if not isinstance(step, Map):
            raise c.error(line, f"a script step is an action's label, a mapping of action fields, "
                                f"'{EVERYONE_PASSES}', or an expect, illegal or '{PASS_UNTIL}' mapping; got {kind_of(step)}")
        if EVERYONE_PASSES in step:
            c.fields(step, line, f"an '{EVERYONE_PASSES}' step", (EVERYONE_PASSES,))
            if c.type(step[EVERYONE_PASSES], int, step.at(EVERYONE_PASSES), f"'{EVERYONE_PASSES}'") < 1:
                raise c.error(step.at(EVERYONE_PASSES), f"'{EVERYONE_PASSES}' repeats at least once")
            return
        if PASS_UNTIL in step:
            c.fields(step, line, f"a '{PASS_UNTIL}' step", (PASS_UNTIL,))
            until = c.fields(step[PASS_UNTIL], step.at(PASS_UNTIL), f"'{PASS_UNTIL}'", (), UNTIL_FIELDS)
            if not until:
                raise c.error(step.at(PASS_UNTIL), f"'{PASS_UNTIL}' needs a condition: {', '.join(UNTIL_FIELDS)}")
            self._until(c, until)
            return
        if "illegal" in step:
            c.fields(step, line, "an illegal step", ("illegal", "rule"))
            check_illegal_rules(c, self, step)
            self._fields_action(c, step["illegal"], step.at("illegal"), for_illegal=True)
            return
        self._fields_action(c, step, line)

    def _fields_action(self, c: Checker, a: Any, line: int, for_illegal: bool = False) -> None:
        if isinstance(a, str) and for_illegal:
            raise c.error(line, "write an illegal action by its fields (player, kind, card, target ...): "
                                "the engine offers no label for an action it does not allow")
        c.fields(a, line, "an action", ("player", "kind"), ACTION_FIELDS)
        self._player(c, a["player"], a.at("player"))
        kind = c.type(a["kind"], str, a.at("kind"), "'kind'")
        if kind not in KINDS:
            raise c.error(a.at("kind"), f"unknown action kind {kind!r}; kinds: {', '.join(KINDS)}" + _suggest(kind, list(KINDS)))
        if "card" in a:
            self._ref(c, a["card"], a.at("card"), players=True)
        if "target" in a and "targets" in a:
            raise c.error(a.at("targets"), "give 'target' or 'targets', not both")
        if "target" in a:
            self._ref(c, a["target"], a.at("target"), players=True)
        if "targets" in a:
            ts = c.seq(a["targets"], a.at("targets"), "'targets'")
            for i, t in enumerate(ts):
                self._ref(c, t, ts.at(i), players=True)
        if "x" in a:
            self._count(c, a, "x")
        for key in ("sabotage", "face_up"):
            self._flag(c, a, key)
        if "option" in a:
            option = a["option"]
            if isinstance(option, str):
                self._ref(c, option, a.at("option"), players=True)
            elif option is not None:
                c.type(option, (bool, int), a.at("option"), "'option'")
        if for_illegal and "card" not in a and kind != "pass":
            raise c.error(line, f"an illegal {kind} action needs 'card': the card it is about")

    def _until(self, c: Checker, until: Map) -> None:
        if "turn_player" in until:
            self._player(c, until["turn_player"], until.at("turn_player"))
        if "priority" in until:
            self._player(c, until["priority"], until.at("priority"))
        if "turn" in until:
            c.type(until["turn"], int, until.at("turn"), "'turn'")
        if "step" in until:
            self._step_name(c, until["step"], until.at("step"))

    def _step_name(self, c: Checker, step: Any, line: int) -> None:
        c.type(step, str, line, "a step")
        if step not in ENGINE_STEPS:
            raise c.error(line, f"unknown step {step!r}; steps: {', '.join(ENGINE_STEPS)}" + _suggest(step, list(ENGINE_STEPS)))

    # expectations ---------------------------------------------------------

    def check_expect(self, c: Checker, e: Map, situation: Map) -> None:
        c.fields(e, e.line, "'expect'", (), EXPECT_FIELDS)
        for key in e:
            line, v = e.at(key), e[key]
            if key in ("priority",):
                if v not in (None, "nobody"):
                    self._player(c, v, line, what="'priority'")
            elif key == "current_player":
                if v != TERMINAL:
                    self._player(c, v, line, what=f"'current_player' (a player, or {TERMINAL!r} once the game is over)")
            elif key == "turn_player":
                self._player(c, v, line)
            elif key in ("turn", "passes"):
                c.type(v, int, line, f"'{key}'")
            elif key == "step":
                self._step_name(c, v, line)
            elif key == "terminal":
                c.type(v, bool, line, "'terminal'")
            elif key == "returns":
                vs = c.seq(v, line, "'returns'")
                if len(vs) != self._players:
                    raise c.error(line, f"'returns' lists {len(vs)} values for {self._players} players")
                for i, x in enumerate(vs):
                    c.type(x, (int, float), vs.at(i), "a return")
            elif key == "decision":
                if v not in (None, "none"):
                    d = c.fields(v, line, "'decision'", (), ("kind", "player", "rule"))
                    if "kind" in d and d["kind"] not in DECISIONS:
                        raise c.error(d.at("kind"), f"unknown decision {d['kind']!r}; decisions: {', '.join(DECISIONS)}")
                    if "player" in d:
                        self._player(c, d["player"], d.at("player"))
                    if "rule" in d:
                        c.type(d["rule"], str, d.at("rule"), "'rule'")
            elif key in ("chain", "resolved", "interrupted", "legal", "not_legal", "legal_exactly", "events", "no_events"):
                vs = c.seq(v, line, f"'{key}'")
                for i, x in enumerate(vs):
                    if key == "events" and isinstance(x, Seq):  # several patterns one line must all match
                        for j, y in enumerate(x):
                            c.type(y, str, x.at(j), "an event pattern")
                        continue
                    c.type(x, str, vs.at(i), f"an entry of '{key}'")
            elif key == "combat":
                if v not in (None, "none"):
                    m = c.fields(v, line, "'combat'", (), ("attacker", "defender", "defending", "sabotage"))
                    for r in ("attacker", "defender"):
                        if r in m and m[r] is not None:
                            self._ref(c, m[r], m.at(r))
                    for f in ("defending", "sabotage"):
                        self._flag(c, m, f)
            elif key in ("cards", "zones", "damage", "exhausted"):
                m = c.fields(v, line, f"'{key}'", (), list(v) if isinstance(v, Map) else ())
                for ref, val in m.items():
                    self._ref(c, ref, m.key_lines[ref])
                    self._card_expect(c, key, val, m.at(ref))
            elif key in ("ready_resources", "hand", "graveyard", "results"):
                m = c.fields(v, line, f"'{key}'", (), [f"P{i + 1}" for i in range(self._players)])
                for p, val in m.items():
                    if key == "graveyard":
                        vs = c.seq(val, m.at(p), f"{p}'s graveyard")
                        for i, x in enumerate(vs):
                            self._card_name_or_token(c, x, vs.at(i))
                    elif key == "results":
                        if val not in RESULTS:
                            raise c.error(m.at(p), f"{p}'s result {val!r}: one of {', '.join(RESULTS)}")
                    else:
                        self._count(c, m, p)
            elif key == "illegal":
                vs = c.seq(v, line, "'illegal'")
                for i, x in enumerate(vs):
                    c.fields(x, vs.at(i), "an illegal action", ("action", "rule"))
                    self._fields_action(c, x["action"], x.at("action"), for_illegal=True)
                    check_illegal_rules(c, self, x)
            elif key == "deck_legality":
                vs = c.seq(v, line, "'deck_legality'")
                for i, x in enumerate(vs):
                    c.fields(x, vs.at(i), "a deck to judge", ("deck", "violations"))
                    d = c.fields(x["deck"], x.at("deck"), "'deck'", ("hero", "format", "cards"), ("sideboard",))
                    c.text(d, "hero", "the deck's")
                    if d["format"] not in FORMATS:
                        raise c.error(d.at("format"), f"unknown deck format {d['format']!r}: {' or '.join(FORMATS)}")
                    for part in ("cards", "sideboard"):
                        if part in d:
                            counts = c.fields(d[part], d.at(part), f"the deck's {part}", (), list(d[part]) if isinstance(d[part], Map) else ())
                            for name in counts:
                                self._count(c, counts, name)
                    rules = c.seq(x["violations"], x.at("violations"), "'violations' (the rules the deck breaks; [] if legal)")
                    for j, rule in enumerate(rules):
                        self.check_rule_number(c, c.type(rule, str, rules.at(j), "a rule number"), rules.at(j))

    def _card_name_or_token(self, c: Checker, name: Any, line: int) -> None:
        c.type(name, str, line, "a card name")
        if name not in pool() and name not in token_names() and name != "face-down resource":
            raise c.error(line, f"unknown card {name!r}" + _suggest(name, [x.name for x in pool()]))

    def _card_expect(self, c: Checker, key: str, val: Any, line: int) -> None:
        if key == "zones":
            self._zone(c, val, line)
        elif key == "damage":
            c.type(val, int, line, "a damage count")
        elif key == "exhausted":
            c.type(val, bool, line, "'exhausted'")
        else:
            m = c.fields(val, line, "a card's expected state", (), CARD_FIELDS)
            for f, x in m.items():
                at = m.at(f)
                if f == "zone":
                    self._zone(c, x, at)
                elif f == "damage":
                    c.type(x, int, at, "'damage'")
                elif f in ("controller", "owner"):
                    self._player(c, x, at)
                elif f in ("type", "damage_type"):
                    c.type(x, str, at, f"'{f}'")
                elif f in ("cost", "atk", "health"):
                    c.type(x, int, at, f"'{f}'")
                elif f == "attached_to":
                    if x is not None:
                        self._ref(c, x, at)
                else:
                    c.type(x, bool, at, f"'{f}'")

    def _zone(self, c: Checker, zone: Any, line: int) -> None:
        c.type(zone, str, line, "a zone")
        if zone not in ZONES:
            raise c.error(line, f"unknown zone {zone!r}; zones: {', '.join(ZONES)}")

    # running ---------------------------------------------------------------

    def start(self, scenario: Scenario) -> "WowSession":
        # The static checks above keep per-file state; set it again for this file.
        self.check_situation(Checker(scenario.path), scenario.situation)
        return WowSession(scenario, self)


ADAPTER = WowAdapter()


# --- running ---------------------------------------------------------------------------------


class WowSession(Session):
    def __init__(self, scenario: Scenario, adapter: WowAdapter):
        self.path = scenario.path
        self.adapter = adapter
        self.model: ModelFollower | None = None
        self.resolved: list[str] = []
        self.interrupted: list[str] = []
        s = scenario.situation
        heroes = s["players"]
        self.n = len(heroes)
        names = [h["hero"] if isinstance(h, Map) else h for h in heroes]

        def per_player(key: str) -> dict[int, Any]:
            return {int(p[1:]) - 1: v for p, v in sorted(s.get(key, Map()).items())}

        if s.get("start"):
            self._start(s, names, per_player)
        else:
            self._arrange(s, names, per_player)
        # Reading: arrange takes no hero state, so it is applied once the first
        # window has opened; the next pre-priority check sees it (409.5).
        for i, h in enumerate(heroes):
            if isinstance(h, Map):
                hero = self.st.objs[self.st.players[i].hero]
                hero.damage = h.get("damage", 0)
                hero.exhausted = h.get("exhausted", False)
                hero.flipped = h.get("flipped", False)
        # The script's steps are checked in the model too, where it covers the
        # situation; a prelude's steps as well, where the model waits for a
        # player before them (a prelude may stop where it does not: Green Whelp
        # Armor's at the armor's choice, which the model folds into combat, 304.2).
        prelude = s.get("prelude", Seq())
        if prelude:
            self.model = self._follower(s)
        for j, step in enumerate(prelude):
            self.act(step, s["prelude"].at(j))
        self.resolved.clear()
        self.interrupted.clear()
        if self.model is None or not self.model.following:
            self.model = self._follower(s)

    def _follower(self, s: Map) -> ModelFollower:
        """The model's reading of this game; a team game is beyond it (its
        players are each on his own), so it does not follow one."""
        model = ModelFollower(self.st)
        if "teams" in s:
            model.leaves_the_model("teams (basic rules, multiplayer): the model seats every player on his own")
        return model

    def _start(self, s: Map, names: list[str], per_player) -> None:
        """The real start of the game (101.1-101.2): the engine's game with these
        heroes and legal sealed decks, before the first player is chosen."""
        decks = {p: [FILLER] * START_DECK for p in range(self.n)}
        decks.update({p: list(es) for p, es in per_player("decks").items()})
        try:
            self.st = WowTcgGame(players=self.n, pool=pool()).new_initial_state(
                s.get("seed", 0), decks=[Deck(names[p], decks[p]) for p in range(self.n)], deck_format="sealed")
        except EngineSetupError as exc:
            raise ScenarioFileError(self.path, s.line, f"the engine can't start this game: {exc}") from None
        self.aliases = {}

    def _arrange(self, s: Map, names: list[str], per_player) -> None:
        """A game set up in its middle with the engine's `arrange`."""
        play = {p: [self._arrange_entry(e) for e in es] for p, es in per_player("play").items()}
        hands = {p: [e if isinstance(e, str) else e["card"] for e in es] for p, es in per_player("hands").items()}
        graveyards = {p: [e if isinstance(e, str) else e["card"] for e in es] for p, es in per_player("graveyards").items()}
        decks = {p: [FILLER] * MID_GAME_DECK for p in range(self.n)}
        decks.update({p: list(es) for p, es in per_player("decks").items()})
        tops = per_player("deck_tops")
        for p, names_on_top in tops.items():
            decks[p] = decks[p] + list(names_on_top)
        # The step goes to the engine as read from the file, not as a literal of
        # this module: an engine that compares steps by identity is then caught.
        resources = {p: v if isinstance(v, Map) else {"ready": v} for p, v in per_player("resources").items()}
        try:
            self.st = arrange(
                names, play=play, hands=hands, decks=decks,
                resources={p: v.get("ready", 0) for p, v in resources.items()},
                exhausted_resources={p: v.get("exhausted", 0) for p, v in resources.items()},
                graveyards=graveyards,
                turn_player=int(s.get("turn_player", "P1")[1:]) - 1, step=s.get("step", "action_phase"),
                turn=s.get("turn", 3), pool=pool(), seed=s.get("seed", 0),
                teams=[list(dict.fromkeys(s["teams"])).index(t) for t in s["teams"]] if "teams" in s else None,
            )
        except (KeyError, ValueError) as exc:
            raise ScenarioFileError(self.path, s.line, f"the engine can't set this situation up: {exc}") from None
        # Reading: arrange shuffles every deck (413.4b); the cards given in
        # deck_tops are then stacked on top, the first listed on top (the end
        # of the engine's deck list). They were created last for their player,
        # so they are his deck's highest ids.
        for p, names_on_top in tops.items():
            deck = self.st.players[p].deck
            top_ids = sorted(deck)[len(deck) - len(names_on_top):]
            deck[:] = [i for i in deck if i not in top_ids] + top_ids[::-1]
        self.aliases = self._name_entries(s, decks, per_player)

    def _arrange_entry(self, e: Any) -> Any:
        if isinstance(e, str):
            return e
        out = {"name": e["token"], "token": True} if "token" in e else {"name": e["card"]}
        if "owner" in e:
            out["owner"] = int(e["owner"][1:]) - 1
        for key in ("damage", "exhausted", "new"):
            if key in e:
                out[key] = e[key]
        if "on" in e:
            on = e["on"]
            m = OWNED.match(on)
            out["on"] = [int(m.group(1)) - 1, m.group(2)] if m else on
        return out

    def _name_entries(self, s: Map, decks: dict, per_player) -> dict[str, int]:
        """The object ids of the entries given a name with 'as'. arrange creates
        the heroes and decks first, then the hands, resources and cards in play
        in the order given; each id found is checked against its card's name."""
        next_id = self.n + sum(len(d) for d in decks.values())
        aliases: dict[str, int] = {}

        def take(entry: Any) -> None:
            nonlocal next_id
            name = entry if isinstance(entry, str) else entry.get("card", entry.get("token"))
            o = self.st.objs[next_id]
            if o.card.name != name:
                raise ScenarioFileError(self.path, s.line, f"internal: expected {name!r} as card {next_id}, found {o.card.name!r}")
            if isinstance(entry, Map) and "as" in entry:
                aliases[entry["as"]] = next_id
            next_id += 1

        for _, entries in per_player("hands").items():
            for e in entries:
                take(e)
        next_id += sum(v if isinstance(v, int) else sum(v.values()) for v in per_player("resources").values())
        for key in ("play", "graveyards"):  # arrange makes the graveyards' cards last
            for _, entries in per_player(key).items():
                for e in entries:
                    take(e)
        return aliases

    # names -----------------------------------------------------------------

    def pname(self, p: int | None) -> str:
        return "nobody" if p is None else f"P{p + 1}"

    def link_text(self, link) -> str:
        # The engine's own wording for a link (its history uses it for interruptions).
        st = self.st
        if link.kind == "proposal":
            return f"{self.pname(link.controller)} proposal {st.objs[link.attacker].name} -> {st.objs[link.defender].name}"
        if link.kind == "reward":  # a quest's reward: the quest is face down by then, its reward still its own
            return f"{self.pname(link.controller)} reward {st.objs[link.source].card.name}"
        source = st.objs[link.source].name if link.source is not None else "?"
        return f"{self.pname(link.controller)} {link.kind} {source}"

    def candidates(self, ref: str) -> list[int]:
        """Object ids a reference may mean. "P2's X" is P2's card X: the one he
        controls in play or on the chain, the one he owns elsewhere. Cards in a
        deck are never meant (decks are shuffled and hidden)."""
        if ref in self.aliases:
            return [self.aliases[ref]]
        m = OWNED.match(ref)
        player, name = (int(m.group(1)) - 1, m.group(2)) if m else (None, ref)
        out = []
        for o in self.st.objs:
            if o.card.name != name or o.zone == "deck":
                continue
            whose = o.controller if o.zone in ("play", "chain") else o.owner
            if player is None or whose == player:
                out.append(o.id)
        return out

    def one(self, ref: str, line: int, what: str = "") -> int | None:
        ids = self.candidates(ref)
        if len(ids) > 1:
            raise ScenarioFileError(self.path, line, f"{ref!r} could mean {len(ids)} cards{what}: give them names with 'as' in the situation")
        return ids[0] if ids else None

    # actions ----------------------------------------------------------------

    def describe_step(self, step: Any) -> str:
        if isinstance(step, str):
            return step
        if isinstance(step, Map) and EVERYONE_PASSES in step:
            return f"{EVERYONE_PASSES} x{step[EVERYONE_PASSES]}"
        return ", ".join(f"{k}: {v}" for k, v in step.items())

    def act(self, step: Any, line: int) -> None:
        if step == EVERYONE_PASSES:
            self._everyone_passes(line)
        elif isinstance(step, str) and CONCEDES.match(step):
            self._concede(step, line)
        elif isinstance(step, str):
            self._apply(self._match_label(step, line), line)
        elif EVERYONE_PASSES in step:
            for _ in range(step[EVERYONE_PASSES]):
                self._everyone_passes(line)
        elif PASS_UNTIL in step:
            self._pass_until(step[PASS_UNTIL], line)
        else:
            # Applied as the file spells it: the kind is the text read from the
            # file, equal to the engine's own (apply_action takes any equal
            # Action, as from a replayed trace), never the engine's object.
            self._apply(dataclasses.replace(self._match_fields(step, line), kind=step["kind"]), line)

    def _everyone_passes(self, line: int) -> None:
        """409.4: each player in the game passes once, in turn, starting with
        the priority holder."""
        for _ in range(self.st.in_game_count()):
            self._apply(self._match_label(f"{self.pname(self.st.priority)} passes", line, "everyone passes: "), line)

    def _pass_until(self, until: Map, line: int) -> None:
        for _ in range(MOST_PASSES):
            if self._reached(until):
                return
            self._apply(self._match_label(f"{self.pname(self.st.priority)} passes", line, "pass until: "), line)
        if not self._reached(until):
            raise RulingFailed("", [Mismatch(line, f"after {MOST_PASSES} passes the state", dict(until), self._now())],
                               self.snapshot())

    def _now(self) -> dict:
        st = self.st
        return {"turn_player": self.pname(st.turn_player), "step": st.step, "turn": st.turn_number,
                "priority": self.pname(st.priority)}

    def _reached(self, until: Map) -> bool:
        now = self._now()
        return all(now[k] == v for k, v in until.items())

    def _offered(self) -> str:
        labels = [str(a) for a in self.st.legal_actions()]
        if self.st.is_terminal():
            return "the game is over: no action is legal"
        waiting = f" ({self.st.decision.kind}, {self.st.decision.rule})" if self.st.decision else ""
        return f"legal actions now{waiting}: " + "; ".join(repr(x) for x in labels)

    def _match_label(self, label: str, line: int, prefix: str = "") -> Action:
        found = [a for a in self.st.legal_actions() if str(a) == label]
        return self._exactly_one(found, line, f"{prefix}{label!r}")

    def _exactly_one(self, found: list[Action], line: int, what: str) -> Action:
        if len(found) == 1:
            return found[0]
        if not found:
            raise ScenarioFileError(self.path, line, f"{what} matches no legal action; {self._offered()}")
        if self._interchangeable(found):
            return found[0]
        raise ScenarioFileError(
            self.path, line,
            f"{what} matches {len(found)} legal actions that are not the same (different cards of one name): "
            "give the cards names with 'as' and write the action by its fields (player, kind, card, target)")

    def _interchangeable(self, found: list[Action]) -> bool:
        """Copies of one card in a hand can't be told apart: playing either is
        the same action. Nothing else is."""
        first = found[0]
        for a in found:
            if (a.kind, a.player, a.targets, a.x, a.option) != (first.kind, first.player, first.targets, first.x, first.option):
                return False
            if a.subject is None or self.st.objs[a.subject].zone != "hand" or \
                    self.st.objs[a.subject].card.name != self.st.objs[first.subject].card.name:
                return False
        return True

    def _ids(self, ref: str, players: bool = True) -> set[int]:
        if players and PLAYER.match(ref) and ref not in self.aliases:
            return {int(ref[1:]) - 1}
        return set(self.candidates(ref))

    def _match_fields(self, a: Map, line: int) -> Action:
        player = int(a["player"][1:]) - 1
        found = []
        targets = [a["target"]] if "target" in a else list(a.get("targets", []))
        for act in self.st.legal_actions():
            if act.player != player or act.kind != a["kind"]:
                continue
            if "card" in a and self._about(act) not in self._ids(a["card"]):
                continue
            if ("target" in a or "targets" in a) and (
                    len(act.targets) != len(targets) or any(t not in self._ids(r) for t, r in zip(act.targets, targets))):
                continue
            if "x" in a and act.x != a["x"]:
                continue
            option = self._option(a)
            if option is not _ANY:
                if isinstance(option, str):
                    if act.option not in self._ids(option):
                        continue
                elif act.option != option or type(act.option) is not type(option):
                    continue
            found.append(act)
        return self._exactly_one(found, line, f"the action {{{self.describe_step(a)}}}")

    def _about(self, act: Action) -> int | None:
        """The card an action is about: its subject, or for the order of
        waiting effects the card whose effect it adds."""
        if act.kind == "order_trigger":
            return self.st.waiting[act.option].source
        return act.subject

    def _option(self, a: Map) -> Any:
        if "option" in a:
            return a["option"]
        if "sabotage" in a:
            return a["sabotage"]
        if "face_up" in a:
            return a["face_up"]
        return _ANY

    def _apply(self, action: Action, line: int) -> None:
        st = self.st
        if self.model is not None:
            self.model.before(st, action)

        def act() -> None:
            try:
                st.apply_action(action)
            except IllegalAction as exc:
                raise RulingFailed("", [Mismatch(line, f"the engine offered {str(action)!r} as legal, then refused it",
                                                 "accepted", f"IllegalAction {exc.rule}: {exc.reason}")], self.snapshot()) from None
            if self.model is not None and self.model.after(st):
                raise RulingFailed("", [Mismatch(line, f"the model's reading of {str(action)!r}", "a step the model allows",
                                                 self.model.verdict())], self.snapshot())

        self._noting_links(act)

    def _concede(self, step: str, line: int) -> None:
        """102.1b: a player may concede at any time, even while another must act,
        so it is no legal action the engine offers: its ``concede``. The model
        has no concession (102.1b is not-modelled): it stops following here."""
        if self.model is not None:
            self.model.leaves_the_model(f"{step}: the model has no concession (102.1b)")

        self._noting_links(lambda: concede(self, self.st, step, line, "102.1b", IllegalAction))

    def _noting_links(self, act: Callable[[], None]) -> None:
        """Do ``act``, then note each link that left the chain, resolved or interrupted."""
        st = self.st
        before = {link.id: self.link_text(link) for link in st.chain}
        order = [link.id for link in reversed(st.chain)]  # top first
        seen = len(st.history)
        act()
        after = {link.id for link in st.chain}
        new_lines = st.history[seen:]
        for lid in order:
            if lid in after:
                continue
            text = before[lid]
            gone = not st.players[int(text.split(" ")[0][1:]) - 1].in_game  # 102.2: his links are interrupted
            if gone or any(h.startswith(f"{text} is interrupted") for h in new_lines):
                self.interrupted.append(text)
            else:
                self.resolved.append(text)

    # illegal actions -----------------------------------------------------------

    def build(self, a: Map, line: int) -> Action:
        """The engine Action the fields describe, legal or not."""
        player = int(a["player"][1:]) - 1
        kind = a["kind"]
        subject = None
        if "card" in a:
            ref = a["card"]
            if PLAYER.match(ref) and ref not in self.aliases:
                subject = int(ref[1:]) - 1
            else:
                ids = self.candidates(ref)
                if kind in ("play", "resource", "discard"):
                    ids = [i for i in ids if i in self.st.players[player].hand] or ids
                else:
                    ids = [i for i in ids if self.st.objs[i].zone == "play"] or ids
                if not ids:
                    raise ScenarioFileError(self.path, a.at("card"), f"no card {ref!r} in the game now")
                if len(ids) > 1 and not all(self.st.objs[i].zone == "hand" for i in ids):
                    raise ScenarioFileError(self.path, a.at("card"), f"{ref!r} could mean {len(ids)} cards: give them names with 'as'")
                subject = ids[0]
        targets = []
        for ref in ([a["target"]] if "target" in a else list(a.get("targets", []))):
            if PLAYER.match(ref) and ref not in self.aliases:
                targets.append(int(ref[1:]) - 1)
                continue
            t = self.one(ref, line)
            if t is None:
                raise ScenarioFileError(self.path, line, f"no card {ref!r} in the game now")
            targets.append(t)
        option = self._option(a)
        if option is _ANY:
            option = 0 if kind == "power" else (False if kind in ("propose", "resource") else None)
        elif isinstance(option, str):
            option = self.one(option, line)
        return Action(kind, player, subject, tuple(targets), a.get("x", 0), option)

    def illegal(self, step: Map, line: int) -> list[Mismatch]:
        return self._check_illegal(step["illegal"], illegal_rules(step), line)

    def _check_illegal(self, fields: Map, rules: tuple[str, ...], line: int) -> list[Mismatch]:
        action = self.build(fields, line)
        what = f"the action {{{self.describe_step(fields)}}}"
        by = f"illegal by {show_rules(rules)}"
        if action in self.st.legal_actions():
            return [Mismatch(line, what, by, "offered as a legal action")]
        allowed = self.model.allows(self.st, action) if self.model is not None else ""
        if allowed:
            return [Mismatch(line, what, f"{by}, in the model too", f"the model allows it as {allowed}")]
        trial = self.st.clone()  # a refused action changes nothing, but stay safe
        try:
            trial.apply_action(action)
        except IllegalAction as exc:
            if exc.rule not in rules:
                return [Mismatch(line, what, by, f"illegal by {exc.rule} ({exc.reason})")]
            return []
        return [Mismatch(line, what, by, "accepted by the engine")]

    # expectations ---------------------------------------------------------------

    def model_verdict(self) -> str:
        assert self.model is not None, "set at the end of __init__"
        return self.model.verdict()

    def snapshot(self) -> str:
        tail = self.st.history[-8:]
        return str(self.st) + ("\nlast events: " + " | ".join(tail) if tail else "")

    def expect(self, e: Map) -> list[Mismatch]:
        st = self.st
        out: list[Mismatch] = []

        def check(key: str, expected: Any, actual: Any, what: str | None = None, line: int | None = None) -> None:
            if expected != actual:
                out.append(Mismatch(line or e.at(key), what or key, expected, actual))

        for key, v in e.items():
            line = e.at(key)
            if key == "priority":
                check(key, "nobody" if v is None else v, self.pname(st.priority))
            elif key == "current_player":
                check(key, v, self._current_player())
            elif key == "turn_player":
                check(key, v, self.pname(st.turn_player))
            elif key == "turn":
                check(key, v, st.turn_number)
            elif key == "step":
                check(key, v, st.step)
            elif key == "passes":
                check(key, v, st.passes)
            elif key == "terminal":
                check(key, v, st.is_terminal())
            elif key == "returns":
                check(key, [float(x) for x in v], st.returns())
            elif key == "decision":
                d = st.decision
                if v in (None, "none"):
                    check(key, "none", "none" if d is None else f"{d.kind} by {self.pname(d.player)} ({d.rule})")
                elif d is None:
                    check(key, dict(v), "none")
                else:
                    actual = {"kind": d.kind, "player": self.pname(d.player), "rule": d.rule}
                    check(key, dict(v), {k: actual[k] for k in v})
            elif key == "chain":
                check(key, list(v), [self.link_text(link) for link in st.chain], "chain (bottom first)")
            elif key == "resolved":
                check(key, list(v), self.resolved, "links resolved, in order")
            elif key == "interrupted":
                check(key, list(v), self.interrupted, "links interrupted, in order")
            elif key == "combat":
                c = st.combat
                if v in (None, "none"):
                    check(key, "none", "none" if c is None else "a combat")
                elif c is None:
                    check(key, dict(v), "none")
                else:
                    for role in ("attacker", "defender"):
                        if role in v:
                            want = None if v[role] is None else self.one(v[role], v.at(role))
                            got = getattr(c, role)
                            if want != got:
                                out.append(Mismatch(v.at(role), f"combat {role}", v[role],
                                                    "none" if got is None else st.describe(st.objs[got])))
                    for flag in ("defending", "sabotage"):
                        if flag in v:
                            check(key, v[flag], getattr(c, flag), f"combat {flag}", v.at(flag))
            elif key in ("cards", "zones", "damage", "exhausted"):
                for ref, want in v.items():
                    fields = want if key == "cards" else {{"zones": "zone"}.get(key, key): want}
                    self._card_state(ref, fields, v.at(ref), out)
            elif key == "ready_resources":
                for p, n in v.items():
                    check(key, n, st.ready_resources(int(p[1:]) - 1), f"{p}'s ready resources", v.at(p))
            elif key == "hand":
                for p, n in v.items():
                    check(key, n, len(st.players[int(p[1:]) - 1].hand), f"{p}'s cards in hand", v.at(p))
            elif key == "graveyard":
                for p, names in v.items():
                    got = [st.objs[i].name for i in st.players[int(p[1:]) - 1].graveyard]
                    check(key, list(names), got, f"{p}'s graveyard (oldest first)", v.at(p))
            elif key == "results":
                for p, r in v.items():
                    got = st.players[int(p[1:]) - 1].result or "playing"
                    check(key, r, got, f"{p}'s result", v.at(p))
            elif key in ("legal", "not_legal", "legal_exactly"):
                labels = [str(a) for a in st.legal_actions()]
                if key == "legal_exactly":
                    check(key, sorted(v), sorted(labels), "the legal actions")
                if key != "legal_exactly":
                    out.extend(legal_mismatches(key, v, labels))
            elif key == "illegal":
                for i, x in enumerate(v):
                    out.extend(self._check_illegal(x["action"], illegal_rules(x), v.at(i)))
            elif key == "deck_legality":
                # 100.1-100.4: the rules the deck breaks, as the engine's deck check finds them.
                for i, x in enumerate(v):
                    d = x["deck"]
                    found = validate_deck(Deck.from_counts(d["hero"], d["cards"], d.get("sideboard")), pool(), format=d["format"])
                    check(key, sorted(set(x["violations"])), sorted({f.rule for f in found}),
                          f"the rules {d['hero']}'s {d['format']} deck breaks", v.at(i))
            elif key == "events":
                # an ordered subsequence of the history lines
                pos = 0
                for i, pattern in enumerate(v):
                    patterns = list(pattern) if isinstance(pattern, list) else [pattern]
                    while pos < len(st.history) and not all(fnmatch.fnmatchcase(st.history[pos], p) for p in patterns):
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

    def _current_player(self) -> str:
        """`state.current_player()` in the file's words: the player to act
        (holding priority or owing a decision), or TERMINAL for OpenSpiel's
        terminal id; anything else the protocol does not allow is shown as is."""
        p = self.st.current_player()
        if type(p) is int and p == TERMINAL_ID:
            return TERMINAL
        if type(p) is int and 0 <= p < self.n:
            return self.pname(p)
        return repr(p)

    def _card_state(self, ref: str, fields: dict, line: int, out: list[Mismatch]) -> None:
        ids = self.candidates(ref)
        if not ids:
            out.append(Mismatch(line, ref, fields, "no such card in the game"))
            return
        values = [self._observe(self.st.objs[i], fields) for i in ids]
        if any(v != values[0] for v in values[1:]):
            raise ScenarioFileError(self.path, line, f"{ref!r} could mean {len(ids)} cards in different states: "
                                                     "give them names with 'as' in the situation")
        got = values[0]
        for f, want in fields.items():
            if f == "attached_to" and want is not None:
                want = self.one(want, line)
                want = None if want is None else self.st.describe(self.st.objs[want])
            if got[f] != want:
                out.append(Mismatch(line, f"{ref} {f}", fields[f], got[f]))

    def _observe(self, o, fields: dict) -> dict:
        st = self.st
        out = {}
        for f in fields:
            if f == "zone":
                out[f] = o.zone
            elif f in ("controller", "owner"):
                out[f] = self.pname(getattr(o, f))
            elif f == "attached_to":
                out[f] = None if o.attached_to is None else st.describe(st.objs[o.attached_to])
            elif f in PRINTED:
                out[f] = getattr(o.card, f)
            else:
                out[f] = getattr(o, f)
        return out


_ANY = object()

"""Riftbound scenarios: the adapter between scenario files and the reference
engine (`engine/riftbound`). The shared runner (`scenarios/runner.py`) reads
the file, checks the common fields and walks the script; this module checks
the Riftbound parts, sets the situation up, matches each scripted action to
the engine's legal actions by its label, and reads the expectations.

    situation:
      players: 2                          # 2 (default) or 3
      battlefields:                       # default: two, nobody's
        - {controller: P2, contested_by: P1}
        - {}
      turn_player: P1                     # P1 by default; turn: 1, victory_points: 8
      units:
        P1: {bf1: [Quarry Brute], base: [{card: Kayn, moved: 1}], hand: [Border Scout]}
        P2: {bf1: [{card: Caitlyn, grant: [tank], as: Tank Caitlyn}, Hill Raider]}
      points: {P1: 2}
      scored: {P1: [bf1]}
      spells: {P2: 1}
      reactions: {P1: 1}                  # spells cast on a chain (assumed:chain-reactions)
      action_spells: {P1: 1}              # recalls and plays in the action phase (assumed:action-spells)
    script:
      - P1 starts combat at bf1           # a label, as state.action_label reads it
      - everyone passes                   # each player passes once, from the focus holder
                                          # (on a chain: each player asked, until its top link resolves)
      - {illegal: "P1 assigns Tank Caitlyn 1, Hill Raider 4", rule: damage.exclusive}
      - P1 assigns Tank Caitlyn 3, Hill Raider 2   # in the order handed out; zeros may be left out
      - expect: {step: damage, assigning: P2}

A unit is named by its card (or its `as` name) when that is unambiguous at the
table, else as "P2's Hill Raider". See scenarios/riftbound/README.md for the
expectations.
"""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path
from typing import Any

import yaml

from agreement.riftbound.follow import ModelFollower
from engine.riftbound import Action, EngineSetupError, IllegalAction, RiftboundGame, load_pool
from scenarios.runner import (
    EVERYONE_PASSES, Checker, GameAdapter, Map, Mismatch, RulingFailed, Scenario, ScenarioFileError, Seq, Session,
    check_illegal_rules, illegal_rules, kind_of, legal_mismatches, model_disagrees, show_rules,
)

RULES_FILE = Path(__file__).resolve().parents[2] / "model" / "riftbound" / "rules.yaml"
SITUATION_FIELDS = ("players", "battlefields", "turn_player", "turn", "victory_points", "units", "points", "scored",
                    "spells", "reactions", "action_spells")
UNIT_FIELDS = ("card", "as", "damage", "stunned", "moved", "grant", "might")
ZONES = ("hand", "base", "trash")
STEPS = ("action", "cleanup", "showdown", "chain", "damage", "game_over")
ROLES = ("attacker", "defender", "none")
UNIT_STATE = ("zone", "damage", "role", "might", "stunned", "moved", "buffed", "immune", "tank", "last", "rallying",
              "indestructible")
EXPECT_FIELDS = ("step", "turn", "turn_player", "current_player", "winner", "terminal", "returns", "combat",
                 "focus", "passes", "attacker", "defender", "assigning", "assigned", "to_choose", "pending_combats", "roles", "zones",
                 "damage", "units", "controllers", "contested", "points", "scored", "spells", "reactions", "action_spells",
                 "chain", "legal", "not_legal", "legal_exactly", "assignments", "illegal", "events")
PLAYER = re.compile(r"^P([1-9])$")
OWNED = re.compile(r"^P([1-9])'s (.+)$")
BF = re.compile(r"^bf([1-9])$")
ASSIGN = re.compile(r"^P([1-9]) assigns (.+)$")
TERMINAL = "terminal"

_RULES: set[str] | None = None
_POOL = None


def rule_ids() -> set[str]:
    global _RULES
    if _RULES is None:
        _RULES = {r["id"] for r in yaml.safe_load(RULES_FILE.read_text(encoding="utf-8"))["rules"]}
    return _RULES


def pool():
    global _POOL
    if _POOL is None:
        _POOL = load_pool()
    return _POOL


def _none(v: Any) -> bool:
    return v is None or v == "none"


class RiftboundAdapter(GameAdapter):
    name = "riftbound"

    def check_rule_number(self, c: Checker, rule: str, line: int) -> None:
        if rule not in rule_ids():
            raise c.error(line, f"unknown rule id {rule!r}: not in {RULES_FILE.name} (write ids like 'damage.lethal-first')")

    # situation -----------------------------------------------------------------------

    def check_situation(self, c: Checker, s: Map) -> None:
        c.fields(s, s.line, "'situation'", (), SITUATION_FIELDS)
        self.n = c.type(s.get("players", 2), int, s.at("players"), "'players'")
        if self.n not in (2, 3):
            raise c.error(s.at("players"), f"'players' is {self.n}: the engine seats 2 or 3")
        bfs = c.seq(s.get("battlefields", Seq()), s.at("battlefields"), "'battlefields'") if "battlefields" in s else None
        self.bfs = len(bfs) if bfs is not None else 2
        if not 1 <= self.bfs <= 3:
            raise c.error(s.at("battlefields"), f"{self.bfs} battlefields: the engine has 1 to 3")
        for i, b in enumerate(bfs or ()):
            c.fields(b, bfs.at(i), f"battlefield bf{i + 1}", (), ("controller", "contested_by"))
            for key in b:
                self._player_or_none(c, b[key], b.at(key), f"bf{i + 1}'s {key}")
        for key in ("turn", "victory_points"):
            if key in s and c.type(s[key], int, s.at(key), f"'{key}'") < 1:
                raise c.error(s.at(key), f"'{key}' must be at least 1")
        if "turn_player" in s:
            self.player(c, s["turn_player"], s.at("turn_player"))
        self.names: dict[int, list[str]] = {p: [] for p in range(self.n)}
        units = c.fields(s.get("units", Map()), s.at("units"), "'units'", (), self._players()) if "units" in s else Map()
        for p_name, zones in units.items():
            p = int(p_name[1:]) - 1
            zones = c.fields(zones, units.at(p_name), f"{p_name}'s units", (), ZONES + self._bf_names())
            for zone, entries in zones.items():
                entries = c.seq(entries, zones.at(zone), f"{p_name}'s {zone}")
                for j, e in enumerate(entries):
                    self._unit_entry(c, e, entries.at(j), p)
        for key in ("points", "spells", "reactions", "action_spells"):
            if key in s:
                m = c.fields(s[key], s.at(key), f"'{key}'", (), self._players())
                for p_name in m:
                    if c.type(m[p_name], int, m.at(p_name), f"{p_name}'s {key}") < 0:
                        raise c.error(m.at(p_name), f"{p_name}'s {key} can't be negative")
        if "scored" in s:
            m = c.fields(s["scored"], s.at("scored"), "'scored'", (), self._players())
            for p_name in m:
                bfl = c.seq(m[p_name], m.at(p_name), f"{p_name}'s scored battlefields")
                for j, b in enumerate(bfl):
                    self.bf(c, b, bfl.at(j))

    def _players(self) -> list[str]:
        return [f"P{i + 1}" for i in range(self.n)]

    def _bf_names(self) -> tuple[str, ...]:
        return tuple(f"bf{i + 1}" for i in range(self.bfs))

    def _unit_entry(self, c: Checker, e: Any, line: int, p: int) -> None:
        if isinstance(e, str):
            e_card, alias = e, None
        else:
            c.fields(e, line, "a unit", ("card",), UNIT_FIELDS)
            e_card = c.type(e["card"], str, e.at("card"), "'card'")
            alias = c.text(e, "as", "the unit's") if "as" in e else None
            if "damage" in e and c.type(e["damage"], int, e.at("damage"), "'damage'") < 0:
                raise c.error(e.at("damage"), "'damage' can't be negative")
            if "might" in e and c.type(e["might"], int, e.at("might"), "'might'") not in range(7):
                raise c.error(e.at("might"), "'might' (set by an effect) is from 0 to 6")
            if "stunned" in e:
                c.type(e["stunned"], bool, e.at("stunned"), "'stunned'")
            if "moved" in e:
                c.type(e["moved"], (bool, int), e.at("moved"), "'moved' (true/false or a number of moves)")
            if "grant" in e:
                grants = c.seq(e["grant"], e.at("grant"), "'grant'")
                for j, g in enumerate(grants):
                    if g not in ("tank", "last", "immune", "rallying", "indestructible"):
                        raise c.error(grants.at(j), f"unknown keyword {g!r}: grant tank, last, immune, rallying "
                                                    "or indestructible")
        if e_card not in pool():
            raise c.error(line if isinstance(e, str) else e.at("card"),
                          f"unknown card {e_card!r}; cards: {', '.join(pool().names())}")
        name = alias or e_card
        if PLAYER.match(name) or OWNED.match(name) or BF.match(name):
            raise c.error(line, f"{name!r} can't name a unit: it reads as a player or a battlefield")
        if name in self.names[p]:
            raise c.error(line, f"P{p + 1} has two units named {name!r}: give one a name with 'as'")
        self.names[p].append(name)

    def player(self, c: Checker, v: Any, line: int, what: str = "a player") -> int:
        c.type(v, str, line, what)
        m = PLAYER.match(v)
        if not m or not 1 <= int(m.group(1)) <= self.n:
            raise c.error(line, f"{v!r} is not a player here: write P1 to P{self.n}")
        return int(m.group(1)) - 1

    def _player_or_none(self, c: Checker, v: Any, line: int, what: str) -> None:
        if not _none(v):
            self.player(c, v, line, what)

    def bf(self, c: Checker, v: Any, line: int) -> int:
        c.type(v, str, line, "a battlefield")
        m = BF.match(v)
        if not m or not 1 <= int(m.group(1)) <= self.bfs:
            raise c.error(line, f"{v!r} is not a battlefield here: write bf1 to bf{self.bfs}")
        return int(m.group(1)) - 1

    def unit_ref(self, c: Checker, ref: Any, line: int) -> None:
        c.type(ref, str, line, "a unit")
        m = OWNED.match(ref)
        if m:
            p = self.player(c, f"P{m.group(1)}", line)
            if m.group(2) not in self.names[p]:
                raise c.error(line, f"P{p + 1} has no unit named {m.group(2)!r}; P{p + 1}'s units: {', '.join(self.names[p])}")
            return
        owners = [p for p, names in self.names.items() if ref in names]
        if not owners:
            every = sorted({x for names in self.names.values() for x in names})
            raise c.error(line, f"no unit named {ref!r} at this table; units: {', '.join(every)}")
        if len(owners) > 1:
            raise c.error(line, f"{ref!r} could be {len(owners)} players' units: write \"P{owners[0] + 1}'s {ref}\"")

    # steps -----------------------------------------------------------------------------

    def check_step(self, c: Checker, step: Any, line: int, situation: Map) -> None:
        if isinstance(step, str):
            self.check_label(c, step, line, self.n)
            return
        if isinstance(step, Map) and "illegal" in step:
            c.fields(step, line, "an illegal step", ("illegal", "rule"))
            self.check_label(c, c.type(step["illegal"], str, step.at("illegal"), "'illegal' (an action's label)"), step.at("illegal"), self.n)
            check_illegal_rules(c, self, step)
            return
        raise c.error(line, f"a script step is an action's label, '{EVERYONE_PASSES}', or an expect or illegal mapping; "
                            f"got {kind_of(step)}")

    # expectations ------------------------------------------------------------------------

    def check_expect(self, c: Checker, e: Map, situation: Map) -> None:
        if "pending" in e:
            raise c.error(e.at("pending"), "'pending' could mean two things: write 'to_choose' for the combats the turn "
                                           "player must choose from now (combat.pending.order), or 'pending_combats' for "
                                           "every combat pending on the table (combat.pending)")
        c.fields(e, e.line, "'expect'", (), EXPECT_FIELDS)
        for key, v in e.items():
            line = e.at(key)
            if key == "step" and v not in STEPS:
                raise c.error(line, f"unknown step {v!r}; steps: {', '.join(STEPS)}")
            elif key in ("turn", "passes"):
                c.type(v, int, line, f"'{key}'")
            elif key == "terminal":
                c.type(v, bool, line, "'terminal'")
            elif key == "turn_player":
                self.player(c, v, line)
            elif key == "current_player" and v != TERMINAL:
                self.player(c, v, line, f"'current_player' (a player or {TERMINAL!r})")
            elif key in ("winner", "focus", "attacker", "defender", "assigning"):
                self._player_or_none(c, v, line, f"'{key}'")
            elif key == "returns":
                vs = c.seq(v, line, "'returns'")
                if len(vs) != self.n:
                    raise c.error(line, f"'returns' lists {len(vs)} values for {self.n} players")
            elif key == "combat":
                if not _none(v):
                    m = c.fields(v, line, "'combat'", (), ("battlefield", "attacker", "defender", "focus", "passes", "assigning",
                                                           "closed"))
                    for k, x in m.items():
                        if k == "battlefield":
                            self.bf(c, x, m.at(k))
                        elif k == "passes":
                            c.type(x, int, m.at(k), "'passes'")
                        elif k == "closed":
                            c.type(x, bool, m.at(k), "'closed' (whether a chain is on the table in the showdown)")
                        else:
                            self._player_or_none(c, x, m.at(k), f"combat {k}")
            elif key in ("to_choose", "pending_combats"):
                vs = c.seq(v, line, f"'{key}'")
                for i, x in enumerate(vs):
                    self.bf(c, x, vs.at(i))
            elif key in ("roles", "zones", "damage", "units", "assigned"):
                m = c.fields(v, line, f"'{key}'", (), list(v) if isinstance(v, Map) else ())
                for ref, x in m.items():
                    self.unit_ref(c, ref, m.key_lines[ref])
                    self._unit_value(c, key, x, m.at(ref))
            elif key in ("controllers", "contested"):
                m = c.fields(v, line, f"'{key}'", (), self._bf_names())
                for b, x in m.items():
                    self._player_or_none(c, x, m.at(b), f"{b}'s {key}")
            elif key == "chain":
                vs = c.seq(v, line, "'chain'")
                for i, x in enumerate(vs):
                    c.type(x, str, vs.at(i), "a link of the chain (\"P1's Drum Herald's trigger\", \"P2's stun of P1's Kayn\")")
            elif key in ("points", "spells", "reactions", "action_spells"):
                m = c.fields(v, line, f"'{key}'", (), self._players())
                for p, x in m.items():
                    c.type(x, int, m.at(p), f"{p}'s {key}")
            elif key == "scored":
                m = c.fields(v, line, "'scored'", (), self._players())
                for p, x in m.items():
                    bfl = c.seq(x, m.at(p), f"{p}'s scored battlefields")
                    for j, b in enumerate(bfl):
                        self.bf(c, b, bfl.at(j))
            elif key in ("legal", "not_legal", "legal_exactly", "events"):
                vs = c.seq(v, line, f"'{key}'")
                for i, x in enumerate(vs):
                    c.type(x, str, vs.at(i), f"an entry of '{key}'")
            elif key == "assignments":
                vs = c.seq(v, line, "'assignments'")
                for i, x in enumerate(vs):
                    m = c.fields(x, vs.at(i), "an assignment", (), list(x) if isinstance(x, Map) else ())
                    for ref, n in m.items():
                        self.unit_ref(c, ref, m.key_lines[ref])
                        c.type(n, int, m.at(ref), "an amount")
            elif key == "illegal":
                vs = c.seq(v, line, "'illegal'")
                for i, x in enumerate(vs):
                    m = c.fields(x, vs.at(i), "an illegal action", ("action", "rule"))
                    self.check_label(c, c.type(m["action"], str, m.at("action"), "'action'"), m.at("action"), self.n)
                    check_illegal_rules(c, self, m)

    def _unit_value(self, c: Checker, key: str, x: Any, line: int) -> None:
        if key == "roles" and not (_none(x) or x in ROLES):
            raise c.error(line, f"unknown role {x!r}: attacker, defender or none")
        if key == "zones":
            self._zone(c, x, line)
        if key in ("damage", "assigned"):
            c.type(x, int, line, f"a {key} amount")
        if key == "units":
            m = c.fields(x, line, "a unit's expected state", (), UNIT_STATE)
            for f, y in m.items():
                if f == "zone":
                    self._zone(c, y, m.at(f))
                elif f == "role":
                    self._unit_value(c, "roles", y, m.at(f))
                elif f in ("damage", "might"):
                    c.type(y, int, m.at(f), f"'{f}'")
                else:
                    c.type(y, bool, m.at(f), f"'{f}'")

    def _zone(self, c: Checker, x: Any, line: int) -> None:
        if x not in ZONES and not (isinstance(x, str) and BF.match(x)):
            raise c.error(line, f"unknown zone {x!r}: hand, base, trash or bf1..bf{self.bfs}")
        if isinstance(x, str) and BF.match(x):
            self.bf(c, x, line)

    def start(self, scenario: Scenario) -> "RiftboundSession":
        self.check_situation(Checker(scenario.path), scenario.situation)  # per-file state, set again
        return RiftboundSession(scenario, self)


ADAPTER = RiftboundAdapter()


# --- running ------------------------------------------------------------------------------------


class RiftboundSession(Session):
    def __init__(self, scenario: Scenario, adapter: RiftboundAdapter):
        self.path = scenario.path
        s = scenario.situation
        self.n, n_bf = adapter.n, adapter.bfs
        setup, lines = self._setup(s, n_bf)
        game = RiftboundGame(players=self.n, battlefields=n_bf, victory_points=s.get("victory_points", 8), pool=pool())
        try:
            self.st = game.new_initial_state(setup)
        except EngineSetupError as exc:
            head = exc.field.split(".")[0]
            line = lines.get(head, lines.get(head.split("[")[0], s.line))
            raise ScenarioFileError(self.path, line, f"the engine can't set this situation up: {exc}") from None
        # Where every card is one the model abstracts, each step is checked against the model too.
        self.model = ModelFollower(self.st)

    def _setup(self, s: Map, n_bf: int) -> tuple[dict, dict[str, int]]:
        """The engine's setup, and the line of each part (for the engine's errors)."""
        def seat(v: Any) -> int | None:
            return None if _none(v) else int(v[1:]) - 1

        lines: dict[str, int] = {k: s.at(k) for k in s}
        bfs = [{k: seat(v) for k, v in b.items()} for b in s.get("battlefields", [{} for _ in range(n_bf)])]
        for i in range(n_bf):
            if "battlefields" in s:
                lines[f"battlefields[{i}]"] = s["battlefields"].at(i)
        units = []
        for p_name, zones in s.get("units", Map()).items():
            for zone, entries in zones.items():
                for j, e in enumerate(entries):
                    lines[f"units[{len(units)}]"] = entries.at(j)
                    card = e if isinstance(e, str) else e["card"]
                    unit: dict[str, Any] = {"card": card, "owner": int(p_name[1:]) - 1}
                    if BF.match(zone):
                        unit["zone"], unit["battlefield"] = "battlefield", int(zone[2:]) - 1
                    else:
                        unit["zone"] = zone
                    if isinstance(e, Map):
                        for key in ("damage", "stunned", "moved", "might"):
                            if key in e:
                                unit[key] = e[key]
                        if "grant" in e:
                            unit["grant"] = list(e["grant"])
                        unit["name"] = e.get("as", card)
                    else:
                        unit["name"] = card
                    units.append(unit)
        per = {k: s.get(k, Map()) for k in ("points", "spells", "reactions", "action_spells", "scored")}
        setup = {
            "turn_player": seat(s.get("turn_player", "P1")), "turn": s.get("turn", 1), "battlefields": bfs,
            "units": units,
            "points": [per["points"].get(f"P{p + 1}", 0) for p in range(self.n)],
            "spells": [per["spells"].get(f"P{p + 1}", 0) for p in range(self.n)],
            "reactions": [per["reactions"].get(f"P{p + 1}", 0) for p in range(self.n)],
            "action_spells": [per["action_spells"].get(f"P{p + 1}", 0) for p in range(self.n)],
            "scored": [[f"bf{b + 1}" in per["scored"].get(f"P{p + 1}", []) for b in range(n_bf)] for p in range(self.n)],
        }
        return setup, lines

    # names -------------------------------------------------------------------------------

    def uid(self, ref: str, line: int) -> str:
        """The engine's id of the unit a reference names (checked when the file was read)."""
        m = OWNED.match(ref)
        if m:
            return f"P{m.group(1)}:{m.group(2)}"
        found = [u.id for u in self.st.units if u.name == ref]
        if len(found) != 1:
            raise ScenarioFileError(self.path, line, f"{ref!r} names {len(found)} units")
        return found[0]

    def snapshot(self) -> str:
        tail = self.st.history[-8:]
        return str(self.st) + ("\nlast events: " + " | ".join(tail) if tail else "")

    # actions -----------------------------------------------------------------------------

    def labels(self) -> list[str]:
        return [self.st.action_label(a) for a in self.st.legal_actions()]

    def _offered(self) -> str:
        if self.st.is_terminal():
            return "the game is over: no action is legal"
        return "legal actions now: " + "; ".join(repr(x) for x in self.labels())

    def act(self, step: Any, line: int) -> None:
        if step == EVERYONE_PASSES and self.st.step == "chain":
            # Each player asked passes, until the top link resolves (assumed:chain-reactions).
            links = len(self.st.chain)
            while self.st.step == "chain" and len(self.st.chain) == links:
                self.act(f"P{self.st.current_player() + 1} passes", line)
            return
        if step == EVERYONE_PASSES:
            for _ in range(self.n):
                self.act(f"P{self.st.current_player() + 1} passes", line)
            return
        action = self._legal(step, line)
        self.model.before(self.st, action)
        try:
            self.st.apply_action(action)
        except IllegalAction as exc:
            what = (f"the order of {step!r} (its amounts are legal)" if action not in self.st.legal_actions()
                    else f"the engine offered {step!r} as legal, then refused it")
            raise RulingFailed("", [Mismatch(line, what, "accepted", f"illegal by {', '.join(exc.rules)}: {exc.reason}")],
                               self.snapshot()) from None
        findings = self.model.after(self.st)
        if findings:
            raise model_disagrees(line, step, findings, self.snapshot())

    def _legal(self, label: str, line: int) -> Action:
        found = [a for a in self.st.legal_actions() if self.st.action_label(a) == label]
        if not found and ASSIGN.match(label):
            # The engine offers each assignment in one order; the script's own order
            # is played as written, and the engine judges it (damage.lethal-first).
            wanted = self._build(label, line)
            found = [wanted for a in self.st.legal_actions()
                     if a.kind == "assign" and a.player == wanted.player
                     and {u: n for u, n in a.assignment if n} == {u: n for u, n in wanted.assignment if n}]
        if len(found) != 1:
            raise ScenarioFileError(self.path, line, f"{label!r} matches {'no' if not found else len(found)} legal "
                                                     f"action{'s' if found else ''}; {self._offered()}")
        return found[0]

    def _amounts(self, label: str, line: int) -> dict[str, int]:
        """"P1 assigns A 3, B 2" as {unit id: amount} in the order written, zeros left out."""
        out = {}
        for part in ASSIGN.match(label).group(2).split(", "):
            name, _, amount = part.rpartition(" ")
            if not name or not amount.isdigit():
                raise ScenarioFileError(self.path, line, f"{part!r} in {label!r}: write a unit and an amount, as 'Caitlyn 2'")
            uid = self._assign_target(name, line)
            if int(amount):
                out[uid] = int(amount)
        return out

    def _assign_target(self, name: str, line: int) -> str:
        """An opposing unit named in an assignment: the assigner's opponent's
        unit of that name if there is one, else any unit of that name."""
        c = self.st.combat
        if not OWNED.match(name) and c is not None and c.assigning is not None:
            other = c.defender if c.assigning == c.attacker else c.attacker
            for u in self.st.units:
                if u.owner == other and u.name == name:
                    return u.id
        return self.uid(name, line)

    def _build(self, label: str, line: int) -> Action:
        """Any action with that label, legal or not."""
        m = ASSIGN.match(label)
        if m:
            # In the order written; the opposing units it leaves out get nothing, last.
            amounts = self._amounts(label, line)
            targets = self.st._damage_targets() if self.st.step == "damage" else []
            pairs = list(amounts.items()) + [(u.id, 0) for u in targets if u.id not in amounts]
            return Action("assign", int(m.group(1)) - 1, assignment=tuple(pairs))
        st = self.st
        every = []
        for p in range(self.n):
            every += [Action("end_turn", p), Action("pass", p)]
            every += [Action("start_combat", p, battlefield=b) for b in range(st.num_battlefields)]
            for u in st.units:
                every += [Action(k, p, u.id) for k in ("recall", "stun", "move_to_combat")]
                every += [Action(k, p, u.id, b) for k in ("move", "play") for b in range(st.num_battlefields)]
        found = [a for a in every if st.action_label(a) == label]
        if len(found) != 1:
            raise ScenarioFileError(self.path, line, f"{label!r} reads as {len(found)} actions: write it as the engine "
                                                     "labels it, e.g. 'P1 moves Kayn to bf1', 'P2 recalls P1's Kayn'")
        return found[0]

    def illegal(self, step: Map, line: int) -> list[Mismatch]:
        return self._check_illegal(step["illegal"], illegal_rules(step), line)

    def _check_illegal(self, label: str, rules: tuple[str, ...], line: int) -> list[Mismatch]:
        action = self._build(label, line)
        what = f"the action {label!r}"
        if action in self.st.legal_actions() or label in self.labels():
            return [Mismatch(line, what, f"illegal by {show_rules(rules)}", "offered as a legal action")]
        try:
            self.st.clone().apply_action(action)
        except IllegalAction as exc:
            if not set(rules) & set(exc.rules):
                return [Mismatch(line, what, f"illegal by {show_rules(rules)}", f"illegal by {', '.join(exc.rules)} ({exc.reason})")]
            allowed = self.model.allows(self.st, action)
            if allowed:
                return [Mismatch(line, what, f"illegal by {show_rules(rules)}, in the model too", f"the model allows it as {allowed}")]
            return []
        return [Mismatch(line, what, f"illegal by {show_rules(rules)}", "accepted by the engine")]

    def model_verdict(self) -> str:
        return self.model.verdict()

    # expectations ---------------------------------------------------------------------------

    def expect(self, e: Map) -> list[Mismatch]:
        st, d = self.st, self.st.to_dict()
        out: list[Mismatch] = []

        def check(what: str, expected: Any, actual: Any, line: int) -> None:
            if expected != actual:
                out.append(Mismatch(line, what, expected, actual))

        def who(p: int | None) -> str:
            return "none" if p is None else f"P{p + 1}"

        def exp_who(v: Any) -> str:
            return "none" if _none(v) else v

        combat = d["combat"] or {}
        units = {x["id"]: x for x in d["units"]}
        for key, v in e.items():
            line = e.at(key)
            if key in ("step", "turn"):
                check(key, v, d[key], line)
            elif key == "turn_player":
                check(key, v, who(d["turn_player"]), line)
            elif key == "current_player":
                p = st.current_player()
                check(key, v, TERMINAL if p == -4 else who(p), line)
            elif key == "winner":
                check(key, exp_who(v), who(d["winner"]), line)
            elif key == "terminal":
                check(key, v, st.is_terminal(), line)
            elif key == "returns":
                check(key, [float(x) for x in v], st.returns(), line)
            elif key in ("focus", "attacker", "defender", "assigning"):
                check(f"combat {key}", exp_who(v), who(combat.get(key)), line)
            elif key == "passes":
                check("combat passes", v, combat.get("passes"), line)
            elif key == "combat":
                if _none(v):
                    check(key, "none", "none" if not combat else f"a combat at bf{combat['battlefield'] + 1}", line)
                elif not combat:
                    check(key, dict(v), "none", line)
                else:
                    for k, x in v.items():
                        got = f"bf{combat[k] + 1}" if k == "battlefield" else combat[k] if k in ("passes", "closed") else who(combat[k])
                        check(f"combat {k}", exp_who(x) if k not in ("battlefield", "passes", "closed") else x, got, v.at(k))
            elif key == "to_choose":
                check(key, list(v), [f"bf{b + 1}" for b in d["to_choose"]], line)
            elif key == "pending_combats":
                check(key, list(v), [f"bf{b + 1}" for b in d["pending_combats"]], line)
            elif key in ("roles", "zones", "damage", "units", "assigned"):
                for ref, want in v.items():
                    uid, at = self.uid(ref, v.key_lines[ref]), v.at(ref)
                    x = units[uid]
                    if key == "assigned":
                        check(f"damage assigned to {ref}", want, combat.get("assigned", {}).get(uid), at)
                        continue
                    fields = want if key == "units" else {{"roles": "role", "zones": "zone"}.get(key, key): want}
                    for f, y in fields.items():
                        got = x[f]
                        if f == "zone":
                            got = f"bf{x['battlefield'] + 1}" if got == "battlefield" else got
                        if f == "role":
                            got, y = who(None) if got is None else got, exp_who(y)
                        check(f"{ref} {f}", y, got, at)
            elif key in ("controllers", "contested"):
                field = "controller" if key == "controllers" else "contested_by"
                for b, x in v.items():
                    check(f"{b} {field}", exp_who(x), who(d["battlefields"][int(b[2:]) - 1][field]), v.at(b))
            elif key in ("points", "spells", "reactions", "action_spells"):
                for p, x in v.items():
                    check(f"{p}'s {key}", x, d[key][int(p[1:]) - 1], v.at(p))
            elif key == "chain":
                check("the chain, bottom first", list(v), [st.link_label(k) for k in st.chain], line)
            elif key == "scored":
                for p, x in v.items():
                    got = [f"bf{b + 1}" for b, flag in enumerate(d["scored"][int(p[1:]) - 1]) if flag]
                    check(f"{p} scored at", sorted(x), got, v.at(p))
            elif key in ("legal", "not_legal", "legal_exactly"):
                labels = self.labels()
                if key == "legal_exactly":
                    check("the legal actions", sorted(v), sorted(labels), line)
                    continue
                out.extend(legal_mismatches(key, v, labels))
            elif key == "assignments":
                order = {u.id: i for i, u in enumerate(st.units)}
                want = sorted(sorted(((self._assign_target(r, x.key_lines[r]), n) for r, n in x.items() if n),
                                     key=lambda un: order[un[0]]) for x in v)
                got = sorted(sorted(((u, n) for u, n in a.assignment if n), key=lambda un: order[un[0]])
                             for a in st.legal_actions() if a.kind == "assign")
                if want != got:
                    def show(assignments: list) -> list[str]:
                        return [", ".join(f"{st.unit(u).name} {n}" for u, n in a) or "nothing" for a in assignments]
                    out.append(Mismatch(line, "the legal assignments (zeros left out)", show(want), show(got)))
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
        return out

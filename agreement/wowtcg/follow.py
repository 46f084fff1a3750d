"""Follow one game of the built-in engine against the model, action by action.

``chainproof scenarios`` plays each ruling in the engine; where the model
covers the situation (every card in play is one the model abstracts, and the
game is at a point where the model too waits for a player), the same steps are checked
against the model as the agreement harness checks them: soundness of each
step and completeness of what the engine offers.  A situation the model does
not cover is said to be so, with the reason; it is never counted as agreeing.
A game the model follows stops being followed, with the reason, where it
leaves the model: a card the model lacks is played or enters play, a power
it lacks acts or is used, or an ally's stats change during a step.
"""

from __future__ import annotations

from typing import Any

from agreement.findings import Finding, follow_verdict
from agreement.wowtcg.builtin import (
    STEPWISE_STATS, observe, observe_action, outside_fragment, payment_power, payment_used, power_acting, ring_attacks,
    unplayable_in_hand,
)
from agreement.wowtcg.checker import WowChecker
from engine.wowtcg.objects import Action
from engine.wowtcg.state import GameState


def gear_outside(st: GameState, action: Action) -> str:
    """Why the model can't follow this weapon, armor or item played from hand ("" if it can)."""
    card = st.objs[action.subject].card
    if card.type == "weapon":
        return ""
    if card.type == "armor":
        worn = any(st.objs[i].card.type == "armor" and st.objs[i].controller == action.player and not st.objs[i].resource for i in st.play)
        return "the model's hero wears one armor, and his is already in play" if worn else ""
    return "the model's items are those the game starts with"


#: What the model's board fixes of an ally for a whole step (board.py: stats are constants).
#: What the model's board fixes of an ally for a whole step (board.py: stats
#: are constants), with the value an observation that omits one stands for.
STATS = {"atk": None, "health": None, "keywords": None, "attack_tax": 0, "held_exhausted": False}


def health_counts_others(st: GameState) -> frozenset[str]:
    """The STEPWISE_STATS cards of this game whose health counts other cards (Ironforge Guards)."""
    return frozenset(o.card.name for o in st.objs
                     if o.card.name in STEPWISE_STATS and any(k.startswith("health") for k in o.card.continuous_powers))


def changed_stats(pre: dict[str, Any], post: dict[str, Any], counting: frozenset[str] = frozenset()) -> str:
    """Why the model can't check a step from ``pre`` to ``post`` because an ally's
    stats changed during it (a continuous power, as Tracker Gallen's ATK counts
    allies); "" when every ally in play at both ends kept its stats, and no
    ally whose health counts others (``counting``, by name) left play beside
    another coming or going: its health may have dropped between two batches
    of checks before it left (the Ironforge Guards that Chain Lightning
    destroys in three batches, 409.6b example)."""
    before = {a["id"]: a for pl in pre["players"] for a in pl["allies"]}
    after = {a["id"] for pl in post["players"] for a in pl["allies"]}
    moved = set(before) ^ after
    for a in before.values():
        if a["id"] not in after and a["name"] in counting and len(moved) > 1:
            return (f"{a['name']} leaves play during a step in which other allies come or go, and its health counts them: "
                    "the model's stats are constants of its board")
    for pl in post["players"]:
        for a in pl["allies"]:
            was = before.get(a["id"])
            for stat, omitted in STATS.items() if was is not None else ():
                if was.get(stat, omitted) != a.get(stat, omitted):
                    return (f"{a['name']}'s {stat.replace('_', ' ')} changes from {was.get(stat, omitted)} to {a.get(stat, omitted)} during a step: "
                            "the model's stats are constants of its board")
    return ""


class ModelFollower:
    """The model's reading of one engine game, fed each action as it is applied."""

    def __init__(self, st: GameState) -> None:
        self.checker = WowChecker()
        self.steps = 0
        self.refusals_checked = 0
        self.findings: list[Finding] = []
        self.not_covered = ""
        self._pending: tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]], dict[str, str]] | None = None
        outside = outside_fragment(st, until_power=True)
        if outside:
            # Semicolons: a name may hold a comma (Barnathrum, Lord of Pain).
            self.not_covered = "cards the model does not abstract: " + "; ".join(outside)
            return
        obs = observe(st)
        if not self.checker.waits_for_choice(obs):
            self.not_covered = "the situation starts where the model waits for no player"
            return
        self.checker.begin(obs)

    def leaves_the_model(self, why: str) -> None:
        """The game goes on by a step the model has no edge for: it stops following, and says why."""
        if self.following:
            self.not_covered = why

    @property
    def following(self) -> bool:
        return not (self.not_covered or self.findings)

    def before(self, st: GameState, action: Action) -> None:
        """Note the choice point and what it offers, unless this action only
        finishes a step (a choice the model folds into automatic edges)."""
        if not self.following or self._pending is not None:
            return
        if action.kind == "play" and st.objs[action.subject].card.is_equipment:
            # A weapon, or an armor for a hero without one, resolves into its
            # hero zone on the board of that step (303.1, 304.1); the model has
            # no items in hand, and one armor per hero (304.2).
            why = gear_outside(st, action)
            if why:
                self.not_covered = f"{action} from hand: {why}"
                return
        if action.kind == "power" and payment_power(st.objs[action.subject].card) is None:
            self.not_covered = payment_used(st.objs[action.subject].card.name)
            return
        ring = ring_attacks(st, action)
        if ring:
            self.not_covered = ring
            return
        acting = power_acting(st)
        if acting:
            self.not_covered = acting
            return
        obs = observe(st)
        if not self.checker.waits_for_choice(obs):
            self.not_covered = f"the engine waits for a {st.decision.kind if st.decision else 'choice'} where the model waits for no player"
            return
        # The model lacks most payment powers (CR7.4 701): an offer to use one
        # (UNTIL_PAYMENT) is a choice it does not read, and using one ends the following.
        offered = [observe_action(st, a) for a in st.legal_actions() if a.kind != "power" or payment_power(st.objs[a.subject].card)]
        self._pending = (obs, observe_action(st, action), offered, unplayable_in_hand(st))

    def after(self, st: GameState) -> list[Finding]:
        """Check the step once the engine is at the next choice point; its findings."""
        if not self.following or self._pending is None:
            return []
        if st.decision is not None and st.decision.kind == "uniqueness":
            # Two cards under one label's limit (412): the model holds every
            # card it is given and asks nobody to give one up.
            self._pending = None
            self.leaves_the_model(f"{st.pname(st.decision.player)} chooses which card to keep: the model has no limit of copies in play (412)")
            return []
        acting = power_acting(st)
        if acting:
            # A power the model lacks acts (Goblin Sapper's, Kaldels'): the step
            # that led here is one the model can't take.
            self._pending = None
            self.leaves_the_model(acting)
            return []
        outside = outside_fragment(st, until_power=True)
        if outside:
            # A card from hand (or elsewhere) the model does not abstract is played or enters play.
            self._pending = None
            self.leaves_the_model("cards the model does not abstract are played or enter play: " + "; ".join(outside))
            return []
        post = observe(st)
        if not (st.is_terminal() or self.checker.waits_for_choice(post)):
            return []
        pre, choice, offered, unplayable = self._pending
        self._pending = None
        begun = [p for p, pl in enumerate(post["players"]) if pl["hero"].get("bear_form") and not pre["players"][p]["hero"].get("bear_form")]
        if begun:
            # Maul enters play: the model's bear form is the game's from its start (Party.bear_form).
            self.leaves_the_model(f"{st.pname(begun[0])}'s hero takes bear form during a step: the model's bear form is the board's from the start")
            return []
        changed = changed_stats(pre, post, health_counts_others(st))
        if changed:
            self.leaves_the_model(changed)
            return []
        findings = self.checker.step(pre, choice, post, offered)
        excused = [why for f in findings for kind, why in unplayable.items()
                   if f.kind == "incomplete" and f.detail.startswith(f"the model enables play_{kind}")]
        if findings and len(excused) == len(findings):
            # The model owes a play only of cards in hand it does not abstract: it can't tell.
            self.leaves_the_model(excused[0])
            return []
        self.findings = findings
        self.steps += 1
        return self.findings

    def allows(self, st: GameState, action: Action) -> str:
        """For an action the ruling says is illegal: the model edges that would
        allow it here ("" when the model forbids it too, or does not decide it).
        Only proposals, strikes and passes are asked: the model has no costs or
        targets, so it does not decide whether a play is affordable or aimed right."""
        if not self.following or self._pending is not None or action.kind not in ("propose", "strike", "pass"):
            return ""
        if action.kind == "propose" and len(action.targets) != 1:
            return ""
        obs = observe(st)
        self.refusals_checked += 1
        (names,) = self.checker.choice_names(obs, [observe_action(st, action)])
        return ", ".join(sorted(names))

    def verdict(self) -> str:
        """One line: agrees over N steps, does not cover (why), or disagrees."""
        return follow_verdict(self.findings, self.not_covered, self.steps, self.refusals_checked, "proposal, strike or pass")

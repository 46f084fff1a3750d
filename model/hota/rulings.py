"""The golden rules of Heroes of Ancients (101) as explicit precedence, and
the other decisions the model takes that seed 004 answers or leaves open:
who loses, who wins, which entities have their abilities, whether a council
player chooses a card or the active player chooses anew, whether a token
returns, whether Mind Tether or Gift of Fealty moves a Spirit token, who
draws at the start of a turn, when the losses of 104.3b-c happen, how
much damage 104.3b's "starting life limit" is, when state actions are
checked, what settles a win and a loss at once (104.3e) or everyone's loss
at once (104.4a), whether that draw takes the place of the losses, what
damage dealt to a player does, and when a loop is a draw.

Each question collects every rule's answer as a ruling; the principles say
which ruling beats which (``model/rulings.py``), never source order:

- 101.1 card text beats the rules (Aegis of Immortality over 104.3b-c);
- 101.1's exception: a player may always concede (104.3a over Aegis);
- 101.2 "can't" beats "can" (Aegis over Curse of Ruin, Gatekeeper over Pact
  of Victory), applied by the rule book without being named;
- 101.2a losing an ability is not a "can't" (a silenced entity simply has none);
- 101.3 an impossible instruction is skipped (the council card choice from an
  empty hand);
- 104.2a the last player standing wins over every effect that stops it.

HotA has one text, seed 004, which stops at 109. Each ruling names the lines
of 004 that state it (``texts``); a ruling 004 does not state is an
assumption and cites ``assumed:`` rules, so lint reports the states where
only assumptions answer as gaps. Where 004 gives two answers the model
chooses between them by a principle whose rules are ``assumed:`` (Rewind
Portal against 109.5g; 104.4a's draw against the losses of 104.3b-c), so
that 004 read alone shows the clash.
"""

from __future__ import annotations

from typing import Any, Callable

from model.backend import Backend
from model.hota.table import ACCEPT, NO_TRIGGER, NOBODY, NOT_YET, PLAYERS, REFUSE, STARTING_LIFE, Table
from model.rulings import Principle, Question, Reading, RuleBook, Ruling, always

#: Why a player would lose or win: the rule's answer depends on it.
DAMAGE, LIBRARY, EFFECT, CONCESSION = "damage", "empty library", "effect", "concession"
LAST_STANDING = "last standing"

SEED = "004"
READING = Reading("seed", (SEED,), "004 is HotA's only text; where it is silent the model's assumed: rules answer")

PRINCIPLES = (
    Principle("101.1", ("101.1",), "card text that contradicts a rule takes precedence over it, in that case only"),
    Principle("101.1-concession", ("101.1",), "101.1's one exception: a player may always concede"),
    Principle("101.2", ("101.2",), "a 'can't' takes precedence over a 'can'", cant_beats_can=True),
    Principle("101.2a", ("101.2a",), "gaining or losing an ability is not a 'can' against a 'can't'"),
    Principle("101.3", ("101.3",), "an instruction to do the impossible is skipped"),
    Principle("104.2a-override", ("104.2a",), "the last player in the game wins over every effect that would stop it"),
    # The model's choices where 004 gives no precedence: lint's "004 alone" drops them.
    Principle("return-impossible", ("assumed:impossible-return",),
              "109.5g makes Rewind Portal's return impossible (101.3) rather than being a rule the card contradicts (101.1)"),
    Principle("game-over", ("assumed:winner-ends-game",),
              "a game someone has won is over for everyone in it, whatever would stop them losing"),
    Principle("draw-replaces-loss", ("assumed:draw-replaces-loss",),
              "the draw of 104.4a is the result of the players whose losses made it, in place of those losses"),
    Principle("last-opponent", ("assumed:last-opponent-leaves",),
              "at a table of more than two, 104.2a's win comes as the last opponent leaves, since play goes on after one leaves"),
    Principle("last-known-controller", ("assumed:last-known-controller",),
              "an ability that triggers on a token leaving the battlefield reads the controller the token had as it left"),
    Principle("token-not-a-card", ("assumed:token-not-a-card",),
              "the token 109.5a gives its creator is the marker 109.5e says is no card, so 107.2's card with no owner is not one"),
    Principle("value-as-ability", ("assumed:value-as-ability",),
              "Arcane Sanctum gives its point by the static ability its text states, which an effect that takes abilities takes"),
    Principle("concession-outside-loops", ("assumed:concession-outside-loops",),
              "a concession, open at any time, leaves a loop rather than being an optional action within it"),
    Principle("impossible-action-only", ("assumed:impossible-action-only",),
              "101.3's 'no effect' is that of the impossible action its first sentence omits: the rest of the instruction is done"),
    Principle("two-player-by-seats", ("assumed:two-player-by-seats",),
              "a two-player game is one two players began: a player who leaves does not change what game it is"),
    Principle("declared-count", ("assumed:declared-mulligan-count",),
              "the count a player declares is the count they set aside; 'any number' says a declaration may be of any count"),
)


def _opponents(p: int, players: int) -> tuple[int, ...]:
    """Every other player at the table (102.1: the defending players, when ``p`` is active)."""
    return tuple(q for q in range(players) if q != p)


def left_the_game(s: Any, p: int, b: Backend) -> Any:
    """104.5: a player who lost, or for whom the game is a draw, has left it."""
    return b.Or(s.lost[p], s.drew[p])


def controls(t: Table, s: Any, e: int, p: Any) -> Any:
    """Player ``p`` controls entity ``e``: its owner (107.2, 109.2), or whoever
    took it where Mind Tether moves control."""
    return s.controller[e] == p if t.control_moves else t.entities[e].controller == p


def entity_has_ability(book: RuleBook, s: Any, b: Backend, e: int) -> Any:
    """Entity ``e`` is on the battlefield, not gone with a player who left
    (``leaves_with_its_player``), and has its ability (``has_ability``)."""
    return b.And(b.Not(book.answer("leaves_with_its_player", s, b, e)), book.answer("has_ability", s, b, e))


def loses_at_check(book: RuleBook, s: Any, b: Backend, p: int) -> Any:
    """104.3b-c: player ``p`` loses at this check, by damage or by a draw from too small a library."""
    return b.And(book.answer("would_receive_priority", s, b),
                 b.Or(book.answer("loses_game", s, b, p, DAMAGE), book.answer("loses_game", s, b, p, LIBRARY)))


def rulebook(t: Table, without: tuple[str, ...] = (), reading: str | None = None) -> RuleBook:
    """The questions of one table; ``without`` removes principles or rulings (a
    variant); ``reading`` names a reading of the sources (``Reading.derive``)."""
    book: list[RuleBook] = []  # set below: rulings ask the book whether an entity has its ability
    life: list[int] = []  # set below: the answer to starting_life_total, asked once

    def has_ability(s: Any, b: Backend, e: int) -> Any:
        return entity_has_ability(book[0], s, b, e)

    def holds(card: str, p: int):
        """Player ``p`` controls this card and it has its ability (108.4: 'you' is its controller)."""
        if t.control_moves:
            return lambda s, b: b.Or(*(b.And(controls(t, s, e, p), has_ability(s, b, e)) for e in t.controlled_by(card, p)))
        return lambda s, b: b.Or(*(has_ability(s, b, e) for e in t.controlled_by(card, p)))

    def works(card: str):
        """Some entity that is this card has its ability."""
        return lambda s, b: b.Or(*(has_ability(s, b, e) for e in t.holding(card)))

    # -- has_ability(e): 109.3, 101.2a ---------------------------------------------------
    has_ability_q = Question(
        "has_ability",
        "does this entity have its ability?",
        (
            Ruling("printed", ("109.1", "109.3"), True, lambda s, b, e: True,
                   "an entity on the battlefield has the ability printed on it", printed=True, texts={SEED: "212"}),
            # The silence is a continuous effect that changes the entity's
            # characteristics (109.3); 101.2a keeps "can't beats can" out of it, so
            # the printed "can" does not undo it.
            Ruling("silenced", ("101.2a", "109.3"), False, lambda s, b, e: s.silenced[e],
                   "Silencing Rune took its abilities until the end of the turn", overrides={"printed": "101.2a"},
                   texts={SEED: "212"}),
        ),
        tuple((e,) for e in range(len(t.entities))),
        asked_at=("priority", "check", "triggers"),
        show=lambda e: t.entities[e].label,
    )

    # -- leaves_with_its_player(e): 104.5 and assumed:leaver-objects, H8 -----------------------
    # 109.1 keeps an entity on the battlefield until an effect or a rule moves
    # it; 104.5 takes a player who lost or drew out of the game, and no rule of
    # 100-109 says what becomes of the entities they own or control. At two
    # players the game ends as the first leaves, so only a larger table asks.
    def with_a_leaver(s: Any, b: Backend, e: int) -> Any:
        owner = left_the_game(s, t.entities[e].owner, b)
        if not t.control_moves:
            return owner
        return b.Or(owner, *(b.And(s.controller[e] == p, left_the_game(s, p, b)) for p in range(t.players)))

    leaves_q = Question(
        "leaves_with_its_player",
        "does this entity leave the battlefield because a player who owns or controls it has left the game?",
        (
            Ruling("109.1", ("109.1",), False, lambda s, b, e: b.Not(with_a_leaver(s, b, e)),
                   "an entity of players still in the game stays on the battlefield", texts={SEED: "206"}),
            Ruling("leaver-objects", ("assumed:leaver-objects",), True, with_a_leaver,
                   "a player who leaves the game takes the entities they own or control with them"),
        ),
        tuple((e,) for e in range(len(t.entities))),
        asked_at=("priority", "check", "triggers", "council"),
        show=lambda e: t.entities[e].label,
    )

    # -- loses_game(p, why) ------------------------------------------------------------
    def cause(expected: str, applies: Any):
        return lambda s, b, p, why: applies(s, b, p) if why == expected else False

    aegis = {p: holds("Aegis of Immortality", p) for p in range(t.players)}

    def aegis_ruling(doc: str, **overrides: str) -> Ruling:
        # A card's text is no line of 004: 101.1-101.2 are the lines that give it force.
        return Ruling("aegis", ("101.1", "101.2", "108.4"), False, lambda s, b, p, *why: aegis[p](s, b), doc,
                      printed=True, cant=True, texts={SEED: "90-92"}, overrides=overrides)

    loses_q = Question(
        "loses_game",
        "does this player lose the game?",
        (
            Ruling("104.3a", ("104.3a",), True, cause(CONCESSION, lambda s, b, p: True),
                   "a player who concedes loses", overrides={"aegis": "101.1-concession"}, texts={SEED: "137"}),
            Ruling("104.3b", ("104.3b",), True,
                   cause(DAMAGE, lambda s, b, p: s.damage[p] >= life[0]),
                   "damage markers at or above the starting life total (103.3)", texts={SEED: "139"}),
            Ruling("104.3c", ("104.3c",), True, cause(LIBRARY, lambda s, b, p: s.drew_from_empty[p]),
                   "tried to draw more cards than the library held", texts={SEED: "140"}),
            Ruling("104.3d", ("104.3d",), True, cause(EFFECT, lambda s, b, p: True),
                   "an effect says the player loses", texts={SEED: "142"}),
            # Aegis beats the rules 104.3b-c as card text (101.1) and the effects
            # of 104.3d as a "can't" (101.2, unnamed); conceding beats it (above).
            aegis_ruling("Aegis of Immortality: its controller can't lose the game", **{"104.3b": "101.1", "104.3c": "101.1"}),
        ),
        tuple((p, why) for p in range(t.players) for why in (DAMAGE, LIBRARY, EFFECT, CONCESSION)),
        asked_at=("check", "priority"),
        show=lambda p, why: f"P{p + 1} by {why}",
        # 104.3 lists the ways to lose; a way whose case does not hold loses nothing.
        default_texts={SEED: "135-146"},
    )

    # -- wins_game(p, why) ---------------------------------------------------------------
    def opponent_holds(card: str, p: int):
        """An opponent of ``p`` controls this card, with its ability (108.4: its 'your opponents')."""
        return lambda s, b: b.Or(*(holds(card, q)(s, b) for q in _opponents(p, t.players)))

    gatekeeper = {p: opponent_holds("Gatekeeper", p) for p in range(t.players)}
    wins_q = Question(
        "wins_game",
        "does this player win the game?",
        (
            # 104.2a speaks of "their opponent", one: read word for word at a
            # larger table, a player wins as soon as any opponent has left.
            Ruling("104.2a", ("104.2a",), True,
                   lambda s, b, p, why: b.And(why == LAST_STANDING, b.Not(left_the_game(s, p, b)),
                                              b.Or(*(left_the_game(s, q, b) for q in _opponents(p, t.players)))),
                   "the player is still in the game and an opponent has left it", overrides={"gatekeeper": "104.2a-override"},
                   texts={SEED: "131"}),
            # 104.4a ("every player still in the game") and 104.5 (a player who
            # lost or drew leaves) describe games that go on after a player
            # leaves: nobody has won while an opponent is still playing. At two
            # players the two never meet; at three they clash (lint --players 3).
            Ruling("game-goes-on", ("104.4a", "104.5"), False,
                   lambda s, b, p, why: b.And(why == LAST_STANDING, b.Not(left_the_game(s, p, b)),
                                              b.Or(*(b.Not(left_the_game(s, q, b)) for q in _opponents(p, t.players)))),
                   "an opponent is still in the game too, which goes on after a player leaves it",
                   overrides={"104.2a": "last-opponent"}, texts={SEED: "150-156"}),
            Ruling("104.2b", ("104.2b",), True, lambda s, b, p, why: why == EFFECT,
                   "an effect says the player wins", texts={SEED: "133"}),
            Ruling("gatekeeper", ("101.2", "108.4"), False, lambda s, b, p, why: gatekeeper[p](s, b),
                   "Gatekeeper: its controller's opponents can't win the game", printed=True, cant=True,
                   texts={SEED: "92"}),
        ),
        tuple((p, why) for p in range(t.players) for why in (EFFECT, LAST_STANDING)),
        # 104.2a is asked of the state a game ends in, as the last player's opponent leaves.
        asked_at=("check", "priority", "game_over"),
        show=lambda p, why: f"P{p + 1} by {why}",
        default_texts={SEED: "129-133"},
    )

    # -- loses_when_the_game_ends(p): H2 --------------------------------------------------
    # Asked of the state a game ends in: the model's settling of an outcome asks
    # it as the game ends, so lint looks for it where games have ended.
    ends_q = Question(
        "loses_when_the_game_ends",
        "does a player still in the game lose because another player won it?",
        (
            Ruling("winner-ends-game", ("assumed:winner-ends-game",), True,
                   lambda s, b, p: b.And(b.Or(*(s.won[q] for q in _opponents(p, t.players))), b.Not(s.won[p]),
                                         b.Not(s.drew[p])),
                   "the game is over (104.1) and another player won it: this one lost",
                   overrides={"aegis": "game-over"}),
            aegis_ruling("Aegis of Immortality: its controller can't lose, even as the game ends"),
        ),
        tuple((p,) for p in range(t.players)),
        asked_at=("game_over",),
        show=lambda p: f"P{p + 1}",
    )

    # -- chooses_a_card(p): the council's first choice ----------------------------------------
    chooses_q = Question(
        "chooses_a_card",
        "does this player choose a card from hand for the council?",
        (
            Ruling("council", ("101.4", "101.4a"), True, lambda s, b, p: True,
                   "Council of Elders: each player chooses a card in hand, face down", printed=True,
                   texts={SEED: "101"}),
            Ruling("empty-hand", ("101.3",), False, lambda s, b, p: s.hand[p] == 0,
                   "there is no card in hand to choose", overrides={"council": "101.3"}, texts={SEED: "96-97"}),
        ),
        tuple((p,) for p in range(t.players)),
        asked_at=("council",),
        show=lambda p: f"P{p + 1}",
    )

    # -- active_player_chooses_anew(answer): 101.4d, H5 -----------------------------------------
    chooser_is_defender = lambda s, b: b.And(s.chooser != NOBODY, s.chooser != s.active)  # noqa: E731
    if t.players > PLAYERS:
        # At a larger table the active player may have left while the council
        # goes on (104.5): nobody is then asked to choose anew.
        defender = chooser_is_defender
        chooser_is_defender = lambda s, b: b.And(  # noqa: E731
            defender(s, b), b.Not(b.Or(*(b.And(s.active == p, left_the_game(s, p, b)) for p in range(t.players)))))
    anew_q = Question(
        "active_player_chooses_anew",
        "does this answer of the council player choosing make the active player choose again?",
        (
            # 101.4d restarts the unfinished choices; what calls for a new choice is
            # the Council's (the model's card, as the engine's). What stands: the
            # cards chosen and the answers given, as they are finished choices.
            Ruling("101.4d", ("101.4d",), True,
                   lambda s, b, answer: b.And(chooser_is_defender(s, b), answer == REFUSE,
                                              b.select(s.answer, s.active) == ACCEPT),
                   "a defending player refuses while the active player accepts: the active player answers again",
                   texts={SEED: "107"}),
        ),
        ((REFUSE,), (ACCEPT,)),
        asked_at=("council",),
        show=lambda answer: "a refusal" if answer == REFUSE else "an acceptance",
        # 101.4d restarts only when a defender's choice calls for a new one.
        default_texts={SEED: "107"},
    )

    # -- chooses_next(p): the council's order after the active player, 101.4 ------------------------
    # 101.4: the active player chooses first, then "the defending player" (one,
    # as a two-player text says it). At a larger table 004 does not say which of
    # several defending players chooses next; the model goes round in seat
    # order (assumed:seat-order). Asked of the choices made so far.
    def in_turn_order(pending: Callable[[Any, Backend, int], Any], leader: Callable[[Any], Any]):
        """For an order that starts with one player (``leader``: the active
        player, the first player) and goes on to "their opponent", over the
        players for whom ``pending`` holds: whether the leader is done, whether
        ``p`` is the first pending player in seat order from the leader, and
        whether ``p`` is the one other player still pending."""
        def leader_done(s: Any, b: Backend) -> Any:
            return b.Not(b.Or(*(b.And(leader(s) == q, pending(s, b, q)) for q in range(t.players))))

        def first_in_seat_order(s: Any, b: Backend, p: int) -> Any:
            def before(a: int) -> tuple[int, ...]:
                return tuple((a + k) % t.players for k in range((p - a) % t.players))
            return b.And(pending(s, b, p), b.Or(*(b.And(leader(s) == a, *(b.Not(pending(s, b, q)) for q in before(a)))
                                                  for a in range(t.players))))

        def lone_other(s: Any, b: Backend, p: int) -> Any:
            return b.And(leader(s) != p, pending(s, b, p),
                         *(b.Or(leader(s) == q, b.Not(pending(s, b, q))) for q in _opponents(p, t.players)))

        return leader_done, first_in_seat_order, lone_other

    def unfinished(s: Any, b: Backend, p: int) -> Any:
        return b.And(b.Not(left_the_game(s, p, b)), b.Or(s.picked[p] == NOT_YET, s.answer[p] == NOT_YET))

    active_done, first_unfinished, lone_defender = in_turn_order(unfinished, lambda s: s.active)

    next_q = Question(
        "chooses_next",
        "is this player the next in the council to make a choice?",
        (
            Ruling("101.4-active", ("101.4",), True, lambda s, b, p: b.And(s.active == p, unfinished(s, b, p)),
                   "the active player chooses first", texts={SEED: "99"}),
            Ruling("101.4-defender-waits", ("101.4",), False,
                   lambda s, b, p: b.And(s.active != p, b.Not(active_done(s, b))),
                   "a defending player chooses after the active player", texts={SEED: "99"}),
            Ruling("101.4-defender", ("101.4",), True,
                   lambda s, b, p: b.And(lone_defender(s, b, p), active_done(s, b)),
                   "then the defending player chooses (the one with a choice left)", texts={SEED: "99"}),
            Ruling("101.4-done", ("101.4", "104.5"), False, lambda s, b, p: b.Not(unfinished(s, b, p)),
                   "a player whose choices are made, or who has left the game, makes none", texts={SEED: "99"}),
            Ruling("seat-order", ("assumed:seat-order",), True, first_unfinished,
                   "the first player with a choice to make, in seat order from the active player"),
            Ruling("seat-order-later", ("assumed:seat-order",), False,
                   lambda s, b, p: b.And(unfinished(s, b, p), b.Not(first_unfinished(s, b, p))),
                   "another player before this one in seat order from the active player has a choice to make"),
        ),
        tuple((p,) for p in range(t.players)),
        asked_at=("council",),
        show=lambda p: f"P{p + 1}",
    )

    # -- declares_next(p): the mulligan's order after the first player, 103.4 ----------------------
    # 103.4: the first player declares, then "their opponent" (one). At a
    # larger table 004 does not say which of several opponents declares next.
    def undeclared(s: Any, b: Backend, p: int) -> Any:
        return b.And(b.Not(left_the_game(s, p, b)), s.declared[p] == NOT_YET)

    first_done, first_undeclared, lone_opponent = in_turn_order(undeclared, lambda s: s.first)
    declares_q = Question(
        "declares_next",
        "is this player the next to declare a mulligan count?",
        (
            Ruling("103.4-first", ("103.4",), True, lambda s, b, p: b.And(s.first == p, undeclared(s, b, p)),
                   "the first player declares first", texts={SEED: "119"}),
            Ruling("103.4-opponent-waits", ("103.4",), False,
                   lambda s, b, p: b.And(s.first != p, b.Not(first_done(s, b))),
                   "an opponent declares after the first player", texts={SEED: "119"}),
            Ruling("103.4-opponent", ("103.4",), True,
                   lambda s, b, p: b.And(lone_opponent(s, b, p), first_done(s, b)),
                   "then their opponent declares (the one yet to)", texts={SEED: "119"}),
            Ruling("103.4-done", ("103.4", "104.5"), False, lambda s, b, p: b.Not(undeclared(s, b, p)),
                   "a player who has declared, or has left the game, declares no more", texts={SEED: "119"}),
            Ruling("declares-in-seat-order", ("assumed:seat-order",), True, first_undeclared,
                   "the first player yet to declare, in seat order from the first player"),
            Ruling("declares-later-in-seat-order", ("assumed:seat-order",), False,
                   lambda s, b, p: b.And(undeclared(s, b, p), b.Not(first_undeclared(s, b, p))),
                   "another player before this one in seat order from the first player has yet to declare"),
        ),
        tuple((p,) for p in range(t.players)),
        asked_at=("mulligan",),
        show=lambda p: f"P{p + 1}",
    )

    # -- mulligan_as_declared(p): 103.4's declared count against its "any number" ------------------
    # 103.4 has the first player and then their opponent declare how many
    # cards they will mulligan, and defines the mulligan they then make as
    # setting aside any number of cards. Read by the declaration, a player
    # sets aside the count declared; read by the definition, once every count
    # is public a player who declared may set aside another. The model's
    # choices are open and its library cards anonymous: every count a player
    # could set aside is one they could have declared, so both answers reach
    # the same states (the mulligan's update takes the declared counts). What
    # they change is what a player knows as their count is fixed (101.4b).
    mulligan_q = Question(
        "mulligan_as_declared",
        "does a player who declared a mulligan set aside the number of cards they declared?",
        (
            Ruling("103.4-declared", ("103.4",), True, lambda s, b, p: s.declared[p] > 0,
                   "the player declared how many cards they will mulligan: that many are set aside",
                   overrides={"103.4-any-number": "declared-count"}, texts={SEED: "119"}),
            Ruling("103.4-any-number", ("103.4",), False, lambda s, b, p: s.declared[p] > 0,
                   "a mulligan sets aside any number of cards from the hand: the count declared binds none",
                   texts={SEED: "119"}),
        ),
        tuple((p,) for p in range(t.players)),
        asked_at=("mulligan",),
        default=True,
        # A player who declared no mulligan, or has yet to, sets nothing aside yet.
        default_texts={SEED: "119"},
        show=lambda p: f"P{p + 1}",
    )

    # -- takes_first_turn(p): who begins the game's first turn, 103.5 ---------------------------
    # 103.5 gives the first turn to the first player. At a larger table the
    # first player may concede before it (104.3a: at any time; 104.5: and
    # leaves), and then 004 names nobody to begin it.
    def first_left(s: Any, b: Backend) -> Any:
        return b.Or(*(b.And(s.first == q, left_the_game(s, q, b)) for q in range(t.players)))

    def next_after_first(s: Any, b: Backend, p: int) -> Any:
        """``p`` is the first player still in the game after the first player, in seat order."""
        def between(h: int) -> tuple[int, ...]:
            return tuple((h + k) % t.players for k in range(1, (p - h) % t.players))
        return b.And(b.Not(left_the_game(s, p, b)), b.Or(*(
            b.And(s.first == h, *(left_the_game(s, q, b) for q in between(h))) for h in range(t.players) if h != p)))

    # At two players the first to leave ends the game: no mulligan waits for one who left.
    seat_order_first = (
        Ruling("104.5-left", ("104.5",), False, lambda s, b, p: left_the_game(s, p, b),
               "a player who has left the game takes no turn in it", texts={SEED: "156"}),
        Ruling("first-turn-in-seat-order", ("assumed:seat-order",), True,
               lambda s, b, p: b.And(first_left(s, b), next_after_first(s, b, p)),
               "the first player has left: the next player still in the game, in seat order, begins the first turn"),
        Ruling("first-turn-later-in-seat-order", ("assumed:seat-order",), False,
               lambda s, b, p: b.And(first_left(s, b), b.Not(next_after_first(s, b, p))),
               "the first player has left, and another player comes before this one in seat order"),
    ) if t.players > PLAYERS else ()
    first_turn_q = Question(
        "takes_first_turn",
        "does this player begin the game's first turn?",
        (
            Ruling("103.5", ("103.5",), True, lambda s, b, p: b.And(s.first == p, b.Not(left_the_game(s, p, b))),
                   "the first player begins their first turn", texts={SEED: "121"}),
            Ruling("103.5-others", ("103.5",), False,
                   lambda s, b, p: b.And(s.first != p, b.Not(first_left(s, b))),
                   "the first player, still in the game, begins it: nobody else does", texts={SEED: "121"}),
            *seat_order_first,
        ),
        tuple((p,) for p in range(t.players)),
        asked_at=("mulligan",),
        show=lambda p: f"P{p + 1}",
    )

    # -- token_returns(): Rewind Portal against 109.5g, H4 -----------------------------------
    portal = {e: t.entities[e].controller for e in t.holding("Rewind Portal")}

    def mine(s: Any, b: Backend, e: int, owner: int) -> Any:
        """The tokens of the Portal's controller (108.4)."""
        return b.select(s.tokens, s.controller[e]) if t.control_moves else s.tokens[owner]
    returns_q = Question(
        "token_returns",
        "does a token exiled by Rewind Portal return to the battlefield?",
        (
            # Card text beats a rule it contradicts (101.1): one reading of the Portal.
            Ruling("rewind-portal", ("101.1", "108.4"), True,
                   lambda s, b: b.Or(*(b.And(has_ability(s, b, e), mine(s, b, e, c) >= 1) for e, c in portal.items())),
                   "Rewind Portal: return the exiled token to the battlefield", printed=True, texts={SEED: "90"}),
            # Not a "can't" of 101.2, which speaks of an effect's "can't": 109.5g is a rule.
            Ruling("109.5g", ("109.5g",), False, always,
                   "a token that left the battlefield can never come back; one that would stays where it is",
                   overrides={"rewind-portal": "return-impossible"}, texts={SEED: "234"}),
        ),
        ((),),
        asked_at=("priority",),
        show=lambda: "the token",
    )

    # -- omits_only_the_impossible_action(): the rest of Rewind Portal's instruction ----------------
    # 101.3 omits the impossible action an instruction requires, and its
    # parenthesis adds that where the card does not say how to handle it, "it"
    # has no effect. Rewind Portal exiles a token and then returns it, and the
    # return is impossible (109.5g, token_returns). Read with the first
    # sentence, the return alone is omitted and the token is exiled, leaving
    # the battlefield (an echo sees it leave); read as the whole instruction's,
    # the Portal does nothing and the token stays.
    def return_impossible(s: Any, b: Backend) -> Any:
        if not portal:
            return False  # the table alone rules it out: no question of the Portal's return to ask
        can_rewind = b.Or(*(b.And(has_ability(s, b, e), mine(s, b, e, c) >= 1) for e, c in portal.items()))
        return b.And(can_rewind, b.Not(book[0].answer("token_returns", s, b)))

    omit_q = Question(
        "omits_only_the_impossible_action",
        "where Rewind Portal's return is impossible, is the rest of its instruction (the exile) still done?",
        (
            Ruling("101.3-omit", ("101.3", "109.5g"), True, return_impossible,
                   "the impossible action alone is omitted: the token is exiled, and stays there",
                   overrides={"101.3-no-effect": "impossible-action-only"}, texts={SEED: "96"}),
            Ruling("101.3-no-effect", ("101.3",), False, return_impossible,
                   "the card does not say what happens when the return cannot: its instruction has no effect, "
                   "and the token stays on the battlefield", texts={SEED: "96-97"}),
        ),
        ((),),
        asked_at=("priority",),
        default=True,
        # 101.3 speaks only of an impossible action: an instruction that is possible is done.
        default_texts={SEED: "96-97"},
        show=lambda: "Rewind Portal's exile",
    )

    # -- two_player_game(): what 103.5a's "two-player game" counts ---------------------------------
    # 103.5a skips the first player's first draw "in a two-player game". At a
    # larger table a player may leave before the first turn (104.3a: at any
    # time; 104.5): counted by the players who began it the game is not one,
    # counted by the players still in it, it is. At two seats they never part.
    def two_still_in(s: Any, b: Backend) -> Any:
        return b.And(s.first_turn, b.count([b.Not(b.Or(s.won[p], left_the_game(s, p, b))) for p in range(t.players)]) == 2)

    still_in = (
        Ruling("players-in-the-game", ("103.5a", "104.5"), True, two_still_in,
               "two players are still in the game as its first turn begins: it is a two-player game now",
               texts={SEED: "123"}),
    ) if t.players > PLAYERS else ()
    two_q = Question(
        "two_player_game",
        "is this a two-player game, whose first player skips the first turn's draw (103.5a)?",
        (
            Ruling("seats", ("103.5a", "102.1"), t.players == PLAYERS, always,
                   "the players who began the game are those 102.1 calls its players: two, or more",
                   overrides={"players-in-the-game": "two-player-by-seats"} if still_in else {}, texts={SEED: "123"}),
            *still_in,
        ),
        ((),),
        asked_at=("draw_step",),
        show=lambda: "the game",
    )

    # -- draws_at_draw_step(): 103.5a -------------------------------------------------------
    draws_q = Question(
        "draws_at_draw_step",
        "does the active player draw a card as the turn begins? (by default yes: assumed:draw-step)",
        (
            # What "two-player game" counts is the question two_player_game.
            Ruling("103.5a", ("103.5a",), False, lambda s, b: b.And(book[0].answer("two_player_game", s, b), s.first_turn),
                   "in a two-player game the first player skips the first turn's draw", texts={SEED: "123"}),
        ),
        ((),),
        asked_at=("draw_step",),
        default=True,
    )

    # -- turn_ends_on_pass(): how a turn ends ---------------------------------------------------
    # 103.5 begins the first player's first turn and 103.5a speaks of its draw
    # step, but 004 stops before the turn: nothing says how a turn ends or that
    # another begins. The model ends it when every player still in the game has
    # passed in succession; both answers are assumptions, so lint shows the gap.
    def all_passed(s: Any, b: Backend) -> Any:
        if t.players == PLAYERS:
            return s.passes == 1
        return s.passes + 1 == b.count([b.Not(b.Or(s.won[p], left_the_game(s, p, b))) for p in range(t.players)])

    turn_q = Question(
        "turn_ends_on_pass",
        "does the turn end as the player holding priority passes?",
        (
            Ruling("turn-ends", ("assumed:priority", "assumed:turn-end"), True, all_passed,
                   "every player still in the game has passed in succession: the turn ends"),
            Ruling("priority-goes-on", ("assumed:priority",), False, lambda s, b: b.Not(all_passed(s, b)),
                   "a player still in the game has yet to pass: priority goes on to them"),
        ),
        ((),),
        asked_at=("priority",),
        show=lambda: "the pass",
    )

    # -- would_receive_priority(): when 104.3b-c's losses happen, H3 ---------------------------
    priority_q = Question(
        "would_receive_priority",
        "is the priority check a time a player would receive priority, when 104.3b-c's losses happen?",
        (
            Ruling("priority-check", ("assumed:priority-check",), True, always,
                   "each check comes as a player would receive priority, or as a trigger is about to resolve"),
        ),
        ((),),
        asked_at=("check",),
    )

    # -- empty_library_loss_waits(p): H3 ------------------------------------------------------
    waits_q = Question(
        "empty_library_loss_waits",
        "after a check at which it did not happen, does a loss by drawing from too small a library wait for a later one?",
        (
            # Unlike 104.3b's damage, which stays on the player, the draw is an
            # event: its loss is due at the next check, and only then.
            Ruling("104.3c", ("104.3c",), False, lambda s, b, p: True,
                   "the player loses the next time a player would receive priority, not at any later time",
                   texts={SEED: "140"}),
        ),
        tuple((p,) for p in range(t.players)),
        asked_at=("check",),
        show=lambda p: f"P{p + 1}",
    )

    # -- starting_life_total(): what 104.3b compares damage with, H7 ------------------------------
    # 104.3b counts damage against the "starting life limit", a term no rule of
    # 004 defines; 103.3 gives each player's starting life as 30.
    life_q = Question(
        "starting_life_total",
        "how many damage markers make a player lose by 104.3b (its 'starting life limit')?",
        (
            Ruling("starting-life", ("assumed:starting-life-limit",), lambda s, b: STARTING_LIFE, always,
                   "104.3b's limit is the starting life of 103.3, 30"),
        ),
        ((),),
        asked_at=("check",),
        default=STARTING_LIFE,
        fixed=True,
        show=lambda: "a player",
    )

    # -- state_actions_at_check(): when 109.5f's tokens vanish ------------------------------------
    checks_q = Question(
        "state_actions_at_check",
        "is the priority check a check of state actions, where tokens off the battlefield vanish (109.5f, 109.5g)?",
        (
            Ruling("state-action-check", ("assumed:priority-check",), True, always,
                   "the one check the model has, as a player would receive priority, is also the check of state actions"),
        ),
        ((),),
        asked_at=("check",),
        fixed=True,
        show=lambda: "the check",
    )

    # -- wins_and_loses_at_once(), all_lose_at_once(): what settles an outcome -------------------------
    both_q = Question(
        "wins_and_loses_at_once",
        "does a player who wins and loses the game at the same time lose it (104.3e)?",
        (
            Ruling("104.3e", ("104.3e",), True, always, "a player who wins and loses at once loses",
                   texts={SEED: "144"}),
        ),
        ((),),
        asked_at=("check", "priority"),
        fixed=True,
        show=lambda: "a player",
    )
    all_lose_q = Question(
        "all_lose_at_once",
        "is the game a draw when every player still in it loses at the same time (104.4a)?",
        (
            # Whether the draw takes the place of their losses is draw_replaces_losses.
            Ruling("104.4a", ("104.4a",), True, always, "every player still in the game lost at once: a draw",
                   texts={SEED: "150"}),
        ),
        ((),),
        asked_at=("check", "priority"),
        fixed=True,
        show=lambda: "the players still in the game",
    )

    # -- draw_replaces_losses(): 104.4a against 104.3b-c ---------------------------------------------
    # 104.4a's players lose (its own condition, and 104.3b-c's words) and the game
    # is a draw, which 104.5 makes a result a player has; 104.3e settles a win
    # against a loss, but nothing settles a loss against a draw. Two players: at a
    # check nobody has left yet, and only a check makes both lose at once (a
    # concession or an effect makes one player lose, 104.3e included).
    def everyone_loses(s: Any, b: Backend) -> Any:
        if t.players == PLAYERS:
            return b.And(*(loses_at_check(book[0], s, b, p) for p in range(PLAYERS)))
        # A larger table: every player still in it, one of them at least (104.4a).
        losing = [b.And(b.Not(left_the_game(s, p, b)), loses_at_check(book[0], s, b, p)) for p in range(t.players)]
        return b.And(b.Or(*losing), *(b.Or(left_the_game(s, p, b), losing[p]) for p in range(t.players)))

    replaces_q = Question(
        "draw_replaces_losses",
        "do players who all lose at this check have the draw of 104.4a as their result, rather than the loss?",
        (
            Ruling("104.3b-c", ("104.3b", "104.3c"), False, everyone_loses,
                   "each of them loses the game, as the rule that makes them lose says", texts={SEED: "139-140"}),
            Ruling("104.4a", ("104.4a", "104.5"), True, everyone_loses,
                   "every player still in the game lost at once: the game is a draw, a result each of them has (104.5)",
                   overrides={"104.3b-c": "draw-replaces-loss"}, texts={SEED: "150"}),
        ),
        ((),),
        asked_at=("check",),
        show=lambda: "the players losing at once",
        # 104.4a: a draw comes only where every player still in the game loses at once.
        default_texts={SEED: "150"},
    )

    # -- damage_becomes_markers(): what puts on a player the markers 104.3b counts, H7 -------------------
    # 104.3b counts a player's damage markers and 103.3 gives each player 30 life,
    # but no rule of 100-109 says what damage dealt to a player does: lower that
    # life (which no rule then reads) or put markers on the player.
    markers_q = Question(
        "damage_becomes_markers",
        "does damage dealt to a player put that many damage markers on them, the markers 104.3b counts?",
        (
            Ruling("damage-markers", ("assumed:damage-markers",), True, always,
                   "each point of damage dealt to a player is one damage marker on them"),
        ),
        ((),),
        asked_at=("priority",),
        fixed=True,
        show=lambda: "a player",
    )

    # -- left_token_has_controller(): the echo's "that token's controller", H10 --------------------
    # Echo Chamber and Whispering Echo trigger as a token leaves the battlefield
    # (109.5f: before it vanishes) and give the new Spirit to "that token's
    # controller"; by 107.3 only objects on the stack or the battlefield have a
    # controller, and the token is now in a hand, a graveyard or exile. 004 says
    # nothing of what an object that left keeps, and 101.3 skips an instruction
    # nobody can carry out.
    # Asked of any trigger waiting, since the loop of 104.4b turns on the echo
    # to come; the card speaks wherever an echo has its ability.
    any_echo = lambda s, b: b.Or(*(works(c)(s, b) for c in ("Echo Chamber", "Whispering Echo")))  # noqa: E731

    left_q = Question(
        "left_token_has_controller",
        "does a token that has left the battlefield still have the controller an echo's 'that token's controller' names?",
        (
            Ruling("echo", ("101.1", "109.5f"), True, any_echo,
                   "Echo Chamber, Whispering Echo: that token's controller creates a Spirit: the card names one",
                   printed=True, overrides={"107.3": "last-known-controller"}, texts={SEED: "90"}),
            Ruling("107.3", ("107.3", "101.3"), False, always,
                   "only objects on the stack or the battlefield have a controller: the token that left has none, "
                   "and an instruction for nobody is skipped", texts={SEED: "188"}),
        ),
        ((),),
        asked_at=("triggers",),
        show=lambda: "the token that left",
    )

    # -- destroyed_token_leaves(): what Culling Field's "destroy" does ------------------------------
    # 004 uses no word "destroy" and defines no such action: 109.1 says only
    # that an entity stops being one when an effect or a rule moves it to
    # another zone. Culling Field's text destroys the token without naming a
    # zone; the loop of 104.4b (H6) stands on its leaving the battlefield.
    destroyed_q = Question(
        "destroyed_token_leaves",
        "does a token that Culling Field destroys leave the battlefield?",
        (
            Ruling("destroy-moves", ("assumed:destroy",), True, lambda s, b: True,
                   "a destroyed entity goes from the battlefield to its owner's graveyard"),
        ),
        ((),),
        asked_at=("triggers",),
        show=lambda: "the token Culling Field destroys",
    )

    # -- echo_spirit_to_creator(): whose is the Spirit an echo creates ----------------------------
    # The echo has "that token's controller" create a Spirit and says nothing
    # of who controls it. 109.5a (and 109.2a) give a token to the player who
    # puts it onto the battlefield: its creator. 107.2 gives a card with no
    # owner to the owner of the entity that produced it: the echo's owner,
    # and by 107.1 that player then owns it too. The two part only where the
    # token that left was another player's than the echo's owner's, which
    # takes a Spirit that player may control (by a Spirit Caller, or moved to
    # them by Mind Tether or Gift of Fealty). 109.5e says a token is
    # no card, in the other of 004's two words for tokens than 109.5a uses:
    # read as one thing, 107.2 does not reach tokens (the model's reading).
    echo_entities = (*t.holding("Echo Chamber"), *t.holding("Whispering Echo"))
    strangers = {e: tuple(q for q in range(t.players) if q != t.entities[e].owner and t.may_control_spirits(q))
                 for e in echo_entities}

    def for_a_stranger(s: Any, b: Backend) -> Any:
        """The echo that waits works and is for a token of another player than its owner."""
        return b.Or(*(b.And(has_ability(s, b, e), s.waiting == t.echo_waits + q) for e in echo_entities for q in strangers[e]))

    creator_q = Question(
        "echo_spirit_to_creator",
        "does the Spirit an echo creates come under the control of the player who creates it, not the echo's owner?",
        (
            Ruling("109.5a", ("109.5a", "109.2a"), True, always,
                   "a token is owned and controlled by the player who puts it onto the battlefield: its creator",
                   overrides={"107.2": "token-not-a-card"}, texts={SEED: "222"}),
            Ruling("107.2", ("107.2", "107.1"), False, for_a_stranger,
                   "a card with no owner is controlled by the owner of the entity that produced it: the echo's owner",
                   texts={SEED: "186"}),
        ),
        ((),),
        asked_at=("triggers",),
        show=lambda: "the echo's Spirit",
    )

    # -- control_reaches_tokens(): may a change of control move a Spirit token ---------------------
    # Mind Tether takes "an entity an opponent controls" and Gift of Fealty
    # gives "an entity you control" to an opponent. 109.1 calls a card or a
    # token on the battlefield an entity, and 109.5e has effects on entities
    # reach tokens: a Spirit is a target of either. No sentence of 100-109
    # keeps a token's controller fixed (109.2's is a default, and 109.5a says
    # whose a token is as it enters). One question for both cards: the same
    # sentences answer it, alike, for any effect that moves an entity's
    # control. Asked where Spirit Caller shares the table with either card, as
    # the guard of each edge that moves a Spirit; 109.5e answers it wherever it
    # is asked, a Spirit there to move or not.
    control_tokens_q = Question(
        "control_reaches_tokens",
        "may an effect that moves control of an entity (Mind Tether, Gift of Fealty) move a Spirit token?",
        (
            Ruling("109.5e", ("109.5e", "109.1"), True, always,
                   "a token is an entity (109.1) and effects on entities reach it: the Spirit is a target",
                   texts={SEED: "230"}),
        ),
        ((),) if t.takes_tokens else (),
        asked_at=("priority",),
        show=lambda: "a Spirit whose control an effect moves",
    )

    # -- provides_attribute_value(e): an entity's attribute value under Silencing Rune, H12 ---------
    # 106.2a lets an entity add attribute values to a player's, and 108.3 lists
    # the attribute values an object provides among its characteristics beside
    # its abilities. Arcane Sanctum's text gives its point as a static ability
    # ("you have one more intelligence"), which Silencing Rune takes (109.3);
    # read by 108.3, the point is a characteristic of its own that stays.
    value_q = Question(
        "provides_attribute_value",
        "does this entity add its attribute value to its controller's?",
        (
            Ruling("silenced", ("101.2a", "109.3"), False, lambda s, b, e: s.silenced[e],
                   "Silencing Rune took its abilities until the end of the turn, the point its text gives among them",
                   overrides={"108.3": "value-as-ability"}, texts={SEED: "212"}),
            Ruling("108.3", ("108.3", "106.2a"), True, lambda s, b, e: s.silenced[e],
                   "the attribute value an object provides is a characteristic of its own beside its abilities: "
                   "losing its abilities leaves it", texts={SEED: "201"}),
        ),
        tuple((e,) for e in t.holding("Arcane Sanctum")),
        asked_at=("priority",),
        default=True,
        # 106.2a: an entity may provide attribute values, added to its player's.
        default_texts={SEED: "174"},
        show=lambda e: t.entities[e].label,
    )

    # -- loop_is_a_draw(): 104.4b, H6 ----------------------------------------------------------
    # The echo makes a Spirit only where the token that left still has a controller.
    # Culling Field feeds the loop only where destroying a token takes it off the battlefield.
    culling = lambda s, b: b.And(works("Culling Field")(s, b), book[0].answer("destroyed_token_leaves", s, b))  # noqa: E731
    loop_rules = ("104.4b",)
    chamber = lambda s, b: b.And(works("Echo Chamber")(s, b), book[0].answer("left_token_has_controller", s, b))  # noqa: E731
    if t.holding("Warding Sigil"):
        # 109.5d: while a Warding Sigil works the echo creates no Spirit, so
        # nothing enters for Culling Field and the loop stops by itself.
        echoes, warded, loop_rules = chamber, works("Warding Sigil"), ("104.4b", "109.5d")
        chamber = lambda s, b: b.And(echoes(s, b), b.Not(warded(s, b)))  # noqa: E731

    def in_loop(s: Any, b: Backend) -> Any:
        return b.And(s.waiting != NO_TRIGGER, culling(s, b), chamber(s, b))

    loop_q = Question(
        "loop_is_a_draw",
        "is the game a draw because the waiting trigger begins a loop of mandatory actions?",
        (
            # Culling Field destroys each token that enters, Echo Chamber makes one
            # for each that leaves: with both working a waiting trigger of either
            # brings the other's, with no choice between. 104.4b speaks of a loop
            # that cannot stop, not of rounds gone: the draw comes on entering it.
            Ruling("104.4b", loop_rules, True, in_loop,
                   "a trigger waits with Culling Field and Echo Chamber both working: the loop cannot stop",
                   overrides={"104.3a-optional": "concession-outside-loops"}, texts={SEED: "152"}),
            # 104.3a lets a player concede at any time, so every loop holds an
            # optional action, and 104.4b's second sentence says such a loop is no draw.
            Ruling("104.3a-optional", ("104.4b", "104.3a"), False, in_loop,
                   "a player may concede at any time (104.3a): the loop holds an optional action, so it is no draw",
                   texts={SEED: "152"}),
        ),
        ((),),
        asked_at=("triggers",),
        # 104.4b: only a loop of mandatory actions is a draw, not one with a choice in it.
        default_texts={SEED: "152"},
    )

    questions = (leaves_q, has_ability_q, loses_q, wins_q, ends_q, chooses_q, anew_q, next_q, declares_q, mulligan_q, first_turn_q,
                 returns_q, omit_q, destroyed_q, two_q, draws_q, turn_q, priority_q, waits_q, life_q, checks_q, both_q, all_lose_q,
                 replaces_q, markers_q, left_q, creator_q, control_tokens_q, value_q, loop_q)
    chosen = READING.derive(reading, (SEED,), (q.name for q in questions))
    made = RuleBook(questions, PRINCIPLES, reading=chosen, game="hota")
    book.append(made.without(without) if without else made)
    life.append(book[0].fixed("starting_life_total"))
    return book[0]

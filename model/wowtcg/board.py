"""The cards on the table: the fixed stats and keywords of every character,
and the abilities of the game that deal damage (spells).

A model instance plays one board.  Stats and keywords never change during a
game here (no modifier in the model changes them), so they are constants of
the build rather than state variables: only what combat and spells change
(readiness, damage, being in play, roles, and Mocking Blow's "this turn" taunt)
is state.  Health is scaled down from the
printed values (heroes have about 25, 301.1) so that small instances reach
lethal damage; what matters to the rules is the comparison with damage.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from model.wowtcg.watchers import Watcher, nearby as watching

#: Keywords the model knows, with the rule or glossary entry that defines them.
KEYWORDS = {
    "protector": "602.2",  # this character can protect
    "stealth": "602.2a",  # while it attacks, characters can't protect
    "elusive": "601.2b",  # can't be proposed as a defender
    "ferocity": "601.2a",  # may attack in the turn it joined the party
    "long_range": "603.1a",  # while it attacks, defenders deal no combat damage
    "sabotage": "601.2b",  # may propose a sabotage combat against an opposing object
}


@dataclass(frozen=True)
class Character:
    """A hero or an ally (300.1), with the modifiers of 600.2, 600.3 and 601.2c in force."""

    name: str
    atk: int  # printed ATK; heroes print none (301.1) and gain ATK by striking (303.2a)
    health: int
    keywords: frozenset[str] = frozenset()
    must_attack: bool = False  # 600.2: "must attack if able"
    attack_tax: int = 0  # 600.3: "can't attack unless its controller pays (N)"
    #: 601.2c: "can attack only [X] if able", as (seats clockwise from the
    #: controller, slot in that party: 0 the hero, 1.. the allies).
    attacks_only: tuple[int, int] | None = None
    #: CR7.4 600.2a: "must attack [X] if able", X given as in ``attacks_only``.
    must_attack_target: tuple[int, int] | None = None
    #: 306.3a: a totem, in an ally slot: it may defend but never attacks.
    #: Whether it is an ally, and whether a combat against it is a sabotage,
    #: the texts answer differently (questions of the rulings, V15).
    totem: bool = False
    #: Doesn't ready in its controller's ready step: an attachment on it says
    #: so (Entangling Roots, 400.4d example), its text over 501.1a (103.1).
    held_exhausted: bool = False
    #: CR7.4 701.2: a payment power "(N), exhaust this: [effect]", its effect
    #: the board's power spell (``Spell.power``; Barnathrum's doubling).
    power_cost: int | None = None
    #: 301.2, CR7.4 701.1: a hero's flip power, used only on his controller's
    #: turn and once a game (flipping him is its cost, with an X the model
    #: does not count, as it counts no card's cost): it heals X from a hero or
    #: ally, which the model does not track (Boris Brightbeard, 406.2 example).
    flips_to_heal: bool = False
    #: Valthak Spiritdrinker's text (103.4 example): "your hero can't be
    #: destroyed", while this ally is in play.  Whether that keeps a hero with
    #: lethal damage in play the texts answer differently (B1, a question of
    #: the rulings).
    keeps_hero: bool = False
    #: Arcanite Dragonling (CR7.4 410.6c example): an item in play, in an ally
    #: slot, whose payment power of this cost (CR7.4 701.2) makes it also an
    #: ally this turn (300.2, CR7.4 300.1b) with these stats and keywords; as
    #: the turn ends it is an item again.  Whether it joins its party as it
    #: becomes an ally the texts answer differently (V14, a question of the rulings).
    ally_this_turn_for: int | None = None
    #: Not in play as the game starts: the slot waits for this card, which
    #: comes as an ally card of its controller resolves (302.1) or as Mind
    #: Control moves an opponent's copy of it over (401.3).
    starts_out_of_play: bool = False
    #: Exhausted as the game starts under a modifier saying it "doesn't ready
    #: until the start of your next turn" (its controller's).  Whether it
    #: readies in that turn's ready step the texts answer differently (V11,
    #: ``model/wowtcg/ready_hold.py``).
    held_until_next_turn: bool = False

    def __post_init__(self) -> None:
        unknown = set(self.keywords) - set(KEYWORDS)
        if unknown:
            raise ValueError(f"{self.name}: unknown keyword(s) {sorted(unknown)}; known: {', '.join(KEYWORDS)}")
        if self.health < 1 or self.atk < 0 or self.attack_tax < 0:
            raise ValueError(f"{self.name}: health must be at least 1 and ATK and tax at least 0")
        # 000's 306.3a prints no ATK on a totem and lets it gain none; CR7.4's
        # 305.3a gives it one.  0 is a value both readings share.
        if self.totem and self.atk:
            raise ValueError(f"{self.name}: a totem has no ATK (306.3a)")
        if self.starts_out_of_play and self.ally_this_turn_for is not None:
            raise ValueError(f"{self.name}: an item that becomes an ally is in play as an item from the start")
        if self.held_until_next_turn and (self.held_exhausted or self.starts_out_of_play or self.ally_this_turn_for is not None):
            raise ValueError(f"{self.name}: a character held until its controller's next turn is in play as the game starts, and held by nothing else")
        if self.ally_this_turn_for is not None and (self.ally_this_turn_for < 1 or self.totem or self.power_cost is not None or self.keeps_hero):
            raise ValueError(f"{self.name}: an item that becomes an ally costs at least 1 and has no other power")

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords


@dataclass(frozen=True)
class Weapon:
    name: str
    atk: int
    strike_cost: int  # resources exhausted to strike (303.2)
    melee: bool = True  # dual wield pairs two melee weapons, ranged dual wield two ranged ones (405.3)
    unpreventable: bool = False  # 407.3c: the combat damage its hero deals with it can't be prevented (Annihilator)
    from_hand: bool = False  # 303.1: starts in hand, enters its hero zone as a non-instant card of its controller resolves
    #: CR7.4 701.2: a payment power "(N), exhaust this: move a targeted
    #: attachment" (Inventor's Focal Sword).  The model has no attachments:
    #: its link resolves with no effect the model tracks.
    power_cost: int | None = None


@dataclass(frozen=True)
class Party:
    """One player's side: hero, allies in their slots, equipment and one object that can be sabotaged."""

    hero: Character
    allies: tuple[Character, ...]
    weapons: tuple[Weapon, ...]
    armor_def: int  # 304.2: DEF of the hero's one armor (0: none)
    dual_wield: bool = False  # 405.1, 405.3
    ranged_dual_wield: bool = False  # 405.2, 405.3
    object_name: str = "item"  # a non-character [thing] a sabotage combat can target (601.2b)
    armor_from_hand: bool = False  # 304.1: the armor starts in hand, as a weapon may (Weapon.from_hand)
    #: Maul, a Feral ability giving the hero bear form, is in play as the game
    #: starts: while it stays, the hero has protector; striking with a weapon
    #: (or playing a non-Feral ability) destroys it, at once or by a triggered
    #: power on the chain, as the texts answer differently (bear_form_ends_by_trigger).
    bear_form: bool = False

    def __post_init__(self) -> None:
        if self.armor_from_hand and self.armor_def < 1:
            raise ValueError("an armor played from hand needs its DEF (1 or more)")

    @property
    def characters(self) -> tuple[Character, ...]:
        return (self.hero, *self.allies)


@dataclass(frozen=True)
class Spell:
    """What an ability deals as its link resolves: ``amount`` damage (404.4)
    to one targeted hero or ally, or to each opposing hero and ally, one
    packet each (``each_opposing``).  ``instant``: an instant ability, played
    in any window with priority (408.1); else a non-instant one, played only
    on an empty chain in the turn player's action phase (409.2b).  ``taunts``:
    this turn the target must attack if able (600.2) and can attack only the
    caster's hero if able (601.2c), as Mocking Blow says (601.2d example).
    ``doubles``: instead of a packet, it doubles the damage on the characters
    its text names, the extra put on them, not dealt (404.3 example,
    Barnathrum's power; ``amount`` 0).  ``heals``: instead of a packet of
    damage, it heals ``amount`` damage from its target (406.1, Flash Heal);
    whether it heals a character with lethal damage is a question of the
    rulings (B1).  ``further``: after its packet to its target, it may deal
    each of these amounts in turn, one packet each, to another hero or ally
    chosen as it resolves, never one it already dealt damage to; a totem
    counts as an ally there only where the rulings say so (Chain Lightning,
    306.3a example, V15).  ``power``: the effect of a payment power
    (``Character.power_cost``), which resolves from a power link, never from
    a card (CR7.4 701.2); only a doubling is such an effect here.
    ``destroys_weapon``: instead of damage, it destroys a target weapon,
    which leaves play; whether a strike made with it still counts is a
    question of the rulings (303.2b, V13).  ``makes_defender``: instead of
    damage, a target ally of the defending player, out of combat, "becomes a
    defender" (602.3b); whether the current defender is removed from combat
    then is a question of the rulings (V3).  ``counts_as_combat``: its text
    says its damage counts as combat damage; whether it then is combat
    damage is a question of the rulings (407.3b, B11).
    ``makes_proposed_defender``: instead of damage, a target ally of the
    proposed defender's player, out of combat, becomes a proposed defender
    beside it before the protect point, as CR7.4 602.2b's several proposed
    defenders suppose (V4).
    ``ends_ally``: instead of damage, a target ally that is an item as well
    (Arcanite Dragonling) stops being an ally and stays in play as an item;
    whether that ends its combat role is a question of the rulings (V5)."""

    name: str
    amount: int
    each_opposing: bool = False
    instant: bool = True
    taunts: bool = False
    doubles: bool = False
    heals: bool = False
    further: tuple[int, ...] = ()
    power: bool = False
    destroys_weapon: bool = False
    makes_defender: bool = False
    counts_as_combat: bool = False
    makes_proposed_defender: bool = False
    ends_ally: bool = False

    @property
    def changes_role(self) -> bool:
        """It changes who holds a combat role or what the holder is, and deals no damage."""
        return self.makes_defender or self.makes_proposed_defender or self.ends_ally

    def __post_init__(self) -> None:
        if self.counts_as_combat and (self.doubles or self.heals or self.destroys_weapon or self.changes_role):
            raise ValueError(f"{self.name}: only damage dealt as a packet can count as combat damage")
        if self.changes_role and (self.amount or self.each_opposing or self.taunts or self.doubles or self.heals or self.further
                                  or self.power or self.destroys_weapon or not self.instant
                                  or self.makes_defender + self.makes_proposed_defender + self.ends_ally > 1):
            raise ValueError(f"{self.name}: an instant that changes a combat role deals no damage and does nothing else")
        if self.destroys_weapon and (self.amount or self.each_opposing or self.taunts or self.doubles or self.heals or self.further or self.power):
            raise ValueError(f"{self.name}: an ability that destroys a weapon deals no damage and does nothing else")
        if self.power and not (self.doubles and self.instant):
            raise ValueError(f"{self.name}: the power effect modelled is a doubling, usable with priority")
        if self.further and (self.each_opposing or self.taunts or self.doubles or self.heals or min(self.further) < 1):
            raise ValueError(f"{self.name}: further packets follow one targeted packet of damage, each of at least 1")
        if self.heals and (self.each_opposing or self.taunts or self.doubles):
            raise ValueError(f"{self.name}: a healing ability heals its one target and does nothing else")
        if self.doubles:
            if self.amount or self.each_opposing or self.taunts:
                raise ValueError(f"{self.name}: a power that doubles damage deals none and makes nobody attack")
        elif self.amount < 1 and not self.destroys_weapon and not self.changes_role:
            raise ValueError(f"{self.name}: an ability that deals damage deals at least 1")
        if self.taunts and self.each_opposing:
            raise ValueError(f"{self.name}: only a targeted character can be made to attack")


#: What a board's non-instant ability that deals no damage does (``Ability.effect``).
ABILITY_EFFECTS = ("heal", "exhaust and draw", "ally from the graveyard", "take control of an ally")


@dataclass(frozen=True)
class Ability:
    """A non-instant ability of the game that deals no damage (Board.spells
    are those that do): played only on an empty chain in its controller's
    action phase (409.2b), it resolves with its ``effect``.  ``heal``: it
    heals (406.2), which the model does not track: its link just leaves the
    chain.  ``exhaust and draw``: it exhausts a hero or ally (105.1), chosen
    as it resolves as the spells' targets are, then its controller draws a
    card, and loses at the next check if his deck is empty (409.6c); as links
    carry no targets here, it may also be interrupted as it resolves, its
    target gone (CR7.4 709.2a), and then nobody draws.  ``ally from the
    graveyard``: an ally card of its controller's graveyard enters play under
    him, ready and new to his party, as an ally card resolving does (the
    model's resolve_ally, 302.1: the model tracks no graveyard), or, where
    it costs more than his resources, nothing happens (Resurrection, 306.3a
    example).  ``take control of an ally``: an opposing ally moves to its
    controller's party, the same card with its damage and readiness, new to
    that party (401.3, 302.2: Mind Control); the board holds the card in a
    slot of each party, and the move empties one and fills the other.  On a
    totem that the rulings count no ally, it falls off, and control comes
    back with the totem new to its party (409.6d example, 401.3b)."""

    name: str
    effect: str

    def __post_init__(self) -> None:
        if self.effect not in ABILITY_EFFECTS:
            raise ValueError(f"{self.name}: unknown effect {self.effect!r}; known: {', '.join(ABILITY_EFFECTS)}")


#: The 601.2d example's instant: 1 damage, then this turn its target must
#: attack if able and can attack only the caster's hero if able.
MOCKING_BLOW = Spell("Mocking Blow", 1, taunts=True)
#: The 404.4 example's instant: 1 damage to each opposing hero and ally.  What
#: else its text says (CR7.4 prints "can't attack this turn", 000 does not) is
#: a question of the rulings (``spell_stops_attacks``).
FROST_NOVA = Spell("Frost Nova", 1, each_opposing=True)
#: The 404.3 example's power: (1), exhaust: double the damage on each
#: character (000) or ally (CR7.4), a question of the rulings
#: (``doubling_reaches_heroes``).  Used by a player with priority (409.2).
#: Abstraction: the model has no power links, so an instant in hand stands
#: for the one use of the power its controller has, as a link resolving as
#: any spell of the board does.
BARNATHRUM = Spell("Barnathrum, Lord of Pain", 0, doubles=True)

#: The 406.1 example's instant: heals 4 from a target hero or ally, scaled
#: down as every health of the board is.
FLASH_HEAL = Spell("Flash Heal", 1, heals=True)

#: CR7.4's Arcanite Dragonling (410.6c and 719.1 examples, CR7.4:1280-1281): "(1): this item
#: is also an ally with 2 melee ATK, 2 health and protector this turn", its
#: numbers scaled down as every stat of the board is.
ARCANITE_DRAGONLING = Character("Arcanite Dragonling", atk=1, health=1, keywords=frozenset({"protector"}), ally_this_turn_for=1)

#: An instant whose target ally "becomes a defender" (602.3b, CR7.4 602.3a):
#: the kind of modifier both texts name, on no card the model has.
BECOME_DEFENDER = Spell("target ally becomes a defender", 0, makes_defender=True)

#: A non-instant ability whose text says its 1 damage "counts as combat
#: damage" (407.3b, CR7.4 408.3b): the kind of modifier both texts name, on
#: no card the model has.  Non-instant, so that it is played only in its
#: controller's action phase: where it is played does not bear on the
#: question, and an instant's every window costs lint's search a third more.
COUNTED_AS_COMBAT = Spell("1 damage that counts as combat damage", 1, instant=False, counts_as_combat=True)

#: An instant whose target ally becomes a proposed defender beside the one
#: the proposal named: CR7.4 602.2b speaks of several proposed defenders
#: (one protector per proposed defender, none protecting another), on no
#: card the model has; the seed's 602.2 knows one.
BECOME_PROPOSED_DEFENDER = Spell("target ally becomes a proposed defender", 0, makes_proposed_defender=True)

#: An instant whose target ally that is an item as well stops being an ally
#: and stays in play as an item, as Arcanite Dragonling does as the turn
#: ends (V14): a card that stops being a character (CR7.4 602.4), on no card
#: the model has.
END_ALLY = Spell("target ally is an item again", 0, ends_ally=True)

#: Mind Control (409.6d example, 000:370-371): its caster takes control of
#: an opposing ally, which joins his party without entering play (401.3).
MIND_CONTROL = Ability("Mind Control", "take control of an ally")

#: The totem of 002's Chinese 602.2c example (306.3a): no ATK, and its health
#: scaled down as every health of the board is.
SEARING_TOTEM = Character("Searing Totem", atk=0, health=1, totem=True)


@dataclass(frozen=True)
class Board:
    parties: tuple[Party, ...] = field(default_factory=tuple)
    #: The abilities of this game that deal damage as they resolve; none on the
    #: default board, whose instants only exhaust, remove from combat or destroy.
    spells: tuple[Spell, ...] = ()
    #: Its non-instant abilities that deal no damage; none on the default board.
    abilities: tuple[Ability, ...] = ()
    #: An instant that removes its controller's hero from the game until his
    #: action phase begins is in the game (301.3); whether 601.2a's bar then
    #: reaches the hero the texts answer differently (I3,
    #: ``model/wowtcg/hero_absence.py``).
    hero_removal: bool = False
    #: A team game (001's multiplayer rules, CR7.4 glossary, Friendly): each
    #: seat's team, players of one team friendly to each other.  Empty: every
    #: player his own team, as on the default board.  Whether a teammate's
    #: characters are opposing the texts answer differently (B10, a question
    #: of the rulings; ``model/wowtcg/teams.py``).
    teams: tuple[int, ...] = ()
    #: Ongoing abilities in play all game whose powers note an event
    #: (``model/wowtcg/watchers.py``: B3, B11, V10); none on the default board.
    watchers: tuple[Watcher, ...] = ()
    #: An attachment under this character as the game starts, as (seat, slot:
    #: 1.. the allies); it comes off as its host leaves play (400.3), and
    #: whether it is then destroyed is a question of the rulings (V10).
    attached_to: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if self.teams and (len(self.teams) != len(self.parties) or len(set(self.teams)) < 2):
            raise ValueError("a team game names a team for every seat, and at least two teams")


def has_payment_powers(board: Board | None) -> bool:
    """Does some character of the board have a payment power (its chain then has power links)?"""
    return board is not None and any(
        any(c.power_cost is not None or c.flips_to_heal or c.ally_this_turn_for is not None for c in party.characters) or any(w.power_cost is not None for w in party.weapons)
        for party in board.parties
    )


def has_flip_powers(board: Board) -> bool:
    """Does some hero of the board have a flip power (the state then says who has flipped)?"""
    return any(party.hero.flips_to_heal for party in board.parties)


def _party_a(allies: int) -> Party:
    # A dual-wielding hero with two melee weapons (the Viking Warhammer pair of
    # the 407.3d example), a protector that can sabotage (so a protection can
    # end a sabotage, 602.2c), and a stealthy ally that must attack if able but
    # can't attack unless its controller pays (1): 600.2 against 600.3.
    return Party(
        hero=Character("hero", atk=0, health=2),
        allies=(
            Character("guard", atk=1, health=1, keywords=frozenset({"protector", "sabotage"})),
            Character(
                "prowler",
                atk=1,
                health=1,
                keywords=frozenset({"stealth"}),
                must_attack=True,
                attack_tax=1,
            ),
        )[:allies],
        weapons=(Weapon("warhammer", atk=1, strike_cost=1), Weapon("second warhammer", atk=1, strike_cost=0)),
        armor_def=1,
        dual_wield=True,
    )


def _party_b(allies: int) -> Party:
    # A hero without dual wield holding a melee and a ranged weapon (one strike
    # per combat, 303.2c), an elusive ally with ferocity (it can die only by
    # attacking, and then come back and attack at once), and a long-range
    # protector that must attack if able and can attack only the next player's
    # guard if able (the Mocking Blow and Sarmoth modifiers of the 601.2d example).
    return Party(
        hero=Character("hero", atk=0, health=2),
        allies=(
            Character("skirmisher", atk=1, health=2, keywords=frozenset({"elusive", "ferocity"})),
            Character(
                "taunted",
                atk=1,
                health=1,
                keywords=frozenset({"protector", "long_range"}),
                must_attack=True,
                attacks_only=(1, 1),
            ),
        )[:allies],
        weapons=(Weapon("warhammer", atk=1, strike_cost=1), Weapon("bow", atk=1, strike_cost=0, melee=False)),
        armor_def=1,
    )


def default_board(players: int, allies: int) -> Board:
    """Seats alternate between two parties that between them carry every keyword and modifier."""
    return Board(tuple(_party_a(allies) if p % 2 == 0 else _party_b(allies) for p in range(players)))


def every_option_board(players: int, allies: int) -> Board:
    """The default board with each piece only a scenario's board otherwise
    holds: P1's second warhammer in hand (303.1) and his first one's damage
    unpreventable (407.3c), P2's armor in hand (304.1), Mocking Blow, an
    ability that deals 1 to each opposing character, the non-instant
    abilities of every effect (P2's last ally then a second guard of P1's,
    which may change sides), a payment power of P1's hero
    that doubles damage (CR7.4 701.2), and P2's hero's flip that heals
    (301.2).  The rules these
    pieces bring are cited here (``Game.cited_rules``), as the registry's
    ``encoded`` asks."""
    board = default_board(players, allies)
    first, second = board.parties[0], board.parties[1]
    first = replace(first, weapons=(replace(first.weapons[0], unpreventable=True), replace(first.weapons[1], from_hand=True)),
                    hero=replace(first.hero, power_cost=1))
    second = replace(second, armor_from_hand=True, hero=replace(second.hero, flips_to_heal=True))
    if second.allies:
        # A card in a slot of each party: P1's guard, which P2 may take control of.
        second = replace(second, allies=(*second.allies[:-1], first.allies[0]))
    ring = Spell("each opposing character", 1, each_opposing=True)
    doubling = Spell("doubling power", 0, doubles=True, power=True)
    abilities = tuple(Ability(effect, effect) for effect in ABILITY_EFFECTS)
    return replace(_with_party(_with_party(board, 0, first), 1, second), spells=(MOCKING_BLOW, ring, doubling), abilities=abilities)


def nearby_boards(players: int, allies: int) -> list[tuple[str, str, Board]]:
    """The default board with one change each: one character gains one keyword
    it lacks, or one hero gains dual wield or ranged dual wield (405.1, 405.2).

    Lint tries these where the default board alone keeps a ruling from ever
    applying (a keyword no character holds), so that the texts are compared
    there too.  Each comes as (key, what changed, board)."""
    board = default_board(players, allies)
    out = []
    for p, party in enumerate(board.parties):
        for slot, c in enumerate(party.characters):
            for keyword in KEYWORDS:
                if c.has(keyword):
                    continue
                changed = replace(c, keywords=c.keywords | {keyword})
                party_now = replace(party, hero=changed) if slot == 0 else replace(
                    party, allies=tuple(changed if i == slot - 1 else a for i, a in enumerate(party.allies))
                )
                out.append((f"P{p + 1}-{c.name}+{keyword}", f"P{p + 1}'s {c.name} gains {keyword.replace('_', ' ')}", _with_party(board, p, party_now)))
        for flag, words in (("dual_wield", "dual wield"), ("ranged_dual_wield", "ranged dual wield")):
            if not getattr(party, flag):
                out.append((f"P{p + 1}-hero+{flag}", f"P{p + 1}'s hero gains {words}", _with_party(board, p, replace(party, **{flag: True}))))
    # A character that must attack if able and can attack only [Y]: where its
    # obligation names a character instead (must attack the hero of Y's
    # player, as Vigilant Guard says), CR7.4's 600.2b lets it decline (V12).
    for p, party in enumerate(board.parties):
        for i, a in enumerate(party.allies):
            if a.must_attack and a.attacks_only is not None:
                named = replace(a, must_attack=False, must_attack_target=(a.attacks_only[0], 0))
                who = f"P{(p + a.attacks_only[0]) % players + 1}"
                allies_now = tuple(named if j == i else x for j, x in enumerate(party.allies))
                out.append((f"P{p + 1}-{a.name}+must-attack-{who}-hero", f"P{p + 1}'s {a.name} must attack {who}'s hero if able, not any character",
                            _with_party(board, p, replace(party, allies=allies_now))))
    # The default board has no spell, so what a spell's text says (T4, V6, V7) is compared only where one is in the game.
    out.append(("spell+mocking-blow", "Mocking Blow is in the game", replace(board, spells=(MOCKING_BLOW,))))
    out.append(("spell+frost-nova", "Frost Nova is in the game", replace(board, spells=(FROST_NOVA,))))
    out.append(("spell+barnathrum", "Barnathrum's power is in the game", replace(board, spells=(BARNATHRUM,))))
    # The default board has no totem (V15): where P2's first ally is one, the
    # texts part on whether a combat against it is a sabotage, and with Frost
    # Nova in the game too, on whether its "each opposing hero and ally" hits it.
    if len(board.parties) > 1 and board.parties[1].allies:
        second = board.parties[1]
        with_totem = _with_party(board, 1, replace(second, allies=(SEARING_TOTEM, *second.allies[1:])))
        was = second.allies[0].name
        out.append(("P2-searing-totem", f"P2's {was} is Searing Totem", with_totem))
        out.append(("P2-searing-totem+frost-nova", f"P2's {was} is Searing Totem and Frost Nova is in the game",
                    replace(with_totem, spells=(FROST_NOVA,))))
    # Nothing on the default board makes a weapon leave play, so whether a
    # strike's bonus outlasts its weapon (303.2b, V13) is asked only where an
    # instant that destroys a weapon is in the game.
    out.append(("spell+destroy-weapon", "an instant that destroys a weapon is in the game",
                replace(board, spells=(Spell("destroy target weapon", 0, destroys_weapon=True),))))
    # No character of the default board says "your hero can't be destroyed"
    # (Valthak Spiritdrinker's text, 103.4 example), so no hero ever keeps
    # lethal damage while a player has priority, and healing never meets it
    # (B1).  P2's elusive ally takes Valthak's text: its hero can be dealt
    # lethal damage in P1's first combat, and it can't itself be a defender.
    if len(board.parties) > 1 and board.parties[1].allies and board.parties[1].allies[0].has("elusive"):
        second = board.parties[1]
        keeper = replace(second.allies[0], keeps_hero=True)
        who = keeper.name
        out.append(("P2-keeps-hero+flash-heal", f"P2's {who} says 'your hero can't be destroyed' and Flash Heal is in the game",
                    replace(_with_party(board, 1, replace(second, allies=(keeper, *second.allies[1:]))), spells=(FLASH_HEAL,))))
    # No hero of the default board is in bear form, so whether bear form ends
    # at once or by a triggered power on the chain is asked only where P1's
    # hero is: a strike or an instant ends it (a non-instant is left out, see
    # Table.out_of_bear_form).
    first = board.parties[0]
    # No card of the default board changes type, so whether an item that
    # becomes an ally joins its party then (V14) is asked only where P1's
    # last ally is Arcanite Dragonling, an item in play as the game starts.
    if first.allies:
        was = first.allies[-1].name
        dragonling = _with_party(board, 0, replace(first, allies=(*first.allies[:-1], ARCANITE_DRAGONLING)))
        out.append(("P1-arcanite-dragonling", f"P1's {was} is Arcanite Dragonling, an item in play that his payment makes an ally this turn",
                    dragonling))
        # Nor does any character stop being one during a combat (V5): where
        # an instant can make the Dragonling an item again, CR7.4's 602.4
        # ends its combat role, the seed's keeps it.  Next to the Dragonling's
        # board, which wakes its own rulings first, so that lint wakes V5's
        # here without asking every later board about them.
        out.append(("P1-arcanite-dragonling+spell+end-ally",
                    f"P1's {was} is Arcanite Dragonling, and an instant that makes an ally an item again is in the game",
                    replace(dragonling, spells=(END_ALLY,))))
    # No ally of the default board changes sides, so whether ferocity lets
    # an ally attack in the turn it joins its party without entering play
    # (002's Chinese 601.2a: only in the turn it enters play) is asked only
    # where one can: Mind Control is in the game, P1's guard has ferocity,
    # and P2's last ally slot waits, empty, for that card (P2 draws his
    # non-instant in turn 2; P1, who skips his first draw, has none before).
    if first.allies and len(board.parties) > 1 and board.parties[1].allies:
        guard = replace(first.allies[0], keywords=first.allies[0].keywords | {"ferocity"})
        second = board.parties[1]
        taking = _with_party(_with_party(board, 0, replace(first, allies=(guard, *first.allies[1:]))), 1,
                             replace(second, allies=(*second.allies[:-1], replace(guard, starts_out_of_play=True))))
        out.append(("P2-mind-control", f"Mind Control is in the game, P1's {guard.name} has ferocity, and P2's last ally slot (his {second.allies[-1].name}'s) waits, empty, for it",
                    replace(taking, abilities=(MIND_CONTROL,))))
    out.append(("P1-hero+bear-form", "P1's hero is in bear form (Maul is in play; he plays no non-instant while it lasts)", _with_party(board, 0, replace(first, bear_form=True))))
    # Last, so that no ruling woken on an earlier board wakes here first.
    # Nothing on the default board makes a character become a defender, so
    # whether the current defender is then removed from combat (602.3b, V3),
    # and how two defenders deal combat damage (603.1), are asked only where
    # such an instant is in the game.
    out.append(("spell+become-defender", "an instant that makes a target ally become a defender is in the game",
                replace(board, spells=(BECOME_DEFENDER,))))
    # No card of the default board removes a hero from the game (301.3), so
    # whether a hero back in its party this turn may attack (601.2a against
    # 302.2, I3) is asked only where such an instant is in the game.
    out.append(("spell+remove-hero", "an instant that removes its player's hero from the game until his action phase is in the game",
                replace(board, hero_removal=True)))
    # Nothing of the default board holds a card "until the start of your
    # next turn", so whether such a modifier ends before the ready step
    # readies (V11) is asked only where P2's taunted starts the game so held.
    if len(board.parties) > 1 and board.parties[1].allies:
        second = board.parties[1]
        last = second.allies[-1]
        out.append((f"P2-{last.name}+held-until-next-turn",
                    f"P2's {last.name} starts the game exhausted under a modifier: it doesn't ready until the start of P2's next turn",
                    _with_party(board, 1, replace(second, allies=(*second.allies[:-1], replace(last, held_until_next_turn=True))))))
    # Nothing on the default board watches for an event, so whether a combat
    # whose defender was removed ends as usual (B3), whether an effect's
    # damage that counts as combat damage is (B11), and whether an
    # attachment that comes off is destroyed (V10) are asked only where
    # powers note them.
    watched = watching(board, COUNTED_AS_COMBAT)
    if watched is not None:
        out.append(watched)
    # Nor does anything make a second proposed defender (V4): CR7.4's 602.2b
    # lets no proposed defender protect another, the seed's only not itself.
    out.append(("spell+become-proposed-defender", "an instant that makes a target ally a second proposed defender is in the game",
                replace(board, spells=(BECOME_PROPOSED_DEFENDER,))))
    return out


def _with_party(board: Board, seat: int, party: Party) -> Board:
    return Board(tuple(party if p == seat else other for p, other in enumerate(board.parties)))

"""The WoW TCG reference engine against the rules for priority and the chain
(408-410; Comprehensive Rules 7.4 sections 707-711, cited as "CR7.4 7xx"),
starting the game (101), the turn (501-503) and combat (600-603).

The rule texts are read from the seeds: `000_93427c41005e332f.txt` (the
Chinese comprehensive rules: 101 near line 100, 408-410 near lines 336-375,
501-603 at lines 410-493), `002_747842af486db20b.txt` (combat 600-603 in
English with Chinese) and `wowtcg-comprehensive-rules-7.4.txt` (707-711).

Each test starts from `arrange` (a mid-game board where the turn player holds
priority as a window opens) or from a whole game, and drives the engine only
through `legal_actions()` / `apply_action()`, choosing actions by their labels.
"""

from __future__ import annotations

import random

import pytest

from engine.wowtcg import Action, IllegalAction, WowTcgGame, load_pool
from engine.wowtcg.arrange import arrange as _arrange

from tests.engine.wowtcg_steps import act, labels


POOL = load_pool()  # loaded once: the card file is read only here


def arrange(heroes, **kw):
    return _arrange(heroes, pool=POOL, **kw)


def new_game(seed: int, players: int = 2):
    return WowTcgGame(players=players, pool=POOL).new_initial_state(seed)

# Two heroes without powers the engine uses: P1 (index 0) and P2 (index 1).
P1_HERO = "Gorrak Bloodfist"
P2_HERO = "Bragvi Stormstein"
P3_HERO = "Maelen Frostweave"


# --- helpers --------------------------------------------------------------------

def pass_(st) -> None:
    """The player to act passes priority."""
    act(st, f"P{st.current_player() + 1} passes")


def advance(st) -> None:
    """Move the game on: pass priority, or take the first option of a pending
    decision (a discard in the end step, say)."""
    if st.decision is not None:
        st.apply_action(st.legal_actions()[0])
    else:
        pass_(st)


def pass_all(st) -> None:
    """Every player in the game passes once, in turn (successive passes, 409.4)."""
    for _ in range(sum(p.in_game for p in st.players)):
        pass_(st)


def rule_of(st, action: Action) -> str:
    """The rule the engine names when it refuses `action`; fails if it accepts it."""
    with pytest.raises(IllegalAction) as err:
        st.apply_action(action)
    return err.value.rule


def oid(st, name: str, player: int) -> int:
    return st.find(name, player).id


def zone_of(st, name: str, player: int) -> str:
    zones = [o.zone for o in st.objs if o.card.name == name and o.owner == player]
    assert len(zones) == 1, f"expected one {name} of P{player + 1}, found {zones}"
    return zones[0]


FILLER = "Scout the Barrens"  # a deck card no test names, so `zone_of` finds only the arranged cards


def duel(**kw):
    """A two-player board in P1's action phase (turn 3)."""
    kw.setdefault("decks", {0: [FILLER] * 10, 1: [FILLER] * 10})
    return arrange([P1_HERO, P2_HERO], **kw)


def to_defend_window(st, attacker: str, defender: str, word: str = "attacks") -> None:
    """From P1's empty-chain action phase: propose, let the proposal resolve,
    close the attack window with no protector choice expected."""
    act(st, f"P1 proposes {attacker} {word} P2's {defender}")
    pass_all(st)
    assert st.step == "attack_window", st
    pass_all(st)


def assert_back_in_action_phase(st, turn_player: int = 0) -> None:
    """603.2: after combat the turn player holds priority in his action phase
    with the chain empty and no combat left."""
    assert st.combat is None
    assert st.step == "action_phase"
    assert st.chain == []
    assert st.priority == turn_player and st.current_player() == turn_player
    assert st.passes == 0
    assert st.decision is None


# --- 409: priority and the chain ------------------------------------------------

def test_only_the_priority_holder_may_act():
    """409.1: only one player holds priority at a time, and only he may add a
    link or pass; 409.4: as a window opens the turn player gets it first."""
    st = duel(play={1: ["Ashen Recruit"]}, hands={0: ["Arcane Missiles"], 1: ["Hamstring"]},
              resources={0: 2, 1: 2})
    assert st.priority == 0 and st.current_player() == 0
    assert {a.player for a in st.legal_actions()} == {0}
    assert rule_of(st, Action("pass", 1)) == "409.1"
    hamstring = st.players[1].hand[0]
    assert rule_of(st, Action("play", 1, subject=hamstring, targets=(st.players[0].hero,))) == "409.1"
    # nothing changed: P1 still holds priority on an empty chain
    assert st.priority == 0 and st.chain == [] and st.passes == 0


def test_opening_window_goes_to_turn_player_even_when_it_is_p2():
    """409.4, 501.2a: the window of a step opens on the turn player, whoever
    he is; here P2's draw step."""
    st = arrange([P1_HERO, P2_HERO], step="draw_step", turn_player=1)
    assert st.step == "draw_step"
    assert st.priority == 1 and st.current_player() == 1
    assert rule_of(st, Action("pass", 0)) == "409.1"


def test_passing_goes_clockwise_among_three_players():
    """409.1: a player who passes gives priority to the next player clockwise;
    with three players P2 passes to P3 and P3 to P1 (turn player P2)."""
    st = arrange([P1_HERO, P2_HERO, P3_HERO], turn_player=1)
    assert st.priority == 1
    pass_(st)
    assert st.priority == 2 and st.passes == 1
    pass_(st)
    assert st.priority == 0 and st.passes == 2
    assert st.step == "action_phase"  # two passes of three do not close it


def test_adding_a_link_keeps_priority_and_restarts_the_passes():
    """409.1, CR7.4 707.1f: after adding a link its controller gets priority
    again; 409.4: only passes in succession count, so a response restarts
    the count."""
    st = duel(play={1: ["Stonehide Defender"]}, hands={0: ["Arcane Missiles"], 1: ["Hamstring"]},
              resources={0: 2, 1: 1})
    act(st, "P1 plays Arcane Missiles on P2's Stonehide Defender")
    assert st.priority == 0 and st.passes == 0
    assert [(link.kind, link.controller) for link in st.chain] == [("card", 0)]
    pass_(st)
    assert st.priority == 1 and st.passes == 1
    act(st, "P2 plays Hamstring on P1's Gorrak Bloodfist")
    assert st.priority == 1 and st.passes == 0  # P2 responded and keeps priority
    assert len(st.chain) == 2
    pass_(st)
    assert st.priority == 0 and len(st.chain) == 2  # one pass after the response: nothing resolves yet


def test_successive_passes_resolve_the_top_link_last_in_first_out():
    """409.4a, CR7.4 709.1, 709.2h: when all players pass in succession the top
    link resolves (the last added resolves first), then the turn player gets
    priority, even though the other player added that link."""
    st = duel(play={1: ["Stonehide Defender"]}, hands={0: ["Arcane Missiles"], 1: ["Hamstring"]},
              resources={0: 2, 1: 1})
    gorrak = st.players[0].hero
    act(st, "P1 plays Arcane Missiles on P2's Stonehide Defender")
    pass_(st)
    act(st, "P2 plays Hamstring on P1's Gorrak Bloodfist")
    pass_(st)
    pass_(st)
    # Hamstring (top, P2's) resolved; Arcane Missiles still waits
    assert st.objs[gorrak].exhausted
    assert st.find("Stonehide Defender", 1).damage == 0
    assert [(link.kind, link.controller, st.objs[link.source].name) for link in st.chain] == [
        ("card", 0, "Arcane Missiles")]
    assert zone_of(st, "Hamstring", 1) == "graveyard"
    assert st.priority == 0 and st.passes == 0  # the turn player, not P2
    pass_all(st)
    assert st.find("Stonehide Defender", 1).damage == 2
    assert st.chain == [] and st.priority == 0
    assert st.step == "action_phase"  # resolving onto an empty chain does not close the window


def test_window_closes_only_after_successive_passes_on_an_empty_chain():
    """409.4b, 502.2: with the chain empty, successive passes by every player
    close the window and the game moves on (action phase to end phase);
    a chain emptied by resolution leaves the window open."""
    st = duel(play={1: ["Stonehide Defender"]}, hands={0: ["Arcane Missiles"]}, resources={0: 2})
    act(st, "P1 plays Arcane Missiles on P2's Stonehide Defender")
    pass_all(st)
    assert st.chain == [] and st.step == "action_phase" and st.priority == 0
    pass_(st)
    assert st.step == "action_phase" and st.priority == 1
    pass_(st)
    assert st.step == "end_phase" and st.priority == 0 and st.passes == 0


def test_three_players_must_all_pass_to_close_a_window():
    """409.4, 409.4b: "all players" pass in succession: with three players two
    passes are not enough; the third closes the action phase."""
    st = arrange([P1_HERO, P2_HERO, P3_HERO])
    pass_(st)
    pass_(st)
    assert st.step == "action_phase" and st.priority == 2
    pass_(st)
    assert st.step == "end_phase" and st.priority == 0


def test_three_players_resolve_after_all_three_pass():
    """409.4a with three players: after a link is added, it resolves only when
    all three have passed in succession; then the turn player has priority."""
    st = arrange([P1_HERO, P2_HERO, P3_HERO], play={2: ["Stonehide Defender"]},
                 hands={1: ["Arcane Missiles"]}, resources={1: 2})
    pass_(st)  # P1 -> P2
    act(st, "P2 plays Arcane Missiles on P3's Stonehide Defender")
    assert st.priority == 1
    pass_(st)
    pass_(st)
    assert len(st.chain) == 1 and st.priority == 0  # P2, P3 passed; P1 still to pass
    pass_(st)
    assert st.chain == [] and st.find("Stonehide Defender", 2).damage == 2
    assert st.priority == 0  # P1 is the turn player


# --- 408.1 / 409.2: what a player may do with priority ------------------------------

def test_non_instant_cards_only_in_own_noncombat_action_phase_on_empty_chain():
    """408.1, 409.2b, 502.1: a non-instant card is played only in its player's
    own non-combat action phase, with priority and the chain empty."""
    st = duel(play={1: ["Stonehide Defender"]}, hands={0: ["Arcane Missiles", "Lightning Bolt"],
                                                     1: ["Lightning Bolt"]},
              resources={0: 6, 1: 4})
    defender = oid(st, "Stonehide Defender", 1)
    bolt0 = next(o for o in st.players[0].hand if st.objs[o].card.name == "Lightning Bolt")
    bolt1 = st.players[1].hand[0]
    assert "P1 plays Lightning Bolt on P2's Stonehide Defender" in labels(st)
    act(st, "P1 plays Arcane Missiles on P2's Stonehide Defender")
    # the chain is not empty: no Lightning Bolt now, even with priority
    assert not any(lbl.startswith("P1 plays Lightning Bolt") for lbl in labels(st))
    assert rule_of(st, Action("play", 0, subject=bolt0, targets=(defender,))) == "408.1"
    # nor a proposal (409.2b, 601.1)
    assert rule_of(st, Action("propose", 0, subject=st.players[0].hero, targets=(defender,), option=False)) == "601.1"
    pass_(st)
    # P2 holds priority on P1's turn: no non-instant card for him
    assert not any(lbl.startswith("P2 plays Lightning Bolt") for lbl in labels(st))
    assert rule_of(st, Action("play", 1, subject=bolt1, targets=(defender,))) == "408.1"


def test_non_instant_cards_not_in_other_steps():
    """408.1, 502.1: the draw step is not the action phase, so no non-instant
    card then, but an instant may be played whenever its player has priority."""
    st = duel(play={1: ["Stonehide Defender"]}, hands={0: ["Lightning Bolt", "Arcane Missiles"]},
              resources={0: 6}, step="draw_step")
    defender = oid(st, "Stonehide Defender", 1)
    bolt = next(o for o in st.players[0].hand if st.objs[o].card.name == "Lightning Bolt")
    assert rule_of(st, Action("play", 0, subject=bolt, targets=(defender,))) == "408.1"
    act(st, "P1 plays Arcane Missiles on P2's Stonehide Defender")
    assert st.chain and st.chain[-1].kind == "card"


def test_instants_whenever_a_player_has_priority():
    """408.1, 409.2: an instant may be played by any player holding priority:
    by the non-turn player in response, and in the combat's attack window."""
    st = duel(play={0: ["Ashen Recruit"], 1: ["Stonehide Defender"]},
              hands={0: ["Arcane Missiles"], 1: ["Arcane Missiles"]}, resources={0: 2, 1: 2})
    act(st, "P1 proposes Ashen Recruit attacks P2's Stonehide Defender")
    pass_(st)
    assert st.priority == 1
    assert "P2 plays Arcane Missiles on P1's Ashen Recruit" in labels(st)  # a response on P1's turn
    pass_(st)
    assert st.step == "attack_window" and st.priority == 0
    act(st, "P1 plays Arcane Missiles on P2's Stonehide Defender")  # during combat
    assert st.chain[-1].controller == 0


def test_no_non_instant_card_and_no_proposal_during_combat():
    """408.1, 601.1: the combat step is not the non-combat action phase: no
    non-instant card and no new proposal in the attack window."""
    st = duel(play={0: ["Ashen Recruit", "Scryer Arcanist"], 1: ["Stonehide Defender"]},
              hands={0: ["Lightning Bolt"]}, resources={0: 4})
    act(st, "P1 proposes Ashen Recruit attacks P2's Stonehide Defender")
    pass_all(st)
    assert st.step == "attack_window" and st.priority == 0
    defender = oid(st, "Stonehide Defender", 1)
    assert rule_of(st, Action("play", 0, subject=st.players[0].hand[0], targets=(defender,))) == "408.1"
    assert rule_of(st, Action("propose", 0, subject=oid(st, "Scryer Arcanist", 0), targets=(defender,), option=False)) == "601.1"
    assert not any("proposes" in lbl or "Lightning Bolt" in lbl for lbl in labels(st))


def test_no_proposal_on_the_opponents_turn():
    """600.1, 601.1: only the turn player proposes combats, in his own
    non-combat action phase."""
    st = duel(play={0: ["Ashen Recruit"], 1: ["Scryer Arcanist"]})
    pass_(st)
    assert st.priority == 1
    assert not any("proposes" in lbl for lbl in labels(st))
    assert rule_of(st, Action("propose", 1, subject=oid(st, "Scryer Arcanist", 1),
                              targets=(oid(st, "Ashen Recruit", 0),), option=False)) == "601.1"


def test_link_whose_only_target_is_gone_is_interrupted():
    """CR7.4 709.2a, 711.1, 711.2: a link whose every target has become illegal
    is interrupted as it tries to resolve: it does nothing, the card goes to
    its owner's graveyard, and the turn player gets priority. 409.1: P1
    responds to his own Lightning Bolt with Arcane Missiles."""
    st = duel(play={1: ["Ashen Recruit"]}, hands={0: ["Lightning Bolt", "Arcane Missiles"]}, resources={0: 5})
    act(st, "P1 plays Lightning Bolt on P2's Ashen Recruit")
    act(st, "P1 plays Arcane Missiles on P2's Ashen Recruit")
    assert [st.objs[link.source].name for link in st.chain] == ["Lightning Bolt", "Arcane Missiles"]
    pass_all(st)
    assert zone_of(st, "Ashen Recruit", 1) == "graveyard"  # 2 damage on 2 health
    assert [st.objs[link.source].name for link in st.chain] == ["Lightning Bolt"]
    pass_all(st)
    assert any("Lightning Bolt is interrupted" in h and "709.2a" in h for h in st.history)
    assert zone_of(st, "Lightning Bolt", 0) == "graveyard"
    assert st.objs[st.players[1].hero].damage == 0
    assert st.chain == [] and st.priority == 0 and st.step == "action_phase"


def test_weapon_strikes_only_in_defend_window_with_hero_in_combat():
    """409.2a, 602.3a, 303.2: a player strikes with a weapon only while a defend
    window is open and his hero is in combat: not in the action phase, not in
    the attack window, not when only allies fight."""
    st = duel(play={0: ["Viking Warhammer", "Ashen Recruit"], 1: ["Scryer Arcanist", "Stonehide Defender"]},
              resources={0: 3})
    hammer = oid(st, "Viking Warhammer", 0)
    assert rule_of(st, Action("strike", 0, subject=hammer)) == "602.3a"
    # an ally fights: P1's hero is not in combat
    to_defend_window(st, "Ashen Recruit", "Scryer Arcanist")
    act(st, "P2 does not protect")
    assert st.step == "defend_window" and st.priority == 0
    assert "P1 strikes with Viking Warhammer" not in labels(st)
    assert rule_of(st, Action("strike", 0, subject=hammer)) == "602.3a"
    pass_all(st)
    assert_back_in_action_phase(st)
    # the hero attacks: no strike in the attack window, a strike in the defend window
    act(st, "P1 proposes Gorrak Bloodfist attacks P2's Stonehide Defender")
    pass_all(st)
    assert st.step == "attack_window"
    assert rule_of(st, Action("strike", 0, subject=hammer)) == "602.3a"
    pass_all(st)
    assert st.step == "defend_window" and st.priority == 0
    ready = st.ready_resources(0)
    act(st, "P1 strikes with Viking Warhammer")
    assert st.find("Viking Warhammer", 0).exhausted
    assert st.ready_resources(0) == ready - 1  # its strike cost
    assert st.chain[-1].kind == "strike" and st.chain[-1].controller == 0
    pass_all(st)  # the strike resolves: the hero attacks with the hammer's 1 ATK
    pass_all(st)  # conclusion (603.1)
    assert st.find("Stonehide Defender", 1).damage == 1
    assert st.objs[st.players[0].hero].damage == 2
    assert_back_in_action_phase(st)


def test_defending_hero_may_strike():
    """602.3a, 409.2a: the defending hero is in combat too: its player may
    strike when he holds priority in the defend window, and the hero then
    deals the weapon's ATK in the conclusion (603.1)."""
    st = duel(play={0: ["Ashen Recruit"], 1: ["Viking Warhammer"]}, resources={1: 1})
    to_defend_window(st, "Ashen Recruit", "Bragvi Stormstein")
    assert st.step == "defend_window" and st.priority == 0
    assert "P1 strikes with Viking Warhammer" not in labels(st)
    pass_(st)
    act(st, "P2 strikes with Viking Warhammer")
    pass_all(st)
    pass_all(st)
    assert st.find("Ashen Recruit", 0).damage == 1
    assert st.objs[st.players[1].hero].damage == 1
    assert_back_in_action_phase(st)


# --- 410: resources -----------------------------------------------------------------

def test_one_resource_per_turn():
    """410.1, 410.1a, 409.3: placing a resource adds the card to the chain, it
    enters the resource row as it resolves, and a second one the same turn is
    refused."""
    st = duel(hands={0: ["Ashen Recruit", "Lucky Charm"], 1: ["Ashen Recruit"]})
    act(st, "P1 places Ashen Recruit as a resource")
    assert [link.kind for link in st.chain] == ["resource"]
    assert st.priority == 0
    pass_all(st)
    assert st.chain == [] and st.ready_resources(0) == 1
    assert not any("as a resource" in lbl for lbl in labels(st))
    charm = st.players[0].hand[0]
    assert rule_of(st, Action("resource", 0, subject=charm)) == "410.1"


def test_no_resource_on_the_opponents_turn():
    """410.1a: resources are placed only in one's own non-combat action phase."""
    st = duel(hands={1: ["Ashen Recruit"]})
    pass_(st)
    assert st.priority == 1
    assert not any("as a resource" in lbl for lbl in labels(st))
    assert rule_of(st, Action("resource", 1, subject=st.players[1].hand[0])) == "410.1a"


# --- 101 / 501-503: starting the game and the turn ------------------------------------

def test_first_player_choice_then_mulligans_in_order_once_each():
    """101.1: a random player chooses who goes first; each player draws seven.
    101.2: the first player decides on a mulligan first, then the next player
    clockwise; each player only once; then the first turn begins."""
    st = new_game(7)
    assert st.decision is not None and st.decision.kind == "first_player"
    act(st, f"P{st.current_player() + 1} chooses P2 to go first")
    assert [len(p.hand) for p in st.players] == [7, 7]
    assert st.decision.kind == "mulligan" and st.decision.player == 1
    act(st, "P2 mulligans")
    assert len(st.players[1].hand) == 7
    assert len(st.players[1].deck) + len(st.players[1].hand) == 40
    assert st.players[1].mulliganed and not st.players[0].mulliganed
    assert st.decision is not None and st.decision.kind == "mulligan" and st.decision.player == 0
    act(st, "P1 keeps his hand")
    assert st.decision is None or st.decision.kind != "mulligan"
    assert st.turn_number == 1 and st.turn_player == 1 and st.step == "ready_step"
    assert st.priority == 1


def test_mulligan_order_with_three_players():
    """101.2: clockwise from the first player: P3 first, then P1, then P2."""
    st = new_game(3, players=3)
    act(st, f"P{st.current_player() + 1} chooses P3 to go first")
    asked = []
    while st.decision is not None and st.decision.kind == "mulligan":
        asked.append(st.decision.player)
        act(st, f"P{st.decision.player + 1} keeps his hand")
    assert asked == [2, 0, 1]
    assert st.turn_player == 2 and st.turn_number == 1


def test_first_player_skips_his_first_draw():
    """501.2a: the turn player draws as his draw step begins; 501.2b: the
    first player skips the whole draw step of his first turn, its window
    too: his action phase begins."""
    st = new_game(11)
    act(st, f"P{st.current_player() + 1} chooses P1 to go first")
    act(st, "P1 keeps his hand")
    act(st, "P2 keeps his hand")
    assert st.step == "ready_step" and st.turn_player == 0
    pass_all(st)
    assert st.step == "action_phase" and st.priority == 0
    assert len(st.players[0].hand) == 7  # no draw on the first player's first turn
    while st.turn_player == 0:
        advance(st)
    assert st.turn_number == 2 and st.step == "ready_step"
    assert len(st.players[1].hand) == 7
    pass_all(st)
    assert st.step == "draw_step"
    assert len(st.players[1].hand) == 8  # the second player draws in his first turn
    while st.turn_player == 1:
        advance(st)
    hand = len(st.players[0].hand)
    pass_all(st)
    assert st.turn_number == 3 and st.step == "draw_step"
    assert len(st.players[0].hand) == hand + 1  # only his first draw is skipped


def test_turn_steps_follow_in_order():
    """501.1b, 501.2a, 502.1, 503.1, 503.2a: each step's window opens on the
    turn player: ready step, draw step (one card drawn), action phase, end
    phase, then the end step passes the turn to the next player clockwise."""
    st = duel(step="ready_step")
    seen = [st.step]
    hand = len(st.players[0].hand)
    for _ in range(4):
        assert st.priority == 0
        pass_all(st)
        seen.append(st.step)
    assert seen == ["ready_step", "draw_step", "action_phase", "end_phase", "ready_step"]
    assert len(st.players[0].hand) == hand + 1
    assert st.turn_player == 1 and st.turn_number == 4 and st.priority == 1


def test_turns_pass_clockwise_among_three_players():
    """503.2a: after the end step the next player clockwise begins his turn:
    P3's turn is followed by P1's."""
    st = arrange([P1_HERO, P2_HERO, P3_HERO], turn_player=2, step="end_phase")
    assert st.priority == 2
    pass_all(st)
    assert st.turn_player == 0 and st.step == "ready_step" and st.priority == 0
    assert st.turn_number == 4


def test_ready_step_readies_only_the_turn_players_cards():
    """501.1a: as the ready step begins the turn player readies all his cards
    in play (resources included); other players' cards stay exhausted."""
    st = duel(play={0: [{"name": "Ashen Recruit", "exhausted": True}],
                    1: [{"name": "Ashen Recruit", "exhausted": True}, {"name": "Viking Warhammer", "exhausted": True}]},
              step="end_phase")
    for p in (0, 1):
        st.objs[st.players[p].hero].exhausted = True
    pass_all(st)  # end phase closes; end step; P2's turn begins
    assert st.turn_player == 1 and st.step == "ready_step"
    assert not st.find("Ashen Recruit", 1).exhausted
    assert not st.find("Viking Warhammer", 1).exhausted
    assert not st.objs[st.players[1].hero].exhausted
    assert st.find("Ashen Recruit", 0).exhausted
    assert st.objs[st.players[0].hero].exhausted


def test_end_step_discards_down_to_seven():
    """503.2a: no priority in the end step; a turn player holding more than
    seven cards discards until he holds seven; the opponent is not asked."""
    st = duel(hands={0: ["Ashen Recruit"] * 9, 1: ["Ashen Recruit"] * 9}, step="end_phase")
    pass_all(st)
    assert st.step == "end_step"
    assert st.decision is not None and st.decision.kind == "discard"
    assert st.decision.player == 0 and st.decision.rule == "503.2a"
    assert st.priority is None
    for _ in range(2):
        assert st.decision.kind == "discard" and st.decision.player == 0
        st.apply_action(st.legal_actions()[0])
    assert len(st.players[0].hand) == 7 and len(st.players[0].graveyard) == 2
    assert len(st.players[1].hand) == 9  # not P2's turn: he keeps nine (10 after his draw)
    assert st.turn_player == 1 and st.step == "ready_step"


def test_no_discard_at_seven():
    """503.2a: only a hand above the limit is discarded from."""
    st = duel(hands={0: ["Ashen Recruit"] * 7}, step="end_phase")
    pass_all(st)
    assert st.decision is None
    assert st.turn_player == 1 and len(st.players[0].hand) == 7


# --- 600-601: proposing a combat ------------------------------------------------------

def test_mocking_blow_forces_an_attack_on_the_casters_hero():
    """600.2: a character that must attack if able keeps its controller from
    passing in his non-combat action phase on an empty chain while it could
    attack; 601.2c: it can attack only the caster's hero if able. Mocking Blow
    is cast by P1 during P2's turn, as in the 601.2d example."""
    st = arrange([P1_HERO, P2_HERO], play={0: ["Ashen Recruit"], 1: ["Scryer Arcanist"]},
                 hands={0: ["Mocking Blow"]}, resources={0: 1}, turn_player=1)
    pass_(st)
    assert st.priority == 0
    act(st, "P1 plays Mocking Blow on P2's Scryer Arcanist")
    pass_all(st)
    arcanist = st.find("Scryer Arcanist", 1)
    assert arcanist.damage == 1
    assert st.step == "action_phase" and st.priority == 1 and st.chain == []
    assert "P2 passes" not in labels(st)
    assert rule_of(st, Action("pass", 1)) == "600.2"
    # only P1's hero may be attacked by it
    assert rule_of(st, Action("propose", 1, subject=arcanist.id, targets=(oid(st, "Ashen Recruit", 0),), option=False)) == "601.2c"
    assert [lbl for lbl in labels(st) if "Scryer Arcanist" in lbl and "proposes" in lbl] == [
        "P2 proposes Scryer Arcanist attacks P1's Gorrak Bloodfist"]
    act(st, "P2 proposes Scryer Arcanist attacks P1's Gorrak Bloodfist")
    pass_all(st)  # the proposal resolves
    pass_all(st)  # attack window closes; defend window
    pass_all(st)  # conclusion
    assert st.objs[st.players[0].hero].damage == 2
    assert_back_in_action_phase(st, turn_player=1)
    # exhausted now, it can't attack, so P2 may pass
    assert "P2 passes" in labels(st)


def test_mocking_blow_on_an_exhausted_character_does_not_block_passing():
    """600.2: the duty holds only "if able": an exhausted character could not
    be proposed, so its controller may pass."""
    st = arrange([P1_HERO, P2_HERO], play={1: [{"name": "Scryer Arcanist", "exhausted": True}]},
                 hands={0: ["Mocking Blow"]}, resources={0: 1}, turn_player=1)
    pass_(st)
    act(st, "P1 plays Mocking Blow on P2's Scryer Arcanist")
    pass_all(st)
    assert st.priority == 1 and st.find("Scryer Arcanist", 1).damage == 1
    pass_(st)
    assert st.priority == 0


def test_mocking_blow_cast_on_ones_own_turn_is_gone_by_the_next():
    """600.2, 503.2a: Mocking Blow's "this turn" is the caster's turn when he
    casts it on his own turn: by the target's controller's next turn it has
    ended, so he may pass and attack anyone."""
    st = duel(play={0: ["Ashen Recruit"], 1: ["Scryer Arcanist"]}, hands={0: ["Mocking Blow"]}, resources={0: 1})
    act(st, "P1 plays Mocking Blow on P2's Scryer Arcanist")
    pass_all(st)
    assert st.find("Scryer Arcanist", 1).damage == 1
    while not (st.turn_player == 1 and st.step == "action_phase"):
        advance(st)
    assert st.priority == 1
    assert "P2 passes" in labels(st)
    assert "P2 proposes Scryer Arcanist attacks P1's Ashen Recruit" in labels(st)


def test_mocking_blow_ends_with_the_turn():
    """503.2a: "this turn" modifiers end in the end step: in P2's next turn his
    character neither must attack nor is limited to P1's hero."""
    st = arrange([P1_HERO, P2_HERO], play={0: ["Ashen Recruit"], 1: [{"name": "Scryer Arcanist", "exhausted": True}]},
                 hands={0: ["Mocking Blow"]}, resources={0: 1}, turn_player=1)
    pass_(st)
    act(st, "P1 plays Mocking Blow on P2's Scryer Arcanist")
    pass_all(st)
    while not (st.turn_player == 1 and st.step == "action_phase" and st.turn_number == 5):
        pass_(st)
    assert st.priority == 1 and not st.find("Scryer Arcanist", 1).exhausted
    assert "P2 passes" in labels(st)
    assert "P2 proposes Scryer Arcanist attacks P1's Ashen Recruit" in labels(st)


def test_exhausted_or_new_allies_cannot_be_proposed_but_ferocity_can():
    """601.2a, 302.2: a proposed attacker must be ready and in its party since
    the turn began, unless it has ferocity (Silvermoon Skirmisher)."""
    st = duel(play={0: [{"name": "Ashen Recruit", "exhausted": True},
                        {"name": "Scryer Arcanist", "new": True},
                        {"name": "Silvermoon Skirmisher", "new": True}],
                    1: ["Stonehide Defender"]})
    defender = oid(st, "Stonehide Defender", 1)
    assert rule_of(st, Action("propose", 0, subject=oid(st, "Ashen Recruit", 0), targets=(defender,), option=False)) == "601.2a"
    assert rule_of(st, Action("propose", 0, subject=oid(st, "Scryer Arcanist", 0), targets=(defender,), option=False)) == "302.2"
    props = [lbl for lbl in labels(st) if "proposes" in lbl]
    assert not any("Ashen Recruit" in lbl or "Scryer Arcanist" in lbl for lbl in props)
    act(st, "P1 proposes Silvermoon Skirmisher attacks P2's Stonehide Defender")
    assert st.chain[-1].kind == "proposal"


def test_ally_played_this_turn_cannot_attack():
    """601.2a, 302.2: an ally that entered play this turn (played from hand and
    resolved) has not been in the party since the turn began."""
    st = duel(play={1: ["Stonehide Defender"]}, hands={0: ["Ashen Recruit"]}, resources={0: 1})
    act(st, "P1 plays Ashen Recruit")
    pass_all(st)
    recruit = st.find("Ashen Recruit", 0)
    assert not recruit.exhausted
    assert not any("proposes Ashen Recruit" in lbl for lbl in labels(st))
    assert rule_of(st, Action("propose", 0, subject=recruit.id, targets=(oid(st, "Stonehide Defender", 1),), option=False)) == "302.2"


def test_elusive_characters_cannot_be_proposed_as_defenders():
    """601.2b: a normal combat's proposed defender must be non-elusive."""
    st = duel(play={0: ["Ashen Recruit"], 1: ["Silvermoon Skirmisher"]})
    skirmisher = oid(st, "Silvermoon Skirmisher", 1)
    assert rule_of(st, Action("propose", 0, subject=oid(st, "Ashen Recruit", 0), targets=(skirmisher,), option=False)) == "601.2b"
    assert not any("Silvermoon Skirmisher" in lbl for lbl in labels(st))
    assert "P1 proposes Ashen Recruit attacks P2's Bragvi Stormstein" in labels(st)


def test_no_attack_on_a_friendly_character():
    """601.2b: a normal combat's proposed defender is controlled by an
    opponent of the turn player."""
    st = duel(play={0: ["Ashen Recruit", "Scryer Arcanist"]})
    assert rule_of(st, Action("propose", 0, subject=oid(st, "Ashen Recruit", 0),
                              targets=(oid(st, "Scryer Arcanist", 0),), option=False)) == "601.2b"
    assert not any("P1's" in lbl for lbl in labels(st) if "proposes" in lbl)


def test_sarmoth_draws_every_attack():
    """601.2c: opposing characters that can attack only Sarmoth if able can be
    proposed only against Sarmoth, heroes included."""
    st = duel(play={0: ["Ashen Recruit"], 1: ["Sarmoth", "Stonehide Defender"]})
    recruit = oid(st, "Ashen Recruit", 0)
    assert rule_of(st, Action("propose", 0, subject=recruit, targets=(oid(st, "Stonehide Defender", 1),), option=False)) == "601.2c"
    assert rule_of(st, Action("propose", 0, subject=recruit, targets=(st.players[1].hero,), option=False)) == "601.2c"
    props = sorted(lbl for lbl in labels(st) if "proposes" in lbl)
    assert props == ["P1 proposes Ashen Recruit attacks P2's Sarmoth",
                     "P1 proposes Gorrak Bloodfist attacks P2's Sarmoth"]


def test_mocking_blow_and_sarmoth_allow_either():
    """601.2d and its example: a character under two "can attack only" modifiers
    (Mocking Blow's caster's hero, Sarmoth) may attack either of them, and
    nothing else; 600.2: it must attack."""
    st = arrange([P1_HERO, P2_HERO], play={0: ["Sarmoth", "Ashen Recruit"], 1: ["Scryer Arcanist"]},
                 hands={0: ["Mocking Blow"]}, resources={0: 1}, turn_player=1)
    pass_(st)
    act(st, "P1 plays Mocking Blow on P2's Scryer Arcanist")
    pass_all(st)
    assert st.priority == 1
    assert rule_of(st, Action("pass", 1)) == "600.2"
    props = sorted(lbl for lbl in labels(st) if "proposes Scryer Arcanist" in lbl)
    assert props == ["P2 proposes Scryer Arcanist attacks P1's Gorrak Bloodfist",
                     "P2 proposes Scryer Arcanist attacks P1's Sarmoth"]


def test_sarmoth_does_not_restrain_his_own_side():
    """601.2c: Sarmoth restrains opposing characters only: on P2's turn his
    own allies attack whom they like."""
    st = arrange([P1_HERO, P2_HERO], play={0: ["Stonehide Defender"], 1: ["Sarmoth", "Ashen Recruit"]},
                 turn_player=1)
    assert "P2 proposes Ashen Recruit attacks P1's Stonehide Defender" in labels(st)


def test_proposal_illegal_on_resolution_is_interrupted():
    """601.3, CR7.4 709.2a, 711.1: the proposal's legality is rechecked as it
    tries to resolve; with its attacker exhausted in response (Hamstring) it
    is interrupted, no combat starts, and the turn player gets priority in
    his action phase with the chain empty."""
    st = duel(play={0: ["Ashen Recruit"], 1: ["Stonehide Defender"]}, hands={1: ["Hamstring"]},
              resources={1: 1})
    act(st, "P1 proposes Ashen Recruit attacks P2's Stonehide Defender")
    pass_(st)
    act(st, "P2 plays Hamstring on P1's Ashen Recruit")
    pass_all(st)  # Hamstring resolves
    assert st.find("Ashen Recruit", 0).exhausted
    assert [link.kind for link in st.chain] == ["proposal"]
    pass_all(st)  # the proposal tries to resolve
    assert any("interrupted" in h and "601.3" in h for h in st.history)
    assert_back_in_action_phase(st)
    assert st.passes == 0


# --- 602: the combat step --------------------------------------------------------------

def test_combat_step_exhausts_the_attacker_and_opens_the_attack_window():
    """602.1: as the combat step starts the proposed attacker exhausts and
    becomes the attacker, not yet in combat; the attack window opens on the
    turn player."""
    st = duel(play={0: ["Ashen Recruit"], 1: ["Stonehide Defender"]})
    act(st, "P1 proposes Ashen Recruit attacks P2's Stonehide Defender")
    assert not st.find("Ashen Recruit", 0).exhausted  # not until the proposal resolves
    assert st.combat is None
    pass_all(st)
    assert st.step == "attack_window"
    assert st.find("Ashen Recruit", 0).exhausted
    c = st.combat
    assert c.attacker == oid(st, "Ashen Recruit", 0)
    assert c.defender == oid(st, "Stonehide Defender", 1)
    assert not c.defending and not c.sabotage
    assert st.chain == [] and st.priority == 0


def test_protector_replaces_the_proposed_defender():
    """602.2: at the protect point an opponent of the attacker may exhaust a
    character that can protect; it becomes the proposed defender; 602.3: it
    then defends, and the defend window opens on the turn player."""
    st = duel(play={0: ["Ashen Recruit"], 1: ["Scryer Arcanist", "Stonehide Defender"]})
    act(st, "P1 proposes Ashen Recruit attacks P2's Scryer Arcanist")
    pass_all(st)
    pass_all(st)
    d = st.decision
    assert d is not None and d.kind == "protect" and d.player == 1 and d.rule == "602.2"
    assert sorted(labels(st)) == ["P2 does not protect", "P2 protects with P2's Stonehide Defender"]
    act(st, "P2 protects with P2's Stonehide Defender")
    assert st.find("Stonehide Defender", 1).exhausted
    assert st.combat.defender == oid(st, "Stonehide Defender", 1) and st.combat.defending
    assert st.step == "defend_window" and st.priority == 0
    pass_all(st)
    assert st.find("Stonehide Defender", 1).damage == 1
    assert st.find("Scryer Arcanist", 1).damage == 0
    assert zone_of(st, "Ashen Recruit", 0) == "graveyard"  # 2 damage on 2 health
    assert_back_in_action_phase(st)


def test_a_third_player_may_protect():
    """602.2: any player opposed to the attacker may protect, not only the
    proposed defender's controller: P3 protects P2's ally against P1."""
    st = arrange([P1_HERO, P2_HERO, P3_HERO], play={0: ["Ashen Recruit"], 1: ["Scryer Arcanist"],
                                                    2: ["Stonehide Defender"]})
    act(st, "P1 proposes Ashen Recruit attacks P2's Scryer Arcanist")
    pass_all(st)
    pass_all(st)
    assert st.decision is not None and st.decision.kind == "protect" and st.decision.player == 2
    act(st, "P3 protects with P3's Stonehide Defender")
    assert st.combat.defender == oid(st, "Stonehide Defender", 2)
    assert st.step == "defend_window" and st.priority == 0


def test_protect_choice_goes_clockwise_to_each_opponent():
    """602.2: every player opposed to the attacker may protect; when P2
    declines, P3 is asked (three players, P1 attacking)."""
    st = arrange([P1_HERO, P2_HERO, P3_HERO], play={0: ["Ashen Recruit"], 1: ["Scryer Arcanist", "Stonehide Defender"],
                                                    2: ["Stonehide Defender"]})
    act(st, "P1 proposes Ashen Recruit attacks P2's Scryer Arcanist")
    pass_all(st)
    pass_all(st)
    assert st.decision.kind == "protect" and st.decision.player == 1
    act(st, "P2 does not protect")
    assert st.decision is not None and st.decision.kind == "protect" and st.decision.player == 2
    act(st, "P3 does not protect")
    assert st.decision is None and st.step == "defend_window"
    assert st.combat.defender == oid(st, "Scryer Arcanist", 1)


def test_an_ally_new_to_its_party_may_protect():
    """302.2: protecting is not an exhaust power, so an ally that joined its
    party this turn may protect."""
    st = duel(play={0: ["Ashen Recruit"], 1: ["Scryer Arcanist", {"name": "Stonehide Defender", "new": True}]})
    act(st, "P1 proposes Ashen Recruit attacks P2's Scryer Arcanist")
    pass_all(st)
    pass_all(st)
    assert "P2 protects with P2's Stonehide Defender" in labels(st)


def test_only_one_character_protects_each_combat():
    """602.2b: only one character can protect in a combat: after one
    protector steps in, nobody is asked again."""
    st = duel(play={0: ["Ashen Recruit"], 1: ["Scryer Arcanist", "Stonehide Defender", "Stonehide Defender"]})
    act(st, "P1 proposes Ashen Recruit attacks P2's Scryer Arcanist")
    pass_all(st)
    pass_all(st)
    assert st.decision.kind == "protect"
    st.apply_action(next(a for a in st.legal_actions() if a.subject is not None))
    assert st.decision is None and st.step == "defend_window"
    assert sum(o.exhausted for o in st.objs if o.card.name == "Stonehide Defender" and o.zone == "play") == 1


def test_proposed_defender_cannot_protect_itself():
    """602.2b: a proposed defender can't protect itself: attacked alone, a
    protector gives no protect choice; beside another protector it is not
    among the options."""
    st = duel(play={0: ["Ashen Recruit", "Scryer Arcanist"], 1: ["Stonehide Defender"]})
    to_defend_window(st, "Ashen Recruit", "Stonehide Defender")
    assert st.decision is None and st.step == "defend_window"
    assert not st.find("Stonehide Defender", 1).exhausted

    st = duel(play={0: ["Ashen Recruit"], 1: ["Stonehide Defender", "Grunt Baranka"]})
    act(st, "P1 proposes Ashen Recruit attacks P2's Stonehide Defender")
    pass_all(st)
    pass_all(st)
    assert sorted(labels(st)) == ["P2 does not protect", "P2 protects with P2's Grunt Baranka"]


def test_no_protecting_against_stealth():
    """602.2a: while the attacker has stealth nobody can protect: no protect
    choice at all, and the proposed defender defends."""
    st = duel(play={0: ["Shadowed Prowler"], 1: ["Scryer Arcanist", "Stonehide Defender"]})
    to_defend_window(st, "Shadowed Prowler", "Scryer Arcanist")
    assert st.decision is None and st.step == "defend_window"
    assert st.combat.defender == oid(st, "Scryer Arcanist", 1)
    assert not st.find("Stonehide Defender", 1).exhausted


def test_exhausted_protector_cannot_protect():
    """602.2: the protector exhausts to protect, so an exhausted one can't."""
    st = duel(play={0: ["Ashen Recruit"], 1: ["Scryer Arcanist", {"name": "Stonehide Defender", "exhausted": True}]})
    to_defend_window(st, "Ashen Recruit", "Scryer Arcanist")
    assert st.decision is None and st.step == "defend_window"


def test_protecting_ends_a_sabotage():
    """602.2c: a protector stepping into a sabotage makes it a normal combat:
    combat damage is dealt and the item survives."""
    st = duel(play={0: ["Goblin Sapper"], 1: ["Lucky Charm", "Stonehide Defender"]})
    act(st, "P1 proposes Goblin Sapper sabotages P2's Lucky Charm")
    pass_all(st)
    assert st.combat.sabotage
    pass_all(st)
    act(st, "P2 protects with P2's Stonehide Defender")
    assert not st.combat.sabotage
    pass_all(st)
    assert_back_in_action_phase(st)  # no "when it sabotages" trigger on the chain
    assert zone_of(st, "Lucky Charm", 1) == "play"
    assert st.find("Stonehide Defender", 1).damage == 1  # Sapper's 1 ATK
    assert zone_of(st, "Goblin Sapper", 0) == "graveyard"  # 2 damage on 2 health


def test_saurfang_attacks_baranka_example():
    """602.3 example: High Overlord Saurfang attacks Grunt Baranka; after the
    protect point both powers trigger; CR7.4 708.1a: the turn player's
    (Saurfang's) goes on the chain first, so Baranka's resolves first and
    destroys both. 603.1b: with neither left, no combat damage."""
    st = duel(play={0: ["High Overlord Saurfang"], 1: ["Grunt Baranka"]})
    act(st, "P1 proposes High Overlord Saurfang attacks P2's Grunt Baranka")
    pass_all(st)
    assert st.step == "attack_window" and st.chain == []  # 602.1: not yet in combat, nothing triggers
    pass_all(st)
    assert st.decision is None  # Baranka is the proposed defender: she can't protect herself
    assert st.step == "defend_window" and st.priority == 0
    assert [(link.kind, link.controller, st.objs[link.source].name) for link in st.chain] == [
        ("trigger", 0, "High Overlord Saurfang"),
        ("trigger", 1, "Grunt Baranka"),
    ]
    pass_all(st)  # Baranka's effect resolves
    assert zone_of(st, "Grunt Baranka", 1) == "graveyard"
    assert zone_of(st, "High Overlord Saurfang", 0) == "graveyard"
    assert [st.objs[link.source].name for link in st.chain] == ["High Overlord Saurfang"]
    assert st.priority == 0
    pass_all(st)  # Saurfang's effect: nothing left to destroy
    assert st.chain == [] and st.step == "defend_window"
    pass_all(st)
    assert_back_in_action_phase(st)
    assert zone_of(st, "Grunt Baranka", 1) == "graveyard"
    assert zone_of(st, "High Overlord Saurfang", 0) == "graveyard"


# --- 603: combat conclusion ---------------------------------------------------------

def test_combat_damage_is_dealt_both_ways_at_once():
    """603.1: attacker and defender deal their ATK to each other at the same
    time: two 2/2 allies destroy each other."""
    st = duel(play={0: ["Scryer Arcanist"], 1: ["Scryer Arcanist"]})
    to_defend_window(st, "Scryer Arcanist", "Scryer Arcanist")
    pass_all(st)
    assert zone_of(st, "Scryer Arcanist", 0) == "graveyard"
    assert zone_of(st, "Scryer Arcanist", 1) == "graveyard"
    assert_back_in_action_phase(st)


def test_combat_damage_amounts():
    """603.1: each side deals damage equal to its ATK: Ashen Recruit (1 ATK)
    against Stonehide Defender (2 ATK, 4 health)."""
    st = duel(play={0: ["Ashen Recruit"], 1: ["Stonehide Defender"]})
    to_defend_window(st, "Ashen Recruit", "Stonehide Defender")
    pass_all(st)
    assert st.find("Stonehide Defender", 1).damage == 1
    assert zone_of(st, "Ashen Recruit", 0) == "graveyard"
    assert st.find("Ashen Recruit", 0, zone="graveyard").damage == 0  # damage goes with it


def test_long_range_attacker_takes_no_combat_damage():
    """603.1a: a defender deals no combat damage to a long-range attacker
    (Hill Archer); the archer still deals its ATK."""
    st = duel(play={0: ["Hill Archer"], 1: ["Stonehide Defender"]})
    to_defend_window(st, "Hill Archer", "Stonehide Defender")
    pass_all(st)
    assert st.find("Hill Archer", 0).damage == 0
    assert st.find("Stonehide Defender", 1).damage == 2
    assert_back_in_action_phase(st)


def test_long_range_only_helps_the_attacker():
    """603.1a covers the attacker: a long-range defender is dealt damage and
    deals its own as usual."""
    st = duel(play={0: ["Stonehide Defender"], 1: ["Hill Archer"]})
    to_defend_window(st, "Stonehide Defender", "Hill Archer")
    pass_all(st)
    assert st.find("Hill Archer", 1).damage == 2
    assert st.find("Stonehide Defender", 0).damage == 2


def test_sabotage_deals_no_damage_and_destroys_the_item():
    """603.1: a sabotage with both sides left deals no combat damage and
    triggers "when it sabotages": Goblin Sapper's destroys the Lucky Charm."""
    st = duel(play={0: ["Goblin Sapper"], 1: ["Lucky Charm"]})
    act(st, "P1 proposes Goblin Sapper sabotages P2's Lucky Charm")
    assert st.chain[-1].kind == "proposal" and st.chain[-1].sabotage
    pass_all(st)
    assert st.combat.sabotage
    pass_all(st)  # attack window closes, nobody can protect
    assert st.step == "defend_window"
    pass_all(st)  # conclusion: the trigger waits, then goes on the chain
    assert st.step == "action_phase" and st.combat is None
    assert [(link.kind, st.objs[link.source].name) for link in st.chain] == [("trigger", "Goblin Sapper")]
    assert st.priority == 0
    pass_all(st)
    assert zone_of(st, "Lucky Charm", 1) == "graveyard"
    assert st.find("Goblin Sapper", 0).damage == 0
    assert_back_in_action_phase(st)


def test_sabotage_needs_a_saboteur_and_an_item():
    """601.2b: a sabotage's proposed defender must be something the attacker
    can sabotage; a normal combat's must be a character."""
    st = duel(play={0: ["Goblin Sapper", "Ashen Recruit"], 1: ["Lucky Charm", "Stonehide Defender"]})
    charm = oid(st, "Lucky Charm", 1)
    sapper = oid(st, "Goblin Sapper", 0)
    recruit = oid(st, "Ashen Recruit", 0)
    defender = oid(st, "Stonehide Defender", 1)
    assert rule_of(st, Action("propose", 0, subject=recruit, targets=(charm,), option=True)) == "601.2b"
    assert rule_of(st, Action("propose", 0, subject=sapper, targets=(charm,), option=False)) == "601.2b"
    assert rule_of(st, Action("propose", 0, subject=sapper, targets=(defender,), option=True)) == "601.2b"


def test_no_sabotage_of_a_friendly_item():
    """601.2b: a sabotage's proposed defender must not be controlled by a
    player friendly to the attacker, so not by its own controller."""
    st = duel(play={0: ["Goblin Sapper", "Lucky Charm"]})
    assert rule_of(st, Action("propose", 0, subject=oid(st, "Goblin Sapper", 0),
                              targets=(oid(st, "Lucky Charm", 0),), option=True)) == "601.2b"


def test_attacker_destroyed_in_attack_window_means_no_damage():
    """603.1b, 602.4: an attacker that leaves play stops attacking; the combat
    still concludes, but with no attacker no combat damage is dealt (Arcane
    Missiles kills the attacking Ashen Recruit in the attack window)."""
    st = duel(play={0: ["Ashen Recruit"], 1: ["Stonehide Defender"]}, hands={1: ["Arcane Missiles"]},
              resources={1: 2})
    act(st, "P1 proposes Ashen Recruit attacks P2's Stonehide Defender")
    pass_all(st)
    assert st.step == "attack_window"
    pass_(st)
    act(st, "P2 plays Arcane Missiles on P1's Ashen Recruit")
    pass_all(st)
    assert zone_of(st, "Ashen Recruit", 0) == "graveyard"
    assert st.combat is not None and st.combat.attacker is None
    # 409.4a, 602.4: the link resolved; the window stays open on the turn player
    assert st.step == "attack_window" and st.priority == 0
    pass_all(st)  # the attack window closes: straight to conclusion
    assert st.decision is None
    assert st.find("Stonehide Defender", 1).damage == 0
    assert_back_in_action_phase(st)


def test_defender_destroyed_means_no_damage_and_attacker_stays_exhausted():
    """603.1b: with the defender gone no damage is dealt, nothing triggers,
    and the remaining attacker does not ready."""
    st = duel(play={0: ["Scryer Arcanist"], 1: ["Ashen Recruit", "Stonehide Defender"]},
              hands={0: ["Arcane Missiles"]}, resources={0: 2})
    act(st, "P1 proposes Scryer Arcanist attacks P2's Ashen Recruit")
    pass_all(st)
    act(st, "P1 plays Arcane Missiles on P2's Ashen Recruit")
    pass_all(st)
    assert zone_of(st, "Ashen Recruit", 1) == "graveyard"
    pass_all(st)
    # 602.2: with no proposed defender left, the combat concludes: no protect point
    assert not any("protect" in h for h in st.history)
    assert not st.find("Stonehide Defender", 1).exhausted
    assert_back_in_action_phase(st)
    arcanist = st.find("Scryer Arcanist", 0)
    assert arcanist.damage == 0 and arcanist.exhausted


def test_after_combat_turn_player_may_propose_again():
    """600.1, 603.2: after a combat concludes the turn player holds priority in
    his action phase and may propose another combat."""
    st = duel(play={0: ["Ashen Recruit", "Scryer Arcanist"], 1: ["Stonehide Defender"]})
    to_defend_window(st, "Ashen Recruit", "Stonehide Defender")
    pass_all(st)
    assert_back_in_action_phase(st)
    assert "P1 proposes Scryer Arcanist attacks P2's Stonehide Defender" in labels(st)
    assert not any("proposes Ashen Recruit" in lbl for lbl in labels(st))


# --- 102: a whole game -----------------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_game_ends_with_a_winner_and_a_loser(seed):
    """102.1, 102.1a, 102.2: a seeded game played with random legal actions
    ends; every player has a result and the returns sum to zero."""
    st = new_game(seed)
    rng = random.Random(seed)
    for _ in range(20_000):
        if st.is_terminal():
            break
        actions = st.legal_actions()
        assert actions, f"no legal action in a running game\n{st}"
        assert all(a.player == st.current_player() for a in actions)
        st.apply_action(rng.choice(actions))
    assert st.is_terminal(), f"no end after 20000 actions\n{st}"
    assert st.step == "game_over" and st.current_player() == -4
    assert st.legal_actions() == []
    assert sum(st.returns()) == 0
    assert all(p.result in ("won", "lost", "drew") for p in st.players)
    assert sorted(st.returns()) in ([-1.0, 1.0], [0.0, 0.0])

def test_no_strike_once_the_heros_opponent_is_gone():
    """602.3a, 602.3c, 602.4: a hero is in combat only while an opposing
    attacker or defender remains; once the defender is destroyed in the
    defend window, its attacking hero is no longer in combat and its player
    can't strike."""
    st = duel(play={0: ["Viking Warhammer"], 1: ["Ashen Recruit"]}, hands={0: ["Arcane Missiles"]},
              resources={0: 4})
    to_defend_window(st, "Gorrak Bloodfist", "Ashen Recruit")
    assert st.step == "defend_window"
    assert "P1 strikes with Viking Warhammer" in labels(st)  # in combat with the Recruit
    act(st, "P1 plays Arcane Missiles on P2's Ashen Recruit")
    pass_all(st)
    assert zone_of(st, "Ashen Recruit", 1) == "graveyard"
    assert st.step == "defend_window" and st.priority == 0
    assert "P1 strikes with Viking Warhammer" not in labels(st)
    assert rule_of(st, Action("strike", 0, subject=oid(st, "Viking Warhammer", 0))) == "602.3a"


def test_ready_step_readies_resources():
    """501.1a: resources are cards in play too: the turn player's are readied."""
    st = duel(play={1: ["Stonehide Defender"]}, hands={0: ["Arcane Missiles"]}, resources={0: 2, 1: 2})
    act(st, "P1 plays Arcane Missiles on P2's Stonehide Defender")
    pass_all(st)
    assert st.ready_resources(0) == 0
    for _ in range(4):  # end of the action phase, end phase; P2's turn; P2's ready and draw steps
        pass_all(st)
    assert st.turn_player == 1 and st.step == "action_phase"
    while st.turn_player == 1:
        advance(st)
    assert st.turn_player == 0 and st.step == "ready_step"
    assert st.ready_resources(0) == 2
"""Control that changes hands (Mind Tether, Gift of Fealty): owner and controller part ways
(107.1, 107.2, 109.2), "you" follows the controller (108.4), and a player who
leaves takes what they own or control (assumed:leaver-objects)."""

from __future__ import annotations

import pytest

from engine.hota import Action, IllegalAction

from .helpers import act, labels, passes, start


def entity(st, name: str) -> dict:
    return next(e for e in st.snapshot()["entities"] if e["card"] == name)


def test_a_taken_entity_keeps_its_owner_and_answers_to_its_new_controller():
    st = start(table={"P1": ["Mind Tether"], "P2": ["Ember Bolt"]})
    assert "P1 activates Mind Tether targeting P2's Ember Bolt" in labels(st)
    act(st, "P1 activates Mind Tether targeting P2's Ember Bolt")
    # Its printed attributes go with it (109.3).
    assert entity(st, "Ember Bolt") == {"card": "Ember Bolt", "controller": 0, "owner": 1, "used": False,
                                              "silenced": False, "attributes": ["intelligence"]}
    # 109.2: only the controller activates it; actions name it by its owner.
    assert "P1 activates P2's Ember Bolt targeting P2" in labels(st)
    act(st, "P1 activates P2's Ember Bolt targeting P2")
    assert st.damage == [0, 10]
    passes(st, 2)  # P2's turn: the Bolt is still P1's
    assert st.active == 1
    with pytest.raises(IllegalAction) as err:
        st.clone().apply_action(Action("activate", 1, "Ember Bolt", 0))
    assert err.value.rule == "109.2"
    assert not any(a.kind == "activate" for a in st.legal_actions())


def test_mind_tether_targets_only_an_opponents_entity():
    st = start(table={"P1": ["Mind Tether", "Ember Bolt"], "P2": ["Gatekeeper"]})
    assert [x for x in labels(st) if "Mind Tether" in x] == ["P1 activates Mind Tether targeting P2's Gatekeeper"]
    with pytest.raises(IllegalAction) as err:
        st.clone().apply_action(Action("activate", 0, "Mind Tether", 0, "Ember Bolt"))
    assert err.value.rule == "108.4"


def test_you_on_a_static_ability_is_its_current_controller():
    """108.4: Aegis of Immortality taken from P2 protects P1, and P2 can lose."""
    st = start(table={"P1": ["Mind Tether", "Curse of Ruin"], "P2": ["Aegis of Immortality"]})
    assert not st.can_lose(1)
    act(st, "P1 activates Mind Tether targeting P2's Aegis of Immortality")
    assert st.can_lose(1) and not st.can_lose(0)
    act(st, "P1 activates Curse of Ruin targeting P2")
    assert st.status == ["won", "lost"]


def test_two_of_one_name_under_one_controller_are_told_apart():
    st = start(table={"P1": ["Mind Tether", "Ember Bolt"], "P2": ["Ember Bolt"]})
    act(st, "P1 activates Mind Tether targeting P2's Ember Bolt")
    bolts = [x for x in labels(st) if "Ember Bolt targeting P2" in x]
    assert bolts == ["P1 activates Ember Bolt targeting P2", "P1 activates P2's Ember Bolt targeting P2"]
    act(st, "P1 activates P2's Ember Bolt targeting P2")
    used = {(e["owner"], e["used"]) for e in st.snapshot()["entities"] if e["card"] == "Ember Bolt"}
    assert used == {(0, False), (1, True)}


def test_a_leaver_takes_what_they_own_and_what_they_took():
    """assumed:leaver-objects, with three players: P2's Ember Bolt, taken by P1,
    leaves when P2 concedes; P3's Gatekeeper, taken by P1, leaves with P1."""
    st = start(players=3, table={"P1": ["Mind Tether", "Silencing Rune"], "P2": ["Ember Bolt"],
                                 "P3": ["Gatekeeper"]})
    act(st, "P1 activates Mind Tether targeting P2's Ember Bolt")
    st.concede(1)
    assert [e["card"] for e in st.snapshot()["entities"]] == ["Mind Tether", "Silencing Rune", "Gatekeeper"]
    st2 = start(players=3, table={"P1": ["Mind Tether"], "P2": ["Ember Bolt"], "P3": ["Gatekeeper"]})
    act(st2, "P1 activates Mind Tether targeting P3's Gatekeeper")
    st2.concede(0)
    assert [e["card"] for e in st2.snapshot()["entities"]] == ["Ember Bolt"]


def test_an_ability_used_this_turn_stays_used_under_its_new_controller():
    """Reading of assumed:once-per-turn: uses are counted per ability, not per player."""
    st = start(table={"P1": ["Mind Tether"], "P2": ["Ember Bolt"]})
    act(st, "P1 passes", "P2 activates Ember Bolt targeting P1")
    act(st, "P1 activates Mind Tether targeting P2's Ember Bolt")
    assert entity(st, "Ember Bolt")["used"] and entity(st, "Ember Bolt")["controller"] == 0
    assert not [x for x in labels(st) if "Ember Bolt" in x]
    with pytest.raises(IllegalAction) as err:
        st.clone().apply_action(Action("activate", 0, "P2's Ember Bolt", 1))
    assert err.value.rule == "assumed:once-per-turn"
    passes(st, 2)  # P2's turn: uses reset (assumed:turn-end)
    act(st, "P2 passes", "P1 activates P2's Ember Bolt targeting P2")
    assert st.damage == [10, 10]


# --- controllers in hand and on the stack (107.3, 108.4) ------------------------------------------

def test_cards_off_the_stack_and_battlefield_have_no_controller() -> None:
    """107.3: a card in a library, hand or discard pile has an owner (107.1) and no controller."""
    st = start(table={"P1": ["Ember Bolt"]})
    for o in st.objects():
        if o["zone"] in ("library", "hand", "discard"):
            assert o["controller"] is None and o["kind"] == "card", o
    assert {(o["zone"], o["owner"]) for o in st.objects() if o["zone"] != "battlefield"} == \
        {("library", 0), ("library", 1), ("hand", 0), ("hand", 1)}
    (bolt,) = [o for o in st.objects() if o["zone"] == "battlefield"]
    assert bolt["controller"] == 0 and bolt["owner"] == 0


def test_a_played_card_is_on_the_stack_under_its_players_control_while_it_resolves() -> None:
    """107.3, 108.4: Call to Council, played by P2, sits on the stack under P2's
    control while the council chooses, then goes to P2's discard pile."""
    st = start(decks={"P2": ["Call to Council"] * 9})
    assert st.snapshot()["stack"] == []
    passes(st, 1)
    act(st, "P2 plays Call to Council")
    assert st.snapshot()["step"] == "council"
    assert st.snapshot()["stack"] == [{"card": "Call to Council", "kind": "played card", "owner": 1, "controller": 1}]
    on_stack = [o for o in st.objects() if o["zone"] == "stack"]
    assert [(o["name"], o["controller"], o["attributes"]) for o in on_stack] == [("Call to Council", 1, ["agility"])]
    act(st, "P1 chooses a card face down", "P1 refuses", "P2 chooses a card face down", "P2 refuses")
    assert st.snapshot()["stack"] == [] and st.snapshot()["step"] == "priority"
    assert st.discards[1] == ["Call to Council", "Call to Council"]  # the chosen one, then the played one
    assert len(st.hands[1]) == 5


def test_an_activated_ability_is_controlled_by_its_activator_and_outlives_its_sources_owner() -> None:
    """108.4: an activated ability's controller is the player who activated it:
    P1 takes P2's Council of Elders and activates it; on the stack the ability is
    P1's. P2 concedes during the council (three players): the entity leaves with
    its owner (assumed:leaver-objects), the ability P1 controls resolves."""
    st = start(players=3, table={"P1": ["Mind Tether"], "P2": ["Council of Elders"]})
    act(st, "P1 activates Mind Tether targeting P2's Council of Elders", "P1 activates P2's Council of Elders")
    assert st.snapshot()["stack"] == [{"card": "Council of Elders", "kind": "ability", "owner": 1, "controller": 0}]
    st.concede(1)
    assert [e["card"] for e in st.snapshot()["entities"]] == ["Mind Tether"]
    assert st.snapshot()["stack"][0]["controller"] == 0 and st.snapshot()["step"] == "council"
    act(st, "P1 chooses a card face down", "P1 accepts", "P3 chooses a card face down", "P3 accepts")
    assert st.snapshot()["stack"] == [] and st.snapshot()["step"] == "priority" and st.priority == 0


def test_the_player_of_a_card_on_the_stack_takes_it_when_leaving() -> None:
    """assumed:leaver-objects: P2 concedes while the Call to Council they played
    waits; the card leaves the game with them (no discard pile) and the council
    it convened ends."""
    st = start(players=3, decks={"P2": ["Call to Council"] * 9})
    passes(st, 1)
    act(st, "P2 plays Call to Council", "P1 chooses a card face down", "P1 accepts")
    st.concede(1)
    assert st.snapshot()["stack"] == [] and st.snapshot()["council"] is None
    assert st.discards == [[], [], []] and st.priority == 0
    assert not [o for o in st.objects() if o["name"] == "Call to Council" and o["zone"] in ("stack", "discard")]


def test_mind_tether_cannot_take_a_card_in_a_hand() -> None:
    """107.3: a card in a hand has no controller, so no opponent controls it."""
    st = start(table={"P1": ["Mind Tether"]}, decks={"P2": ["Arcane Study"] * 9})
    assert not [x for x in labels(st) if "Mind Tether" in x]
    with pytest.raises(IllegalAction) as err:
        st.clone().apply_action(Action("activate", 0, "Mind Tether", 1, "Arcane Study"))
    assert err.value.rule == "107.3" and "no controller" in err.value.reason
    with pytest.raises(IllegalAction) as err:
        st.clone().apply_action(Action("activate", 0, "Mind Tether", 1, "Gatekeeper"))
    assert err.value.rule == "109.1"


def test_gift_of_fealty_gives_an_entity_it_controls_to_an_opponent() -> None:
    """109.2, 107.2: the played card moves the entity to the opponent's control,
    its owner unchanged; 108.4: its "you" is then the new controller (a given
    Aegis protects P2). Refused: giving to oneself (108.4: an opponent of the
    player), an entity the player does not control (109.2), no entity (109.1)."""
    st = start(table={"P1": ["Aegis of Immortality", "Curse of Ruin"], "P2": ["Ember Bolt"]},
               decks={"P1": ["Gift of Fealty"] * 9})
    gifts = [x for x in labels(st) if "Gift" in x]
    assert gifts == ["P1 plays Gift of Fealty giving Aegis of Immortality to P2",
                     "P1 plays Gift of Fealty giving Curse of Ruin to P2"]
    for target, card, rule in ((0, "Aegis of Immortality", "108.4"), (1, "Ember Bolt", "109.2"),
                               (1, "Gatekeeper", "109.1"), (5, "Aegis of Immortality", "104.5")):
        with pytest.raises(IllegalAction) as err:
            st.clone().apply_action(Action("play", 0, source="Gift of Fealty", target=target, target_card=card))
        assert err.value.rule == rule, (target, card, err.value)
    with pytest.raises(IllegalAction) as err:
        st.clone().apply_action(Action("play", 0, source="Gift of Fealty"))
    assert err.value.rule == "104.5"
    act(st, "P1 plays Gift of Fealty giving Aegis of Immortality to P2")
    assert entity(st, "Aegis of Immortality")["controller"] == 1 and entity(st, "Aegis of Immortality")["owner"] == 0
    assert st.discards[0] == ["Gift of Fealty"] and st.snapshot()["stack"] == []
    act(st, "P1 activates Curse of Ruin targeting P2")
    assert st.status == ["playing", "playing"]


def test_gift_of_fealty_gives_a_spirit_whose_owner_stays() -> None:
    """109.1, 109.5e: a Spirit its player controls is an entity Gift of Fealty
    gives; it stays its owner's (107.1), named by that owner while another
    controls it, and one its player no longer controls is refused (109.2)."""
    st = start(table={"P1": ["Spirit Caller"], "P2": ["Banishing Gale"]}, decks={"P1": ["Gift of Fealty"] * 9})
    act(st, "P1 activates Spirit Caller")
    assert "P1 plays Gift of Fealty giving Spirit to P2" in labels(st)
    act(st, "P1 plays Gift of Fealty giving Spirit to P2")
    snap = st.snapshot()
    assert snap["tokens"] == [0, 1] and snap["tokens_taken"] == [[0, 0], [1, 0]]
    assert [x for x in labels(st) if "Gift" in x] == ["P1 plays Gift of Fealty giving Spirit Caller to P2"]
    for card in ("Spirit", "P1's Spirit"):
        with pytest.raises(IllegalAction) as err:
            st.clone().apply_action(Action("play", 0, source="Gift of Fealty", target=1, target_card=card))
        assert err.value.rule == "109.2", (card, err.value)
    passes(st, 1)
    act(st, "P2 activates Banishing Gale targeting P1's Spirit under P2's control")
    # To its owner's hand (107.1); the Spirit vanishes at the check (109.5f).
    assert st.snapshot()["tokens"] == [0, 0] and "P1's Spirit vanishes (109.5f)" in st.history

def test_a_card_that_asks_for_no_target_refuses_one() -> None:
    st = start(decks={"P1": ["Strength Attribute"] * 9})
    with pytest.raises(IllegalAction) as err:
        st.apply_action(Action("play", 0, source="Strength Attribute", target=1, target_card="Ember Bolt"))
    assert err.value.rule == "assumed:play-from-hand"


def test_mind_tether_takes_a_spirit_whose_owner_stays():
    """109.1, 109.5e: a Spirit is an entity Mind Tether may take; it stays its
    owner's (107.1), and actions name it by that owner while another controls it."""
    st = start(table={"P1": ["Spirit Caller", "Rewind Portal"], "P2": ["Mind Tether", "Banishing Gale"]})
    act(st, "P1 activates Spirit Caller")
    act(st, "P1 passes")
    assert "P2 activates Mind Tether targeting P1's Spirit" in labels(st)
    act(st, "P2 activates Mind Tether targeting P1's Spirit")
    snap = st.snapshot()
    assert snap["tokens"] == [0, 1] and snap["tokens_taken"] == [[0, 0], [1, 0]]
    # P1 controls no Spirit now: its Rewind Portal, which takes one of its controller's, has no target.
    assert not [x for x in labels(st) if "Rewind Portal" in x]
    passes(st, 1)
    act(st, "P2 activates Banishing Gale targeting P1's Spirit under P2's control")
    # To its owner's hand (107.1); the Spirit vanishes at the check (109.5f).
    assert st.snapshot()["tokens"] == [0, 0] and "P1's Spirit vanishes (109.5f)" in st.history

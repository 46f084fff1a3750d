"""The engine parts behind the seeds' last worked examples, each on the
smallest arranged board: Readiness and Nalonae's alternate cost (000 410.1b),
a quest's reward (001 Quests), bear form (001), a +1 replacement and a
prevention lasting the turn (001 Preventing damage). The scenario files show
the examples themselves; these check what they leave out."""

from __future__ import annotations

import pytest

from engine.wowtcg import Action, IllegalAction
from engine.wowtcg.arrange import arrange
from engine.wowtcg.combat import has

from tests.engine.wowtcg_steps import act, everyone_passes, labels


def place(st, name: str, face_up: bool = False) -> None:
    """Place a card of P1's hand as a resource and let it resolve (410.1a)."""
    act(st, f"P1 places {name}{' face up' if face_up else ''} as a resource")
    everyone_passes(st)


def test_readiness_lets_abilities_be_played_from_the_graveyard_and_removes_them_after():
    st = arrange(["Baxxel Geartooth", "Maelen Frostweave"], hands={0: ["Readiness"]}, resources={0: 5},
                 graveyards={0: ["Flash Heal"]}, play={0: [{"name": "Ashen Recruit", "damage": 1}]})
    assert not any("from his graveyard" in label for label in labels(st))
    act(st, "P1 plays Readiness")
    everyone_passes(st)
    heal = st.find("Flash Heal", zone="graveyard")
    act(st, "P1 plays Flash Heal from his graveyard on P1's Ashen Recruit")
    everyone_passes(st)
    assert st.find("Ashen Recruit").damage == 0
    assert heal.zone == "removed" and st.find("Readiness", zone="removed")
    with pytest.raises(IllegalAction) as info:  # no longer in the graveyard: nothing to play
        st.apply_action(Action("play", 0, heal.id, (st.find("Ashen Recruit").id,)))
    assert info.value.rule == "408.1"


def test_a_face_down_card_that_cant_be_destroyed_is_blank_and_pays_nalonaes_cost():
    # 410.1b: blank in play and as it leaves, so its "can't be destroyed" does not apply.
    st = arrange(["Baxxel Geartooth", "Maelen Frostweave"], hands={0: ["Unyielding Sentinel", "Nalonae"]})
    place(st, "Unyielding Sentinel")
    sentinel = st.find("Unyielding Sentinel")
    assert not sentinel.exhausted and st.ready_resources(0) == 1
    act(st, "P1 plays Nalonae by destroying his resource (face-down Unyielding Sentinel)")
    assert sentinel.zone == "graveyard"
    everyone_passes(st)
    assert st.find("Nalonae").zone == "play"


def test_nalonaes_alternate_cost_names_a_resource_of_her_player():
    st = arrange(["Baxxel Geartooth", "Maelen Frostweave"], hands={0: ["Nalonae", "Ashen Recruit"]},
                 resources={1: 1}, play={0: ["Scryer Arcanist"]})
    nalonae, theirs = st.find("Nalonae", zone="hand"), next(st.objs[i] for i in st.play if st.objs[i].resource)
    for option, rule in ((theirs.id, "CR7.4 403.3"), (st.find("Scryer Arcanist").id, "CR7.4 403.3")):
        with pytest.raises(IllegalAction) as info:
            st.apply_action(Action("play", 0, nalonae.id, option=option))
        assert info.value.rule == rule
    with pytest.raises(IllegalAction) as info:  # Ashen Recruit has no alternate cost
        st.apply_action(Action("play", 0, st.find("Ashen Recruit", zone="hand").id, option=theirs.id))
    assert info.value.rule == "CR7.4 403.3"


def test_a_quest_is_completed_only_face_up_and_paid_for():
    st = arrange(["Bragvi Stormstein", "Maelen Frostweave"], hands={0: ["Bounty of the Front"]}, resources={0: 1})
    place(st, "Bounty of the Front", face_up=True)
    quest = st.find("Bounty of the Front")
    assert "P1 completes Bounty of the Front" not in labels(st)  # 2 resources, the quest among them: 3 needed
    with pytest.raises(IllegalAction) as info:
        st.apply_action(Action("complete", 0, quest.id))
    assert info.value.rule == "402.1"
    down = arrange(["Bragvi Stormstein", "Maelen Frostweave"], hands={0: ["Bounty of the Front"]}, resources={0: 3})
    place(down, "Bounty of the Front")
    with pytest.raises(IllegalAction) as info:  # face down it is blank: no reward to complete (410.1b)
        down.apply_action(Action("complete", 0, down.find("Bounty of the Front").id))
    assert info.value.rule == "CR7.4 702.2"


def test_a_quest_is_completed_outside_the_main_phase():
    # 409.2: completing a quest is open to any priority holder, like an instant.
    st = arrange(["Bragvi Stormstein", "Maelen Frostweave"], hands={0: ["Bounty of the Front"]}, resources={0: 2})
    place(st, "Bounty of the Front", face_up=True)
    act(st, "P1 passes")
    act(st, "P2 passes")  # the action phase closes; the end phase's window opens
    assert st.step == "end_phase" and "P1 completes Bounty of the Front" in labels(st)


def test_bear_form_gives_the_hero_protector_until_a_non_feral_ability_is_played():
    st = arrange(["Elaria Moonwhisper", "Maelen Frostweave"], play={0: ["Maul"]},
                 hands={0: ["Maul", "Flash Heal"]}, resources={0: 4})
    hero = st.objs[st.players[0].hero]
    assert has(st, hero, "protector") and not has(st, st.objs[st.players[1].hero], "protector")
    act(st, "P1 plays Maul")  # Feral: nothing triggers
    assert [link.kind for link in st.chain] == ["card"]
    everyone_passes(st)
    act(st, "P1 plays Flash Heal on P1's Elaria Moonwhisper")
    # Each Maul's trigger waits; before he gets priority again he orders them (CR7.4 708.1a).
    assert st.decision is not None and st.decision.kind == "order_trigger"
    st.apply_action(st.legal_actions()[0])
    assert [link.kind for link in st.chain] == ["card", "trigger", "trigger"]
    everyone_passes(st)  # the first resolves and destroys both; the second finds none left
    assert [st.objs[i].name for i in st.players[0].graveyard].count("Maul") == 2
    assert not has(st, hero, "protector")


def test_a_prevention_and_armor_compete_and_the_heros_controller_orders_them():
    # CR7.4 717.4b: he picks which applies next; the prevention can't be declined (CR7.4 717.2).
    st = arrange(["Boris Brightbeard", "Maelen Frostweave"], play={0: ["Observer's Shield"]},
                 hands={0: ["Sheltering Ward"], 1: ["Lightning Bolt"]}, resources={0: 1, 1: 3}, turn_player=1)
    act(st, "P2 plays Lightning Bolt on P1's Boris Brightbeard")
    act(st, "P2 passes")
    act(st, "P1 plays Sheltering Ward")
    everyone_passes(st)
    everyone_passes(st)
    assert st.decision is not None and st.decision.kind == "prevent" and st.decision.rule == "CR7.4 717.4b"
    options = labels(st)
    assert not any("takes" in o for o in options), options
    act(st, "P1 exhausts Observer's Shield (DEF 2) against 4 damage")
    # 2 left of the packet: the prevention must apply now, alone, and is used up.
    assert st.decision is None and st.objs[st.players[0].hero].damage == 0
    assert not st.turn_modifiers

"""The engine's modifiers, triggers, totems and zone moves, each on the
smallest arranged board that shows it: what the scenario files check through
labels, checked here on the state itself."""

from __future__ import annotations

import pytest

from engine.wowtcg import Action, IllegalAction
from engine.wowtcg.arrange import arrange
from engine.wowtcg.combat import atk_in_combat, attack_tax, has, must_attack_pending
from engine.wowtcg.effects import atk_of, health_of, heroes_and_allies_in_play, keywords_of, powerless

from tests.engine.wowtcg_steps import act, everyone_passes


def test_a_totem_is_a_character_targeted_as_an_ally_but_never_chosen_as_one():
    # 306.3a: targetable as if an ally; "hero or ally" chosen without a target leaves it out.
    st = arrange(["Bragvi Stormstein", "Maelen Frostweave"], play={1: ["Searing Totem", "Ashen Recruit"]})
    totem = st.find("Searing Totem")
    assert totem.card.is_character and totem.card.is_totem and not totem.card.type == "ally"
    assert totem.id in st.legal_targets("ally", 0) and totem.id in st.legal_targets("character", 0)
    assert totem.id not in [o.id for o in heroes_and_allies_in_play(st)]
    mine = arrange(["Bragvi Stormstein", "Maelen Frostweave"], play={0: ["Searing Totem"]})
    with pytest.raises(IllegalAction) as info:
        mine.apply_action(Action("propose", 0, mine.find("Searing Totem").id, (mine.players[1].hero,), option=False))
    assert info.value.rule == "306.3a"


def test_resurrection_reads_the_resources_as_it_resolves():
    st = arrange(["Boris Brightbeard", "Maelen Frostweave"], hands={0: ["Resurrection"]}, resources={0: 4},
                 graveyards={0: ["Searing Totem", "Ashen Recruit"]})
    recruit = next(st.objs[i] for i in st.players[0].graveyard if st.objs[i].name == "Ashen Recruit")
    totem = next(st.objs[i] for i in st.players[0].graveyard if st.objs[i].name == "Searing Totem")
    assert st.legal_targets("ally_in_your_graveyard", 0) == [recruit.id]
    act(st, "P1 plays Resurrection on Ashen Recruit in P1's graveyard")
    everyone_passes(st)
    assert recruit.zone == "play" and recruit.controller == 0 and totem.zone == "graveyard"


def test_atk_modifiers_count_as_combat_needs_them():
    st = arrange(["Gorrak Bloodfist", "Maelen Frostweave"],
                 play={0: ["Tracker Gallen", "Ashen Recruit", "Mason's Fraternity Ring"], 1: ["Searing Totem"]})
    gallen = st.find("Tracker Gallen")
    assert gallen.card.atk == 0 and atk_of(st, gallen) == 2  # himself and the recruit
    assert atk_of(st, st.find("Searing Totem")) == 0  # a totem has no ATK (306.3a)
    act(st, "P1 proposes Gorrak Bloodfist attacks P2's Searing Totem")
    everyone_passes(st)
    hero = st.objs[st.players[0].hero]
    assert atk_in_combat(st, hero)[0] == 1  # Mason's Fraternity Ring while attacking (407.3c)


def test_keywords_gained_by_the_hero_faction():
    horde = arrange(["Gorrak Bloodfist", "Bragvi Stormstein"], play={0: ["Thunderhead Hippogryph"]})
    alliance = arrange(["Bragvi Stormstein", "Gorrak Bloodfist"], play={0: ["Thunderhead Hippogryph"]})
    h, a = horde.find("Thunderhead Hippogryph"), alliance.find("Thunderhead Hippogryph")
    assert keywords_of(horde, h) == {"ferocity"} and has(horde, h, "ferocity") and not has(horde, h, "elusive")
    assert keywords_of(alliance, a) == {"elusive"} and has(alliance, a, "elusive")


def test_a_taxed_character_need_not_attack_and_pays_when_proposed():
    st = arrange(["Gorrak Bloodfist", "Bragvi Stormstein"], play={0: ["Reluctant Conscript"]}, resources={0: 1})
    conscript = st.find("Reluctant Conscript")
    assert attack_tax(conscript) == 1
    st.turn_modifiers.append(("must_attack", conscript.id, st.players[1].hero))
    assert must_attack_pending(st) is None  # 600.3: unable to attack until he pays
    act(st, "P1 proposes Reluctant Conscript attacks P2's Bragvi Stormstein")
    assert st.ready_resources(0) == 0


def test_blessed_life_against_an_unpreventable_packet_prevents_nothing():
    st = arrange(["Boris Brightbeard", "Gorrak Bloodfist"], turn_player=1, play={0: ["Blessed Life"], 1: ["Annihilator"]},
                 resources={1: 2})
    act(st, "P2 proposes Gorrak Bloodfist attacks P1's Boris Brightbeard")
    everyone_passes(st)
    everyone_passes(st)
    act(st, "P2 strikes with Annihilator")
    everyone_passes(st)
    everyone_passes(st)
    assert st.decision.kind == "prevent" and st.decision.rule == "407.1"
    act(st, "P1 returns Blessed Life to its owner's hand against 3 damage")
    assert st.objs[st.players[0].hero].damage == 3 and st.find("Blessed Life", zone="hand").owner == 0


def test_dramla_replaces_a_destruction_so_if_you_do_fails():
    st = arrange(["Gorrak Bloodfist", "Bragvi Stormstein"], turn_player=1,
                 play={0: ["Dramla Lifebender", "Grunt Baranka"], 1: ["Ashen Recruit"]})
    baranka, recruit = st.find("Grunt Baranka"), st.find("Ashen Recruit")
    act(st, "P2 proposes Ashen Recruit attacks P1's Grunt Baranka")
    for _ in range(4):
        everyone_passes(st)
    assert baranka.zone == "removed" and baranka.id in st.players[0].removed
    assert recruit.zone == "play"


def test_a_token_copy_costs_nothing_and_vanishes_once_out_of_play():
    st = arrange(["Bragvi Stormstein", "Gorrak Bloodfist"], play={0: ["Highborne Soul Mirror", "High Overlord Saurfang"]})
    act(st, "P1 uses Highborne Soul Mirror's power on P1's High Overlord Saurfang")
    everyone_passes(st)
    # Two Unique Saurfangs: the copy (a token, cost 0, CR7.4 402.4) or the card goes (412).
    assert st.decision.kind == "uniqueness"
    copy = next(st.objs[i] for i in st.tokens)
    assert copy.card.cost == 0 and copy.card.name == "High Overlord Saurfang"
    st.apply_action(next(a for a in st.legal_actions() if a.subject == copy.id))
    # 409.6e: the destroyed copy vanishes before anyone gets priority, though play
    # holds the same cards as before it entered.
    assert copy.zone == "gone"


def test_polymorph_takes_every_kind_of_power_away():
    # CR7.4 700.3: keywords, continuous and payment powers alike.
    st = arrange(["Gorrak Bloodfist", "Boris Brightbeard"], turn_player=1,
                 play={0: ["Kryton Barleybeard", "Ironforge Guards", "Ironforge Guards"]},
                 hands={1: ["Polymorph", "Polymorph"]}, resources={0: 2, 1: 4})
    kryton = st.find("Kryton Barleybeard")
    guards = [o for o in st.cards_in_play() if o.name == "Ironforge Guards"]
    act(st, "P2 plays Polymorph on P1's Kryton Barleybeard")
    everyone_passes(st)
    st.apply_action(next(a for a in st.legal_actions() if a.kind == "play" and a.targets == (guards[0].id,)))
    everyone_passes(st)
    assert powerless(st) == {kryton.id, guards[0].id}
    assert [health_of(st, g) for g in guards] == [1, 2]  # the polymorphed one lost its bonus; the other still counts it
    assert st._power_source_problem(0, kryton, kryton.card.payments[0])[0] == "CR7.4 700.3"


def test_an_untargetable_host_is_no_target_of_any_kind():
    st = arrange(["Gorrak Bloodfist", "Maelen Frostweave"], play={1: ["Ashen Recruit"]},
                 hands={1: ["Blessing of Freedom"]}, resources={1: 1}, turn_player=1)
    recruit = st.find("Ashen Recruit")
    act(st, "P2 plays Blessing of Freedom on P2's Ashen Recruit")
    everyone_passes(st)
    for kind in ("character", "ally", "ally_cost_x", "character_you_control", "ally_you_control"):
        assert recruit.id not in st.legal_targets(kind, 1), kind
    assert st.objs[st.players[1].hero].id in st.legal_targets("character", 0)


def test_withering_shout_lowers_only_opposing_allies():
    st = arrange(["Gorrak Bloodfist", "Maelen Frostweave"], play={0: ["Withering Shout", "Ashen Recruit"],
                                                                  1: ["Scryer Arcanist", "Searing Totem"]})
    assert health_of(st, st.find("Ashen Recruit")) == 2
    assert health_of(st, st.find("Scryer Arcanist")) == 1
    assert health_of(st, st.find("Searing Totem")) == 2  # a totem is not an ally (306.3a)
    assert health_of(st, st.objs[st.players[1].hero]) == 27

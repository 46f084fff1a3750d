"""Team tables (basic rules, multiplayer; 102.1), a hero that loses dual wield
(405.1) and an ally that can't be destroyed (103.2-103.3), on the state
itself: the scenario files check the same through labels."""

from __future__ import annotations

import pytest

from engine.wowtcg import EngineSetupError
from engine.wowtcg.arrange import arrange
from engine.wowtcg.combat import has, strike_problem
from engine.wowtcg.effects import can_be_destroyed, opponents
from engine.wowtcg.objects import Combat

FOUR = ["Boris Brightbeard", "Kerra Nightblade", "Maelen Frostweave", "Gorrak Bloodfist"]


@pytest.mark.parametrize("heroes, teams, words", [
    (FOUR, [0, 0, 1, 1], "side by side"),
    (FOUR, [0, 1, 0], "each of the 4 seats"),
    (FOUR, [0, 0, 0, 0], "at least two teams"),
    (["Boris Brightbeard", "Kerra Nightblade", "Gorrak Bloodfist", "Maelen Frostweave"], [0, 1, 0, 1], "mixes Alliance and Horde"),
])
def test_a_team_table_the_basic_rules_do_not_allow_is_refused(heroes, teams, words):
    with pytest.raises(EngineSetupError, match=words):
        arrange(heroes, teams=teams)


def test_teammates_are_friendly_and_not_opponents():
    st = arrange(FOUR, teams=[0, 1, 0, 1])
    assert st.friendly(0, 2) and not st.friendly(0, 1)
    assert opponents(st, 0) == [1, 3] and opponents(st, 1) == [0, 2]
    alone = arrange(FOUR)  # no teams: every other player is an opponent
    assert opponents(alone, 0) == [1, 2, 3] and not alone.friendly(0, 2)


def test_a_team_is_not_done_while_one_of_its_players_is_in_the_game():
    st = arrange(FOUR, teams=[0, 1, 0, 1])
    st.concede(1)
    assert not st.is_terminal()
    st.concede(3)
    assert st.is_terminal() and st.returns() == [1.0, -1.0, 1.0, -1.0]


def test_a_hero_in_shackles_has_no_dual_wield_and_strikes_with_one_weapon():
    shackled = {1: [{"name": "Crippling Shackles", "on": [0, "Kerra Nightblade"]}]}
    for extra, dual in (({}, True), (shackled, False)):
        st = arrange(["Kerra Nightblade", "Maelen Frostweave"], play={0: ["Deathbringer", "Sword of Zeal"], **extra})
        kerra = st.objs[st.players[0].hero]
        assert has(st, kerra, "dual_wield") == dual and "dual_wield" in kerra.card.keywords
        # In the defend window, having struck with Deathbringer (405.3; 303.2c without dual wield).
        st.step = "defend_window"
        st.combat = Combat(kerra.id, st.players[1].hero, False, defending=True, struck={0: [st.find("Deathbringer").id]})
        problem = strike_problem(st, 0, st.find("Sword of Zeal"), ready=9)
        assert problem is None if dual else problem[0] == "303.2c"


def test_an_ally_that_cant_be_destroyed_can_be_once_it_loses_its_powers():
    st = arrange(["Bragvi Stormstein", "Maelen Frostweave"], play={0: ["Unyielding Sentinel"]})
    assert not can_be_destroyed(st, st.find("Unyielding Sentinel"))
    held = arrange(["Bragvi Stormstein", "Maelen Frostweave"], play={0: ["Unyielding Sentinel"], 1: [
        {"name": "Polymorph", "on": [0, "Unyielding Sentinel"]}]})
    assert can_be_destroyed(held, held.find("Unyielding Sentinel"))  # CR7.4 700.3

"""Attributes (105-106) in the engine: plays from hand, requirements, values
an entity adds, and the attribute a card asks for; each refusal names its rule."""

from __future__ import annotations

import pytest

from engine.hota import Action, IllegalAction

from .helpers import act, labels, start


def test_a_chosen_attribute_must_be_one_of_the_three() -> None:
    st = start(decks={"P1": ["Attunement"] * 9})
    for choice in (None, "wisdom", 3):
        with pytest.raises(IllegalAction) as info:
            st.apply_action(Action("play", 0, source="Attunement", choice=choice))
        assert info.value.rule == "105.3"
    act(st, "P1 plays Attunement choosing strength")
    assert st.snapshot()["attributes"][0] == {"strength": 1, "agility": 0, "intelligence": 0}


def test_a_card_that_asks_no_choice_refuses_one_and_a_card_not_in_hand_is_refused() -> None:
    st = start(decks={"P1": ["Strength Attribute"] * 9})
    with pytest.raises(IllegalAction) as info:
        st.apply_action(Action("play", 0, source="Strength Attribute", choice="agility"))
    assert info.value.rule == "assumed:play-from-hand"
    with pytest.raises(IllegalAction, match="no card named 'Arcane Study'"):
        st.apply_action(Action("play", 0, source="Arcane Study"))


def test_requirements_read_the_values_an_entity_adds_and_a_play_resolves_like_an_ability() -> None:
    st = start(table={"P2": ["Arcane Sanctum"]}, decks={"P1": ["Arcane Study"] * 9, "P2": ["Arcane Study"] * 9})
    assert "P1 plays Arcane Study" not in labels(st)  # P2's Sanctum adds to P2's values only (106.2a)
    act(st, "P1 passes")
    act(st, "P2 plays Arcane Study")
    # assumed:play-from-hand: after the play, the active player has priority and the passes start over.
    assert st.snapshot()["priority"] == 0 and st.snapshot()["passes"] == 0
    assert st.hands[1].count("Arcane Study") == 7 and st.discards[1] == ["Arcane Study"]


def test_objects_carry_their_printed_attributes_and_a_spirit_none() -> None:
    """105.2: several attributes, one or none; 109.3: an entity's are printed;
    109.5b: a Spirit token has only what made it gave it, so none; 106.4: a
    card without an attribute may still require one."""
    st = start(table={"P1": ["Gatekeeper", "Spirit Caller", "Culling Field"]}, decks={"P2": ["Arcane Study"] * 9})
    by_card = {e["card"]: e["attributes"] for e in st.snapshot()["entities"]}
    assert by_card == {"Gatekeeper": ["strength", "agility", "intelligence"], "Spirit Caller": ["strength", "agility"],
                       "Culling Field": []}
    study = [o for o in st.objects() if o["name"] == "Arcane Study" and o["zone"] == "hand"]
    assert len(study) == 7 and all(o["attributes"] == [] and o["requires"] == {"intelligence": 1} for o in study)
    st2 = start(table={"P1": ["Spirit Caller"]})
    act(st2, "P1 activates Spirit Caller")
    (spirit,) = [o for o in st2.objects() if o["kind"] == "token"]
    assert spirit == {"name": "Spirit", "kind": "token", "zone": "battlefield", "owner": 0, "controller": 0,
                      "attributes": [], "requires": {}}

"""The card pool as data: every card the seeds name is in it, and text the
engine can't play is refused when the pool loads, naming the card and part."""

import ast
from pathlib import Path

import pytest

from engine.wowtcg.cards import CardFileError, UnsupportedCardText, card_from_dict, load_pool

ENGINE = Path(__file__).resolve().parents[2] / "engine"

# Issue list of cards named in the seeds' examples.
SEED_NAMED = [
    "Valthak Spiritdrinker", "Ironforge Guards", "Chain Lightning", "Flash Heal", "Lightning Bolt",
    "Frost Nova", "Fireball", "Mocking Blow", "Sarmoth", "Grunt Baranka", "High Overlord Saurfang",
    "Deathbringer", "Sword of Zeal", "Observer's Shield", "Annihilator", "Thrash Blade",
    "Viking Warhammer", "Blade Flurry", "Entangling Roots", "Mind Control", "Boris Brightbeard",
    "Hide of the Wild", "Shelter the Flock", "Barnathrum, Lord of Pain", "Vexra Darkfall",
    "High Priestess Tyrande Whisperwind", "Vindicator Kaldels", "Inventor's Focal Sword",
    "Resurrection", "Mason's Fraternity Ring", "Searing Totem",
]


def test_pool_has_forty_cards_of_every_type_and_every_seed_named_card():
    pool = load_pool()
    assert len(pool) >= 40
    assert {c.type for c in pool} == {"hero", "ally", "weapon", "armor", "item", "ability", "quest"}
    assert [n for n in SEED_NAMED if n not in pool] == []
    assert any(c.ongoing for c in pool) and any(c.type == "ability" and not c.ongoing for c in pool)
    assert any(c.instant for c in pool)


def test_every_card_says_where_it_comes_from_and_what_it_does():
    for card in load_pool():
        assert card.source and card.text, card.name


@pytest.mark.parametrize("raw, part", [
    ({"name": "Hex", "type": "ability", "effect": [{"polymorph": {}}]}, "operation 'polymorph'"),
    ({"name": "Rager", "type": "ally", "health": 2, "keywords": ["berserk"]}, "keyword 'berserk'"),
    ({"name": "Totem", "type": "totem"}, "type 'totem'"),
    ({"name": "Aura", "type": "ability", "continuous": ["allies_have_plus_one"]}, "continuous power 'allies_have_plus_one'"),
    ({"name": "Watcher", "type": "ally", "health": 1, "triggers": [{"when": "opponent_draws", "steps": ["destroy"]}]},
     "trigger event 'opponent_draws'"),
    ({"name": "Bolt", "type": "ability", "target": "resource", "effect": [{"deal": {"amount": 1}}]}, "target 'resource'"),
    ({"name": "Blade", "type": "weapon", "atk": 1}, "strike cost"),
    ({"name": "Nobody", "type": "ally"}, "needs health"),
    ({"name": "Odd", "type": "ability", "effect": [{"deal": {"amount": 1, "splash": 2}}]}, "deal with ['splash']"),
    # 306.3a: a totem has health and no ATK, and stays in play.
    ({"name": "Post", "type": "ability", "subtypes": ["Totem"], "ongoing": True}, "a totem is an ongoing ability"),
    ({"name": "Post", "type": "ability", "subtypes": ["Totem"], "ongoing": True, "health": 2, "atk": 1}, "no ATK"),
    ({"name": "Griffin", "type": "ally", "health": 2, "continuous": [{"keywords_by_hero_trait": {"Horde": ["flying"]}}]},
     "keywords_by_hero_trait maps"),
])
def test_unsupported_text_is_refused_with_the_card_and_the_part(raw, part):
    with pytest.raises(UnsupportedCardText) as info:
        card_from_dict(raw)
    assert info.value.card == raw["name"]
    assert part in str(info.value)


def test_a_bad_card_in_a_file_names_the_file_and_line(tmp_path):
    path = tmp_path / "pool.yaml"
    path.write_text("- name: Ok\n  type: quest\n- name: Hex\n  type: ability\n  effect: [polymorph]\n")
    with pytest.raises(UnsupportedCardText) as info:
        load_pool(path)
    assert "pool.yaml:3" in str(info.value) and "Hex" in str(info.value)


@pytest.mark.parametrize("text, where", [
    ("- name: A\n  type: quest\n  cost: [1\n", ":4"),  # YAML reports the end of input
    ("name: A\n", ":1"),
    ("- just a string\n", ":1"),
    ("- name: A\n  type: quest\n- name: A\n  type: quest\n", ":3"),
])
def test_a_malformed_pool_file_is_one_error_with_file_and_line(tmp_path, text, where):
    path = tmp_path / "cards.yaml"
    path.write_text(text)
    with pytest.raises(CardFileError) as info:
        load_pool(path)
    assert f"cards.yaml{where}" in str(info.value)


def test_the_engine_never_imports_the_model_or_the_properties():
    """The engine is an independent implementation: agreement with the model
    proves something only if it shares none of the model's code."""
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            for name in names:
                assert name.split(".")[0] not in ("model", "properties", "chainproof"), f"{path}: imports {name}"

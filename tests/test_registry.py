"""The rules registry: complete for the modelled sections, and enforced at build time."""

from __future__ import annotations

from pathlib import Path

import pytest

from chainproof.games import get_game
from model import wowtcg
from model.machine import Edge
from model.registry import Registry, RegistryError
from model.sources import GAME_SOURCES
from properties import Invariant, validate
from properties.wowtcg import CATALOGUE

#: Every numbered rule the seed gives in the sections this model covers.
SEED_RULES = """
408.1 408.2 409.1 409.2 409.2a 409.2b 409.3 409.4 409.4a 409.4b 409.5 409.6 409.6a 409.6b
409.6c 409.6d 409.6e 409.6f 410.1 410.1a 410.1b 413.7 413.7a 501.1 501.1a 501.1b 501.1c
501.2 501.2a 501.2b 502.1 502.2 503.1 503.2 503.2a
""".split()


def cited() -> set[str]:
    return get_game("wowtcg").cited_rules()


def test_registry_lists_every_rule_of_the_modelled_sections():
    assert set(SEED_RULES) <= set(wowtcg.REGISTRY.rules)


def test_every_encoded_or_assumed_rule_is_cited_and_every_citation_is_registered():
    assert [r.id for r in wowtcg.REGISTRY.uncited(cited())] == []
    assert cited() <= set(wowtcg.REGISTRY.rules)


def test_rules_from_the_later_version_and_assumptions_are_marked():
    rules = wowtcg.REGISTRY.rules
    assert rules["CR7.4 709.1"].source == "CR7.4"
    assumed = rules["assumed:turn-player-leaves"]
    assert assumed.status == "assumed" and assumed.why
    assert all(r.why for r in rules.values() if r.status == "not-modelled")


def test_an_edge_citing_an_unknown_rule_fails_the_build():
    machine = wowtcg.build()
    bogus = Edge("bogus", "action_phase", "action_phase", ("409.99",))
    with pytest.raises(RegistryError, match=r"edge 'bogus' cites rule 409\.99, which is not in"):
        machine.with_edges([*machine.edges, bogus])


def test_an_edge_citing_a_not_modelled_rule_fails_the_build():
    machine = wowtcg.build()
    bogus = Edge("detach", "action_phase", "action_phase", ("409.6d",))
    with pytest.raises(RegistryError, match="marks not-modelled"):
        machine.with_edges([*machine.edges, bogus])


def test_a_property_citing_an_unknown_rule_fails_validation():
    prop = Invariant("bogus", ("999.9",), "cites nothing real", holds=lambda m, s, b: True)
    with pytest.raises(RegistryError, match="property 'bogus' cites rule 999.9"):
        validate(wowtcg.build(), [*CATALOGUE, prop])


@pytest.mark.parametrize(
    "text, message",
    [
        ("rules: [\n  - id: '409.1'\n    summary: x\n  status: encoded\n", r"line \d+: not valid YAML"),
        ("game: wowtcg\n", "expected a mapping with 'game' and a list 'rules'"),
        ("rules:\n  - id: '409.1'\n    summary: x\n", r"rule entry 1 \(409.1\): missing \['status'\]"),
        ("rules:\n  - id: 'four-oh-nine'\n    summary: x\n    status: encoded\n", "is not a rule number"),
        ("rules:\n  - id: '409.1'\n    summary: x\n    status: done\n", "status 'done' is not one of"),
        ("rules:\n  - id: '409.1'\n    summary: x\n    status: not-modelled\n", "needs a 'why'"),
        (
            "rules:\n  - {id: '409.1', summary: x, status: encoded}\n  - {id: '409.1', summary: y, status: encoded}\n",
            "listed twice",
        ),
    ],
)
def test_malformed_registry_files_are_rejected_with_file_and_entry(tmp_path: Path, text: str, message: str):
    path = tmp_path / "rules.yaml"
    path.write_text(text)
    with pytest.raises(RegistryError, match=message) as info:
        Registry.load(path)
    assert str(path) in str(info.value)


def test_the_readme_lists_every_property_with_its_rules():
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    for prop in CATALOGUE:
        assert f"| `{prop.name}` | {' '.join(prop.rules)} |" in readme, prop.name


def test_every_rule_only_a_variant_encodes_is_cited_by_that_variant():
    """Status ``variant``: no default model cites it, and some variant's
    machine, or some source's reading, does."""
    game = get_game("wowtcg")
    only_variants = {r.id for r in wowtcg.REGISTRY.rules.values() if r.status == "variant"}
    assert only_variants
    assert not only_variants & game.machine({}).cited_rules()
    cited = set().union(
        *(game.machine({}, name).cited_rules() for name in game.variants),
        *(game.machine({}, reading=source).cited_rules() for source in GAME_SOURCES["wowtcg"]),
    )
    assert only_variants <= cited

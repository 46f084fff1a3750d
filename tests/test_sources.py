"""Source texts, rulings that cite them, readings built from them, and lint's
reports located at them (``model/sources.py``, ``model/rulings.py``,
``chainproof/source_lint.py``, ``chainproof/lint_report.py``)."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from chainproof.cli import main
from chainproof.games import GAME_NAMES, get_game
from chainproof.lint_report import markdown, sarif
from chainproof.linting import Finding, Lint
from chainproof.source_lint import lint_sources
from model import wowtcg
from model.backend import CONCRETE
from checkers import vector
from checkers.explicit import explore
from model.rulings import Question, RuleBook, Ruling
from model.sources import SOURCES, SourceError, check_texts, path_of, texts_folder
from model.wowtcg import rulings as wow_rulings

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(texts_folder() is None, reason="the rule texts are not beside the project")
@pytest.mark.parametrize("source", sorted(SOURCES))
def test_each_sources_line_count_is_its_files(source: str):
    path = path_of(source)
    assert path is not None, f"{SOURCES[source].file} is missing"
    text = path.read_text(encoding="utf-8")
    assert text.count("\n") + (not text.endswith("\n")) == SOURCES[source].lines


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_ruling_of_every_game_cites_texts_that_exist(name: str):
    book = get_game(name).machine({}).rulings
    if book is None or book.reading is None:
        pytest.skip(f"{name} declares no reading")
    for q in book.declared.values():
        for r in q.rulings:
            check_texts(name, r.texts, r.id)
            assert r.texts or all(x.startswith(("assumed:", "abstracted:")) for x in r.rules), r.id


@pytest.mark.parametrize(
    "texts, message",
    [
        ({"005": "1"}, "unknown source '005'"),
        ({"000": "999"}, "000_93427c41005e332f.txt:999 is past the end of the file (494 lines)"),
        ({"000": "12-3"}, "ends before it starts"),
        ({"000": "twelve"}, "is not a line or a range"),
    ],
)
def test_a_malformed_citation_fails_the_build_naming_it(texts, message):
    bad = Ruling("bad", ("601.2a",), True, lambda s, b: True, "a ruling citing nothing real", texts=texts)
    with pytest.raises(SourceError, match=re.escape(message)):
        RuleBook([Question("q", "a question", (bad,), ((),))], (), game="wowtcg")


def test_a_ruling_without_texts_must_be_an_assumption():
    bare = Ruling("bare", ("601.2a",), True, lambda s, b: True, "no text states this")
    with pytest.raises(SourceError, match="names no text"):
        RuleBook([Question("q", "a question", (bare,), ((),))], (), game="wowtcg")


def test_two_versions_of_one_ruling_cannot_share_a_source():
    one = Ruling("r", ("601.2a",), True, lambda s, b: True, "yes", texts={"000": "451"})
    two = replace(one, says=False, texts={"000": "452", "001": "200"})
    with pytest.raises(ValueError, match="stated by one source"):
        RuleBook([Question("q", "a question", (one, two), ((),))], ())


def test_a_reading_takes_each_rulings_version_from_the_first_source_that_states_it():
    model = wowtcg.build().rulings
    tax = [r for r in model.questions["bound_to_attack"].rulings if r.id == "600.3:attack-tax"]
    assert [r.says for r in tax] == [False] and "000" in tax[0].texts
    chinese = model.under("002zh", ["bound_to_attack"]).questions["bound_to_attack"].rulings
    assert [r.says for r in chinese if r.id == "600.3:attack-tax"] == [None]
    # A source silent on a rule lends its place to the model's reading.
    basic = model.under("001").questions["bound_to_attack"]
    assert {r.id: tuple(r.texts) for r in basic.rulings} == {r.id: tuple(r.texts) for r in model.questions["bound_to_attack"].rulings}


def test_reading_001_on_one_question_is_the_variant_it_replaced():
    """basic-chain-priority is now an alias: both machines take the same
    steps from every state of the first levels, and part from the model's."""

    def taken(m):  # noqa: ANN001, ANN202
        # Breadth-first search numbers states in the order met, so two
        # machines taking the same steps (by name, to the same states) from
        # every state expanded get the same keys and transitions, and two that
        # part anywhere there do not.
        e = vector.explore(m, max_states=20_000)
        return e.keys.tolist(), [m.edges[k].name for k in e.step_edge], e.step_pre.tolist(), e.step_post.tolist()

    alias = taken(wowtcg.build(hand=1, variant="basic-chain-priority"))
    assert alias == taken(wowtcg.build(hand=1, reading="001@priority_after_resolution"))
    assert alias != taken(wowtcg.build(hand=1))


def test_the_basic_rules_give_priority_to_whoever_added_the_new_top_link():
    m = wowtcg.build(hand=1)
    book, basic = m.rulings, m.rulings.under("001")
    # Breadth first, the first such state is the 47th met: the search's first levels (2,000 states) hold it.
    two_links = next(s for s in explore(m, max_states=2_000).nodes if s.chain_len == 2 and s.chain_controller[0] != s.turn_player)
    assert book.answer("priority_after_resolution", two_links, CONCRETE) == two_links.turn_player
    assert basic.answer("priority_after_resolution", two_links, CONCRETE) == two_links.chain_controller[0]


def test_source_lint_finds_the_taxed_attacker_clash_on_a_one_turn_game():
    m = wowtcg.build(turns=1)
    found = lint_sources(m, None, 2_000_000, 1)
    keys = {f.key for f in found.findings}
    assert "source-clash:bound_to_attack:002zh" in keys
    # 000, 002en and CR7.4 state every ruling of may_attack alike: no clash between them.
    assert not any(k.startswith("source-clash:may_attack") for k in keys)
    tax = next(f for f in found.findings if f.key == "source-clash:bound_to_attack:002zh")
    assert tax.transcript is not None and tax.transcript.steps[-1].edge.startswith(("skip_first_draw", "pass_priority"))


def test_a_source_whose_reading_leaves_nobody_able_to_act_is_a_deadlock_finding():
    """Each source read whole is searched for deadlocks: here the basic rules'
    reading is built without the edge that closes the ready step's window, as
    an encoding slip might leave it, and lint finds the stuck state."""
    def build(spec, bounds):
        m = wowtcg.build(turns=1, reading=spec, **bounds)
        return m.with_edges(e for e in m.edges if e.name != "close_window@ready_step") if spec == "001" else m

    # One pair per rules diff: only the deadlock search matters here.
    found = lint_sources(wowtcg.build(turns=1), build, 2_000_000, 1)
    (stuck,) = [f for f in found.findings if f.kind == "deadlock"]
    assert stuck.key == "deadlock:ready_step@001" and stuck.reading == "001"
    assert stuck.transcript is not None and stuck.transcript.final["location"] == "ready_step"
    assert "001" in stuck.sources
    checks = dict(found.checks)
    assert checks["no_deadlock[reading 001]"] == "violated"
    assert checks["no_deadlock[reading CR7.4]"] == "no state reached within the bounds deadlocks"


def test_a_gap_is_a_reachable_state_where_no_text_answers():
    """Take away the default's texts of who gets priority after a resolution:
    where no ruling applies (an empty chain), nothing answers any more."""
    m = wowtcg.build(turns=1)
    q = m.rulings.declared["priority_after_resolution"]
    m.rulings = RuleBook(
        [replace(q, default_texts={}), *(x for x in m.rulings.declared.values() if x.name != q.name)],
        m.rulings.principles.values(),
        reading=wow_rulings.READING,
        game="wowtcg",
    )
    found = lint_sources(m, None, 2_000_000, 1)
    gap = next(f for f in found.findings if f.key == "gap:priority_after_resolution")
    assert gap.transcript is not None and "unsourced default" in gap.summary
    assert gap.transcript.final["chain"] == "[]"


def _finding(**kw) -> Finding:
    base = dict(game="wowtcg", kind="source-clash", key="source-clash:q:001", rules=("409.4a",), summary="they differ")
    return Finding(**{**base, **kw})


def test_sarif_locates_each_finding_at_its_rule_texts_or_registry_entry():
    found = Lint([
        _finding(places=("001_bb13bfcb78a9b116.txt:227-228", "000_93427c41005e332f.txt:350"), sources=("001", "000")),
        _finding(kind="deadlock", key="deadlock:x", rules=("409.1",), known=True, note="seen"),
    ])
    log = sarif(found)
    run = log["runs"][0]
    assert log["version"] == "2.1.0" and [r["id"] for r in run["tool"]["driver"]["rules"]] == ["source-clash", "deadlock"]
    first, second = run["results"]
    region = first["locations"][0]["physicalLocation"]
    assert region["artifactLocation"]["uri"] == "seeds/001_bb13bfcb78a9b116.txt"
    assert region["region"] == {"startLine": 227, "endLine": 228}
    assert first["level"] == "warning" and second["level"] == "note"
    where = second["locations"][0]["physicalLocation"]
    registry = (ROOT / where["artifactLocation"]["uri"]).read_text(encoding="utf-8").splitlines()
    assert '"409.1"' in registry[where["region"]["startLine"] - 1]


def test_markdown_lists_each_finding_with_its_texts_and_note():
    page = markdown(Lint([_finding(places=("000_93427c41005e332f.txt:350",), note="B2 in the rules team's words")]), "wowtcg", None)
    assert "### `source-clash:q:001`" in page and "`000_93427c41005e332f.txt:350`" in page and "B2 in the rules team's words" in page


def test_verify_reading_of_an_unknown_source_or_question_is_one_line_and_exit_2():
    for args, message in (
        (["verify", "--reading", "005"], "no game has the source '005'"),
        (["verify", "--game", "wowtcg", "--reading", "001@nope"], "no question 'nope'"),
        # An empty list of questions is a slip, not "every question".
        (["verify", "--game", "wowtcg", "--reading", "001@"], "a question name is missing"),
        (["verify", "--game", "wowtcg", "--reading", "001@may_attack,,may_protect"], "a question name is missing"),
        (["verify", "--game", "wowtcg", "--reading", "001", "--variant", "405.3-as-written"], "give one"),
    ):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2, result.output
        assert message in result.output and "Traceback" not in result.output


def test_a_misspelt_question_gets_the_near_names_and_where_all_are_listed():
    result = CliRunner().invoke(main, ["verify", "--game", "wowtcg", "--reading", "001@may_atack"])
    assert result.exit_code == 2
    assert "no question 'may_atack' (did you mean 'may_attack'" in result.output and "chainproof coverage --questions" in result.output
    # One short line, not every question's name.
    assert len(result.output.strip().splitlines()) == 1 and len(result.output) < 250


def test_coverage_lists_every_declared_question_with_its_sources_and_reading():
    result = CliRunner().invoke(main, ["coverage", "--questions", "--json"])
    assert result.exit_code == 0, result.output
    for game in json.loads(result.output)["games"]:
        book = get_game(game["game"]).machine({}).rulings
        listed = {q["question"]: q for q in game["questions"]}
        assert set(listed) == set(book.declared)
        for name, q in book.declared.items():
            assert listed[name]["sources"] == list(q.sources) and listed[name]["rulings"] == len(q.rulings)
            assert listed[name]["read_by"] == list(book.reading.precedence_for(name))
    wow = CliRunner().invoke(main, ["coverage", "--questions", "--game", "wowtcg"]).output
    # The question 601.2b's English reading puts first is shown with its own order and reason.
    line = next(x for x in wow.splitlines() if x.split()[:1] == ["may_be_proposed"])
    assert "read by 002en >" in line


MODEL = ROOT / "model"
READING_COMMENT = re.compile(r"#\s*Reading\b(.*)")


def test_every_reading_comment_in_the_model_names_a_declared_question():
    """A reading chosen in a comment is invisible to lint: each must be one of
    a question's declared rulings, written ``# Reading (question): ...``."""
    declared = {
        name: set(book.declared) if (book := get_game(name).machine({}).rulings) is not None else set() for name in GAME_NAMES
    }
    stray = []
    for path in sorted(MODEL.rglob("*.py")):
        game = path.relative_to(MODEL).parts[0]
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            m = READING_COMMENT.search(line)
            if m is None:
                continue
            named = re.match(r"\s*\((\w+)\)\s*:", m.group(1))
            if named is None or named.group(1) not in declared.get(game, set()):
                stray.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not stray, "readings chosen outside a declared question:\n" + "\n".join(stray)


def test_at_three_players_the_basic_rules_keep_a_protector_to_its_own_side():
    """B4: 602.2 lets any opponent of the attacker protect; 001 only a friend
    of the proposed defender.  At two players they are the same player."""
    three = {f.key: f for f in lint_sources(wowtcg.build(players=3, turns=1), None, 2_000_000, 1).findings}
    clash = three["source-clash:may_protect:001"]
    assert "001 answers no where the model's reading answers yes" in clash.summary
    assert "001_bb13bfcb78a9b116.txt:268" in clash.places and clash.transcript.final["location"] == "protect_point"
    two = {f.key for f in lint_sources(wowtcg.build(turns=1), None, 2_000_000, 1).findings}
    assert "source-clash:may_protect:001" not in two


def test_002zhs_taxed_attacker_binds_only_on_600_2s_terms():
    """002zh's 600.3 exempts from nothing; it must not bind its controller
    while his proposal is on the chain, where a first encoding of it left him
    no legal action (a deadlock that ``verify --reading`` found)."""
    from checkers.explicit import check
    from properties.wowtcg import CATALOGUE

    deadlock = next(p for p in CATALOGUE if p.name == "deadlock")
    m = wowtcg.build(turns=1, combats=2, reading="002zh@bound_to_attack")
    assert check(explore(m), deadlock).verdict != "violated"

"""``chainproof report``: one self-contained HTML page from the JSON of verify,
lint, scenarios and conform, loaded in a real browser.

Chromium is driven over the DevTools protocol on a pipe
(``--remote-debugging-pipe``: JSON messages ended by a NUL byte on the
browser's file descriptors 3 and 4) rather than through Playwright: the few
commands needed (navigate, evaluate, the console's events) are stable across
Chromium versions, while Playwright ties each release to one browser build,
weighs tens of megabytes and offers to download browsers.  The inputs are
real runs kept small: a violated property with its counterexample, under a
rule variant; a passing one, under the model's own reading; one under a
source text's reading at smaller bounds; a variant's two games as lint reports
them, a scenario file and a three-game conformance run.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import select
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from chainproof import html_report, linting
from chainproof.cli import main
from chainproof.games import get_game
from model.sources import texts_folder
from model.variants import SEED

from tests.programs import require_program

SCENARIO = Path(__file__).parent / "data" / "scenarios" / "wowtcg" / "passes.yaml"
#: The verify inputs in the order the report is given them, so the order of the verdict table's rows.
VERIFIED = ("violated", "holds", "source")
#: Each wait on the browser; a page this size loads in well under a second.
BROWSER_WAIT_S = 30.0
CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)


def invoke(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args])


def command_json(path: Path, *args: str, codes: tuple[int, ...] = (0, 1)) -> Path:
    result = invoke(*args, "--json")
    assert result.exit_code in codes, result.output
    path.write_text(result.stdout, encoding="utf-8")
    return path


def variant_lint_json(path: Path) -> Path:
    """Lint's JSON for one variant finding, the seed's and the variant's games
    (what ``linting.lint_variants`` reports, without lint's other minutes of checks)."""
    game = get_game("wowtcg")
    variant = game.variants["basic-chain-priority"]
    d = linting.diff_variants(game, SEED, "basic-chain-priority", {}, 2_000_000).divergence
    assert d is not None
    finding = linting.Finding("wowtcg", "variant", "variant:basic-chain-priority", variant.rules, variant.reading, d.first, d.second)
    path.write_text(json.dumps({"findings": [finding.to_json()], "checks": [], "summary": {"findings": 1, "unknown": 1}}), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("inputs")
    return {
        "violated": command_json(folder / "violated.json", "verify", "--game", "wowtcg", "--variant", "basic-chain-priority",
                                 "--property", "turn_player_first", "--method", "bmc", "--depth", "8"),
        # Explicit search alone: a passing row, without the portfolio's seconds of proof.
        "holds": command_json(folder / "holds.json", "verify", "--game", "hota", "--property", "nobody_wins_and_loses",
                              "--method", "explicit"),
        "source": command_json(folder / "source.json", "verify", "--game", "wowtcg", "--reading", "001", "--property", "turn_player_first",
                               "--turns", "1", "--hand", "0", "--allies", "0", "--method", "explicit"),
        "lint": variant_lint_json(folder / "lint.json"),
        "scenarios": command_json(folder / "scenarios.json", "scenarios", "--path", str(SCENARIO)),
        "conform": command_json(folder / "conform.json", "conform", "--game", "hota", "--examples", "3", "--no-shrink"),
    }


@pytest.fixture(scope="module")
def report(inputs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report") / "report.html"
    result = invoke("report", out, *(a for name in VERIFIED for a in ("--verify", inputs[name])), "--lint", inputs["lint"],
                    "--scenarios", inputs["scenarios"], "--conform", inputs["conform"])
    assert result.exit_code == 0, result.output
    return out


def results(path: Path) -> list[dict[str, Any]]:
    return json.loads(path.read_text(encoding="utf-8"))["results"]


class Chromium:
    """A headless Chromium and one page of it, over the DevTools protocol on a pipe."""

    def __init__(self, program: str, profile: Path) -> None:
        # The browser reads on its descriptor 3 and writes on its 4.  Both are
        # open here once the two pipes are (pass_fds needs them open), and
        # the browser's ends are copied out of their way before the child's
        # dup2 writes over 3 and 4.
        theirs = [os.pipe(), os.pipe()]
        self._to_browser, self._from_browser = theirs[0][1], theirs[1][0]
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (theirs[0][0], theirs[1][1])]

        def onto_3_and_4() -> None:
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)

        self.process = subprocess.Popen(
            [program, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--remote-debugging-pipe", "about:blank"],
            pass_fds=(3, 4), preexec_fn=onto_3_and_4, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        for fd in (*high, theirs[0][0], theirs[1][1]):
            os.close(fd)
        self._buffer = b""
        self._last_id = 0
        self.events: list[dict[str, Any]] = []
        self.session = ""

    def attach(self) -> None:
        """Talk to the browser's first page, and hear its console."""
        page = next(t for t in self.call("Target.getTargets")["targetInfos"] if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable", session=self.session)

    def _message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            ready, _, _ = select.select([self._from_browser], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                raise TimeoutError("Chromium did not answer")
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise EOFError("Chromium closed the pipe")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)

    def call(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        self._last_id += 1
        request = {"id": self._last_id, "method": method, "params": params, **({"sessionId": session} if session else {})}
        os.write(self._to_browser, json.dumps(request).encode() + b"\0")
        deadline = time.monotonic() + BROWSER_WAIT_S
        while True:
            message = self._message(deadline)
            if message.get("id") == self._last_id:
                assert "error" not in message, f"{method}: {message['error']}"
                return message["result"]
            self.events.append(message)

    def open(self, url: str) -> None:
        loaded = len(self.events)
        self.call("Page.navigate", session=self.session, url=url)
        deadline = time.monotonic() + BROWSER_WAIT_S
        while not any(e.get("method") == "Page.loadEventFired" for e in self.events[loaded:]):
            self.events.append(self._message(deadline))

    def evaluate(self, expression: str) -> Any:
        answer = self.call("Runtime.evaluate", session=self.session, expression=expression, returnByValue=True)
        assert "exceptionDetails" not in answer, answer["exceptionDetails"]
        return answer["result"].get("value")

    def errors(self) -> list[str]:
        """The page's uncaught exceptions, console errors and failed loads, as text."""
        out = []
        for e in self.events:
            method, params = e.get("method"), e.get("params", {})
            if method == "Runtime.exceptionThrown":
                details = params["exceptionDetails"]
                out.append(details.get("exception", {}).get("description") or details.get("text", "exception"))
            elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
                out.append(" ".join(str(a.get("value", a.get("description"))) for a in params.get("args", [])))
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                out.append(params["entry"]["text"])
        return out

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except (EOFError, TimeoutError, OSError):
            pass  # already gone, or hung: killed below
        try:
            self.process.wait(timeout=BROWSER_WAIT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)


@pytest.fixture(scope="module")
def browser(report: Path, tmp_path_factory: pytest.TempPathFactory):
    chromium = Chromium(require_program("chromium"), tmp_path_factory.mktemp("profile"))
    try:
        chromium.attach()
        chromium.open(report.as_uri())
        yield chromium
    finally:
        chromium.close()


def visible_rows(browser: Chromium) -> int:
    return browser.evaluate(
        "[...document.querySelectorAll('#verdict-table tbody tr')].filter(r => r.getClientRects().length > 0).length"
    )


def set_control(browser: Chromium, selector: str, value: str) -> None:
    browser.evaluate(
        f"(() => {{ const c = document.querySelector({json.dumps(selector)}); c.value = {json.dumps(value)};"
        " c.dispatchEvent(new Event('input', {bubbles: true})); })()"
    )


def test_the_page_shows_every_result_transcript_graph_and_heat_map_without_console_errors(browser: Chromium, inputs):
    expected = [r for name in VERIFIED for r in results(inputs[name])]
    assert visible_rows(browser) == len(expected) == 3
    # The counterexample: a transcript whose every rule link lands on an entry of the rule appendix.
    links = browser.evaluate("[...document.querySelectorAll('.transcript a.rule')].map(a => a.getAttribute('href'))")
    assert links and browser.evaluate(f"{json.dumps(links)}.every(h => document.getElementById(h.slice(1)) !== null)")
    assert browser.evaluate("document.querySelector('.transcript table.steps tbody').rows.length") == len(expected[0]["counterexample"]["steps"])
    # Each game's graph, its arrows coloured by the runs, and the heat map by section.
    assert browser.evaluate("[...document.querySelectorAll('.game-graph svg')].length") == 2
    assert browser.evaluate("document.querySelectorAll('#graph-hota g.edge[data-conform]').length") > 0
    sections = len(get_game("wowtcg").registry.by_section())
    assert browser.evaluate("document.querySelectorAll('table.heat-map#heat-wowtcg tbody tr').length") == sections
    # Lint's finding: the seed's and the variant's games side by side.
    assert browser.evaluate("document.querySelector('.finding table.side-by-side thead').textContent").count("what changes") == 2
    assert browser.errors() == []


def verdict_rows(browser: Chromium) -> list[dict[str, str]]:
    """Each row of the verdict table, the text that starts each cell (a property's, not its note's) by its column's heading."""
    return browser.evaluate(
        "(() => { const heads = [...document.querySelectorAll('#verdict-table thead th')].map(h => h.textContent);"
        " return [...document.querySelectorAll('#verdict-table tbody tr')]"
        ".map(r => Object.fromEntries(heads.map((h, i) => [h, (r.cells[i].firstChild?.textContent ?? '').trim()]))); })()"
    )


def test_each_verdict_shows_the_reading_and_the_bounds_it_was_checked_under(browser: Chromium, inputs):
    shown = [(row["property"], row["game"], row["reading"], row["bounds"]) for row in verdict_rows(browser)]
    bounds = {name: " ".join(f"{k}={v}" for k, v in results(inputs[name])[0]["bounds"].items()) for name in VERIFIED}
    assert shown == [
        ("turn_player_first", "wowtcg", "basic-chain-priority", bounds["violated"]),
        ("nobody_wins_and_loses", "hota", SEED, bounds["holds"]),
        ("turn_player_first", "wowtcg", "001", bounds["source"]),
    ]
    assert "turns=1" in bounds["source"] and "allies=0" in bounds["source"] and bounds["source"] != bounds["violated"]
    # What kind of reading each name is, on hovering over it.
    kinds = browser.evaluate("[...document.querySelectorAll('#verdict-table td.reading')].map(c => c.title)")
    assert [k.split(" ")[1] for k in kinds] == ["rule", "model's", "source"]
    # A counterexample says which reading and bounds it was found under.
    headings = browser.evaluate("[...document.querySelectorAll('section.transcript h3')].map(h => h.textContent)")
    assert [("basic-chain-priority" in h, "reading 001," in h, "turns=1" in h) for h in headings] == [
        (True, False, False), (False, True, True)
    ]


def test_the_filters_show_only_the_rows_that_match(browser: Chromium, inputs):
    set_control(browser, "#filter-verdict", "violated")
    assert visible_rows(browser) == 2
    assert browser.evaluate("document.getElementById('verdicts-shown').textContent") == "2"
    set_control(browser, "#filter-verdict", "")
    set_control(browser, "#filter-game", "hota")
    assert visible_rows(browser) == 1
    set_control(browser, "#filter-game", "")
    set_control(browser, "#filter-text", "turn_player")
    assert visible_rows(browser) == 2
    set_control(browser, "#filter-text", "")
    set_control(browser, "#filter-reading", "001")
    assert visible_rows(browser) == 1
    set_control(browser, "#filter-game", "hota")
    assert visible_rows(browser) == 0
    set_control(browser, "#filter-game", "")
    set_control(browser, "#filter-reading", "")
    source_bounds = " ".join(f"{k}={v}" for k, v in results(inputs["source"])[0]["bounds"].items())
    set_control(browser, "#filter-bounds", source_bounds)
    assert visible_rows(browser) == 1
    set_control(browser, "#filter-bounds", "")
    assert visible_rows(browser) == 3
    assert browser.errors() == []


def test_choosing_a_measure_recolours_the_graph(browser: Chromium):
    # An arrow the conformance run took, coloured by it at first; hota has no counterexample.
    edge = "document.querySelector('#graph-hota g.edge:not([data-conform=\"0\"])')"
    stroke = f"{edge}.querySelector('path').getAttribute('stroke')"
    assert browser.evaluate(f"{stroke} === {edge}.dataset.colourConform && {stroke} !== {edge}.dataset.colourTranscripts")
    set_control(browser, "#graph-hota select.edge-measure", "transcripts")
    assert browser.evaluate(f"{stroke} === {edge}.dataset.colourTranscripts")
    assert browser.errors() == []


def test_the_page_links_to_nothing_outside_itself(report: Path):
    html = report.read_text(encoding="utf-8")
    targets = re.findall(r"""\b(?:src|href)\s*=\s*["']([^"']*)""", html)
    assert targets and all(t.startswith(("#", "data:")) for t in targets), [t for t in targets if not t.startswith(("#", "data:"))]
    assert "url(" not in html and "@import" not in html


def test_a_rule_link_quotes_the_rule_text_at_its_file_and_line(report: Path):
    html = report.read_text(encoding="utf-8")
    entry = html[html.index('<dt id="rule-wowtcg-409.4">'):]
    entry = entry[: entry.index("</dd>")]
    if texts_folder() is None:
        assert "the rule texts are not at hand" in entry
    else:
        # 409.4 is numbered in the seed translation (000): its line and its words.
        assert re.search(r"000_93427c41005e332f\.txt:\d+", entry) and "<blockquote" in entry and "409.4" in entry


def test_a_name_with_markup_is_escaped(tmp_path: Path, inputs):
    data = json.loads(inputs["violated"].read_text(encoding="utf-8"))
    data["results"][0]["property"] = "<script>alert(1)</script>"
    data["results"][0]["counterexample"]["violation"] = '"><img src=x onerror=alert(2)>'
    hostile = tmp_path / "hostile.json"
    hostile.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "report.html"
    assert invoke("report", out, "--verify", hostile).exit_code == 0
    html = out.read_text(encoding="utf-8")
    assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<img src=x" not in html and "&lt;img src=x onerror=alert(2)&gt;" in html


@pytest.mark.parametrize(
    "content, option, message",
    [
        (None, "--verify", "cannot read {path}: No such file or directory"),
        ("", "--verify", "{path}: the file is empty; expected the JSON of `chainproof verify --json`"),
        ("{not json", "--lint", "{path}: not JSON (Expecting property name enclosed in double quotes at line 1, column 2)"),
        ('{"findings": [], "checks": [], "summary": {}}', "--verify",
         "{path}: this is the JSON of `chainproof lint --json`; --verify takes that of `chainproof verify --json`"),
        ("[1, 2]", "--conform", "{path}: not the JSON of `chainproof conform --json`, nor of another command the report reads"),
        ('{"results": [{"game": "wowtcg"}], "summary": {"verdicts": {}}}', "--verify",
         "{path}: not the JSON of `chainproof verify --json` as this version writes it: results[0]: missing 'property'"),
        ('{"results": [], "summary": {"verdicts": {}, "reading": null}}', "--verify",
         "{path}: not the JSON of `chainproof verify --json` as this version writes it: summary: missing 'variant'"),
        ('{"results": [], "summary": {"pass": 0, "fail": 0, "error": 0}, "x": 1}', "--scenarios", None),
        ('{"results": [{"game": "chess", "scenario": "s", "rules": [], "status": "pass", "detail": "", "model": ""}],'
         ' "summary": {"pass": 1}}', "--scenarios", "{path}: unknown game 'chess'; games: wowtcg, riftbound, hota"),
    ],
)
def test_bad_input_is_one_line_naming_the_file_and_exit_2(tmp_path: Path, content: str | None, option: str, message: str | None):
    path = tmp_path / "input.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    result = invoke("report", tmp_path / "report.html", option, path)
    if message is None:
        # Well formed, only empty: a page saying so.
        assert result.exit_code == 0, result.output
        return
    assert result.exit_code == 2
    assert result.stderr.strip() == f"chainproof: error: {message.format(path=path)}"
    assert "Traceback" not in result.output and not (tmp_path / "report.html").exists()


def test_nothing_to_report_and_run_with_a_verify_file_are_refused(tmp_path: Path, inputs):
    nothing = invoke("report", tmp_path / "report.html")
    assert nothing.exit_code == 2 and "nothing to report" in nothing.stderr
    both = invoke("report", tmp_path / "report.html", "--run", "--verify", inputs["holds"])
    assert both.exit_code == 2 and "give one or the other" in both.stderr


def test_run_verifies_the_games_asked_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # The command runs as its own process, with explicit search alone: the same
    # rows, one per property, without the portfolio's seconds of proofs.
    ran = []
    run_command = html_report.run_command

    def explicit_only(command: str, *args: str) -> dict[str, Any]:
        ran.append((command, args))
        return run_command(command, *args, "--method=explicit")

    monkeypatch.setattr(html_report, "run_command", explicit_only)
    out = tmp_path / "report.html"
    # --run alone names verify.
    result = invoke("report", out, "--run", "--game", "hota")
    assert result.exit_code == 0, result.output
    assert ran == [("verify", ("--game=hota",))]
    html = out.read_text(encoding="utf-8")
    rows = re.findall(r'<tr data-verdict="([^"]+)" data-game="([^"]+)"', html)
    assert rows and {game for _, game in rows} == {"hota"} and len(rows) == len(get_game("hota").properties)
    assert "chainproof verify --game=hota --json (run by --run)" in html


def test_run_runs_each_command_named_once_and_conform_once_per_game(tmp_path: Path, inputs, monkeypatch: pytest.MonkeyPatch):
    # Lint and conform take minutes: each run's JSON here is one of the small inputs.
    ran = []

    def recorded(command: str, *args: str) -> dict[str, Any]:
        ran.append((command, args))
        return json.loads(inputs[command].read_text(encoding="utf-8"))

    monkeypatch.setattr(html_report, "run_command", recorded)
    out = tmp_path / "report.html"
    result = invoke("report", out, "--run", "conform", "--run", "lint", "--run", "scenarios", "--run", "lint",
                    "--game", "hota", "--game", "riftbound")
    assert result.exit_code == 0, result.output
    assert ran == [
        ("lint", ("--game=hota", "--game=riftbound")), ("scenarios", ("--game=hota", "--game=riftbound")),
        ("conform", ("--game=hota",)), ("conform", ("--game=riftbound",)),
    ]
    assert "chainproof conform --game=riftbound --json (run by --run)" in out.read_text(encoding="utf-8")
    refused = invoke("report", tmp_path / "report.html", "--run", "lint", "--lint", inputs["lint"])
    assert refused.exit_code == 2 and "--run lint runs lint and --lint gives its JSON: give one or the other" in refused.stderr

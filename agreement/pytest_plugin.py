"""pytest plugin: ``pytest --chainproof-engine=package.module:factory`` adds one
test to any test run, the agreement check of that engine against its game's
model (the same check as ``chainproof conform``).  Installed with chainproof
through the ``pytest11`` entry point; without the option it does nothing.
"""

from __future__ import annotations

from typing import Any

import pytest


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("chainproof", "agreement of an engine with a chainproof model")
    group.addoption("--chainproof-engine", metavar="MODULE:FACTORY", help="check this engine adapter against its game's model")
    group.addoption("--chainproof-examples", type=int, default=20, metavar="N", help="games to play (default 20)")
    group.addoption("--chainproof-seed", type=int, default=0, metavar="S", help="seed of the games (default 0)")


def pytest_configure(config: Any) -> None:
    # A check of no games would pass having checked nothing.
    if config.getoption("--chainproof-examples") < 1:
        raise pytest.UsageError(f"--chainproof-examples {config.getoption('--chainproof-examples')}: play at least 1 game")


def pytest_collection_modifyitems(session: Any, config: Any, items: list[Any]) -> None:
    spec = config.getoption("--chainproof-engine")
    if spec:
        items.append(AgreementItem.from_parent(session, name=f"chainproof-agreement[{spec}]", spec=spec))


class AgreementItem(pytest.Item):
    def __init__(self, *, spec: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.spec = spec

    def runtest(self) -> None:
        from agreement.adapter import load_adapter
        from agreement.games import checker_for
        from agreement.harness import conform

        adapter = load_adapter(self.spec)
        config = self.config
        report = conform(adapter, checker_for(adapter.game), config.getoption("--chainproof-examples"), config.getoption("--chainproof-seed"))
        if not report.ok:
            raise Disagreement(report)

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        from agreement.adapter import AdapterError

        if isinstance(excinfo.value, Disagreement):
            report = excinfo.value.report
            lines = [f"the engine disagrees with the {report.game} model:"]
            lines += [f"  {f}" for f in report.findings]
            if report.transcript:
                lines += ["shortest game found (paste its script into a scenario):", report.transcript]
            return "\n".join(lines)
        if isinstance(excinfo.value, AdapterError):
            return f"adapter error: {excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[str, int, str]:
        return self.spec, 0, f"chainproof agreement of {self.spec}"


class Disagreement(Exception):
    def __init__(self, report: Any) -> None:
        super().__init__(f"{len(report.findings)} finding(s)")
        self.report = report

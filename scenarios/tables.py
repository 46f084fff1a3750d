"""Engine tables on which model transcripts are written out as scenario files
(``chainproof lint --scenarios``, ``chainproof diff --scenario``)."""

from __future__ import annotations

from typing import Any


class ScenarioTable:
    """A game's table of engine cards, for writing model transcripts out as
    scenarios the engine replays: ``machine(variant=..., reading=...)`` is the
    model of the table under a variant or a source reading (the seed's when
    neither is given), ``scenario(transcript, **meta)`` the scenario file
    (YAML text) of a transcript of that model (edge names from its start)."""

    def __init__(self, machine: Any, scenario: Any, error: type[Exception]) -> None:
        self.machine = machine
        self.scenario = scenario
        #: What ``scenario`` raises when the engine cannot replay a transcript.
        self.error = error


def scenario_table(game: str) -> ScenarioTable | None:
    """The game's engine table, or None when the game has no engine to replay in."""
    if game == "wowtcg":
        from scenarios.wowtcg import export

        setup = export.engine_table()
        return ScenarioTable(
            lambda **reading: export.table_machine(setup, **{k: v for k, v in reading.items() if v is not None}),
            lambda transcript, **meta: export.scenario_yaml(setup, transcript, **meta),
            export.ExportError,
        )
    return None

"""The agreement benchmark's split of a run's CPU (``benchmarks.agreement --split``)."""

from __future__ import annotations

from agreement import adapter, model_steps, table_checker
from agreement.riftbound import checker as riftbound_checker
from agreement.riftbound.checker import RiftboundChecker
from agreement.wowtcg import abstraction
from benchmarks.agreement import split


def _places() -> tuple[object, ...]:
    return (model_steps.successors, table_checker.successors, abstraction.successors, riftbound_checker.build,
            adapter.Guarded.call, vars(RiftboundChecker).get("steer"))


def test_the_split_parts_a_run_and_puts_back_every_place_it_timed():
    before = _places()
    # The benchmark runs the split in a fresh process: no board's model is kept from an earlier run.
    riftbound_checker.machine_for.cache_clear()
    part = split("riftbound", 2)
    assert _places() == before
    # Every game of Riftbound builds its table's model, plays the engine and expands model states.
    assert part.builds > 0 and part.engine > 0 and part.steering_steps + part.other_steps > 0
    # The timed places are parts of the run: what is left is not less than nothing (but for the clock's grain).
    assert part.rest > -0.01

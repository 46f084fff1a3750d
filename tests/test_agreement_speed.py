"""What the agreement harness keeps so as to run fast is what it would
compute: the reachable edge families of every game (kept as data, since
exploring a model takes tens of seconds) and the model's steps from a state
(kept between steering's searches and the step checks)."""

from __future__ import annotations

import pytest

from agreement import reachable
from agreement.hota.checker import HotaChecker
from agreement.model_steps import successors
from agreement.riftbound.checker import RiftboundChecker
from model.wowtcg import build


@pytest.mark.parametrize("checker", [RiftboundChecker, HotaChecker], ids=["riftbound", "hota"])
def test_reachable_families_kept_as_data_match_the_model(checker):
    c = checker()
    assert c.reachable_families() == c.explore_reachable_families(), (
        f"{reachable.kept_file(c.game)} is stale: regenerate it from {checker.__name__}().explore_reachable_families()"
    )


def test_kept_steps_are_the_machines_own_and_each_machine_keeps_its_own():
    m = build()
    s = next(m.initial_states())
    assert successors(m, s) == tuple(m.successors(s))
    first, _ = successors(m, s)[0]
    without = m.without_edge(first.name)
    # An equal state of another machine (a variant) is not read from the first one's steps.
    assert successors(without, s) == tuple(without.successors(s))
    assert first not in [e for e, _ in successors(without, s)]

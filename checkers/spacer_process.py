"""One Spacer query, answered in a process of its own.

Run by ``checkers.spacer`` as ``python spacer_process.py`` with a JSON request
on standard input; writes one JSON answer on standard output.  It imports Z3
and nothing of chainproof, so that the process that answers starts the same
way every time.

Why a process per query: Spacer's work on a query (what it costs against the
resource limit, which invariant it finds) was seen to depend on what the
process did before it.  The proof of WoW's combat_damage_equals_atk cost
146.6 million units in a fresh process and 122.7 million after the Riftbound
model was built, even with the clauses translated into a fresh Z3 context:
state outside any one context (allocation, global counters) steers it.  A
verdict must not depend on that, so the query is answered by a process that
starts from nothing but the query's text.

Request: ``rules`` (SMT-LIB: one assertion per Horn clause, an implication
over free state variables), ``names`` (each rule's name, in order: a
derivation is read back by them), ``relations`` (the names of the ``Reach``
relations), ``variables`` (the state variables, pre then post, which each
rule is quantified over) and ``slots`` (the sort of each relation argument,
``Int`` or ``Bool``), ``params`` (Fixedpoint parameters, the resource limit
and timeout among them).

Answer: ``status`` (``unsat``: Err is underivable; ``sat``; ``unknown``),
``reason`` (why unknown), ``answer`` (the interpretation of the relations,
SMT-LIB, when unsat), ``trace`` (the rule names along the derivation, when
sat), ``levels`` (Spacer's deepest level), ``rlimit`` (resource units used).
"""

from __future__ import annotations

import json
import sys
from typing import Any

import z3


def answer(request: dict[str, Any]) -> dict[str, Any]:
    fp = z3.Fixedpoint()
    for key, value in request["params"].items():
        fp.set(key, value)
    sorts = [z3.BoolSort() if s == "Bool" else z3.IntSort() for s in request["slots"]]
    relations = [z3.Function(name, *sorts, z3.BoolSort()) for name in request["relations"]]
    err = z3.Bool("Err")
    fp.register_relation(*relations, err.decl())
    fp.declare_var(*(z3.Const(name, sort) for name, sort in zip(request["variables"], sorts + sorts)))
    rules = z3.parse_smt2_string(request["rules"])
    for rule, name in zip(rules, request["names"], strict=True):
        fp.add_rule(rule, name=name)
    out: dict[str, Any] = {"status": "unknown", "reason": "", "answer": "", "trace": [], "levels": 0, "rlimit": 0}
    try:
        status = fp.query(err)
    except z3.Z3Exception as exc:
        # Spacer's limits surface as an exception ("canceled" for the timeout,
        # the resource limit by name), not as unknown.
        out["reason"] = str(exc.value.decode() if isinstance(exc.value, bytes) else exc.value)
        return out
    out["status"] = str(status)
    if status == z3.unknown:
        out["reason"] = fp.reason_unknown()
    elif status == z3.unsat:
        out["answer"] = fp.get_answer().sexpr()
    else:
        try:
            out["trace"] = [str(n) for n in fp.get_rule_names_along_trace()]
        except z3.Z3Exception:
            out["trace"] = None
    try:
        out["levels"] = max((fp.get_num_levels(r) for r in relations), default=0)
    except z3.Z3Exception:
        pass
    stats = fp.statistics()
    out["rlimit"] = stats.get_key_value("rlimit count") if "rlimit count" in stats.keys() else 0
    return out


def main() -> None:
    json.dump(answer(json.load(sys.stdin)), sys.stdout)


if __name__ == "__main__":
    main()

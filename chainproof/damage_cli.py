"""``chainproof damage``: Riftbound's combat damage assignment (seed 003,
damage.*) for one configuration, by the Z3 encoding of ``model/riftbound/damage.py``.

    chainproof damage --unit "Tank Guard:3:tank" --unit Caitlyn:3:last --unit Raider:3 --total 5
    chainproof damage --unit A:3 --unit B:3 --unit C:3 --unit D:3 --total 5 --assign 2,1,1,1

A unit is ``NAME:MIGHT[:KEYWORD...]`` with keywords ``tank``, ``last``,
``immune`` and ``marked=N`` (damage already on it). Without ``--assign`` it
lists every legal assignment; with it, it says whether that one is legal and,
if not, which rules it breaks (a minimal set, from a Z3 unsat core) and why.
Exit 0: legal (or listed); 1: the assignment is illegal; 2: bad input.
"""

from __future__ import annotations

import json

import click

from chainproof.common import guarded
from chainproof.games import BadInput
from model.riftbound import damage

KEYWORDS = ("tank", "last", "immune")
#: The longest list given: 10,000 splits take about 1.5 CPU minutes to list
#: (1,000 take 3 s), each found split being one more clause for the next query.
MOST_LISTED = 10_000


def parse_unit(text: str) -> damage.DamageUnit:
    name, _, rest = text.partition(":")
    parts = rest.split(":") if rest else []
    if not name or not parts or not parts[0].isdigit():
        raise damage.DamageInputError(f"--unit {text!r}: write NAME:MIGHT[:tank][:last][:immune][:marked=N], e.g. Caitlyn:3:last")
    flags: dict[str, object] = {}
    for p in parts[1:]:
        if p in KEYWORDS:
            flags[p] = True
        elif p.startswith("marked=") and p[7:].isdigit():
            flags["marked"] = int(p[7:])
        else:
            raise damage.DamageInputError(f"--unit {text!r}: unknown keyword {p!r}; keywords: {', '.join(KEYWORDS)}, marked=N")
    return damage.DamageUnit(name, int(parts[0]), **flags)


def parse_amounts(text: str, count: int) -> tuple[int, ...]:
    parts = text.split(",")
    if len(parts) != count or not all(p.strip().isdigit() for p in parts):
        raise damage.DamageInputError(f"--assign {text!r}: give {count} whole amounts separated by commas, one per --unit in order")
    return tuple(int(p) for p in parts)


@click.command()
@click.option("--unit", "units", multiple=True, required=True, metavar="NAME:MIGHT[:KEYWORD...]", help="an opposing unit in the combat (repeatable, in order)")
@click.option("--total", type=int, required=True, help="the damage to assign: the assigner's total might (damage.totals)")
@click.option("--assign", "assignment", metavar="N,N,...", help="an assignment to check, one amount per unit")
@click.option("--max-assignments", "most", type=int, default=MOST_LISTED, show_default=True,
              help="listing: give no list where there are more legal assignments than this (the work grows with the square of the count)")
@click.option("--json", "as_json", is_flag=True, help="print JSON")
def damage_command(units: tuple[str, ...], total: int, assignment: str | None, most: int, as_json: bool) -> None:
    """Riftbound damage assignment: check one assignment, or list every legal one."""

    def run() -> int:
        try:
            parsed = [parse_unit(u) for u in units]
            if assignment is not None:
                amounts = parse_amounts(assignment, len(parsed))
                check = damage.check_assignment(parsed, total, amounts)
            else:
                legal = damage.legal_assignments(parsed, total, most=most)
        except damage.DamageInputError as exc:
            raise BadInput(str(exc)) from None
        except damage.TooManyAssignments as exc:
            raise BadInput(f"damage: {exc}, so none are listed; --max-assignments raises the cap, or --assign checks one") from None
        except damage.SolverStopped as exc:
            # Not an answer: a list cut short would read as the whole list.
            raise BadInput(f"damage: {exc}; no answer is given") from None
        names = [u.name for u in parsed]
        if assignment is not None:
            if as_json:
                click.echo(json.dumps({"units": names, "total": total, "assignment": list(check.amounts), "legal": check.legal,
                                       "broken": list(check.broken), "reasons": list(check.reasons)}, indent=2))
            else:
                click.echo(check.explanation)
            return 0 if check.legal else 1
        if as_json:
            click.echo(json.dumps({"units": names, "total": total, "legal": [list(a) for a in legal]}, indent=2))
        else:
            click.echo(f"{len(legal)} legal assignment{'s' if len(legal) != 1 else ''} of {total} damage to {', '.join(names)}:")
            for a in legal:
                click.echo("  " + damage.quote(parsed, a))
        return 0

    guarded(run)

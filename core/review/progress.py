"""How far the audit has come: labels to go, and the corrected interval at each look.

The Triage page shows it beside the audit sample; the number of labels to go is the gate's
own (``scoring.decide.labels_asked``, the count the CLI prints in its reasons), and the
intervals are the corrected figure recomputed on the first labels of the draw order at each
look of the sequential audit (``scoring.looks``): the interval narrowing as labels accrue.
The looks are the gated figure's own: a change's count cases of its pairing (either system
rates them), a rate's its system's labels (``scoring.gate.change_evidence``, the gate's).
"""

from __future__ import annotations

from typing import NamedTuple

from ..inputs.policy import Policy
from ..models import AuditInput, Mode, RunReport
from ..scoring.corrected import corrected_change, corrected_rate
from ..scoring.decide import labels_asked
from ..scoring.gate import change_evidence, rate_evidence
from ..scoring.looks import looks_reached
from .audit import audit_input
from .reviewed import ReviewedRun


class LookInterval(NamedTuple):
    """The corrected figure at one look: labels it rests on, estimate and interval."""

    labels: int
    estimate: float | None
    low: float | None
    high: float | None


class AuditProgress(NamedTuple):
    """What the audit still needs and what it has shown so far."""

    labels_to_go: int | None  # None: no label would change the decision
    measure: str  # "change candidate − baseline" or "rate of SYSTEM"
    looks: list[LookInterval]
    unit: str = "labels"  # what a look counts: "cases" for a paired change (either side's)
    asked_by: str = ""  # the rule whose count labels_to_go is


def audit_progress(run: ReviewedRun) -> AuditProgress | None:
    """The audit's progress of a reviewed run; None without an audit or in pairwise mode."""
    report = run.report
    audit = audit_input(run.judged, run.overrides)
    if audit is None or report.mode == Mode.PAIRWISE:
        return None
    gated = report.rates[report.systems[-1]].corrected
    if gated is None:
        return None
    change = report.comparison.corrected_change if report.comparison else None
    known = [r.corrected for r in report.rates.values() if r.corrected]
    ev = change_evidence(change, known) if change is not None else rate_evidence(gated)
    done = ev.n + ev.beyond_look  # a change's looks count cases of its pairing
    sizes = looks_reached(ev.first_look, ev.eligible, done)
    unit = "cases" if change is not None and ev.to_looks else "labels"
    at = sizes or ([done] if done > 1 else [])
    looks = [_at_look(report, audit, size, unit == "cases") for size in at]
    if report.mode == Mode.COMPARE:
        measure = f"change {report.systems[1]} − {report.systems[0]}"
    else:
        measure = f"rate of {report.systems[-1]}"
    to_go, rule = labels_asked(report.decision)
    return AuditProgress(to_go, measure, looks, unit, rule)


def _at_look(report: RunReport, audit: AuditInput, size: int, cases: bool) -> LookInterval:
    """The corrected figure at one look: with ``cases`` (a paired change) on the first
    ``size`` drawn cases, its pairing's own count; else (a rate) on the drawn cases up to
    the gated system's ``size``-th answer, its own count (labelling proceeds case by case)."""
    policy = Policy.model_validate(report.policy)
    order = audit.order[:size] if cases else _up_to(audit, report.systems[-1], size)
    first = set(order)
    sample = {s: [c for c in drawn if c in first] for s, drawn in audit.sample.items()}
    cut = audit.model_copy(update={"sample": sample, "order": order})
    rates = {
        s: corrected_rate(report.analyses, report.cases, s, policy, cut) for s in report.systems
    }
    if report.mode == Mode.COMPARE:
        base, cand = rates[report.systems[0]], rates[report.systems[1]]
        ch = corrected_change(report.analyses, report.cases, base, cand, policy, cut)
        return LookInterval(size, ch.estimate, ch.ci_low, ch.ci_high)
    r = rates[report.systems[-1]]
    return LookInterval(size, r.estimate, r.ci_low, r.ci_high)


def _up_to(audit: AuditInput, system: str, size: int) -> list[str]:
    """The drawn cases in draw order up to the one holding ``system``'s ``size``-th answer."""
    mine = set(audit.sample.get(system, []))
    seen = 0
    for i, case in enumerate(audit.order):
        seen += case in mine
        if seen == size:
            return audit.order[: i + 1]
    return audit.order

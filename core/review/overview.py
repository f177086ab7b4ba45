"""A run's overview: what the Overview page draws, without a single claim record.

Opening a 10,000-case run the full way parses a 130 MB report into objects (5-6 s on a
2-core machine) and applies its reviews (3 s more), but the Overview draws none of the
claims: the decision, the rates and the comparison (report-level records), the queue's
counts, judge agreement, and one state per case and system (the verdict transitions).
``run_overview`` takes exactly those from a reviewed run; the store keeps the newest one
per run (``Store.run_overview``) so opening a run reads some hundred kilobytes. The numbers
are the reviewed run's own records, copied, never recomputed: the same on every path.
"""

from __future__ import annotations

from pydantic import Field

from ..models import (
    AnswerAnalysis,
    ComparisonSummary,
    GateDecision,
    JudgeSpec,
    Mode,
    Record,
    RunReport,
    SuiteInfo,
    SystemRates,
    Verdict,
)
from ..models.review import JudgeAgreement
from ..scoring.memo import remembered
from .queue import QueueCounts
from .reviewed import ReviewedRun

OVERVIEW_VERSION = 1
"""Shape of ``RunOverview``; a stored overview of another shape is derived again."""

# Worst first: the state an answer is summarised by in verdict transitions.
WORST_ORDER = [
    Verdict.CONTRADICTED,
    Verdict.UNSUPPORTED,
    Verdict.OUT_OF_SCOPE,
    Verdict.PARTIALLY_SUPPORTED,
    Verdict.SUPPORTED,
]
NO_CLAIMS = "NO_CLAIMS"
ERROR = "ERROR"


def answer_state(analysis: AnswerAnalysis | None) -> str:
    """The worst verdict of an answer, or NO_CLAIMS / ERROR: one word per answer."""
    if analysis is None or analysis.harness_error or analysis.error_message:
        return ERROR
    return remembered(analysis, "state", lambda: _worst({c.verdict for c in analysis.claims}))


def _worst(present: set[Verdict]) -> str:
    return next((v.value for v in WORST_ORDER if v in present), NO_CLAIMS)


def transition_rows(report: RunReport) -> list[tuple[str, str, str]]:
    """(case, baseline state, candidate state) per case in compare mode; none otherwise."""
    if len(report.systems) < 2:
        return []
    base, cand = report.systems[0], report.systems[1]
    by_key = {(a.case_id, a.system): a for a in report.analyses}
    return [
        (
            case.case_id,
            answer_state(by_key.get((case.case_id, base))),
            answer_state(by_key.get((case.case_id, cand))),
        )
        for case in report.cases
    ]


class RunOverview(Record):
    """The Overview page's record of a reviewed run (``run_overview``)."""

    version: int = OVERVIEW_VERSION
    run_id: str
    created_at: str
    mode: Mode
    suite: SuiteInfo
    judge: JudgeSpec
    systems: list[str]
    rates: dict[str, SystemRates]
    comparison: ComparisonSummary | None = None
    decision: GateDecision
    counts: QueueCounts = Field(description="The review queue's counts.")
    agreement: JudgeAgreement
    transitions: list[tuple[str, str, str]] = Field(
        description="(case, baseline state, candidate state) per case (``transition_rows``)."
    )
    upto: int = Field(description="Newest override applied (0: none).")
    disputed: list[str] = Field(description="Items a review panel disputed, sorted.")
    report_hash: str = Field(description="sha256 of the judged report it was derived from.")


def run_overview(run: ReviewedRun, report_hash: str) -> RunOverview:
    """The overview of ``run`` (judged report ``report_hash``): its records, copied."""
    effective = run.report
    return RunOverview(
        run_id=run.run_id,
        created_at=effective.created_at,
        mode=effective.mode,
        suite=effective.suite,
        judge=effective.judge,
        systems=effective.systems,
        rates=effective.rates,
        comparison=effective.comparison,
        decision=effective.decision,
        counts=run.queue.counts,
        agreement=run.agreement,
        transitions=transition_rows(effective),
        upto=max((o.id for o in run.overrides), default=0),
        disputed=sorted(run.disputed),
        report_hash=report_hash,
    )

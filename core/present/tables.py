"""Reports as flat tables: one row per claim, per case transition, per run.

The dashboard filters and charts these frames; building them here keeps the pages thin and lets
the shapes be tested without Streamlit. Columns are plain strings and booleans so a frame of
tens of thousands of claims filters in milliseconds.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ..models import (
    MEASURE_LABELS,
    ClaimJudgement,
    Interval,
    RateChange,
    RunReport,
)
from ..review import gated_measure
from ..review.overview import ERROR, NO_CLAIMS, WORST_ORDER, RunOverview, transition_rows

CLAIM_COLUMNS = [
    "claim_id",
    "case",
    "system",
    "index",
    "verdict",
    "severity",
    "type",
    "tags",
    "citation_verified",
    "overridden",
    "score",
    "text",
    "rule",
]

TRANSITION_STATES = [v.value for v in WORST_ORDER] + [NO_CLAIMS, ERROR]


def citation_state(claim: ClaimJudgement) -> bool | None:
    """True when every citation was found in its source, False when one was not, None if none."""
    if not claim.citations:
        return None
    return all(c.verified for c in claim.citations)


def claims_frame(report: RunReport, overridden: Collection[str] = ()) -> pd.DataFrame:
    """One row per claim (effective verdicts) with the columns the claims explorer filters on."""
    tags = {c.case_id: ", ".join(c.tags) for c in report.cases}
    over = set(overridden)
    rows: list[tuple[Any, ...]] = [
        (
            c.claim_id,
            a.case_id,
            a.system,
            c.index,
            c.verdict.value,
            c.severity.value if c.severity else "",
            c.hallucination_type.value if c.hallucination_type else "",
            tags.get(a.case_id, ""),
            citation_state(c),
            c.claim_id in over,
            c.score,
            c.text,
            c.deciding_rule or "",
        )
        for a in report.analyses
        for c in a.claims
    ]
    df = pd.DataFrame.from_records(rows, columns=CLAIM_COLUMNS)
    df["citation_verified"] = df["citation_verified"].astype("boolean")
    df["overridden"] = df["overridden"].astype(bool)
    return df


@dataclass
class ClaimFilter:
    """What the claims explorer is narrowed to; an empty list means "any"."""

    systems: list[str] = field(default_factory=list)
    verdicts: list[str] = field(default_factory=list)
    severities: list[str] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    cases: list[str] = field(default_factory=list)
    citation: str = "any"
    """``any``, ``verified``, ``unverified`` or ``none`` (claim has no citation)."""
    overridden: str = "any"
    """``any``, ``yes`` or ``no``."""


def filter_claims(df: pd.DataFrame, f: ClaimFilter) -> pd.DataFrame:
    """Rows of a claims frame that pass every filter (vectorised; fast on large runs)."""
    mask = pd.Series(True, index=df.index)
    for column, wanted in (
        ("system", f.systems),
        ("verdict", f.verdicts),
        ("severity", f.severities),
        ("type", f.types),
        ("case", f.cases),
    ):
        if wanted:
            mask &= df[column].isin(wanted)
    if f.tags:
        wanted_tags = set(f.tags)
        mask &= df["tags"].map(lambda t: not wanted_tags.isdisjoint(t.split(", ")))
    cited = df["citation_verified"]
    if f.citation == "verified":
        mask &= cited.fillna(False).astype(bool)
    elif f.citation == "unverified":
        mask &= (~cited).fillna(False).astype(bool)
    elif f.citation == "none":
        mask &= cited.isna()
    if f.overridden == "yes":
        mask &= df["overridden"]
    elif f.overridden == "no":
        mask &= ~df["overridden"]
    return df[mask]


def verdict_transitions(report: RunReport) -> pd.DataFrame:
    """Per case: the baseline answer's state, the candidate's, and whether it changed.

    Only meaningful for two systems (compare mode); with one system the frame is empty.
    """
    return transitions_frame(transition_rows(report))


def transitions_frame(rows: list[tuple[str, str, str]]) -> pd.DataFrame:
    """``verdict_transitions`` from a run's (case, baseline, candidate) states
    (``RunOverview.transitions``)."""
    frame = pd.DataFrame(rows, columns=["case", "baseline", "candidate"])
    return frame.assign(changed=frame["baseline"] != frame["candidate"])


def _ci(lo: float | None, hi: float | None, signed: bool = False) -> str:
    if lo is None or hi is None:
        return "—"
    f = "+.1%" if signed else ".1%"
    return f"{lo:{f}} to {hi:{f}}"


def _interval(i: Interval | None) -> str:
    return "—" if i is None else _ci(i.low, i.high)


def rates_frame(report: RunReport | RunOverview) -> pd.DataFrame:
    """Both hallucination measures and abstentions per system, with their 95% intervals."""
    rows = []
    for name, r in report.rates.items():
        rows.append(
            {
                "system": name,
                "answers": r.n_answers,
                MEASURE_LABELS["answers"]: r.answer_level_rate,
                "95% CI (answers)": _interval(r.answer_level_interval),
                MEASURE_LABELS["claims"]: r.micro_rate,
                "95% CI (claims)": _interval(r.micro_interval),
                "abstained": r.abstention_rate,
                "95% CI (abstained)": _interval(r.abstention_interval),
                "claims": r.n_claims,
                "macro": r.macro_rate,
                "fabrication rate": r.fabrication_rate,
                "contradiction rate": r.contradiction_rate,
            }
        )
    return pd.DataFrame(rows)


def changes_frame(report: RunReport | RunOverview) -> pd.DataFrame:
    """Candidate − baseline per measure with its paired-bootstrap 95% interval (compare mode)."""
    cmp = report.comparison
    cols = ["measure", "change", "95% CI", "gated"]
    if cmp is None:
        return pd.DataFrame(columns=cols)
    changes: list[tuple[str, str, RateChange | None]] = [
        ("answers", MEASURE_LABELS["answers"], cmp.answer_rate_change),
        ("claims", MEASURE_LABELS["claims"], cmp.rate_change),
        ("abstentions", "abstentions", cmp.abstention_change),
    ]
    rows = [
        (label, ch.estimate, _ci(ch.ci_low, ch.ci_high, signed=True), key == cmp.gated_measure)
        for key, label, ch in changes
        if ch is not None
    ]
    return pd.DataFrame(rows, columns=cols)


def rate_rows(report: RunReport) -> list[dict[str, Any]]:
    """One row per judged system of a run: the rates a trend across runs plots."""
    measure = gated_measure(report)
    return [
        {
            "run_id": report.run_id,
            "created_at": report.created_at,
            "suite": report.suite.name,
            "system": system,
            "role": _role(report, system),
            "gated_measure": measure,
            "answer_rate": r.answer_level_rate,
            "micro_rate": r.micro_rate,
            "fabrication_rate": r.fabrication_rate,
            "contradiction_rate": r.contradiction_rate,
        }
        for system, r in report.rates.items()
    ]


def _minus(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a - b


def trend_rows(runs: Iterable[Any]) -> list[dict[str, Any]]:
    """Rate rows from run list entries (``store.RunRow``): effective, and cheap to get.

    A run row carries the gated system's effective rates, answers with a hallucination
    (``answer_rate``) and claims hallucinated (``micro_rate``), and, in compare mode, their
    changes from baseline, so the baseline's rates are the differences. Each row names its
    suite, so a trend draws one line per suite, and the measure its gate used. A run stored
    before the answer-level rate was listed has None there (the chart leaves it out).
    """
    rows = []
    for r in runs:
        base = {
            "run_id": r.run_id,
            "created_at": r.created_at,
            "suite": r.suite_name,
            "gated_measure": r.gated_measure,
        }
        rows.append(
            {
                **base,
                "system": r.gated_system,
                "role": "candidate",
                "answer_rate": r.answer_rate,
                "micro_rate": r.micro_rate,
            }
        )
        answers = _minus(r.answer_rate, r.answer_rate_change)
        claims = _minus(r.micro_rate, r.rate_change)
        if answers is not None or claims is not None:
            rows.append(
                {
                    **base,
                    "system": "baseline",
                    "role": "baseline",
                    "answer_rate": answers,
                    "micro_rate": claims,
                }
            )
    return rows


def _role(report: RunReport, system: str) -> str:
    if len(report.systems) >= 2:
        return "baseline" if system == report.systems[0] else "candidate"
    return "gated"


def judge_health_row(report: RunReport, agreement: float | None = None) -> dict[str, Any]:
    """Signals of judge drift for one run: repairs, errors, unverified citations, disagreement.

    A signal the run cannot have is None, not 0, so a chart leaves it out: repairs when the
    judge made no model call (the offline judge, a fully cached run), pairwise disagreements
    outside pairwise mode. ``agreement`` is the share of reviewed claims whose verdict
    reviewers kept (from the store); its complement is the share overturned.
    """
    usage = report.usage
    return {
        "run_id": report.run_id,
        "created_at": report.created_at,
        "judge": report.judge.judge_id,
        "repairs": int(usage["repairs"]) if "repairs" in usage else None,
        "harness_errors": sum(1 for a in report.analyses if a.harness_error),
        "unverified_citations": sum(
            1 for a in report.analyses for c in a.claims for q in c.citations if not q.verified
        ),
        "pairwise_disagreements": None
        if report.pairwise is None
        else sum(1 for p in report.pairwise if p.disagreement),
        "overturned_share": None if agreement is None else 1.0 - agreement,
    }


def frame(rows: Iterable[dict[str, Any]]) -> pd.DataFrame:
    """A DataFrame from row dicts (kept here so pages never shape data themselves)."""
    return pd.DataFrame(list(rows))

"""The readable summary `halgate run` prints: rates, interval, severity table, decision.

Suite, system and case names and reason messages come from untrusted files: the text is
stripped of terminal escape sequences and control characters (``terminal_text``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import NamedTuple

from ..inputs.policy import Policy
from ..models import (
    GATE_LABELS,
    SEVERITIES_DESC,
    CorrectedChange,
    CorrectedRate,
    GateLabel,
    Interval,
    Mode,
    RateChange,
    RunReport,
    SystemRates,
    ci_bounds,
)
from ..present.flips import flip_lines
from ..review.reviewed import gated_measure
from ..scoring.compare import corrected_in_force
from .common import MEASURE_TITLES, RATE_FIELDS, terminal_text

__all__ = [
    "MEASURE_HELP",
    "MEASURE_TITLES",
    "RATE_FIELDS",
    "MeasureRow",
    "ci_text",
    "corrected_basis",
    "corrected_lines",
    "corrected_rates",
    "gate_label_counts",
    "gated_measure",
    "gated_on_corrected",
    "gated_row",
    "measure_changes",
    "measure_rows",
    "measure_text",
    "pct",
    "signed_pct",
    "summary_text",
]


def pct(x: float | None) -> str:
    """A rate as a percentage, or 'n/a' when undefined."""
    return "n/a" if x is None else f"{x:.1%}"


def signed_pct(x: float | None) -> str:
    """A rate change with its sign."""
    return "n/a" if x is None else f"{x:+.1%}"


def ci_text(
    interval: Interval | RateChange | CorrectedRate | CorrectedChange | None, signed: bool = False
) -> str:
    """'95% CI a to b' of an interval or a change, or 'no interval'."""
    lo, hi = ci_bounds(interval)
    if lo is None or hi is None:
        return "no interval"
    f = signed_pct if signed else pct
    return f"95% CI {f(lo)} to {f(hi)}"


class MeasureRow(NamedTuple):
    """One system's figure for one measure: count, denominator, rate and its interval.

    ``basis`` replaces "hits of total" where the figure is not a count (the review-corrected
    rate: the judge's figure and how much of the audit sample is labelled).
    """

    system: str
    hits: int
    total: int
    rate: float | None
    interval: Interval | CorrectedRate | None
    basis: str = ""

    @property
    def count_text(self) -> str:
        """'11 of 53', or the basis of a figure that is not a count."""
        return self.basis or f"{self.hits} of {self.total}"


def measure_text(m: MeasureRow) -> str:
    """'20.8% (11 of 53; 95% CI 12.0% to 33.4%)': one system's figure for one measure."""
    return f"{pct(m.rate)} ({m.count_text}; {ci_text(m.interval)})"


MEASURE_HELP = {
    "answers": "share of answers with at least one hallucinated claim; abstentions counted "
    "apart, an answer to a should-abstain case counts as hallucinated",
    "claims": "micro: hallucinated claims / all claims, pooled",
    "abstentions": "empty, refusal, nonsense or no checkable claim, on cases expecting an answer",
    "corrected": "answers with a hallucination, the judge's rate corrected by reviewers' labels "
    "of the random audit sample (prediction-powered)",
}


def corrected_rates(rates: Mapping[str, SystemRates]) -> list[CorrectedRate]:
    """The systems' review-corrected rates once a reviewer labelled some audited answer
    (labels by rule alone correct nothing); [] before, and for a report without an audit."""
    found = [r.corrected for r in rates.values() if r.corrected is not None]
    return found if any(r.n_labelled - r.n_by_rule > 0 for r in found) else []


def corrected_basis(r: CorrectedRate) -> str:
    """'judge 33.3%; audit 4 of 6 labelled, incomplete': what a corrected figure rests on."""
    state = "complete" if r.complete else "incomplete"
    return f"judge {pct(r.judge_rate)}; audit {r.n_labelled} of {r.n_sample} labelled, {state}"


def measure_rows(rates: Mapping[str, SystemRates]) -> dict[str, list[MeasureRow]]:
    """Per measure (answers, the review-corrected answers once the audit sample has labels,
    claims, abstentions), one row per system."""
    corrected = corrected_rates(rates)
    rows = {
        "answers": [
            MeasureRow(
                r.system,
                r.n_hallucinated_answers,
                r.n_rated_answers,
                r.answer_level_rate,
                r.answer_level_interval,
            )
            for r in rates.values()
        ],
        "corrected": [
            MeasureRow(c.system, c.n_labelled, c.n_sample, c.estimate, c, corrected_basis(c))
            for c in corrected
        ],
        "claims": [
            MeasureRow(
                r.system,
                round((r.micro_rate or 0.0) * r.n_claims),
                r.n_claims,
                r.micro_rate,
                r.micro_interval,
            )
            for r in rates.values()
        ],
        "abstentions": [
            MeasureRow(
                r.system,
                r.n_abstained,
                r.n_expected_answers,
                r.abstention_rate,
                r.abstention_interval,
            )
            for r in rates.values()
        ],
    }
    if not corrected:
        del rows["corrected"]
    return rows


Change = RateChange | CorrectedChange


def measure_changes(report: RunReport) -> dict[str, Change | None]:
    """Candidate − baseline per measure (compare mode), with the review-corrected change once
    the audit sample has labels; else empty."""
    cmp = report.comparison
    if cmp is None:
        return {}
    changes: dict[str, Change | None] = {"answers": cmp.answer_rate_change}
    if cmp.corrected_change is not None and corrected_rates(report.rates):
        changes["corrected"] = cmp.corrected_change
    return changes | {"claims": cmp.rate_change, "abstentions": cmp.abstention_change}


def gated_on_corrected(report: RunReport) -> bool:
    """The gate used the review-corrected figures (``gate_on_corrected``, audit complete)."""
    cmp = report.comparison
    if cmp is not None:
        return cmp.gated_on_corrected
    own = report.rates.get(report.decision.gated_system)
    policy = Policy.model_validate(report.policy)
    return corrected_in_force(policy, own.corrected if own else None, None, False)


def gated_row(report: RunReport) -> str:
    """The measure an export marks as gated: 'corrected' when the gate used it, else
    ``gated_measure``."""
    return "corrected" if gated_on_corrected(report) else gated_measure(report)


def _rates_rows(report: RunReport) -> list[str]:
    gated = gated_measure(report)
    rows = []
    for measure, items in measure_rows(report.rates).items():
        if measure == "corrected":
            continue  # corrected_lines shows it beside the judge's, with precision and recall
        mark = " [gated]" if measure == gated else ""
        rows.append(f"{MEASURE_TITLES[measure].capitalize()}{mark} ({MEASURE_HELP[measure]}):")
        for m in items:
            rows.append(
                f"  {m.system:<14}{m.hits:>5} of {m.total:<6}{pct(m.rate):>7} "
                f"({ci_text(m.interval)})"
            )
    rows.append(
        "Other rates (macro = mean per answer; fabrication, contradiction = share of claims):"
    )
    rows.append(
        f"  {'system':<14}{'answers':>8}{'claims':>8}{'macro':>8}{'fabric.':>9}{'contra.':>9}"
    )
    for r in report.rates.values():
        rows.append(
            f"  {r.system:<14}{r.n_answers:>8}{r.n_claims:>8}{pct(r.macro_rate):>8}"
            f"{pct(r.fabrication_rate):>9}{pct(r.contradiction_rate):>9}"
        )
    return rows


def gate_label_counts(report: RunReport) -> str:
    """Claim counts in gate mode's vocabulary (VERIFIED / FABRICATED / UNVERIFIABLE)."""
    counts = Counter(GATE_LABELS[c.verdict] for a in report.analyses for c in a.claims)
    return ", ".join(f"{label.value} {counts[label]}" for label in GateLabel)


def _rate_line(r: CorrectedRate) -> str:
    state = "complete" if r.complete else "incomplete"
    quality = f"judge precision {pct(r.judge_precision)}, recall {pct(r.judge_recall)}"
    return (
        f"  {r.system:<14}judge {pct(r.judge_rate):>6} -> corrected {pct(r.estimate):>6} "
        f"({ci_text(r)}); audit: {r.n_labelled} of {r.n_sample} answers labelled ({state}"
        + (f", {r.n_by_rule} by rule" if r.n_by_rule else "")
        + f"); {quality}"
    )


def _change_line(ch: CorrectedChange) -> str:
    one_sided = f", {ch.n_one_sided} rated by one side only" if ch.n_one_sided else ""
    how = f"paired over {ch.n_cases} cases{one_sided}" if ch.paired else "independent samples"
    return (
        f"  {'change':<14}judge {signed_pct(ch.judge_change):>6} -> corrected "
        f"{signed_pct(ch.estimate):>6} ({ci_text(ch, signed=True)}; {how})"
    )


def corrected_lines(report: RunReport) -> list[str]:
    """The review-corrected answers with a hallucination beside the judge's, per system and
    for the change, once any audited answer is labelled; [] before."""
    rates = corrected_rates(report.rates)
    if not rates:
        return []
    cmp = report.comparison
    lines = [
        "",
        "Review-corrected answers with a hallucination (prediction-powered, from the random "
        "audit sample)" + (" [gated]:" if gated_on_corrected(report) else ":"),
        *(_rate_line(r) for r in rates),
    ]
    if cmp is not None and cmp.corrected_change is not None:
        lines.append(_change_line(cmp.corrected_change))
    return lines


#: How many judge failures the summary lists one by one.
_SHOW_FAILURES = 5


def failure_lines(report: RunReport) -> list[str]:
    """The judge's failures (harness errors), each with its typed record where it has one."""
    failed = [a for a in report.analyses if a.harness_error]
    if not failed:
        return []
    lines = ["", f"Judge failures ({len(failed)} answers, HARNESS_ERROR):"]
    for a in failed[:_SHOW_FAILURES]:
        f = a.failure
        what = (
            f"{f.judge_id}: {f.exception_type or 'reported'}: {f.message}" if f else a.harness_error
        )
        lines.append(f"  {a.case_id}/{a.system}: {what}")
    if len(failed) > _SHOW_FAILURES:
        lines.append(f"  ... and {len(failed) - _SHOW_FAILURES} more (see the report)")
    return lines


def summary_text(report: RunReport) -> str:
    """Plain text a person reads in a terminal or CI log (snapshot-tested)."""
    lines = [
        f"halgate {report.mode.value} run {report.run_id}",
        f"suite {report.suite.name} ({report.suite.n_cases} cases, "
        f"hash {report.suite.content_hash[:12]})"
        f" judged by {report.judge.judge_id}",
        "",
        *_rates_rows(report),
    ]
    cmp = report.comparison
    if cmp is not None:
        ch = cmp.rate_change
        lines += [
            "",
            f"Rate change {cmp.candidate} - {cmp.baseline} (paired bootstrap over {ch.n_cases} "
            f"cases, {ch.resamples} resamples, seed {ch.seed}; positive = worse):",
        ]
        for measure, change in measure_changes(report).items():
            if change is None or measure == "corrected":
                continue
            mark = "  [gated]" if measure == cmp.gated_measure else ""
            lines.append(
                f"  {MEASURE_TITLES[measure]:<30}{signed_pct(change.estimate):>7} "
                f"({ci_text(change, signed=True)}){mark}"
            )
        lines += [
            "New hallucination types (reported, not gated): "
            + (", ".join(t.value for t in cmp.new_hallucination_types) or "none"),
            f"Regression detected (the change's interval lies above zero): "
            f"{'yes' if cmp.regression_detected else 'no'}",
            "",
            f"  {'severity':<10}{cmp.baseline:>12}{cmp.candidate:>12}{'change':>8}",
        ]
        for sev in SEVERITIES_DESC:
            s = cmp.severity_shift[sev.value]
            lines.append(f"  {sev.value:<10}{s.baseline:>12}{s.candidate:>12}{s.delta:>+8d}")
    else:
        if report.mode == Mode.GATE:
            lines += ["", "Claims against the references: " + gate_label_counts(report)]
        consistency = [
            a.consistency_score for a in report.analyses if a.consistency_score is not None
        ]
        if consistency:
            mean = sum(consistency) / len(consistency)
            lines += ["", f"Mean consistency score: {mean:.3f} over {len(consistency)} answers"]
        errs = [a for a in report.analyses if a.error_message]
        if errs:
            lines.append(
                f"Answers that could not be analysed: {len(errs)} "
                f"({', '.join(f'{a.case_id}: {a.error_message}' for a in errs[:5])})"
            )
    lines += corrected_lines(report)
    lines += flip_lines(report)
    lines += failure_lines(report)
    d = report.decision
    lines += ["", f"Gate: {d.status.value} (exit code {d.exit_code}) for {d.gated_system}"]
    lines += [f"  {d.headline}"] if d.headline else []
    for r in d.reasons:
        lines.append(f"  [{r.status.value}] {r.rule}: {r.message}")
    return terminal_text("\n".join(lines) + "\n")

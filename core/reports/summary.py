"""The readable summary `halgate run` prints: rates, interval, severity table, decision."""

from __future__ import annotations

from collections import Counter

from ..models import GATE_LABELS, SEVERITIES_DESC, GateLabel, Mode, RunReport, SystemRates


def pct(x: float | None) -> str:
    """A rate as a percentage, or 'n/a' when undefined."""
    return "n/a" if x is None else f"{x:.1%}"


def signed_pct(x: float | None) -> str:
    """A rate change with its sign."""
    return "n/a" if x is None else f"{x:+.1%}"


def _rates_rows(rates: dict[str, SystemRates]) -> list[str]:
    head = (
        f"  {'system':<14}{'answers':>8}{'claims':>8}{'micro':>8}{'macro':>8}"
        f"{'answers w/':>11}{'fabric.':>9}{'contra.':>9}"
    )
    rows = [head]
    for r in rates.values():
        rows.append(
            f"  {r.system:<14}{r.n_answers:>8}{r.n_claims:>8}{pct(r.micro_rate):>8}"
            f"{pct(r.macro_rate):>8}{pct(r.answer_level_rate):>11}{pct(r.fabrication_rate):>9}"
            f"{pct(r.contradiction_rate):>9}"
        )
    return rows


def gate_label_counts(report: RunReport) -> str:
    """Claim counts in gate mode's vocabulary (VERIFIED / FABRICATED / UNVERIFIABLE)."""
    counts = Counter(GATE_LABELS[c.verdict] for a in report.analyses for c in a.claims)
    return ", ".join(f"{label.value} {counts[label]}" for label in GateLabel)


def summary_text(report: RunReport) -> str:
    """Plain text a person reads in a terminal or CI log (snapshot-tested)."""
    lines = [
        f"halgate {report.mode.value} run {report.run_id}",
        f"suite {report.suite.name} ({report.suite.n_cases} cases, "
        f"hash {report.suite.content_hash[:12]})"
        f" judged by {report.judge.judge_id}",
        "",
        "Hallucination rates (micro = pooled claims, macro = mean per answer, answers w/ = share "
        "of answers with any):",
        *_rates_rows(report.rates),
    ]
    cmp = report.comparison
    if cmp is not None:
        ch = cmp.rate_change
        ci = f"95% CI {signed_pct(ch.ci_low)} to {signed_pct(ch.ci_high)}"
        lines += [
            "",
            f"Rate change {cmp.candidate} - {cmp.baseline}: {signed_pct(ch.estimate)} ({ci}, "
            f"paired bootstrap over {ch.n_cases} cases, seed {ch.seed})",
            "New hallucination types: "
            + (", ".join(t.value for t in cmp.new_hallucination_types) or "none"),
            f"Regression detected: {'yes' if cmp.regression_detected else 'no'}",
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
    d = report.decision
    lines += ["", f"Gate: {d.status.value} (exit code {d.exit_code}) for {d.gated_system}"]
    for r in d.reasons:
        lines.append(f"  [{r.status.value}] {r.rule}: {r.message}")
    return "\n".join(lines) + "\n"

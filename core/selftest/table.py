"""The self-test report as plain text: the targets, one row per transform, one per risk
level, and the worst examples (what `halgate selftest` prints)."""

from __future__ import annotations

from .report import SelftestReport


def share_text(x: float | None) -> str:
    """A share as a whole percent, with a decimal where rounding would show a share short of
    100 % (or above 0 %) as 100 % (or 0 %): a target marked NOT MET must not read "100%"."""
    if x is None:
        return "-"
    return f"{x:.1%}" if 0 < x < 1 and round(x * 100) in (0, 100) else f"{x:.0%}"


def selftest_table(r: SelftestReport) -> str:
    """The report for a terminal; every figure comes from the report, none computed here."""
    lines = [
        f"How well the judge ({r.judge}) reads {r.source}: {r.documents} documents, "
        f"{r.sentences} sentences, {len(r.items)} generated claims, seed {r.seed}, "
        f"{r.seconds:.1f} s",
        "",
        f"{'transform':<22} {'keeps truth':<11} {'claims':>6} {'right':>6} {'contra':>6} "
        f"{'false alarms':>12}  severities",
    ]
    for t in r.transforms:
        sev = " ".join(f"{k}:{v}" for k, v in sorted(t.severities.items()))
        lines.append(
            f"{t.transform:<22} {'yes' if t.preserves_truth else 'no':<11} {t.claims:>6} "
            f"{share_text(t.share_right):>6} {t.contradicted:>6} "
            f"{t.false_alarms if t.preserves_truth else '':>12}  {sev}"
        )
    lines += [
        "",
        f"{'risk level':<10} {'keeps: right':>12} {'changes: caught':>15} "
        f"{'CRIT/HIGH':>9} {'queued':>7}",
    ]
    for k in r.risks:
        lines.append(
            f"{k.risk_level:<10} {share_text(k.preserving_right):>12} "
            f"{share_text(k.changing_caught):>15} {share_text(k.changing_severe):>9} "
            f"{share_text(k.changing_queued):>7}"
        )
    lines += ["", "targets:"]
    for g in r.targets:
        mark = {True: "met", False: "NOT MET", None: "no claims"}[g.met]
        lines.append(
            f"  {g.name:<50} {share_text(g.observed):>5} ({g.goal}, {g.claims} claims)  {mark}"
        )
    if r.worst:
        lines += ["", "worst readings:"]
    for i in r.worst:
        verdict = i.verdict.value if i.verdict else "no claim"
        sev = f"/{i.severity.value}" if i.severity else ""
        rule = f" [rule {i.rule}]" if i.rule else ""
        lines += [
            f"  {i.transform} ({i.case_id}): {verdict}{sev}{rule}",
            f"    source: {i.source}",
            f"    claim:  {i.claim}",
            f"    why:    {i.rationale}",
        ]
    return "\n".join(lines) + "\n"

"""Plain-text views of review data (runs list, queue, overrides, agreement, sign-offs).

Used by the `halgate runs/show/review/gate` commands; pure functions of store records.
Claims, quotes, comments and names are untrusted text printed to a terminal: every view
drops escape sequences and control characters (``terminal_text``) from what it returns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..models import ClaimJudgement, GateDecision
from ..models.review import (
    JudgeAgreement,
    Override,
    PairReviewItem,
    ReviewItem,
    RunRow,
    SignOff,
)
from ..review import OwnReview, first_order_preference, override_change, signoff_in_force
from .common import signoff_line, terminal_text
from .summary import pct, signed_pct

RUNS_LEGEND = (
    "answers = answers with a hallucination, claims = claims hallucinated (the gated system's, "
    "from effective verdicts); change = candidate - baseline; * = the measure the gate uses"
)


def _rate_cell(rate: float | None, gated: bool) -> str:
    return pct(rate) + ("*" if gated and rate is not None else "")


def runs_table(rows: Sequence[RunRow]) -> str:
    """One line per run: id, suite, judged → effective status, both rates and their changes,
    review progress; then what the rate columns mean."""
    if not rows:
        return "no runs in this database (save one with `halgate run SUITE`)\n"
    head = (
        f"{'run id':<25}{'suite':<16}{'mode':<9}{'judged':<14}{'effective':<14}"
        f"{'answers':>8}{'change':>8}{'claims':>8}{'change':>8}"
        f"{'review':>9}{'overr.':>7}{'agree':>7}  sign-off"
    )
    lines = [head]
    for r in rows:
        review = f"{r.n_review - r.pending_review}/{r.n_review}"
        signoff = (r.signoff.value + (" (stale)" if r.signoff_stale else "")) if r.signoff else "-"
        lines.append(
            f"{r.run_id:<25}{r.suite_name[:15]:<16}{r.mode.value:<9}{r.judged_status.value:<14}"
            f"{r.status.value:<14}"
            f"{_rate_cell(r.answer_rate, r.gated_measure == 'answers'):>8}"
            f"{signed_pct(r.answer_rate_change):>8}"
            f"{_rate_cell(r.micro_rate, r.gated_measure == 'claims'):>8}"
            f"{signed_pct(r.rate_change):>8}"
            f"{review:>9}{r.n_overrides:>7}{pct(r.agreement):>7}  {signoff}"
        )
    lines.append(RUNS_LEGEND)
    return terminal_text("\n".join(lines) + "\n")


def _labels(c: ClaimJudgement) -> str:
    parts = [c.severity, c.verdict, c.hallucination_type]
    return " ".join(p.value for p in parts if p is not None)


def override_line(o: Override) -> str:
    """'#3 q1/candidate/0 verdict=SUPPORTED by ana at ...: comment' (confirm when no change)."""
    return terminal_text(
        f"#{o.id} {o.claim_id} {override_change(o)} by {o.reviewer} at {o.created_at}: {o.comment}"
    )


def _pair_lines(p: PairReviewItem, answers: Mapping[str, Mapping[str, str]]) -> list[str]:
    """One pairwise case: A and B with their answers, both orders' results, the decision."""
    j = p.judged
    first = first_order_preference(j)
    swapped = j.swapped_preference
    lines = [
        f"[{'reviewed' if p.reviewed else 'PENDING'}] {p.review_id}  "
        + ("orders disagree" if j.disagreement else "judge failed" if j.error else "low confidence")
    ]
    for label, system in (("A", j.system_a), ("B", j.system_b)):
        lines.append(f"    {label}: {system}: {answers.get(system, {}).get(j.case_id, '')}")
    lines.append(
        f"    A shown first: {first.value if first else '-'}  B shown first: "
        f"{swapped.value if swapped else '-'}  reconciled: {j.preference.value}  "
        f"confidence {j.confidence:.2f}"
    )
    lines.append(f"    judge: {j.error or j.justification}")
    if p.latest_override is not None:
        lines.append(f"    decision {override_line(p.latest_override)}")
    return lines


def review_lines(
    items: Sequence[ReviewItem],
    pending_only: bool = False,
    pairs: Sequence[PairReviewItem] = (),
    answers: Mapping[str, Mapping[str, str]] | None = None,
) -> str:
    """The review queue, most severe first, with evidence and the override in force, then
    the pairwise cases that need a person (decide with ``--preference A|B|TIE``)."""
    shown = [i for i in items if not (pending_only and i.reviewed)]
    shown_pairs = [p for p in pairs if not (pending_only and p.reviewed)]
    if not shown and not shown_pairs:
        if not items and not pairs:
            return "review queue is empty\n"
        return (
            "every queued claim is reviewed\n" if not pairs else "every queued item is reviewed\n"
        )
    lines = []
    for i in shown:
        c = i.claim
        state = "reviewed" if i.reviewed else "PENDING"
        was = "" if _labels(c) == _labels(i.judged) else f"  (judge: {_labels(i.judged)})"
        lines += [f"[{state}] {c.claim_id}  {_labels(c)}{was}", f"    claim: {c.text}"]
        for x in c.citations[:2]:
            mark = "verified" if x.verified else "NOT found in source"
            lines.append(f"    evidence [{x.doc_id}, {mark}]: {x.quote}")
        lines.append(f"    judge: {c.rationale}")
        lines += [f"      {line}" for line in c.provenance()]
        if i.latest_override is not None:
            lines.append(f"    override {override_line(i.latest_override)}")
    for p in shown_pairs:
        lines += _pair_lines(p, answers or {})
    pending = sum(1 for i in items if not i.reviewed)
    summary = f"{len(items)} claim(s) in the queue, {pending} pending"
    if pairs:
        waiting = sum(1 for p in pairs if not p.reviewed)
        summary += f"; {len(pairs)} pair(s), {waiting} pending (decide: --preference A|B|TIE)"
    lines.append(summary)
    return terminal_text("\n".join(lines) + "\n")


def own_review_lines(reviews: Sequence[OwnReview], reviewer: str) -> str:
    """A reviewer's reviews, newest first (``Store.reviews_by``), one line each and the total."""
    if not reviews:
        return f"no reviews by {reviewer.strip() or '(no name)'} in this database\n"
    lines = []
    for r in reviews:
        o = r.override
        state = "in force" if r.in_force else "superseded"
        lines.append(
            f"#{o.id} {o.created_at}  {o.run_id} ({r.suite_name})  {o.claim_id} [{r.kind}] "
            f"{r.change} ({state}): {o.comment}"
        )
    runs = len({r.override.run_id for r in reviews})
    lines.append(f"{len(reviews)} review(s) by {reviewer.strip()} in {runs} run(s), newest first")
    return terminal_text("\n".join(lines) + "\n")


def agreement_lines(a: JudgeAgreement) -> str:
    """Judge agreement overall, per judge verdict and per judge severity."""
    if a.overall.reviewed == 0:
        return "Judge agreement: no reviewed claims yet\n"
    lines = [
        f"Judge agreement: {pct(a.overall.rate)} of {a.overall.reviewed} reviewed claim(s) "
        "kept the judge's verdict"
    ]
    for title, cells in (("verdict", a.by_verdict), ("severity", a.by_severity)):
        parts = [f"{k} {pct(v.rate)} ({v.kept}/{v.reviewed})" for k, v in sorted(cells.items())]
        lines.append(f"  by judge {title}: " + ", ".join(parts))
    return "\n".join(lines) + "\n"


def signoff_lines(signoffs: Sequence[SignOff]) -> str:
    """The sign-off in force (the newest, unless stale), then every sign-off, oldest first,
    marked in force, superseded or stale (made before a later override)."""
    if not signoffs:
        return "Sign-off: none\n"
    current = signoff_in_force(signoffs)
    head = (
        f"Sign-off in force: #{current.id} {current.decision.value} by {current.reviewer}"
        if current
        else "Sign-off in force: none (overrides were recorded after the newest; sign off again)"
    )
    lines = [head, "Sign-offs:", *(f"  {signoff_line(s)}" for s in signoffs)]
    return terminal_text("\n".join(lines) + "\n")


def decision_lines(d: GateDecision) -> str:
    """The gate decision with every reason (what `halgate gate` prints)."""
    lines = [f"Gate: {d.status.value} (exit code {d.exit_code}) for {d.gated_system}"]
    lines += [f"  {d.headline}"] if d.headline else []
    lines += [f"  [{r.status.value}] {r.rule}: {r.message}" for r in d.reasons]
    return terminal_text("\n".join(lines) + "\n")

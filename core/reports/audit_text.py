"""Plain-text view of the audit sample for `halgate review` (the corrected rates beside the
judge's are part of the summary, ``summary.corrected_lines``).

Answers, claims and comments are untrusted text printed to a terminal: every view drops
escape sequences and control characters (``terminal_text``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..review import AuditItem
from .common import terminal_text


def _label(hallucinated: bool) -> str:
    return "HALLUCINATED" if hallucinated else "FAITHFUL"


def audit_lines(
    items: Sequence[AuditItem],
    answers: dict[str, dict[str, str]],
    pending_only: bool = False,
    seed: int | None = None,
) -> str:
    """The audit sample's answers, in draw order: each whole answer with its claims, the
    judge's label and the reviewer's label in force ('' when the run has no audit sample)."""
    if not items:
        return ""
    shown = [i for i in items if not (pending_only and i.reviewed)]
    lines = []
    for i in shown:
        state = f"labelled {i.label.value}" if i.label else "PENDING"
        lines += [
            f"[{state}] {i.review_id}  judge: {_label(i.judge_hallucinated)}",
            f"    answer: {answers.get(i.system, {}).get(i.case_id, '')}",
        ]
        for c in i.analysis.claims:
            sev = f" {c.severity.value}" if c.severity else ""
            lines.append(f"    claim {c.index} {c.verdict.value}{sev}: {c.text}")
        if i.latest_override is not None:
            o = i.latest_override
            lines.append(f"    label #{o.id} by {o.reviewer} at {o.created_at}: {o.comment}")
    done = sum(1 for i in items if i.reviewed)
    lines.append(
        f"audit sample: {done} of {len(items)} answers labelled, {len(items) - done} pending "
        "(random sample, judged as whole answers: --label hallucinated|faithful)"
        + (f"; seed {seed}, drawn by the store when the run was saved" if seed is not None else "")
    )
    return terminal_text("\n".join(lines) + "\n")

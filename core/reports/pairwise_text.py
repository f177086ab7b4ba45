"""Pairwise results for the terminal: tallies, what the rates measured, the pairs that need a
person."""

from __future__ import annotations

from collections.abc import Sequence

from ..models import (
    PairwiseJudgement,
    Preference,
)

EVIDENCE_NOTE = (
    "  Rates above: claims checked against the documents and each case's reference_answer,\n"
    "  not the documents only as in compare mode, so they can differ from a compare run."
)
"""Why a pairwise run's rates are not a compare run's: ``plan_tasks`` adds the reference
answer to a pairwise case's sources, so a claim that answer supports, contradicts or qualifies
can get another verdict than in compare mode."""


def pairwise_summary(pairs: Sequence[PairwiseJudgement]) -> str:
    """A few lines for the terminal: tallies, what the claims were checked against, and the
    pairs that need a person."""
    if not pairs:
        return ""
    a, b = pairs[0].system_a, pairs[0].system_b
    tally = {p: sum(x.preference == p and x.error is None for x in pairs) for p in Preference}
    lines = [
        f"Pairwise ({len(pairs)} cases, judged in both orders): {a} preferred "
        f"{tally[Preference.A]}, {b} preferred {tally[Preference.B]}, ties {tally[Preference.TIE]}",
        EVIDENCE_NOTE,
    ]
    for p in pairs:
        if p.needs_review:
            why = (
                "error" if p.error else ("orders disagree" if p.disagreement else "low confidence")
            )
            lines.append(f"  review {p.case_id}: {why}")
    return "\n".join(lines) + "\n"

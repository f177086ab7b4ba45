"""What the scoring tests share: an answer analysis built from claims."""

from __future__ import annotations

from typing import Any

from halgate.models import AnswerAnalysis, ClaimJudgement
from halgate.scoring.metrics import answer_metrics


def analysis(case_id: str, system: str, cs: list[ClaimJudgement], **fields: Any) -> AnswerAnalysis:
    """The claims renumbered for this answer, with its per-answer metrics; `fields` add e.g.
    ``harness_error`` or ``abstention``."""
    cs = [
        c.model_copy(
            update={
                "case_id": case_id,
                "system": system,
                "claim_id": f"{case_id}/{system}/{i}",
                "index": i,
            }
        )
        for i, c in enumerate(cs)
    ]
    return AnswerAnalysis(case_id=case_id, system=system, claims=cs, **fields, **answer_metrics(cs))

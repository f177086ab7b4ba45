"""What a judge is: it turns a case's answers and documents into claim verdicts.

A plain protocol, so a third-party judge needs nothing from halgate but these records.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..models import Case, ClaimJudgement, Document, JudgeFailure, JudgeSpec, VerdictCounts


@dataclass(frozen=True)
class JudgeTask:
    """One case to judge: its documents and the answers of one or more systems.

    Judging both answers of a compare case in one task lets a judge send the documents once.
    """

    case: Case
    documents: list[Document]
    answers: dict[str, str]


@dataclass
class JudgeResult:
    """What a judge made of one task: claims per system, or a harness error per system."""

    case_id: str
    claims: dict[str, list[ClaimJudgement]] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    usage: dict[str, int] = field(default_factory=dict)
    raw: dict[str, str] = field(default_factory=dict)
    failures: dict[str, JudgeFailure] = field(default_factory=dict)
    """The typed record of each error (the engine's guard fills those a judge left out)."""
    sample_counts: dict[str, list[VerdictCounts]] = field(default_factory=dict)
    """Repeated judging: per system, the claim counts of samples 2..k (``judge_samples``)."""


ProgressCallback = Callable[[JudgeResult], None]


class Judge(Protocol):
    """Anything that turns (answers, documents) into claim verdicts with evidence."""

    spec: JudgeSpec

    def judge(
        self, tasks: Sequence[JudgeTask], progress: ProgressCallback | None = None
    ) -> list[JudgeResult]:
        """Judge every task; results in task order. A failing task yields errors, not raises."""
        ...

"""What the self-test reports: one record per generated claim, and the shares per transform
and per risk level (every figure defined here, once)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pydantic import Field

from ..models import Record, Severity, Verdict

SEVERE = (Severity.CRITICAL, Severity.HIGH)


class SelftestItem(Record):
    """One generated claim and how the judge read it."""

    transform: str
    family: str
    preserves_truth: bool
    case_id: str
    risk_level: Severity | None = None
    doc_id: str
    source: str = Field(description="The source sentence the claim was generated from.")
    claim: str = Field(description="The generated claim.")
    critical_fact: bool = Field(
        default=False, description="The source sentence is a safety, legal or medical fact."
    )
    verdict: Verdict | None = Field(
        default=None, description="The answer's worst claim verdict; null when no claim."
    )
    severity: Severity | None = None
    queued: bool = Field(default=False, description="A claim of it would reach the review queue.")
    rationale: str = ""
    rule: str | None = Field(default=None, description="The judge rule that decided, if named.")
    score: float = 0.0

    @property
    def right(self) -> bool:
        """Preserving: judged SUPPORTED; changing: judged anything but SUPPORTED."""
        supported = self.verdict == Verdict.SUPPORTED
        return supported if self.preserves_truth else self.verdict is not None and not supported


class TransformScore(Record):
    """How the judge read one transform's claims."""

    transform: str
    family: str
    preserves_truth: bool
    description: str
    claims: int
    right: int
    share_right: float | None = Field(description="right / claims; null with no claim.")
    contradicted: int = 0
    false_alarms: int = Field(
        default=0, description="Truth-preserving claims judged anything but SUPPORTED."
    )
    severities: dict[str, int] = Field(default_factory=dict)


class RiskScore(Record):
    """The shares on the cases of one risk level."""

    risk_level: str
    preserving: int
    preserving_right: float | None
    changing: int
    changing_caught: float | None
    changing_severe: float | None = Field(
        description="Truth-changing claims given CRITICAL or HIGH, of all truth-changing."
    )
    changing_queued: float | None = Field(
        description="Truth-changing claims that reach the review queue, of all truth-changing."
    )


class TargetResult(Record):
    """One acceptance target of the judge on generated claims."""

    name: str
    goal: str
    observed: float | None
    claims: int
    met: bool | None = Field(description="Null when no claim was generated for it.")


class SelftestReport(Record):
    """The whole self-test: its inputs, every figure, the worst examples and every item."""

    source: str
    judge: str
    seed: int
    documents: int
    """Documents claims were drawn from."""
    sentences: int
    seconds: float
    transforms: list[TransformScore]
    risks: list[RiskScore]
    targets: list[TargetResult]
    worst: list[SelftestItem]
    items: list[SelftestItem]


def share(part: int, whole: int) -> float | None:
    """part / whole, or None for an empty whole (never 0/0 = 0)."""
    return part / whole if whole else None


def transform_score(
    name: str, family: str, preserves: bool, doc: str, items: Sequence[SelftestItem]
) -> TransformScore:
    """The figures of one transform's items."""
    right = sum(i.right for i in items)
    return TransformScore(
        transform=name,
        family=family,
        preserves_truth=preserves,
        description=doc,
        claims=len(items),
        right=right,
        share_right=share(right, len(items)),
        contradicted=sum(i.verdict == Verdict.CONTRADICTED for i in items),
        false_alarms=len(items) - right if preserves else 0,
        severities=dict(Counter(i.severity.value for i in items if i.severity)),
    )


def risk_score(level: str, items: Sequence[SelftestItem]) -> RiskScore:
    """The figures of the items judged on cases of one risk level."""
    keep = [i for i in items if i.preserves_truth]
    change = [i for i in items if not i.preserves_truth]
    return RiskScore(
        risk_level=level,
        preserving=len(keep),
        preserving_right=share(sum(i.right for i in keep), len(keep)),
        changing=len(change),
        changing_caught=share(sum(i.right for i in change), len(change)),
        changing_severe=share(sum(i.severity in SEVERE for i in change), len(change)),
        changing_queued=share(sum(i.queued for i in change), len(change)),
    )


def badness(item: SelftestItem) -> tuple[int, float]:
    """How bad a wrong reading is, for ordering the worst examples: a copy of the source
    judged CRITICAL first, then any false contradiction, then a change judged SUPPORTED with
    the most confidence."""
    if item.preserves_truth:
        rank = (
            {Severity.CRITICAL: 4, Severity.HIGH: 3}.get(item.severity, 2) if item.severity else 1
        )
        return (rank + (item.verdict == Verdict.CONTRADICTED), item.score)
    return (2 + (item.family == "polarity"), 1.0 - item.score)


def worst_items(items: Sequence[SelftestItem], limit: int = 12) -> list[SelftestItem]:
    """The wrong readings, worst first, at most two per transform."""
    wrong = sorted((i for i in items if not i.right), key=badness, reverse=True)
    per: Counter[str] = Counter()
    out = []
    for i in wrong:
        if per[i.transform] < 2:
            per[i.transform] += 1
            out.append(i)
    return out[:limit]

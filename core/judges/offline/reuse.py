"""A judgement made once and given again, with objects of its own.

A claim's verdict depends only on its text and its case, so the offline judge decides a
text once per case: for a later claim with the same words (in this answer or another
system's), and for an answer a later system repeated word for word. Each copy gets its own
citation and signal objects: no two claims share a mutable part, so a change to one claim's
record can never show in another's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...models import (
    Citation,
    Claim,
    ClaimJudgement,
    HallucinationType,
    RuleFinding,
    Severity,
    claim_id,
)
from ...models import Verdict as V
from ...models.claims import trusted_copy, trusted_finding, trusted_judgement
from .rules.table import RuleDecision
from .signals import copy_signals


@dataclass(frozen=True)
class ClaimDecision:
    """A verdict with its type and the reason of the rule that decided it, and the rule
    table's whole decision (every finding that fired) as provenance."""

    verdict: V
    type: HallucinationType | None
    reason: str
    rules: RuleDecision | None = None


@dataclass(frozen=True)
class Judged:
    """The verdict of one claim text in one case, reusable for every claim with that text."""

    decision: ClaimDecision
    severity: Severity | None
    citations: tuple[Citation, ...]
    score: float
    signals: dict[str, Any]
    findings: tuple[RuleFinding, ...] = ()

    def judgement(self, claim: Claim, again: bool = False) -> ClaimJudgement:
        """The judgement of `claim`. Its citation and signal objects are never shared: the
        first claim with this text takes this verdict's own, each later one (`again`) gets
        copies."""
        d = self.decision
        # Every field is already of its declared type, so validation would only cost time.
        return trusted_judgement(
            claim,
            verdict=d.verdict,
            hallucination_type=d.type,
            severity=self.severity,
            rationale=d.reason,
            score=self.score,
            deciding_rule=self.findings[0].rule if self.findings else None,
            findings=list(self.findings),
            model_changed=False,
            **(
                own_parts(self.citations, self.signals)
                if again
                else {"citations": list(self.citations), "signals": self.signals}
            ),
        )


def as_system(c: ClaimJudgement, system: str) -> ClaimJudgement:
    """The judgement of the same claim in another system's identical answer: its own id,
    and its own citation, signal and finding-list objects (findings are frozen)."""
    return trusted_copy(
        c,
        claim_id=claim_id(c.case_id, system, c.index),
        system=system,
        findings=list(c.findings),
        **own_parts(c.citations, c.signals),
    )


def own_parts(citations: Sequence[Citation], signals: dict[str, Any]) -> dict[str, Any]:
    """Copies of a judgement's mutable parts (its citations and signals), for a claim
    that must share none of them with another."""
    return {"citations": [trusted_copy(c) for c in citations], "signals": copy_signals(signals)}


def findings_of(decision: RuleDecision) -> tuple[RuleFinding, ...]:
    """The rule table's findings as the records a claim keeps (the deciding one first)."""
    return tuple(
        [
            trusted_finding(f.rule, f.verdict, f.type, f.reason, list(f.about))
            for f in decision.fired
        ]
    )

"""Reconcile the offline judge's rule verdicts with its learned claim scores.

The rules say *why* a claim looks wrong; the learned model (claim_model.py) says *how
likely* it is wrong, measured on human labels. The score decides (so verdict and score never
disagree: hallucinated iff score >= the calibration's ``score.decision_score``), the rules
keep naming the reason. A few rule signals are precise enough to stand on their own ("hard"
signals in the calibration file): their verdict stands even when the model doubts it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ...inputs.policy import SeverityRules
from ...models import (
    HALLUCINATED,
    SHOULD_ABSTAIN_TAG,
    Case,
    ClaimJudgement,
    HallucinationType,
    Severity,
    Verdict,
)
from ...models.claims import trusted_copy
from ...text.severity import assign_severity

#: Where a miss costs most the rules' doubt stands when it rests on a specific finding: the
#: model may not clear such a claim there.
_HIGH_RISK = frozenset({Severity.HIGH, Severity.CRITICAL})
#: The findings that make a rule's doubt specific (not just words missing from the evidence).
SPECIFIC_SIGNALS = (
    "numbers_unmatched",
    "number_conflict",
    "names_missing",
    "negation_mismatch",
    "hedge_mismatch",
    "citation_mismatch",
    "null_fields",
    "record_conflicts",
    "listing_conflicts",
    "values_invented",
)


def stands(claim: ClaimJudgement, case: Case, hard_signals: Sequence[str]) -> bool:
    """A rule verdict of hallucinated that the learned model may not clear: one of the
    precise `hard_signals` fired; or the case is HIGH/CRITICAL risk and a specific finding
    (a number, name, negation, hedge, attribution or record field) backs the doubt; or the
    case says the sources hold no answer (tagged should-abstain), so any claim the rules
    cannot find there is invented."""
    if claim.verdict not in HALLUCINATED:
        return False
    if SHOULD_ABSTAIN_TAG in case.tags:
        return True
    signals = hard_signals
    if case.risk_level in _HIGH_RISK:
        signals = (*hard_signals, *SPECIFIC_SIGNALS)
    return any(claim.signals.get(s) for s in signals)


def rescore_claims(
    claims: Sequence[ClaimJudgement],
    probs: Iterable[float],
    case: Case,
    rules: SeverityRules,
    decision_score: float,
    hard_signals: Sequence[str] = (),
) -> list[ClaimJudgement]:
    """Claims with the learned score, verdicts moved to the score's side of
    `decision_score` (hallucinated at or above it)."""
    out = []
    for c, p in zip(claims, probs, strict=True):
        p = float(p)
        bad = c.verdict in HALLUCINATED
        if stands(c, case, hard_signals):
            out.append(
                _with(c, max(p, decision_score), c.verdict, c.hallucination_type, c.rationale)
            )
        elif p >= decision_score and not bad:
            kind = (
                HallucinationType.DISTORTION
                if c.verdict == Verdict.PARTIALLY_SUPPORTED
                else HallucinationType.FABRICATION
            )
            why = f"Unsupported (learned score {p:.2f}); the rules said: {c.rationale}"
            out.append(_with(c, p, Verdict.UNSUPPORTED, kind, why, case, rules))
        elif p < decision_score and bad:
            why = f"Probably supported (learned score {p:.2f}); the rules said: {c.rationale}"
            out.append(
                _with(
                    c,
                    p,
                    Verdict.PARTIALLY_SUPPORTED,
                    HallucinationType.DISTORTION,
                    why,
                    case,
                    rules,
                )
            )
        else:
            out.append(_with(c, p, c.verdict, c.hallucination_type, c.rationale))
    return out


def _with(
    c: ClaimJudgement,
    p: float,
    verdict: Verdict,
    kind: HallucinationType | None,
    why: str,
    case: Case | None = None,
    rules: SeverityRules | None = None,
) -> ClaimJudgement:
    """A copy of `c` with a new score (and, when the verdict moved, new verdict/severity)."""
    update: dict = {"score": round(min(max(p, 0.0), 1.0), 6)}
    if verdict != c.verdict:
        severity = assign_severity(verdict, kind, c.text, case, rules) if case and rules else None
        update |= {
            "verdict": verdict,
            "hallucination_type": kind,
            "severity": severity,
            "rationale": why,
            "model_changed": True,
        }
        if verdict != Verdict.SUPPORTED and kind == HallucinationType.FABRICATION:
            update["citations"] = []
    return trusted_copy(c, **update)

"""Post-checks on a parsed LLM reply: halgate verifies what the model says it saw.

- Each claim is located as a span of the answer: exact (from where the previous claim
  ended, then anywhere, then case-insensitive), then fuzzy with rapidfuzz. A claim that
  cannot be found keeps its best alignment and is flagged ``span_match="unlocated"``.
- Each quote is located in the named source with ``locate_quote`` (any document if the named
  one lacks it); a SUPPORTED claim whose quotes are all unverified is flagged
  ``unverified_support``. Mismatches are recorded in ``signals`` and counted, never hidden.
- ``claim_count`` must equal the claims listed.
- Severity follows the suite's rules (``assign_severity``) unless the judge is told to trust
  the model's; every claim gets a score from its verdict and the model's confidence.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rapidfuzz import fuzz

from ...evidence.locate import quote_in_any
from ...inputs.policy import SeverityRules
from ...models import (
    Case,
    Citation,
    ClaimJudgement,
    Document,
    HallucinationType,
    Verdict,
    claim_id,
)
from ...text.severity import assign_severity
from .reply_schemas import AnswerOut, ClaimOut

FUZZY_SPAN_CUTOFF = 80.0
_WORD = re.compile(r"\S+")
# How likely each verdict makes a hallucination, before the model's confidence is applied.
_VERDICT_BADNESS = {
    Verdict.SUPPORTED: 0.0,
    Verdict.PARTIALLY_SUPPORTED: 0.5,
    Verdict.OUT_OF_SCOPE: 0.3,
    Verdict.UNSUPPORTED: 1.0,
    Verdict.CONTRADICTED: 1.0,
}
_DEFAULT_TYPE = {
    Verdict.UNSUPPORTED: HallucinationType.FABRICATION,
    Verdict.CONTRADICTED: HallucinationType.DISTORTION,
    Verdict.PARTIALLY_SUPPORTED: HallucinationType.DISTORTION,
}


@dataclass
class PostContext:
    """What the post-checks need besides the reply: the case, its sources, the rules."""

    case: Case
    documents: list[Document]
    rules: SeverityRules
    severity_from: str = "rules"
    evidence_windowed: bool = False
    checks: Counter[str] = field(default_factory=Counter)


def locate_span(answer: str, text: str, cursor: int = 0) -> tuple[int, int, str, float]:
    """(start, end, how, score) of a claim's text in the answer."""
    needle = text.strip()
    if not needle:
        return cursor, cursor, "unlocated", 0.0
    for origin in (cursor, 0):
        idx = answer.find(needle, origin)
        if idx >= 0:
            return idx, idx + len(needle), "exact", 100.0
    idx = answer.lower().find(needle.lower())
    if idx >= 0:
        return idx, idx + len(needle), "exact", 100.0
    start, end, score = fuzzy_span(answer, needle)
    how = "fuzzy" if score >= FUZZY_SPAN_CUTOFF and end > start else "unlocated"
    return start, end, how, round(score, 1)


def fuzzy_span(answer: str, needle: str) -> tuple[int, int, float]:
    """The word-aligned stretch of the answer most similar to the needle (rapidfuzz ratio).

    ``partial_ratio_alignment`` finds the region; word starts and ends around it are then
    tried as span bounds, so "The max dose is 200mg" maps onto "The maximum dose is 200 mg"
    rather than onto a window cut mid-word.
    """
    found = fuzz.partial_ratio_alignment(needle, answer)
    if found is None:  # rapidfuzz returns None only below a score_cutoff, and none is given
        raise RuntimeError("partial_ratio_alignment gave no alignment")
    slack = len(needle) // 2 + 1
    lo, hi = found.dest_start - slack, found.dest_end + slack
    words = [m.span() for m in _WORD.finditer(answer)]
    starts = [s for s, _ in words if lo <= s <= hi]
    ends = [e for _, e in words if lo <= e <= hi]
    best = (found.score * 0.9, found.dest_start, found.dest_end)
    for s in starts:
        for e in ends:
            if e > s and 0.5 * len(needle) <= e - s <= 1.5 * len(needle):
                score = fuzz.ratio(needle, answer[s:e])
                if score > best[0]:
                    best = (score, s, e)
    return best[1], best[2], best[0]


def claim_score(verdict: Verdict, confidence: float) -> float:
    """Hallucination score: the verdict's badness, pulled toward 0.5 by low confidence."""
    bad = _VERDICT_BADNESS[verdict]
    return round(confidence * bad + (1 - confidence) * (1 - bad), 4)


def check_citations(out: ClaimOut, ctx: PostContext) -> tuple[list[Citation], dict[str, Any]]:
    """Locate every quote; signals say how many were verified and if a doc id was wrong."""
    citations = [quote_in_any(ctx.documents, c.quote, c.doc_id) for c in out.citations]
    wrong_doc = [
        c.doc_id
        for c, given in zip(citations, out.citations, strict=True)
        if c.verified and c.doc_id != given.doc_id
    ]
    verified = sum(c.verified for c in citations)
    signals: dict[str, Any] = {"citations_verified": verified, "citations_given": len(citations)}
    if wrong_doc:
        signals["citation_doc_mismatch"] = wrong_doc
        ctx.checks["citation_doc_mismatch"] += 1
    ctx.checks["unverified_quotes"] += len(citations) - verified
    if out.verdict == Verdict.SUPPORTED and citations and not verified:
        signals["unverified_support"] = True
        ctx.checks["unverified_support"] += 1
    return citations, signals


def judge_claim(
    out: ClaimOut, system: str, index: int, answer: str, cursor: int, ctx: PostContext
) -> ClaimJudgement:
    """One parsed claim turned into a checked ClaimJudgement."""
    start, end, how, span_score = locate_span(answer, out.text, cursor)
    citations, signals = check_citations(out, ctx)
    signals.update(confidence=out.confidence, span_match=how, span_score=span_score)
    if how != "exact":
        signals["judge_claim_text"] = out.text
        ctx.checks[f"{how}_claim_spans"] += 1
    if ctx.evidence_windowed:
        signals["evidence_windowed"] = True
    htype = None if out.verdict == Verdict.SUPPORTED else out.hallucination_type
    if out.verdict in _DEFAULT_TYPE and htype is None:
        htype = _DEFAULT_TYPE[out.verdict]
        signals["type_defaulted"] = True
    severity = out.severity if out.verdict != Verdict.SUPPORTED else None
    if ctx.severity_from == "rules" or (severity is None and out.verdict != Verdict.SUPPORTED):
        if out.severity is not None:
            signals["model_severity"] = out.severity.value
        severity = assign_severity(out.verdict, htype, answer[start:end], ctx.case, ctx.rules)
    score = claim_score(out.verdict, out.confidence)
    if signals.get("unverified_support"):
        score = max(score, 0.5)  # support resting on an invented quote is not support
    return ClaimJudgement(
        claim_id=claim_id(ctx.case.case_id, system, index),
        case_id=ctx.case.case_id,
        system=system,
        index=index,
        text=answer[start:end],
        start=start,
        end=end,
        verdict=out.verdict,
        hallucination_type=htype,
        severity=severity,
        rationale=out.rationale.strip() or "(no rationale given)",
        citations=citations,
        score=score,
        signals=signals,
    )


def judge_answer(
    out: AnswerOut, system: str, answer: str, ctx: PostContext
) -> list[ClaimJudgement]:
    """All claims of one answer, checked; a claim_count mismatch is flagged on each claim."""
    claims: list[ClaimJudgement] = []
    cursor = 0
    for i, c in enumerate(out.claims):
        judged = judge_claim(c, system, i, answer, cursor, ctx)
        if judged.signals["span_match"] != "unlocated":
            cursor = judged.end
        claims.append(judged)
    if out.claim_count != len(out.claims):
        ctx.checks["claim_count_mismatch"] += 1
        for judged in claims:
            judged.signals["claim_count_stated"] = out.claim_count
    return claims

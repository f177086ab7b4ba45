"""Repeated judging (policy ``judge_samples`` = k > 1): samples 2..k of a request, merged.

A model may answer the same request differently on another try; judging each answer k
times measures how often (``scoring.judge_samples``). Sample s (2..k) of a request is the
same request with one line appended to its last message (``SAMPLE_NOTE``), keyed with the
sample number too, so every sample is cached on its own and sample 1 keeps today's request
and key: an existing cache still answers it, and a re-run asks nothing again. Samples 2..k
are asked one case per request (no batching, no Batch API): a batch's key is its cases',
and the extra samples are few next to the first.

Merging keeps the first sample's claims as the answer's claims (the report, the review
queue and the pinned judgements read them) and records beside them what the others said:
each claim's verdict in samples 2..k, matched by span, else by text (``sample_verdicts``),
and each other sample's claim counts (``sample_counts``). A sample that failed for an
answer is left out of both (that answer then counts fewer samples).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from ...models import ClaimJudgement, Verdict, count_verdicts
from ..protocol import JudgeResult
from .cache import cache_key
from .config import LLMSettings
from .requests import Request

SAMPLE_NOTE = "(Judgement sample {sample} of {samples}: an independent repeat, judge afresh.)"


def resampled(request: Request, sample: int, samples: int, settings: LLMSettings) -> Request:
    """Sample ``sample`` (2..k) of a request: the note appended, its own cache key."""
    messages = [dict(m) for m in request.messages]
    note = SAMPLE_NOTE.format(sample=sample, samples=samples)
    messages[-1]["content"] = f"{messages[-1]['content']}\n\n{note}"
    rendered = {"kind": request.kind, "messages": messages, "sample": sample}
    key = cache_key(request.prompt.version, settings.model, rendered)
    return dataclasses.replace(request, messages=messages, key=key)


def _normal(text: str) -> str:
    return " ".join(text.lower().split())


def matched_verdict(claim: ClaimJudgement, others: Sequence[ClaimJudgement]) -> Verdict | None:
    """The verdict another sample gave this claim: the claim at the same span, else the one
    with the same words; None when that sample has no such claim."""
    for other in others:
        if (other.start, other.end) == (claim.start, claim.end):
            return other.verdict
    words = _normal(claim.text)
    return next((o.verdict for o in others if _normal(o.text) == words), None)


def merge_samples(first: JudgeResult, others: Sequence[JudgeResult]) -> JudgeResult:
    """The first sample's result with what samples 2..k said of each answer (module doc)."""
    for system, claims in first.claims.items():
        judged = [o.claims[system] for o in others if system in o.claims]
        first.claims[system] = [
            c.model_copy(update={"sample_verdicts": [matched_verdict(c, j) for j in judged]})
            for c in claims
        ]
        first.sample_counts[system] = [count_verdicts(j) for j in judged]
    for other in others:
        for key, value in other.usage.items():
            first.usage[key] = first.usage.get(key, 0) + value
    return first


def by_case(results: Sequence[JudgeResult]) -> Mapping[str, JudgeResult]:
    """Results by case id."""
    return {r.case_id: r for r in results}

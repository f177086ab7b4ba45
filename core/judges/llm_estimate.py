"""Dry-run estimate: the calls, tokens and cost a run would take, with nothing called.

Requests are planned and rendered exactly as a real run would render them, so the estimate
counts the same calls (cached ones are shown apart: they cost nothing). Tokens are
estimated at ~4 characters per token; replies from the size of the answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..judge_cache import JudgeCache
from .llm_config import LLMSettings
from .llm_evidence import estimate_tokens
from .llm_requests import Request, completion_estimate


@dataclass(frozen=True)
class CostEstimate:
    """What a run would spend; cost is None when no prices are configured."""

    cases: int
    calls: int
    cached_calls: int
    prompt_tokens: int
    completion_tokens: int
    windowed_requests: int
    cost_usd: float | None
    model: str

    def text(self) -> str:
        """A few lines for the terminal."""
        per_case = self.calls / self.cases if self.cases else 0.0
        cost = (
            f"~${self.cost_usd:.4f}"
            if self.cost_usd is not None
            else "unknown (set [llm] prices = {prompt = ..., completion = ...} per 1k tokens)"
        )
        return (
            f"dry run: {self.cases} cases, {self.calls} call(s) to {self.model} "
            f"({per_case:.2f} per case), {self.cached_calls} answered from the cache\n"
            f"  ~{self.prompt_tokens} prompt tokens, ~{self.completion_tokens} completion tokens"
            f" (estimated at ~4 characters per token)\n"
            f"  evidence windowed in {self.windowed_requests} request(s)\n"
            f"  cost: {cost}\n"
        )


def estimate_requests(
    requests: Sequence[Request], cases: int, settings: LLMSettings, db: str | None
) -> CostEstimate:
    """Sum the planned requests that the cache cannot answer."""
    cache = JudgeCache(db) if db else None
    try:
        pending = [r for r in requests if cache is None or not cache.has(r.key)]
    finally:
        if cache is not None:
            cache.close()
    prompt = sum(estimate_tokens(m["content"]) for r in pending for m in r.messages)
    completion = sum(completion_estimate(r) for r in pending)
    prices = settings.price_per_1k()
    cost = None
    if prices is not None:
        cost = prompt / 1000 * prices[0] + completion / 1000 * prices[1]
    return CostEstimate(
        cases=cases,
        calls=len(pending),
        cached_calls=len(requests) - len(pending),
        prompt_tokens=prompt,
        completion_tokens=completion,
        windowed_requests=sum(r.windowed for r in pending),
        cost_usd=cost,
        model=settings.model,
    )

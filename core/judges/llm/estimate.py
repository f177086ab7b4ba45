"""Dry-run estimate: the calls, tokens and cost a run would take, with nothing called.

Requests are planned and rendered exactly as a real run would render them, so the estimate
counts the same calls (cached ones are shown apart: they cost nothing). Tokens are
estimated at ~4 characters per token; replies from the size of the answers. Small cases are
packed into batches exactly as a run would pack them, so batching shows in the calls; a
batch the cache answers is counted with the cached calls, never as a request to make.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .batch import Batch, batch_completion_estimate
from .cache import JudgeCache
from .config import LLMSettings
from .evidence import estimate_tokens
from .requests import Request, completion_estimate


@dataclass(frozen=True)
class CostEstimate:
    """What a run would spend; cost is None when no prices are configured."""

    cases: int
    calls: int
    cached_calls: int
    prompt_tokens: int
    completion_tokens: int
    windowed_requests: int
    batched_cases: int  # in the batches still to ask
    batches: int  # batched requests still to make
    cached_batched_cases: int
    cached_batches: int
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
        batches = ""
        if self.batches or not self.cached_batches:
            batches += (
                f"  {self.batched_cases} small case(s) packed into {self.batches} batched "
                "request(s)\n"
            )
        if self.cached_batches:
            batches += (
                f"  {self.cached_batched_cases} small case(s) in {self.cached_batches} batched "
                "request(s) answered from the cache\n"
            )
        return (
            f"dry run: {self.cases} cases, {self.calls} call(s) to {self.model} "
            f"({per_case:.2f} per case), {self.cached_calls} answered from the cache\n"
            f"  ~{self.prompt_tokens} prompt tokens, ~{self.completion_tokens} completion tokens"
            f" (estimated at ~4 characters per token)\n"
            f"  evidence windowed in {self.windowed_requests} request(s)\n"
            f"{batches}"
            f"  cost: {cost}\n"
        )


def estimate_requests(
    requests: Sequence[Request],
    cases: int,
    settings: LLMSettings,
    db: str | None,
    batches: Sequence[Batch] = (),
) -> CostEstimate:
    """Sum the planned calls that the cache cannot answer; a batch replaces its cases' requests.

    A cached batch counts as cached whole; the cases a cached batch could not settle (and
    that a real run would then ask alone) are not foreseen here.
    """
    batched = {id(r) for b in batches for r in b.requests}
    calls: list[Request | Batch] = [r for r in requests if id(r) not in batched]
    calls += list(batches)
    cache = JudgeCache(db) if db else None
    try:
        pending = [c for c in calls if cache is None or not cache.has(c.key)]
    finally:
        if cache is not None:
            cache.close()
    prompt = sum(estimate_tokens(m["content"]) for c in pending for m in c.messages)
    completion = sum(
        batch_completion_estimate(c) if isinstance(c, Batch) else completion_estimate(c)
        for c in pending
    )
    prices = settings.price_per_1k()
    cost = None
    if prices is not None:
        cost = prompt / 1000 * prices[0] + completion / 1000 * prices[1]
    to_ask = [b for b in pending if isinstance(b, Batch)]
    asked = sum(len(b.requests) for b in to_ask)
    return CostEstimate(
        cases=cases,
        calls=len(pending),
        cached_calls=len(calls) - len(pending),
        prompt_tokens=prompt,
        completion_tokens=completion,
        windowed_requests=sum(c.windowed for c in pending),
        batched_cases=asked,
        batches=len(to_ask),
        cached_batched_cases=len(batched) - asked,
        cached_batches=len(batches) - len(to_ask),
        cost_usd=cost,
        model=settings.model,
    )

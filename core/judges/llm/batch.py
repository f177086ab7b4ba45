"""Pack small cases into shared requests: fewer calls, the instructions sent once per batch.

A case is *small* when it needs exactly one claims request, its evidence is whole (not
windowed) and its block fits a batch beside the batch prompt. Small cases that share a prompt
are packed greedily, in suite order, up to ``batch_tokens`` prompt tokens and ``max_batch``
cases; anything else (big cases, windowed evidence, split answers, pairwise) goes alone as
before. A batch of one is sent as the plain single-case request, so its cache key is the
same as without batching.

Each case sits in its own ``<case id="C1">`` block (positional ids, as answers are A/B) with
its question, documents (sent once per case) and answers, all escaped as in a single request.
The batch prompt is a versioned file of its own (``compare-batch-v2``): its version is in the
judge id and in the batch's cache key. Packing depends only on the suite and the options, so
a re-run or a resumed run packs the same batches and finds them in the cache; editing one
case re-packs (and re-asks) at most the batches from that case on, in the same prompt group.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from ...errors import UsageError
from ...models import Mode
from .cache import cache_key
from .config import LLMSettings
from .evidence import estimate_tokens
from .prompts import Prompt, case_block, load_prompt
from .reply_schemas import ReplyFormat, ReplyShape, batch_format
from .requests import Request, completion_estimate

CLAIM_MODES = (Mode.COMPARE, Mode.GATE, Mode.CONSISTENCY)
# Reply tokens of a batch beyond its cases' own: the wrapper object and the case ids.
_BATCH_REPLY_OVERHEAD = 10


@dataclass
class Batch:
    """Several small cases' requests sent as one call, and the key of that call."""

    prompt: Prompt
    requests: list[Request]  # one per case, in block order
    labels: list[str]  # C1, C2, ... in block order
    weights: list[int]  # estimated tokens of each case's block: shares of the batch's usage
    messages: list[dict[str, str]]
    key: str
    windowed: bool = False  # never: windowed cases go alone (kept for the dry-run estimate)

    def expected(self) -> dict[str, ReplyShape]:
        """Case label -> the answer and document ids the reply admits for that case."""
        return {
            label: cast(ReplyShape, r.shape)  # batches hold claims requests only
            for label, r in zip(self.labels, self.requests, strict=True)
        }

    def reply_format(self) -> ReplyFormat:
        """The batch's reply model and schema: one entry per case, each its case's shape."""
        return batch_format(tuple(self.expected().items()))


def batch_prompt(prompt: Prompt, settings: LLMSettings) -> Prompt:
    """The batch prompt of a single-case prompt: ``compare-v2`` goes with ``compare-batch-v2``."""
    try:
        return load_prompt(f"{prompt.mode}-batch", settings.prompt_version)
    except UsageError as exc:
        raise UsageError(f"{exc}; add it, or turn batching off with --max-batch 1") from None


def batch_prompt_version(mode: Mode | None, settings: LLMSettings) -> str | None:
    """The batch prompt's version for the judge id, or None when nothing is batched."""
    if not settings.batching or (mode is not None and mode not in CLAIM_MODES):
        return None
    return (
        f"{mode.value}-batch-{settings.prompt_version}"
        if mode
        else f"batch-{settings.prompt_version}"
    )


def _render(
    prompt: Prompt, requests: Sequence[Request], labels: Sequence[str]
) -> list[dict[str, str]]:
    blocks = [case_block(label, r.fields) for label, r in zip(labels, requests, strict=True)]
    return prompt.render(case_ids=", ".join(labels), cases="\n\n".join(blocks))


def make_batch(prompt: Prompt, requests: Sequence[Request], settings: LLMSettings) -> Batch:
    """Render the batch request of several small cases and key it."""
    labels = [f"C{i + 1}" for i in range(len(requests))]
    messages = _render(prompt, requests, labels)
    key = cache_key(prompt.version, settings.model, {"kind": "claims_batch", "messages": messages})
    weights = [
        estimate_tokens(case_block(lab, r.fields)) for lab, r in zip(labels, requests, strict=True)
    ]
    return Batch(prompt, list(requests), labels, weights, messages, key)


def pack_batches(plans: Sequence[Sequence[Request]], settings: LLMSettings) -> list[Batch]:
    """Greedy packing of the small cases' requests, in order, per prompt; batches of 2+ only."""
    if not settings.batching:
        return []
    open_: dict[str, tuple[Prompt, int, list[Request]]] = {}  # prompt version -> open batch
    closed: list[tuple[Prompt, list[Request]]] = []
    for requests in plans:
        if len(requests) != 1 or requests[0].kind != "claims" or requests[0].windowed:
            continue
        req = requests[0]
        prompt = batch_prompt(req.prompt, settings)
        overhead = sum(estimate_tokens(m["content"]) for m in _render(prompt, [], []))
        size = estimate_tokens(case_block("C00", req.fields))
        if overhead + size > settings.batch_tokens:
            continue  # a big case: alone
        current = open_.get(prompt.version)
        if current and (
            current[1] + size > settings.batch_tokens or len(current[2]) >= settings.max_batch
        ):
            closed.append((current[0], current[2]))
            current = None
        if current is None:
            current = (prompt, overhead, [])
        open_[prompt.version] = (prompt, current[1] + size, [*current[2], req])
    closed.extend((p, reqs) for p, _, reqs in open_.values())
    return [make_batch(p, reqs, settings) for p, reqs in closed if len(reqs) > 1]


def batch_completion_estimate(batch: Batch) -> int:
    """Expected reply tokens of a batch, for dry runs: its cases' replies and the wrapper."""
    return _BATCH_REPLY_OVERHEAD + sum(completion_estimate(r) + 8 for r in batch.requests)

"""Ask batches: one call for several small cases, then every case settled on its own.

The batch is looked up in the cache by its own key, else asked once. Its reply is split by
case id; each case that validates is done. A case whose part is invalid is repaired *alone*
(its own single-case conversation, the invalid part as the model's turn and the error quoted,
at most ``max_repairs`` in all); a case missing from the reply, or every case of a batch whose
reply is unusable as a whole or failed in transport, is asked alone from scratch. So one bad
case never costs its neighbours anything, and only a case that still fails alone becomes a
harness error.

A batch's reply may also come from the Batch API (``Asker.prefetched``): it is used and
cached as a live one would be; a batch that failed there makes its cases harness errors.

Every reply that arrives is cached at once under the batch key, even an unusable one: the
cases it could not settle are then settled alone (and cached under their own keys), so an
unchanged re-run makes zero calls and a killed run resumes without repeating a finished call.

Usage of the batch call (calls, prompt and completion tokens, or ``cached``) is apportioned
to its cases in proportion to the size of each case's block, by largest remainder, so the
integers add up exactly to the batch's totals (a batch's one call lands on its largest case;
the others show 0 calls). Each batched case also counts ``batched: 1``; calls made for a case
alone are added to that case as usual.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Mapping, Sequence

from .ask import Asker, Outcome
from .batch import Batch
from .client import TransportError
from .parse import BatchReply, ParseFailure, parse_batch_reply
from .requests import Request


def apportion(total: Mapping[str, int], weights: Sequence[int]) -> list[Counter[str]]:
    """Split integer counters over weighted shares so every key's shares sum to its total."""
    shares: list[Counter[str]] = [Counter() for _ in weights]
    ws = list(weights) if sum(weights) > 0 else [1] * len(weights)
    for key, value in total.items():
        exact = [value * w / sum(ws) for w in ws]
        floors = [int(x) for x in exact]
        # Ties go to the larger weight, then to the earlier case: deterministic.
        order = sorted(range(len(ws)), key=lambda i: (-(exact[i] - floors[i]), -ws[i], i))
        for i in order[: value - sum(floors)]:
            floors[i] += 1
        for i, n in enumerate(floors):
            if n:
                shares[i][key] = n
    return shares


class Batcher:
    """Routes each planned request: alone through the Asker, or as its share of a batch."""

    def __init__(self, asker: Asker, batches: Sequence[Batch]) -> None:
        self.asker = asker
        self._home: dict[int, tuple[Batch, str]] = {
            id(r): (b, label)
            for b in batches
            for r, label in zip(b.requests, b.labels, strict=True)
        }
        self._running: dict[int, asyncio.Future[dict[str, Outcome]]] = {}

    async def ask(self, request: Request) -> Outcome:
        """The request's outcome; a batched one waits for (or starts) its batch."""
        home = self._home.get(id(request))
        if home is None:
            return await self.asker.ask(request)
        batch, label = home
        future = self._running.get(id(batch))
        if future is None:
            future = asyncio.ensure_future(self._settle(batch))
            self._running[id(batch)] = future
        return (await asyncio.shield(future))[label]

    async def aclose(self) -> None:
        """Cancel the batches still running (a run that stops early leaves none behind)."""
        for future in self._running.values():
            future.cancel()
        await asyncio.gather(*self._running.values(), return_exceptions=True)

    async def _reply(self, batch: Batch) -> tuple[str | None, Counter[str], str | None]:
        """The batch's reply text (None after a transport failure), the usage it cost, and
        why it failed in the Batch API (its cases are then harness errors, not asked)."""
        hit = self.asker.cache.get(batch.key)
        if hit is not None:
            return hit.response, Counter(cached=1), None
        pre = self.asker.prefetched.get(batch.key)
        if pre is not None:  # from the Batch API: cached like a live reply, even unusable
            if pre.text is None:
                return None, Counter(pre.usage), pre.error or "no reply in the batch output"
            self.asker.cache.put(
                batch.key, batch.prompt.version, self.asker.settings.model, pre.text, pre.usage
            )
            return pre.text, Counter(pre.usage), None
        try:
            reply = await self.asker.call(batch.messages, batch.reply_format())
        except TransportError:
            return None, Counter(), None  # each case is asked alone; a real outage fails there
        usage = Counter(
            calls=1, prompt_tokens=reply.prompt_tokens, completion_tokens=reply.completion_tokens
        )
        self.asker.cache.put(
            batch.key, batch.prompt.version, self.asker.settings.model, reply.text, dict(usage)
        )
        return reply.text, usage, None

    async def _settle(self, batch: Batch) -> dict[str, Outcome]:
        text, usage, failed = await self._reply(batch)
        parsed = parse_batch_reply(text, batch.expected()) if text is not None else None
        shares = apportion(usage, batch.weights)

        async def one(i: int, label: str, request: Request) -> tuple[str, Outcome]:
            if failed is not None:  # failed in the Batch API: harness errors, these cases only
                out = self.asker.failed(failed)
            else:
                out = await self._case(label, request, parsed)
            out.usage.update(shares[i])
            out.usage["batched"] += 1
            return label, out

        done = await asyncio.gather(
            *(
                one(i, lab, r)
                for i, (lab, r) in enumerate(zip(batch.labels, batch.requests, strict=True))
            )
        )
        return dict(done)

    async def _case(
        self, label: str, request: Request, parsed: BatchReply | ParseFailure | None
    ) -> Outcome:
        """One case of a batch: its valid part, else repaired or asked alone."""
        if not isinstance(parsed, BatchReply):
            return await self.asker.ask(request)
        mine = parsed.cases[label]
        if not isinstance(mine, ParseFailure):
            return Outcome(parsed=mine, raw=parsed.entries[label], usage=Counter())
        if label in parsed.entries:
            return await self.asker.ask_after(request, parsed.entries[label], mine)
        return await self.asker.ask(request)

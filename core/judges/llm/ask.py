"""Ask one planned request: cache first, then the model, repairing invalid replies.

A reply is used only once it validates; it is then committed to the cache at once (so a
killed run keeps it). An invalid reply is quoted back with the validation error, at most
``max_repairs`` times; after that, or after a transport failure, the outcome carries the
error and the raw replies, and the case becomes a harness error. No exception escapes.

Replies fetched before the live calls (the Batch API, ``halgate.judges.llm_batch``) come in
as ``Prefetched`` by request key, between the cache and the model: a valid one is used and
cached like a live reply, an invalid one is repaired live (the same repair turns), and a
request that failed in the batch is that case's harness error, with no live call.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from .cache import CachedResponse
from .client import ChatClient, Completion, TransportError
from .config import LLMSettings, redact
from .parse import ParseFailure, parse_reply, repair_message
from .prompts import Prompt
from .reply_schemas import ClaimsOutput, PairwiseOutput, ReplyFormat
from .requests import Request


class Cache(Protocol):
    """What the asker needs of a cache (JudgeCache or NoCache)."""

    def get(self, key: str) -> CachedResponse | None:
        """The stored response for a key, or None."""
        ...

    def put(
        self, key: str, prompt_version: str, model: str, response: str, usage: dict[str, int]
    ) -> None:
        """Store a response at once (committed before the next request finishes)."""
        ...


class PlannedCall(Protocol):
    """One call a run plans: a single request or a batch of small cases (same cache key)."""

    key: str
    messages: list[dict[str, str]]
    prompt: Prompt

    def reply_format(self) -> ReplyFormat:
        """The reply model and schema the call asks for."""
        ...


@dataclass(frozen=True)
class Prefetched:
    """A call's reply obtained before the live calls (the Batch API): its text, or why the
    call failed there, and what it cost."""

    text: str | None
    error: str | None = None
    usage: dict[str, int] = field(default_factory=dict)


class Prefetch(Protocol):
    """Obtains replies for a run's planned calls before any live call (the Batch API)."""

    async def prefetch(
        self, calls: Sequence[PlannedCall], cache: Cache, settings: LLMSettings
    ) -> Mapping[str, Prefetched]:
        """Replies by call key for the calls the cache cannot answer; raises when they are
        not ready yet (the run stops there, to be resumed)."""
        ...

    def finish(self) -> None:
        """The run used the replies: they need not be kept for it any longer."""
        ...


@dataclass
class Outcome:
    """The result of one request: a parsed reply, or an error with the raw replies."""

    parsed: ClaimsOutput | PairwiseOutput | None
    error: str | None = None
    raw: str = ""
    usage: Counter[str] = field(default_factory=Counter)


class Asker:
    """Shared state of a run's requests: client, cache and the concurrency limit."""

    def __init__(
        self,
        settings: LLMSettings,
        client: ChatClient,
        cache: Cache,
        prefetched: Mapping[str, Prefetched] | None = None,
    ) -> None:
        self.settings = settings
        self.client = client
        self.cache = cache
        self.prefetched: Mapping[str, Prefetched] = prefetched or {}
        self.limit = asyncio.Semaphore(settings.concurrency)
        self._secret = settings.api_key.get_secret_value() if settings.api_key else None

    def from_cache(self, request: Request) -> Outcome | None:
        """The cached, still-valid reply for a request, if any."""
        hit = self.cache.get(request.key)
        if hit is None:
            return None
        parsed = parse_reply(hit.response, request.kind, request.shape)
        if isinstance(parsed, ParseFailure):
            return None  # e.g. stored by an older schema: ask again
        return Outcome(parsed=parsed, raw=hit.response, usage=Counter(cached=1))

    async def ask(self, request: Request) -> Outcome:
        """Cache, else a prefetched reply, else the model with up to ``max_repairs`` repairs."""
        cached = self.from_cache(request)
        if cached is not None:
            return cached
        pre = self.prefetched.get(request.key)
        if pre is not None:
            return await self._use_prefetched(request, pre)
        return await self._ask_model(request)

    async def _use_prefetched(self, request: Request, pre: Prefetched) -> Outcome:
        """A Batch API reply: used (and cached) when valid, repaired live when not; a request
        that failed in the batch is the case's harness error, asked nowhere else."""
        usage = Counter(pre.usage)
        if pre.text is None:
            return self._failed(pre.error or "no reply in the batch output", [], usage)
        parsed = parse_reply(pre.text, request.kind, request.shape)
        if not isinstance(parsed, ParseFailure):
            self.cache.put(
                request.key, request.prompt.version, self.settings.model, pre.text, dict(usage)
            )
            return Outcome(parsed=parsed, raw=pre.text, usage=usage)
        turns = [
            {"role": "assistant", "content": pre.text},
            {"role": "user", "content": repair_message(parsed)},
        ]
        out = await self._ask_model(request, turns, [pre.text], parsed)
        out.usage.update(usage)
        return out

    async def ask_after(self, request: Request, reply: str, failure: ParseFailure) -> Outcome:
        """Repair a case alone whose part of a batched reply was invalid: cache, else model.

        The conversation continues as if the case had been asked alone and had answered
        ``reply``: the next turn quotes ``failure``, and that counts as the first repair.
        """
        cached = self.from_cache(request)
        if cached is not None:
            return cached
        turns = [
            {"role": "assistant", "content": reply},
            {"role": "user", "content": repair_message(failure)},
        ]
        return await self._ask_model(request, turns, [reply], failure)

    async def call(self, messages: list[dict[str, str]], fmt: ReplyFormat) -> Completion:
        """One HTTP call asking for ``fmt``; the concurrency limit covers only the wire time."""
        async with self.limit:
            return await self.client.complete(messages, fmt.name, fmt.schema)

    async def _ask_model(
        self,
        request: Request,
        repair_turns: list[dict[str, str]] | None = None,
        raws: list[str] | None = None,
        failure: ParseFailure | None = None,
    ) -> Outcome:
        usage: Counter[str] = Counter()
        messages = list(request.messages) + (repair_turns or [])
        raws = list(raws or [])
        failure = failure or ParseFailure("no reply")
        first = 1 if repair_turns else 0  # repairing a batch's reply: one repair is under way
        for attempt in range(first, self.settings.max_repairs + 1):
            try:
                reply = await self.call(messages, request.reply_format())
            except TransportError as exc:
                return self._failed(f"transport failure: {exc}", raws, usage)
            usage.update(
                calls=1,
                prompt_tokens=reply.prompt_tokens,
                completion_tokens=reply.completion_tokens,
            )
            parsed = parse_reply(reply.text, request.kind, request.shape)
            if not isinstance(parsed, ParseFailure):
                usage["repairs"] += attempt
                self.cache.put(
                    request.key,
                    request.prompt.version,
                    self.settings.model,
                    reply.text,
                    dict(usage),
                )
                return Outcome(parsed=parsed, raw=reply.text, usage=usage)
            failure = parsed
            raws.append(reply.text)
            messages += [
                {"role": "assistant", "content": reply.text},
                {"role": "user", "content": repair_message(parsed)},
            ]
        usage["repairs"] += self.settings.max_repairs
        msg = f"invalid judge output after {self.settings.max_repairs} repair(s): {failure.message}"
        return self._failed(msg, raws, usage)

    def failed(self, message: str) -> Outcome:
        """The outcome of a request that failed before any live call (message redacted)."""
        return self._failed(message, [], Counter())

    def _failed(self, message: str, raws: list[str], usage: Counter[str]) -> Outcome:
        raw = "\n----- next reply -----\n".join(raws)
        return Outcome(
            parsed=None,
            error=redact(message, self._secret),
            raw=redact(raw, self._secret),
            usage=usage,
        )

"""Ask one planned request: cache first, then the model, repairing invalid replies.

A reply is used only once it validates; it is then committed to the cache at once (so a
killed run keeps it). An invalid reply is quoted back with the validation error, at most
``max_repairs`` times; after that, or after a transport failure, the outcome carries the
error and the raw replies, and the case becomes a harness error. No exception escapes.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from typing import Protocol

from .cache import CachedResponse
from .client import ChatClient, Completion, TransportError
from .config import LLMSettings, redact
from .parse import ParseFailure, parse_reply, repair_message
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


@dataclass
class Outcome:
    """The result of one request: a parsed reply, or an error with the raw replies."""

    parsed: ClaimsOutput | PairwiseOutput | None
    error: str | None = None
    raw: str = ""
    usage: Counter[str] = field(default_factory=Counter)


class Asker:
    """Shared state of a run's requests: client, cache and the concurrency limit."""

    def __init__(self, settings: LLMSettings, client: ChatClient, cache: Cache) -> None:
        self.settings = settings
        self.client = client
        self.cache = cache
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
        """Cache, else the model with up to ``max_repairs`` repair turns."""
        cached = self.from_cache(request)
        if cached is not None:
            return cached
        return await self._ask_model(request)

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

    def _failed(self, message: str, raws: list[str], usage: Counter[str]) -> Outcome:
        raw = "\n----- next reply -----\n".join(raws)
        return Outcome(
            parsed=None,
            error=redact(message, self._secret),
            raw=redact(raw, self._secret),
            usage=usage,
        )

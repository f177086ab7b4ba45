"""Transport to an OpenAI-compatible chat endpoint: structured output, retries, clean errors.

Retries of transport faults (429 honouring Retry-After, 5xx, timeouts, dropped connections)
are the ``openai`` client's own bounded exponential backoff (``max_retries``); we do not
patch it. Structured output degrades gracefully: JSON-schema response format first, then
``json_object``, then plain text, remembered for the rest of the run once a server rejects
one. Every error message is redacted of the API key before it leaves this module.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...errors import UsageError
from .config import LLMSettings, public_url, redact

if TYPE_CHECKING:  # openai itself is imported when a client is made
    from openai.types.chat import ChatCompletionMessageParam

log = logging.getLogger("halgate.llm")

FORMATS = ("json_schema", "json_object", "text")


class TransportError(Exception):
    """The endpoint could not give an answer after the bounded retries (message redacted)."""


@dataclass(frozen=True)
class Completion:
    """One model reply and what it cost."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    finish_reason: str | None


class ChatClient:
    """A thin async wrapper over ``openai.AsyncOpenAI`` for JSON replies at temperature 0."""

    def __init__(self, settings: LLMSettings) -> None:
        try:
            import openai
        except ImportError:  # pragma: no cover - openai is a dependency, but be kind
            raise UsageError("the llm judge needs the openai package: pip install openai") from None
        self._openai = openai
        self._settings = settings
        self._secret = settings.api_key.get_secret_value() if settings.api_key else None
        self._client = openai.AsyncOpenAI(
            api_key=settings.key_value(),
            base_url=settings.base_url,
            timeout=settings.timeout,
            max_retries=settings.max_retries,
        )
        self._format = 0  # index into FORMATS; only ever moves right

    @property
    def response_format(self) -> str:
        """The structured-output mode currently in use."""
        return FORMATS[self._format]

    async def complete(
        self, messages: list[dict[str, str]], schema_name: str, schema: dict[str, Any]
    ) -> Completion:
        """One chat completion; falls back to a weaker response format if it is rejected."""
        while True:
            fmt = self._format
            try:
                return await self._create(messages, schema_name, schema, fmt)
            except (self._openai.BadRequestError, self._openai.UnprocessableEntityError) as exc:
                if fmt < len(FORMATS) - 1 and _about_format(exc):
                    # Another request may already have downgraded; never move back left.
                    self._format = max(self._format, fmt + 1)
                    log.info(
                        "server rejected %s response format; using %s",
                        FORMATS[fmt],
                        FORMATS[self._format],
                    )
                    continue
                raise TransportError(self._describe(exc)) from None
            except self._openai.APIError as exc:
                raise TransportError(self._describe(exc)) from None

    async def _create(
        self, messages: list[dict[str, str]], schema_name: str, schema: dict[str, Any], fmt: int
    ) -> Completion:
        extra: dict[str, Any] = {}
        if FORMATS[fmt] == "json_schema":
            extra["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": schema_name, "schema": schema, "strict": True},
            }
        elif FORMATS[fmt] == "json_object":
            extra["response_format"] = {"type": "json_object"}
        # Sent as extra_body: the same JSON on the wire, without the client walking the
        # whole schema through its type-driven transform on every request (a hot spot).
        raw = await self._client.chat.completions.with_raw_response.create(
            model=self._settings.model,
            messages=_message_params(messages),
            temperature=0,
            extra_body=extra,
        )
        return _completion(raw.text)

    def _describe(self, exc: Exception) -> str:
        """A one-line, key-free description of a failed request."""
        status = getattr(exc, "status_code", None)
        kind = type(exc).__name__
        where = public_url(self._settings.base_url) or "the OpenAI API"
        detail = str(getattr(exc, "message", "") or exc)[:300]
        head = f"{kind}" + (f" (HTTP {status})" if status else "")
        msg = f"{head} from {where} after {self._settings.max_retries} retries: {detail}"
        if status == 401:
            msg += " -- check the API key (OPENAI_API_KEY or --api-key)"
        return redact(msg, self._secret)

    async def aclose(self) -> None:
        """Close the HTTP connections."""
        await self._client.close()


def _message_params(messages: list[dict[str, str]]) -> list[ChatCompletionMessageParam]:
    """Our role/content messages as the SDK's typed message params (the same JSON)."""
    params: list[ChatCompletionMessageParam] = []
    for m in messages:
        role, content = m["role"], m["content"]
        if role == "system":
            params.append({"role": "system", "content": content})
        elif role == "user":
            params.append({"role": "user", "content": content})
        elif role == "assistant":
            params.append({"role": "assistant", "content": content})
        else:
            raise ValueError(f"unsupported chat message role {role!r}")
    return params


def _about_format(exc: Exception) -> bool:
    """Does a 400/422 complain about the response format (rather than, say, the context)?"""
    text = str(exc).lower()
    return any(word in text for word in ("response_format", "json", "schema", "format"))


def _completion(body: str) -> Completion:
    """The reply text and token usage from a chat.completion body.

    Read as plain JSON rather than through the SDK's typed models: we need four fields, and
    building the full typed object per request was a measurable share of a run's CPU.
    """
    try:
        data = json.loads(body)
        choice = data["choices"][0]
        usage = data.get("usage") or {}
        return Completion(
            text=(choice.get("message") or {}).get("content") or "",
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            finish_reason=choice.get("finish_reason"),
        )
    except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
        raise TransportError(
            f"the server sent a malformed completion ({type(exc).__name__})"
        ) from None

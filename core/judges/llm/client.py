"""Transport to an OpenAI-compatible chat endpoint: structured output, retries, clean errors.

Retries of transport faults (429 honouring Retry-After, 5xx, timeouts, dropped connections)
are the ``openai`` client's own bounded exponential backoff (``max_retries``); we do not
patch it. Structured output degrades gracefully: JSON-schema response format first, then
``json_object``, then plain text, remembered for the rest of the run once a server rejects
one. Every error message is redacted of the API key before it leaves this module.

An endpoint that cannot be used at all fails the run fast: until it has answered once, a
refused connection (also DNS and TLS failures), 401, 403 or 404 raises ``EndpointError`` in
every call, in flight or not, instead of each case retrying with backoff. Once it has
answered, every fault is per request again (retried, then that case's harness error).

A reply body is read in chunks and never past ``max_reply_bytes`` (decoded, so a compressed
one cannot blow up either): a longer one is dropped mid-stream and that case becomes a
harness error naming the limit, with memory bounded by the limit, not by the reply.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import socket
import ssl
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...errors import EndpointError, UsageError
from .config import LLMSettings, public_url, redact

if TYPE_CHECKING:  # openai itself is imported when a client is made
    from openai.types.chat import ChatCompletionMessageParam

log = logging.getLogger("halgate.llm")

FORMATS = ("json_schema", "json_object", "text")
NOT_ANSWERS = (401, 403, 404)  # statuses that do not show the endpoint usable
# httpx's errors for a connection that never came up (refused, DNS, TLS) or a bad URL scheme.
CONNECT_ERRORS = ("ConnectError", "UnsupportedProtocol")


class TransportError(Exception):
    """The endpoint could not give an answer after the bounded retries (message redacted)."""


class ReplyTooLarge(TransportError):
    """A reply body past ``max_reply_bytes``: reading stopped there (not retried)."""


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
        self._where = public_url(settings.base_url) or "https://api.openai.com/v1"
        self.answered = False  # has the endpoint ever answered (any status but 401/403/404)?
        self._flying = 0  # HTTP requests sent that have not yet got a response or failed
        self._suspect: str | None = None  # why it looks unusable, while it never answered
        self._fatal: EndpointError | None = None
        self._stop = asyncio.Event()  # set when the run gives up on the endpoint
        self._decided = asyncio.Event()  # set when it answered, or when the run gave up
        self._client = openai.AsyncOpenAI(
            api_key=settings.key_value(),
            base_url=settings.base_url,
            timeout=settings.timeout,
            max_retries=settings.max_retries,
            http_client=_watched_http_client(openai, self, settings.max_reply_bytes),
        )
        self._format = 0  # index into FORMATS; only ever moves right

    @property
    def response_format(self) -> str:
        """The structured-output mode currently in use."""
        return FORMATS[self._format]

    async def complete(
        self, messages: list[dict[str, str]], schema_name: str, schema: dict[str, Any]
    ) -> Completion:
        """One chat completion; falls back to a weaker response format if it is rejected.

        Raises ``EndpointError`` once the endpoint is known unusable (see the module doc).
        """
        if self._fatal is not None:
            raise EndpointError(str(self._fatal))
        if self.answered:
            return await self._complete(messages, schema_name, schema)
        # Not yet answered: race the call against a fatal failure of any other call.
        call = asyncio.ensure_future(self._complete(messages, schema_name, schema))
        stop = asyncio.ensure_future(self._stop.wait())
        try:
            await asyncio.wait((call, stop), return_when=asyncio.FIRST_COMPLETED)
        finally:
            stop.cancel()
            if not call.done():
                call.cancel()
        if call.done() and not call.cancelled():
            return call.result()
        await asyncio.gather(call, return_exceptions=True)
        raise EndpointError(str(self._fatal))  # only a fatal failure sets the stop event

    async def _complete(
        self, messages: list[dict[str, str]], schema_name: str, schema: dict[str, Any]
    ) -> Completion:
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
            except self._openai.APIStatusError as exc:
                if exc.status_code in NOT_ANSWERS and not self.answered:
                    # Unusable if no request still in flight answers: wait to know which.
                    self._suspect_unusable(self._refusal(exc.status_code, exc))
                    await self._decided.wait()
                    if self._fatal is not None:
                        raise EndpointError(str(self._fatal)) from None
                raise TransportError(self._describe(exc)) from None
            except self._openai.APIError as exc:
                if isinstance(exc.__cause__, ReplyTooLarge):  # older openai: retried, then wrapped
                    raise TransportError(str(exc.__cause__)) from None
                if self._fatal is not None:
                    raise EndpointError(str(self._fatal)) from None
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
        reply = read_completion(raw.text)
        # A server that echoes the key (an Authorization header, a config dump) must not get it
        # into the parsed claims, the report or the store: scrub the reply where it arrives.
        return dataclasses.replace(reply, text=redact(reply.text, self._secret))

    def sending(self) -> None:
        """An HTTP request goes out (called by the HTTP client)."""
        self._flying += 1

    def sent(self, status: int | None, failure: BaseException | None = None) -> None:
        """An HTTP request got a response (``status``) or none (``failure``)."""
        self._flying -= 1
        if failure is None and status not in NOT_ANSWERS and not self.answered:
            self.answered = True
            self._decided.set()
        elif failure is not None and any(
            c.__name__ in CONNECT_ERRORS for c in type(failure).__mro__
        ):
            self._suspect_unusable(
                f"cannot reach the LLM endpoint {self._where}: {_connect_cause(failure)[:200]} -- "
                "check --base-url (or OPENAI_BASE_URL, or base_url in halgate.toml) and that "
                "the server is up; nothing was judged"
            )
        self._suspect_unusable(None)

    def _suspect_unusable(self, why: str | None) -> None:
        """Note why the endpoint looks unusable (the first cause wins); give up on it once it
        never answered and no request is left in flight that could still answer."""
        if self.answered or self._fatal is not None:
            return
        self._suspect = self._suspect or why
        if self._suspect is not None and self._flying == 0:
            self._fatal = EndpointError(redact(self._suspect, self._secret))
            log.info("stopping the run: %s", self._fatal)
            self._stop.set()
            self._decided.set()

    def _refusal(self, status: int, exc: Exception) -> str:
        """The one line for a 401/403/404 before the endpoint ever answered."""
        at = f"at {self._where} (HTTP {status})"
        if status == 401:
            return f"authentication failed {at} -- check the API key (OPENAI_API_KEY or --api-key)"
        if status == 403:
            return f"permission denied {at} -- the API key may not use model {self._model!r}"
        detail = str(getattr(exc, "message", "") or exc)[:200]
        return redact(
            f"model {self._model!r} not found {at}: {detail} -- check --model (or HALGATE_MODEL, "
            "or model in halgate.toml) and that --base-url ends in the API root, such as /v1",
            self._secret,
        )

    @property
    def _model(self) -> str:
        return self._settings.model

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


def _watched_http_client(openai: Any, watcher: ChatClient, max_reply_bytes: int) -> Any:
    """openai's default HTTP client, telling ``watcher`` what became of every request and
    reading no reply body past ``max_reply_bytes``."""

    class Watched(openai.DefaultAsyncHttpxClient):
        async def send(self, request: Any, **kwargs: Any) -> Any:
            stream = kwargs.pop("stream", False)
            watcher.sending()
            try:
                # Always streamed, so the body is read here, under the cap, not whole by httpx.
                response = await super().send(request, stream=True, **kwargs)
                if not stream:
                    await _read_capped(response, max_reply_bytes)
            except ReplyTooLarge:
                watcher.sent(response.status_code)  # it answered, too much
                raise
            except BaseException as exc:  # cancelled too: it is no longer in flight
                watcher.sent(None, exc)
                raise
            watcher.sent(response.status_code)
            return response

    return Watched()


async def _read_capped(response: Any, limit: int) -> None:
    """Read a streamed response's decoded body into it, raising ``ReplyTooLarge`` (and closing
    the connection) as soon as it passes ``limit`` bytes; what was read is then dropped."""
    declared = response.headers.get("content-length", "")
    size = int(declared) if declared.isdigit() else 0
    chunks: list[bytes] = []
    try:
        if size > limit:
            raise ReplyTooLarge(_too_large(limit, f"the server announced {size} bytes"))
        size = 0
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > limit:
                raise ReplyTooLarge(_too_large(limit, f"stopped reading at {size} bytes"))
            chunks.append(chunk)
    except BaseException:
        await response.aclose()
        raise
    # Where httpx's own aread() keeps the body: .text and .content read it from there.
    response._content = b"".join(chunks)


def _too_large(limit: int, what: str) -> str:
    return (
        f"the reply is larger than max_reply_bytes = {limit} bytes ({limit / 2**20:g} MiB): "
        f"{what} -- raise max_reply_bytes in [llm] of halgate.toml if replies so large are "
        "expected"
    )


def _connect_cause(exc: BaseException) -> str:
    """Why a connection never came up, from the innermost cause httpx chained."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ConnectionRefusedError):
            return "connection refused"
        if isinstance(seen, socket.gaierror):
            return f"host name not resolved ({seen.strerror})"
        if isinstance(seen, ssl.SSLError):
            return f"TLS handshake failed ({seen.reason or seen})"
        seen = seen.__cause__ or seen.__context__
    return str(exc).strip() or type(exc).__name__


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


def read_completion(body: str) -> Completion:
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

"""The provider's files and batches endpoints, through the ``openai`` client's own APIs.

``client.files.create(file=..., purpose="batch")`` uploads the JSONL, ``client.batches.create(
input_file_id=..., endpoint="/v1/chat/completions", completion_window="24h")`` starts the
batch, ``client.batches.retrieve(id)`` polls it and
``client.files.with_streaming_response.content(id)`` downloads an output or error file, read
line by line. Transport faults are the client's own bounded retries; what is left becomes one
clear, key-free ``EndpointError`` naming the URL (exit 4: nothing was judged).
"""

from __future__ import annotations

from collections.abc import Awaitable, Container, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from ...errors import EndpointError, UsageError
from ..llm.ask import Prefetched
from ..llm.config import LLMSettings, public_url, redact
from .wire import COMPLETION_WINDOW, ENDPOINT, read_output

if TYPE_CHECKING:
    from openai.types import Batch

T = TypeVar("T")

CLIENT_ID_KEY = "halgate_client_id"
"""The batch metadata key carrying the id halgate recorded before it submitted the batch."""
MAX_LISTED = 1000
"""Batches read from the provider's list (newest first) when looking for an intended one."""


class BatchClient:
    """Upload, create, poll and download batches at one OpenAI-compatible endpoint."""

    def __init__(self, settings: LLMSettings) -> None:
        try:
            import openai
        except ImportError:  # pragma: no cover - openai is a dependency
            raise UsageError("the Batch API needs the openai package: pip install openai") from None
        self._openai = openai
        self._secret = settings.api_key.get_secret_value() if settings.api_key else None
        self.where = public_url(settings.base_url) or "https://api.openai.com/v1"
        self._client = openai.AsyncOpenAI(
            api_key=settings.key_value(),
            base_url=settings.base_url,
            timeout=settings.timeout,
            max_retries=settings.max_retries,
        )

    async def submit(self, content: bytes, filename: str, client_id: str) -> tuple[str, Batch]:
        """Upload one JSONL file (purpose ``batch``) and create its batch: (file id, batch).

        ``client_id`` goes with the batch as metadata, so ``find`` can tell it again.
        """
        upload = await self._call(
            self._client.files.create(
                file=(filename, content, "application/jsonl"), purpose="batch"
            ),
            "upload the batch file (POST /files)",
        )
        batch = await self._call(
            self._client.batches.create(
                input_file_id=upload.id,
                endpoint=ENDPOINT,
                completion_window=COMPLETION_WINDOW,
                metadata={"created_by": "halgate", CLIENT_ID_KEY: client_id},
            ),
            "create the batch (POST /batches)",
        )
        return upload.id, batch

    async def find(self, client_id: str) -> Batch | None:
        """The batch created with ``client_id`` in its metadata, among the newest
        ``MAX_LISTED`` at this endpoint, or None when the provider has none."""
        seen = 0
        with self._errors("list batches (GET /batches)"):
            async for batch in self._client.batches.list(limit=100):
                if (batch.metadata or {}).get(CLIENT_ID_KEY) == client_id:
                    return batch
                seen += 1
                if seen >= MAX_LISTED:
                    break
        return None

    async def retrieve(self, batch_id: str) -> Batch:
        """The batch as the provider sees it now (status, request counts, files)."""
        return await self._call(
            self._client.batches.retrieve(batch_id), f"poll batch {batch_id} (GET /batches)"
        )

    async def replies(
        self, file_id: str, secret: str | None, wanted: Container[str]
    ) -> dict[str, Prefetched]:
        """The replies to ``wanted`` requests in an output or error file, read line by line
        as it downloads (a 300 MB output file is never held whole)."""
        out: dict[str, Prefetched] = {}
        with self._errors(f"download file {file_id} (GET /files)"):
            streamed = self._client.files.with_streaming_response.content(file_id)
            async with streamed as response:
                async for line in response.iter_lines():
                    out |= read_output([line], secret, wanted)
        return out

    async def aclose(self) -> None:
        """Close the HTTP connections."""
        await self._client.close()

    async def _call(self, call: Awaitable[T], what: str) -> T:
        """Await one API call; a failure left after the retries is one EndpointError."""
        with self._errors(what):
            return await call
        raise AssertionError("unreachable")  # pragma: no cover - _errors re-raises

    @contextmanager
    def _errors(self, what: str) -> Iterator[None]:
        """A failure of the API left after the client's retries is one EndpointError."""
        try:
            yield
        except self._openai.APIStatusError as exc:
            raise EndpointError(self._status_message(exc, what)) from None
        except self._openai.APIError as exc:
            detail = str(getattr(exc, "message", "") or exc)[:200]
            raise EndpointError(
                redact(f"cannot {what} at {self.where}: {detail}", self._secret)
            ) from None

    def _status_message(self, exc: Any, what: str) -> str:
        status = exc.status_code
        detail = str(getattr(exc, "message", "") or exc)[:300]
        msg = f"cannot {what} at {self.where} (HTTP {status}): {detail}"
        if status == 401:
            msg = f"authentication failed at {self.where} (HTTP 401) -- check the API key"
        elif status in (404, 405):
            msg += " -- this server may not offer the Batch API: run without --batch-api"
        return redact(msg, self._secret)

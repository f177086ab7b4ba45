"""Judge a suite through the provider's Batch API: submit once, collect later, finish the run.

``BatchAPI`` is the LLM judge's ``prefetch``. Before any live call it takes every planned
call the cache cannot answer and

1. uses the replies of batches already collected (``jobs``: collected, not yet finished);
2. polls each pending batch holding one of those calls (``GET /v1/batches/{id}``): a
   completed one is downloaded (output and error files) and stored; a failed, expired or
   cancelled one keeps the replies it produced and stops the run with ``BatchFailed``;
3. submits the calls nobody holds yet as new batches (JSONL upload, ``POST /v1/batches``),
   recorded with the run's inputs, and stops the run with ``BatchPending`` (exit 5) while
   any batch is still being processed.

Otherwise it hands the replies to the judge, which validates and repairs them exactly as
live replies (repairs are live calls) and caches them, so an unchanged re-run makes no
call; ``finish`` then marks the batches done. A request that failed inside a batch is a
harness error of its own case only (the next run asks it again, in a new batch).
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ...errors import StoreError, UsageError
from ..llm.ask import Cache, PlannedCall, Prefetched
from ..llm.config import LLMSettings, public_url
from .errors import BatchFailed, BatchPending
from .jobs import INTENT_PREFIX, BatchJobs
from .remote import BatchClient
from .wire import COMPLETION_WINDOW, input_files

if TYPE_CHECKING:
    from openai.types import Batch

ENDED_BADLY = ("failed", "expired", "cancelled")


def request_counts(remote: Batch) -> dict[str, int]:
    """The provider's request counts of a batch (total, completed, failed)."""
    counts = remote.request_counts
    if counts is None:
        return {}
    return {"total": counts.total, "completed": counts.completed, "failed": counts.failed}


class BatchAPI:
    """The LLM judge's prefetch that sends every uncached call through the Batch API.

    ``run`` is what ``halgate batches collect`` needs to finish the run later (the command's
    inputs, never the API key); it is stored with each batch this run submits.
    """

    def __init__(self, run: Mapping[str, Any] | None = None) -> None:
        self.run = dict(run) if run is not None else None
        self._db: str | None = None
        self._used: set[str] = set()

    async def prefetch(
        self, calls: Sequence[PlannedCall], cache: Cache, settings: LLMSettings
    ) -> dict[str, Prefetched]:
        """Replies for every call the cache cannot answer, else raise (see the module doc)."""
        if not settings.db:
            raise UsageError("--batch-api needs the review database (--db)")
        self._db = settings.db
        needed = {c.key: c for c in calls if cache.get(c.key) is None}
        if not needed:
            return {}
        secret = settings.api_key.get_secret_value() if settings.api_key else None
        with BatchJobs(settings.db) as jobs:
            client = BatchClient(settings)
            here = public_url(settings.base_url)
            try:
                await _resolve_intents(jobs, client, here)
                waiting = await self._poll(jobs, client, set(needed), secret, here)
                have = jobs.replies(needed)
                held = set(jobs.pending_keys(here))
                missing = [c for k, c in needed.items() if k not in have and k not in held]
                submitted = await self._submit(jobs, client, missing, settings) if missing else []
            finally:
                await client.aclose()
        if waiting or submitted:
            raise BatchPending(
                _pending_text(submitted, waiting, client.where),
                [
                    *(b for b, _ in submitted),
                    *(b for b, _ in waiting),
                ],
            )
        self._used = {batch_id for batch_id, _ in have.values()}
        return {key: reply for key, (_, reply) in have.items()}

    def finish(self) -> None:
        """The run finished with the replies (now cached): mark their batches done."""
        if self._db and self._used:
            with BatchJobs(self._db) as jobs:
                jobs.mark_done(sorted(self._used))
        self._used = set()

    # ------------------------------------------------------------------ steps

    async def _poll(
        self,
        jobs: BatchJobs,
        client: BatchClient,
        needed: set[str],
        secret: str | None,
        here: str | None,
    ) -> list[tuple[str, str]]:
        """Poll the pending batches sent to this endpoint that hold needed calls; collect
        the finished ones (a batch sent elsewhere is never polled with this key).

        Returns (batch id, status line) of those still being processed.
        """
        holders = sorted({b for k, b in jobs.pending_keys(here).items() if k in needed})
        waiting: list[tuple[str, str]] = []
        failures: list[str] = []
        for batch_id in holders:
            remote = await client.retrieve(batch_id)
            counts = request_counts(remote)
            if remote.status == "completed":
                await _collect(jobs, client, batch_id, remote, secret, keep_errors=True)
                jobs.update(batch_id, state="collected", status=remote.status, counts=counts)
            elif remote.status in ENDED_BADLY:
                kept = await _collect(jobs, client, batch_id, remote, secret, keep_errors=False)
                why = _failure_text(batch_id, remote, kept, len(jobs.keys_of(batch_id)))
                jobs.update(
                    batch_id, state="failed", status=remote.status, counts=counts, error=why
                )
                failures.append(why)
            else:
                jobs.update(batch_id, status=remote.status, counts=counts)
                waiting.append((batch_id, status_line(remote.status, counts)))
        if failures:
            raise BatchFailed("; ".join(failures))
        return waiting

    async def _submit(
        self,
        jobs: BatchJobs,
        client: BatchClient,
        calls: Sequence[PlannedCall],
        settings: LLMSettings,
    ) -> list[tuple[str, str]]:
        """Upload the calls as JSONL and create their batches, each recorded before it is
        uploaded (an intent with a client id) and adopted under its id once created."""
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        base_url = public_url(settings.base_url)
        out = []
        for i, (keys, content) in enumerate(input_files(calls, settings.model)):
            client_id = f"halgate-{uuid.uuid4().hex}"
            with _recording("cannot record the batch before submitting it; nothing was submitted"):
                jobs.add_intent(client_id, settings.model, base_url, keys, self.run)
            name = f"halgate-{stamp}-{i + 1}.jsonl"
            file_id, batch = await client.submit(content, name, client_id)
            with _recording(
                f"batch {batch.id} was submitted (client id {client_id}) but its record could "
                "not be completed; the next run finds it at the provider and adopts it"
            ):
                jobs.adopt(client_id, batch.id, file_id, batch.status)
            out.append((batch.id, f"{len(keys)} request(s) submitted"))
        return out


@contextmanager
def _recording(why: str) -> Iterator[None]:
    """Around a batch record's write: a database that refuses it (full disk, locked past
    the busy timeout) is a StoreError saying ``why`` (exit 4), never a traceback."""
    try:
        yield
    except (sqlite3.Error, OSError, StoreError) as exc:
        raise StoreError(f"{why}: {exc}") from None


async def _resolve_intents(jobs: BatchJobs, client: BatchClient, here: str | None) -> None:
    """Adopt the batches a killed run created but never recorded; forget intents of which
    no batch came. Only intents sent to this endpoint are looked up, with its own key."""
    for job in jobs.intents():
        if job.base_url != here:
            continue
        client_id = job.batch_id.removeprefix(INTENT_PREFIX)
        found = await client.find(client_id)
        with _recording(f"cannot record what became of batch intent {client_id}"):
            if found is None:
                jobs.drop_intent(client_id)
            else:
                jobs.adopt(client_id, found.id, found.input_file_id, found.status)


async def _collect(
    jobs: BatchJobs,
    client: BatchClient,
    batch_id: str,
    remote: Batch,
    secret: str | None,
    keep_errors: bool,
) -> int:
    """Download a finished batch's replies into the database; returns how many arrived.

    ``keep_errors``: a completed batch stores its failed requests too (each becomes its
    case's harness error); a batch that ended badly keeps only the replies, so that the
    next run asks the rest again.
    """
    wanted = set(jobs.keys_of(batch_id))
    replies: dict[str, Prefetched] = {}
    if remote.output_file_id:
        replies |= await client.replies(remote.output_file_id, secret, wanted)
    if keep_errors and remote.error_file_id:
        errors = await client.replies(remote.error_file_id, secret, wanted)
        replies = errors | replies  # a request answered in the output file wins
    mine: dict[str, Prefetched] = {}
    for key in sorted(wanted):
        found = replies.get(key)
        if found is None and keep_errors:
            found = Prefetched(None, "the Batch API returned no line for this request")
        if found is not None and (keep_errors or found.text is not None):
            mine[key] = found
    jobs.store_replies(batch_id, mine)
    return sum(r.text is not None for r in mine.values())


def status_line(status: str | None, counts: Mapping[str, int]) -> str:
    """``in_progress: 3 of 12 request(s) done, 0 failed`` (what `halgate batches` shows)."""
    if not counts or not counts.get("total"):
        return status or "unknown"
    return (
        f"{status}: {counts.get('completed', 0)} of {counts['total']} request(s) done, "
        f"{counts.get('failed', 0)} failed"
    )


def _failure_text(batch_id: str, remote: Batch, kept: int, total: int) -> str:
    errors = (
        [e.message or e.code or "" for e in (remote.errors.data or [])] if remote.errors else []
    )
    said = f" ({'; '.join(e for e in errors[:3] if e)[:300]})" if any(errors) else ""
    return (
        f"batch {batch_id} {remote.status} at the provider{said}: {kept} of {total} request(s) "
        f"finished and are kept; run the same command again to submit the other "
        f"{total - kept} in a new batch, or run without --batch-api to ask them live"
    )


def _pending_text(
    submitted: Sequence[tuple[str, str]], waiting: Sequence[tuple[str, str]], where: str
) -> str:
    parts = [f"batch {b}: {what} to the Batch API at {where}" for b, what in submitted]
    parts += [f"batch {b} is {what}" for b, what in waiting]
    first = (submitted or waiting)[0][0]
    return (
        "; ".join(parts)
        + f" (completion window {COMPLETION_WINDOW}). Nothing is decided yet: run the same "
        f"command again once it has completed, or `halgate batches collect {first}`; "
        "`halgate batches` shows the progress"
    )

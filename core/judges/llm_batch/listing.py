"""What `halgate batches` shows and resumes: the recorded batches, polled for their status.

Listing polls every pending batch sent to the configured endpoint (``GET /v1/batches/{id}``;
a batch recorded at another endpoint is listed, not polled: the configured key goes to its
own endpoint only) and notes the status and request counts in the database; it
never collects: ``halgate batches collect ID`` (or re-running the run command) does that,
and finishes the run, from the inputs recorded with the batch.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import EndpointError, NotFoundError, UsageError
from ..llm.config import public_url, resolve_settings
from .api import request_counts, status_line
from .jobs import OPEN_STATES, BatchJob, BatchJobs
from .remote import BatchClient


@dataclass(frozen=True)
class BatchRow:
    """One batch to show: as recorded (and just polled), with a note when polling failed."""

    job: BatchJob
    progress: str
    note: str | None = None


def list_batches(
    db: Path | str,
    *,
    every: bool = False,
    poll: bool = True,
    base_url: str | None = None,
    api_key: str | None = None,
) -> list[BatchRow]:
    """The batches not yet finished by a run (every batch with ``every``), oldest first;
    pending ones polled first unless ``poll`` is False."""
    if not Path(db).exists():
        return []
    with BatchJobs(db) as jobs:
        shown = jobs.jobs(None if every else OPEN_STATES)
        notes: dict[str, str] = {}
        pending = [j for j in shown if j.state == "pending"]
        if poll and pending:
            notes = asyncio.run(_refresh(jobs, pending, base_url, api_key))
            shown = [jobs.get(j.batch_id) or j for j in shown]
    return [BatchRow(j, status_line(j.status, j.counts), notes.get(j.batch_id)) for j in shown]


OPENAI = "https://api.openai.com/v1"


async def _refresh(
    jobs: BatchJobs, pending: Sequence[BatchJob], base_url: str | None, api_key: str | None
) -> dict[str, str]:
    """Poll each pending batch sent to the configured endpoint; any other batch, and one
    that cannot be polled, gets a note. The configured key is only ever sent to the
    endpoint it is configured for, never to the URL a batch was recorded with."""
    settings = resolve_settings({"base_url": base_url, "api_key": api_key})
    here = public_url(settings.base_url)
    notes: dict[str, str] = {}
    client: BatchClient | None = None
    try:
        for job in pending:
            if job.base_url != here:
                notes[job.batch_id] = (
                    f"not polled: sent to {job.base_url or OPENAI}, but the key configured here "
                    f"is for {here or OPENAI} (give --base-url {job.base_url or OPENAI} and "
                    "its key)"
                )
                continue
            client = client or BatchClient(settings)
            try:
                remote = await client.retrieve(job.batch_id)
            except EndpointError as exc:
                notes[job.batch_id] = f"not polled: {exc}"
                continue
            jobs.update(job.batch_id, status=remote.status, counts=request_counts(remote))
    finally:
        if client is not None:
            await client.aclose()
    return notes


def batch_run_inputs(db: Path | str, batch_id: str) -> dict[str, Any]:
    """The inputs of the run that submitted a batch, to finish it (``batches collect``)."""
    if not Path(db).exists():
        raise NotFoundError(f"no batch {batch_id!r}: the database {db} does not exist")
    with BatchJobs(db) as jobs:
        job = jobs.get(batch_id)
        if job is None:
            known = ", ".join(j.batch_id for j in jobs.jobs(OPEN_STATES)) or "none"
            raise NotFoundError(f"no batch {batch_id!r} in {db}; open batches: {known}")
    if not job.run:
        raise UsageError(
            f"batch {batch_id} was not submitted by `halgate run`: run the command that "
            "submitted it again to collect it"
        )
    return dict(job.run)

"""What a Batch API run says when it cannot finish now: pending, or failed at the provider."""

from __future__ import annotations

from ...errors import HalgateError

EXIT_BATCH_PENDING = 5
"""Exit code of ``halgate run --batch-api`` (and ``halgate batches collect``) while a batch is
still being processed: nothing is decided yet; run the same command again later."""


class BatchPending(HalgateError):
    """The run's requests are in one or more batches the provider has not finished yet.

    Nothing was judged; the batches are recorded in the database, so running the same
    command again (or ``halgate batches collect ID``) resumes the run where it stopped.
    """

    def __init__(self, message: str, batch_ids: list[str]) -> None:
        self.batch_ids = batch_ids
        super().__init__(message)


class BatchFailed(HalgateError):
    """A batch ended without results for some requests (failed, expired or cancelled at the
    provider): the replies it did produce are kept, the rest are asked in a new batch by the
    next run (exit code 4: nothing was decided)."""

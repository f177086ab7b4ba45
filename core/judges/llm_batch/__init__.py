"""The Batch API for the LLM judge: suites that outgrow live calls, at about half the price.

``halgate run --judge llm --batch-api`` hands every call the cache cannot answer to
``BatchAPI`` (the LLM judge's prefetch): written as JSONL, uploaded, one batch created and
recorded in the database with the run's inputs; the run stops with ``BatchPending`` (exit
``EXIT_BATCH_PENDING``). Re-running the command, or ``halgate batches collect ID``,
downloads the output once the batch has completed, and the run finishes as a live one
would, every reply validated, repaired and cached. ``halgate batches`` lists the batches.
"""

from .api import BatchAPI, status_line
from .errors import EXIT_BATCH_PENDING, BatchFailed, BatchPending
from .jobs import BatchJob
from .listing import BatchRow, batch_run_inputs, list_batches

__all__ = [
    "EXIT_BATCH_PENDING",
    "BatchAPI",
    "BatchFailed",
    "BatchJob",
    "BatchPending",
    "BatchRow",
    "batch_run_inputs",
    "list_batches",
    "status_line",
]

"""The Batch API's state in the review database: each batch, its requests and their replies.

Kept beside the judge cache (``judge_cache``) in the review database (SQLite or PostgreSQL)
and, like it, part of the store's schema (migration 0009; ``open_connection`` migrates the
database before handing it over): ``llm_batches`` holds one row per batch submitted
(provider id, local state, the provider's last status and request counts, the run's inputs
so ``halgate batches collect`` can finish it), ``llm_batch_lines`` one row per request of a
batch, keyed by the request's cache key (its ``custom_id`` in the batch), with the reply or
the error once the output is collected.

Local states: ``submitting`` (the intent to submit, recorded before the upload under the
placeholder id ``intent:CLIENT_ID``; the client id travels to the provider as the batch's
metadata, so a run killed between the provider's reply and the record adopts its batch
instead of submitting it again), ``pending`` (submitted, not collected), ``collected``
(output stored, not yet used by a finished run), ``failed`` (failed, expired or cancelled
at the provider: only the replies it produced are stored) and ``done`` (a run finished with
its replies, which are now in the judge cache). Only ``collected`` and ``failed`` batches
lend replies to a run.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ...database import DbTarget, open_connection
from ..llm.ask import Prefetched
from ..llm.config import redact_known

_BATCH_COLUMNS = (
    "input_file_id",
    "state",
    "status",
    "model",
    "base_url",
    "n_requests",
    "counts",
    "run",
    "error",
    "created_at",
    "updated_at",
)
OPEN_STATES = ("submitting", "pending", "collected", "failed")
INTENT_PREFIX = "intent:"
"""States `halgate batches` lists by default: not yet finished by a run."""


@dataclass(frozen=True)
class BatchJob:
    """One submitted batch as the database knows it."""

    batch_id: str
    state: str
    status: str | None
    model: str | None
    base_url: str | None
    n_requests: int
    counts: dict[str, int] = field(default_factory=dict)
    run: dict[str, Any] | None = None
    error: str | None = None
    created_at: str | None = None
    updated_at: str | None = None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class BatchJobs:
    """Read and write the batches of one database file; one connection, one thread."""

    def __init__(self, path: Path | str | DbTarget, timeout: float = 30.0) -> None:
        self._db = open_connection(path, timeout)

    def close(self) -> None:
        """Close the connection."""
        self._db.close()

    def __enter__(self) -> BatchJobs:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ writing

    def add(
        self,
        batch_id: str,
        input_file_id: str,
        status: str | None,
        model: str,
        base_url: str | None,
        keys: Iterable[str],
        run: Mapping[str, Any] | None,
        state: str = "pending",
    ) -> None:
        """Record a batch just created, with the keys of its requests (one transaction)."""
        keys = list(keys)
        now = _now()
        with self._db:
            self._db.execute(
                "INSERT INTO llm_batches (batch_id, input_file_id, state, status, "
                "model, base_url, n_requests, counts, run, error, created_at, updated_at) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (batch_id) DO UPDATE SET "
                + ", ".join(f"{c} = excluded.{c}" for c in _BATCH_COLUMNS),
                (
                    batch_id,
                    input_file_id,
                    state,
                    status,
                    model,
                    base_url,
                    len(keys),
                    "{}",
                    json.dumps(dict(run), sort_keys=True) if run is not None else None,
                    None,
                    now,
                    now,
                ),
            )
            self._db.executemany(
                "INSERT INTO llm_batch_lines (batch_id, key) VALUES (?, ?) ON CONFLICT DO NOTHING",
                [(batch_id, k) for k in keys],
            )

    def add_intent(
        self,
        client_id: str,
        model: str,
        base_url: str | None,
        keys: Iterable[str],
        run: Mapping[str, Any] | None,
    ) -> None:
        """Record that a batch is about to be submitted, before anything is uploaded."""
        self.add(INTENT_PREFIX + client_id, "", None, model, base_url, keys, run, "submitting")

    def adopt(self, client_id: str, batch_id: str, input_file_id: str | None, status: str) -> None:
        """The provider created the intended batch: record it under its own id (pending)."""
        intent = INTENT_PREFIX + client_id
        with self._db:
            self._db.execute(
                "UPDATE llm_batches SET batch_id = ?, input_file_id = ?, state = 'pending', "
                "status = ?, updated_at = ? WHERE batch_id = ?",
                (batch_id, input_file_id, status, _now(), intent),
            )
            self._db.execute(
                "UPDATE llm_batch_lines SET batch_id = ? WHERE batch_id = ?", (batch_id, intent)
            )

    def drop_intent(self, client_id: str) -> None:
        """No batch came of an intent (the provider has none with its client id)."""
        intent = INTENT_PREFIX + client_id
        with self._db:
            self._db.execute("DELETE FROM llm_batch_lines WHERE batch_id = ?", (intent,))
            self._db.execute("DELETE FROM llm_batches WHERE batch_id = ?", (intent,))

    def intents(self) -> list[BatchJob]:
        """Batches recorded as about to be submitted, not yet known to have been."""
        return self.jobs(["submitting"])

    def update(
        self,
        batch_id: str,
        *,
        state: str | None = None,
        status: str | None = None,
        counts: Mapping[str, int] | None = None,
        error: str | None = None,
    ) -> None:
        """Note what the provider says of a batch (and the local state it leads to)."""
        sets = {"updated_at": _now()}
        if state is not None:
            sets["state"] = state
        if status is not None:
            sets["status"] = status
        if counts is not None:
            sets["counts"] = json.dumps(dict(counts), sort_keys=True)
        if error is not None:
            sets["error"] = error
        cols = ", ".join(f"{k} = ?" for k in sets)
        with self._db:
            self._db.execute(
                f"UPDATE llm_batches SET {cols} WHERE batch_id = ?", (*sets.values(), batch_id)
            )

    def store_replies(self, batch_id: str, replies: Mapping[str, Prefetched]) -> None:
        """Store the collected replies (or errors) of a batch's requests, scrubbed of keys."""
        rows = [
            (
                redact_known(r.text) if r.text is not None else None,
                redact_known(r.error) if r.error is not None else None,
                json.dumps(r.usage, sort_keys=True),
                batch_id,
                key,
            )
            for key, r in replies.items()
        ]
        with self._db:
            self._db.executemany(
                "UPDATE llm_batch_lines SET response = ?, error = ?, usage = ? "
                "WHERE batch_id = ? AND key = ?",
                rows,
            )

    def mark_done(self, batch_ids: Iterable[str]) -> None:
        """A run finished with these batches' replies (now in the judge cache)."""
        for batch_id in batch_ids:
            self.update(batch_id, state="done")

    # ------------------------------------------------------------------ reading

    def get(self, batch_id: str) -> BatchJob | None:
        """One batch by its provider id, or None."""
        row = self._db.execute(
            f"SELECT {_COLUMNS} FROM llm_batches WHERE batch_id = ?", (batch_id,)
        ).fetchone()
        return _job(row) if row else None

    def jobs(self, states: Iterable[str] | None = None) -> list[BatchJob]:
        """Batches in the given states (all when None), oldest first."""
        rows = self._db.execute(
            f"SELECT {_COLUMNS} FROM llm_batches ORDER BY created_at, batch_id"
        ).fetchall()
        wanted = set(states) if states is not None else None
        return [_job(r) for r in rows if wanted is None or r[1] in wanted]

    def pending_keys(self, base_url: str | None | object = ...) -> dict[str, str]:
        """Request key -> id of the pending batch that holds it; only the batches sent to
        ``base_url`` (a public URL, None for OpenAI's) when it is given."""
        rows = self._db.execute(
            "SELECT l.key, l.batch_id, b.base_url FROM llm_batch_lines l JOIN llm_batches b "
            "ON b.batch_id = l.batch_id WHERE b.state = 'pending'"
        )
        return {
            key: batch_id
            for key, batch_id, url in rows.fetchall()
            if base_url is ... or url == base_url
        }

    def replies(self, keys: Iterable[str]) -> dict[str, tuple[str, Prefetched]]:
        """Collected replies for ``keys``: key -> (batch id, reply), from batches that lend
        them (collected or failed, not yet done); the newest batch wins."""
        wanted = set(keys)
        rows = self._db.execute(
            "SELECT l.key, l.batch_id, l.response, l.error, l.usage FROM llm_batch_lines l "
            "JOIN llm_batches b ON b.batch_id = l.batch_id "
            "WHERE b.state IN ('collected', 'failed') "
            "AND (l.response IS NOT NULL OR l.error IS NOT NULL) "
            "ORDER BY b.created_at, b.batch_id"
        )
        out: dict[str, tuple[str, Prefetched]] = {}
        for key, batch_id, response, error, usage in rows:
            if key in wanted:
                out[key] = (batch_id, Prefetched(response, error, json.loads(usage or "{}")))
        return out

    def keys_of(self, batch_id: str) -> list[str]:
        """The request keys of one batch."""
        rows = self._db.execute("SELECT key FROM llm_batch_lines WHERE batch_id = ?", (batch_id,))
        return [r[0] for r in rows]


_COLUMNS = (
    "batch_id, state, status, model, base_url, n_requests, counts, run, error, "
    "created_at, updated_at"
)


def _job(row: tuple[Any, ...]) -> BatchJob:
    return BatchJob(
        batch_id=row[0],
        state=row[1],
        status=row[2],
        model=row[3],
        base_url=row[4],
        n_requests=int(row[5] or 0),
        counts=json.loads(row[6] or "{}"),
        run=json.loads(row[7]) if row[7] else None,
        error=row[8],
        created_at=row[9],
        updated_at=row[10],
    )

"""Cache of LLM judge responses in the review database, so re-runs are free and killed runs
resume.

The table ``judge_cache`` lives in the store's database (default ``halgate.db``, or a
PostgreSQL store) and belongs to the store's schema: ``open_connection`` brings the database
up to date before the cache uses it, and this module never creates a table. Every
response is committed the moment it arrives: a run killed midway loses at most the requests
in flight. The key is a sha256 over (prompt version, model, rendered input), so a new prompt
version or model never reuses an old answer. Only validated responses are stored; a case
that ended in a harness error is asked again next time. A stored response is first scrubbed
of the API key (a server may echo the ``Authorization`` header into its reply): ``secret``,
and every key the process's LLM settings were given (``redact_known``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ...database import DbTarget, open_connection
from .config import redact, redact_known


def cache_key(prompt_version: str, model: str, rendered: Any) -> str:
    """sha256 of (prompt version, model, rendered input) in a canonical JSON form."""
    blob = json.dumps([prompt_version, model, rendered], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class CachedResponse:
    """A stored response and the usage it cost when it was first obtained."""

    response: str
    usage: dict[str, int]


class JudgeCache:
    """Get and put judge responses; one connection, used from one thread."""

    def __init__(
        self, path: Path | str | DbTarget, timeout: float = 30.0, secret: str | None = None
    ) -> None:
        self._secret = secret
        self._db = open_connection(path, timeout)

    def get(self, key: str) -> CachedResponse | None:
        """The stored response for a key, or None."""
        row = self._db.execute(
            "SELECT response, usage FROM judge_cache WHERE key = ?", (key,)
        ).fetchone()
        if row is None:
            return None
        return CachedResponse(response=row[0], usage=json.loads(row[1] or "{}"))

    def put(
        self, key: str, prompt_version: str, model: str, response: str, usage: dict[str, int]
    ) -> None:
        """Store (or replace) a response, scrubbed of the API key, and commit at once, so a
        kill cannot lose it."""
        response = redact_known(redact(response, self._secret))
        self._db.execute(
            "INSERT INTO judge_cache "
            "(key, prompt_version, model, response, usage, created_at) VALUES (?,?,?,?,?,?) "
            "ON CONFLICT (key) DO UPDATE SET prompt_version = excluded.prompt_version, "
            "model = excluded.model, response = excluded.response, usage = excluded.usage, "
            "created_at = excluded.created_at",
            (
                key,
                prompt_version,
                model,
                response,
                json.dumps(usage, sort_keys=True),
                datetime.now(UTC).isoformat(timespec="seconds"),
            ),
        )
        self._db.commit()

    def has(self, key: str) -> bool:
        """True when a response for the key is stored (used by dry runs)."""
        return (
            self._db.execute("SELECT 1 FROM judge_cache WHERE key = ?", (key,)).fetchone()
            is not None
        )

    def keys(self) -> set[str]:
        """Every stored key (for tests and diagnostics)."""
        return {r[0] for r in self._db.execute("SELECT key FROM judge_cache")}

    def close(self) -> None:
        """Close the connection."""
        self._db.close()


class NoCache:
    """Stands in for JudgeCache when caching is off: never hits, stores nothing."""

    def get(self, key: str) -> CachedResponse | None:
        """Always a miss."""
        return None

    def put(self, *args: Any, **kwargs: Any) -> None:
        """Discard."""

    def has(self, key: str) -> bool:
        """Never stored."""
        return False

    def close(self) -> None:
        """Nothing to close."""

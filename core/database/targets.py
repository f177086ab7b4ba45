"""Where the review database is: a SQLite file (a path or ``sqlite:///…``) or a PostgreSQL
server (``postgresql://…``), and how to name it without its password.

``--db``, ``HALGATE_DB`` and the dashboard's setting all go through ``parse_target``. A URL's
password (and a ``password=`` query parameter) is a credential like an API key: every text
halgate prints, logs or stores about a database goes through ``mask_url`` / ``mask_text``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

from ..errors import UsageError

SERVER_SCHEMES = ("postgresql", "postgres", "postgresql+psycopg")
_URL = re.compile(r"\b(postgres(?:ql)?(?:\+\w+)?://)([^@/\s'\"]*)@")
_QUERY_SECRET = re.compile(r"(?i)\b(password|passfile|sslpassword)=([^&\s'\"]*)")


@dataclass(frozen=True)
class DbTarget:
    """A parsed database location: exactly one of ``path`` (SQLite) and ``url`` (server)."""

    engine: str
    path: Path | None = None
    url: str | None = None

    @property
    def is_server(self) -> bool:
        """True for PostgreSQL (a server several machines share)."""
        return self.engine == "postgresql"

    @property
    def display(self) -> str:
        """How messages name it: the file path, or the URL without its password."""
        return str(self.path) if self.path is not None else mask_url(self.url or "")

    def __str__(self) -> str:
        return self.display


def parse_target(value: str | Path | DbTarget) -> DbTarget:
    """A path, ``sqlite:///path`` (``sqlite:////abs/path``) or ``postgresql://…``."""
    if isinstance(value, DbTarget):
        return value
    if isinstance(value, Path):
        return DbTarget("sqlite", path=value)
    text = value.strip()
    scheme = text.split("://", 1)[0].lower() if "://" in text else ""
    if scheme in SERVER_SCHEMES:
        return DbTarget("postgresql", url=_libpq_url(text))
    if scheme == "sqlite":
        rest = text.split("://", 1)[1]
        if not rest.startswith("/") or rest == "/":
            raise UsageError(f"--db {mask_url(text)}: write sqlite:///PATH (three slashes)")
        return DbTarget("sqlite", path=Path(unquote(rest[1:])))
    if scheme:
        raise UsageError(
            f"--db {mask_url(text)}: unknown database scheme {scheme!r}; give a file path, "
            "sqlite:///PATH or postgresql://USER@HOST/DBNAME"
        )
    return DbTarget("sqlite", path=Path(text))


def is_server_url(value: str | Path) -> bool:
    """True when ``value`` names a PostgreSQL server rather than a SQLite file."""
    return not isinstance(value, Path) and parse_target(value).is_server


def _libpq_url(text: str) -> str:
    """The URL as libpq takes it (``postgresql://``; SQLAlchemy's ``+psycopg`` dropped)."""
    scheme, rest = text.split("://", 1)
    if "+" in scheme or scheme.lower() == "postgres":
        scheme = "postgresql"
    return f"{scheme}://{rest}"


def mask_url(url: str) -> str:
    """The URL with its password replaced by ``***`` (user and host stay, to tell which)."""
    return mask_text(url)


def mask_text(text: str) -> str:
    """Any text with the password of every database URL in it masked (error messages quote
    the URL they could not open; a driver's message may too)."""

    def userinfo(m: re.Match[str]) -> str:
        user = m.group(2)
        if ":" in user:
            user = user.split(":", 1)[0] + ":***"
        return f"{m.group(1)}{user}@"

    return _QUERY_SECRET.sub(lambda m: f"{m.group(1)}=***", _URL.sub(userinfo, text))


def target_exists(target: DbTarget) -> bool:
    """A SQLite file is there; a server is taken to be (connecting says otherwise)."""
    return target.is_server or (target.path is not None and target.path.exists())

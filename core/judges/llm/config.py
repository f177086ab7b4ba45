"""Settings of the LLM judge: options, then environment, then config file, then defaults.

Config files: ``halgate.toml`` in the working directory, else
``~/.config/halgate/config.toml``; section ``[llm]``, e.g.::

    [llm]
    model = "gpt-4o-mini"
    base_url = "http://localhost:8000/v1"
    concurrency = 8
    context_budget = 12000          # tokens per request the judge may fill
    batch_tokens = 3000             # pack small cases into one request up to this (0: off)
    max_batch = 8                   # at most this many cases per batched request (0/1: off)
    prices = { prompt = 0.00015, completion = 0.0006 }   # USD per 1k tokens
    api_key_file = "~/.config/halgate/openai.key"         # the key, read at start
    max_reply_bytes = 4194304       # a longer reply body is cut off: that case's harness error

The API key is held as a ``SecretStr``: it prints as ``**********`` and is never put into
the judge spec, so it cannot reach a report, the database or a log line. Every key a
settings object is given is also remembered for the process (``redact_known``), so what the
response cache stores is scrubbed of it even when a server echoes it back.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, model_validator

from ...errors import UsageError
from ...inputs.server_config import config_section

DEFAULT_MODEL = "gpt-4o-mini"
# A judge's reply is kilobytes; this bounds the memory one broken or hostile server can take.
MAX_REPLY_BYTES = 4 * 2**20
NO_KEY = "no-key"  # local servers (vLLM, Ollama, the test fake) accept any key
_KNOWN_SECRETS: set[str] = set()  # every API key this process's settings were given


class LLMSettings(BaseModel):
    """Everything the LLM judge needs to reach a model and spend within bounds."""

    model_config = ConfigDict(extra="forbid")

    model: str = DEFAULT_MODEL
    base_url: str | None = None
    api_key: SecretStr | None = None
    concurrency: int = Field(default=8, ge=1, le=512)
    context_budget: int = Field(default=12000, ge=500, description="Prompt tokens per request.")
    batch_tokens: int = Field(
        default=3000, ge=0, description="Prompt tokens a batch of small cases may fill (0: off)."
    )
    max_batch: int = Field(default=8, ge=0, le=64, description="Cases per batch (0 or 1: off).")
    timeout: float = Field(default=120.0, gt=0)
    max_retries: int = Field(default=4, ge=0, le=20)
    max_repairs: int = Field(default=2, ge=0, le=5)
    max_reply_bytes: int = Field(
        default=MAX_REPLY_BYTES,
        ge=1024,
        description="Longest reply body read (decoded); past it the case is a harness error.",
    )
    prompt_version: str = "v2"
    db: str | None = "halgate.db"
    prices: dict[str, Any] = Field(default_factory=dict)
    severity_from: str = Field(default="rules", pattern="^(rules|model)$")
    pairwise_min_confidence: float = Field(default=0.6, ge=0, le=1)

    @model_validator(mode="after")
    def _remember_key(self) -> LLMSettings:
        if self.api_key is not None and self.api_key.get_secret_value() not in ("", NO_KEY):
            _KNOWN_SECRETS.add(self.api_key.get_secret_value())
        return self

    def key_value(self) -> str:
        """The key to hand to the client (placeholder for keyless local servers)."""
        return self.api_key.get_secret_value() if self.api_key else NO_KEY

    @property
    def batching(self) -> bool:
        """Whether small cases share requests (off when batch_tokens is 0 or max_batch <= 1)."""
        return self.batch_tokens > 0 and self.max_batch > 1

    def price_per_1k(self) -> tuple[float, float] | None:
        """(prompt, completion) USD per 1k tokens for this model, if configured."""
        table = self.prices.get(self.model, self.prices)
        if not isinstance(table, Mapping) or "prompt" not in table:
            return None
        return float(table["prompt"]), float(table.get("completion", table["prompt"]))


def read_config(paths: list[Path] | None = None) -> dict[str, Any]:
    """The ``[llm]`` section of the first config file found, else {}.

    Read through the same checked reader as every other section (``config_section``): a
    file that is not UTF-8 or not TOML, or ``llm = 5``, is a UsageError naming the file.
    """
    return dict(config_section("llm", paths)[1])


def default_judge_name(env: Mapping[str, str] | None = None) -> str:
    """'llm' when an endpoint or key is configured (OPENAI_* or the config file), else 'offline'.

    The offline judge is the default so that everything runs with no network and no key.
    """
    env = os.environ if env is None else env
    if env.get("OPENAI_API_KEY") or env.get("OPENAI_BASE_URL"):
        return "llm"
    config = read_config()
    configured = config.get("api_key") or config.get("api_key_file") or config.get("base_url")
    return "llm" if configured else "offline"


def read_key_file(path: Path | str, what: str = "--api-key-file") -> str:
    """The API key held in a file (surrounding whitespace dropped); a missing, unreadable or
    empty file is a usage error naming the file (never its content)."""
    path = Path(path).expanduser()
    try:
        key = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        raise UsageError(f"{what} {path}: cannot read the API key: {reason}") from None
    if not key:
        raise UsageError(f"{what} {path}: the file is empty, expected the API key")
    return key


def resolve_settings(
    options: Mapping[str, Any],
    env: Mapping[str, str] | None = None,
    config: Mapping[str, Any] | None = None,
) -> LLMSettings:
    """Merge sources, highest first: explicit options, OPENAI_*/HALGATE_MODEL, config file."""
    env = os.environ if env is None else env
    merged: dict[str, Any] = dict(read_config() if config is None else config)
    key_file = merged.pop("api_key_file", None)  # the config's key, kept in a file
    from_env = {
        "api_key": env.get("OPENAI_API_KEY"),
        "base_url": env.get("OPENAI_BASE_URL"),
        "model": env.get("HALGATE_MODEL"),
    }
    merged.update({k: v for k, v in from_env.items() if v})
    merged.update({k: v for k, v in options.items() if v is not None})
    if key_file is not None and not merged.get("api_key"):
        merged["api_key"] = read_key_file(str(key_file), "[llm] api_key_file")
    try:
        return LLMSettings.model_validate(merged)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(map(str, first["loc"]))
        # Never echo the input: it could be the key.
        raise UsageError(f"llm judge option {field}: {first['msg']}") from None


def public_url(url: str | None) -> str | None:
    """The base URL without credentials or query (user:pass@ or ?key= must not leak)."""
    if not url:
        return url
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = host + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def redact_known(text: str) -> str:
    """``text`` with every API key this process has been given replaced (see ``redact``)."""
    for secret in sorted(_KNOWN_SECRETS, key=len, reverse=True):
        text = redact(text, secret)
    return text


#: Keys shorter than this are placeholders for local servers ("x", "test"), scrubbed only
#: where they stand alone: replacing every "x" corrupted replies and the cache with them.
SHORT_KEY = 8


def _spellings(ch: str) -> str:
    """Every way a JSON or HTTP layer writes one character of a key: itself, a ``\\uXXXX``
    escape, a backslash escape (``\\/``), a percent escape (``%2F``)."""
    forms = [re.escape(ch), rf"\\u{ord(ch):04x}", rf"\\{re.escape(ch)}"]
    if ord(ch) < 128:
        forms.append(rf"%{ord(ch):02x}")
    return "(?:" + "|".join(forms) + ")"


@lru_cache(maxsize=64)
def _encoded(piece: str) -> re.Pattern[str]:
    """``piece`` in any mix of its spellings (hex digits in either case)."""
    return re.compile("".join(_spellings(ch) for ch in piece), re.IGNORECASE)


def redact(text: str, secret: str | None) -> str:
    """Replace every occurrence of the secret, in every encoding a JSON or HTTP layer can
    give it (``\\u0073k-...``, ``sk-a\\/b``, ``sk-a%2Fb``), and long prefixes of it, with
    asterisks; a short key only where it is a whole word ("Bearer test", never "tests")."""
    if not secret or secret == NO_KEY:
        return text
    if len(secret) < SHORT_KEY:
        return re.sub(rf"(?<![\w-]){re.escape(secret)}(?![\w-])", "***", text)
    text = _encoded(secret).sub("***", text)
    # Providers echo masked keys like "sk-abc...wxyz"; drop any 8+ char head or tail too.
    for piece in (secret[:8], secret[-8:]) if len(secret) >= 16 else ():
        text = _encoded(piece).sub("***", text)
    return text
    if len(secret) < SHORT_KEY:
        return re.sub(rf"(?<![\w-]){re.escape(secret)}(?![\w-])", "***", text)
    text = text.replace(secret, "***")
    # Providers echo masked keys like "sk-abc...wxyz"; drop any 8+ char head or tail too.
    for piece in (secret[:8], secret[-8:]) if len(secret) >= 16 else ():
        text = text.replace(piece, "***")
    return text

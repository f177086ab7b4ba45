"""Building the judge a run asks for: one rule for every face (CLI, dashboard, scripts).

Both faces build judges here, so the same request gives the same judge id (the LLM judge's
prompt version includes the mode) and the LLM judge keeps its response cache in the review
database the run is saved to, never in a stray ``./halgate.db``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..inputs.policy import Policy
from ..models import Mode
from .protocol import Judge
from .registry import create_judge


def judge_name(
    name: str | None,
    *,
    model: str | None = None,
    base_url: str | None = None,
    api_key: str | None = None,
) -> str:
    """The judge to use: the one named, else ``llm`` when an endpoint option is given, else the
    configured default (``llm`` with OPENAI_* or a config file, otherwise ``offline``)."""
    if name is not None:
        return name
    if model or base_url or api_key:
        return "llm"
    from .llm.config import default_judge_name

    return default_judge_name()


def build_judge(
    name: str,
    policy: Policy,
    mode: Mode,
    db: Path | str | None,
    *,
    model: str | None = None,
    base_url: str | None = None,
    api_key: str | None = None,
    concurrency: int | None = None,
    batch_tokens: int | None = None,
    max_batch: int | None = None,
) -> Judge:
    """Create judge ``name`` for a run in ``mode`` under ``policy``'s severity rules.

    ``db`` is the review database the run will be saved to; the LLM judge caches its
    responses there. LLM options (model, endpoint, key, concurrency, batching) given to any
    other judge are a usage error, named as the CLI spells them (``--model`` ...).
    """
    llm: dict[str, Any] = {
        "model": model,
        "base_url": base_url,
        "api_key": api_key,
        "concurrency": concurrency,
        "batch_tokens": batch_tokens,
        "max_batch": max_batch,
    }
    if name != "llm":
        given = [f"--{k.replace('_', '-')}" for k, v in llm.items() if v is not None]
        if given:
            raise UsageError(f"{', '.join(given)} only apply to --judge llm")
        offline = {"null_field_claims": policy.null_field_claims} if name == "offline" else {}
        return create_judge(name, severity_rules=policy.severity_rules, **offline)
    return create_judge(
        name,
        severity_rules=policy.severity_rules,
        mode=mode.value,
        db=str(db) if db else None,
        **llm,
    )

"""Building the judge a run asks for: one rule for every face (CLI, dashboard, scripts).

Both faces build judges here, so the same request gives the same judge id (the LLM judge's
prompt version includes the mode) and the LLM judge keeps its response cache in the review
database the run is saved to, never in a stray ``./halgate.db``. The ``cascade`` judge takes
the LLM options (it holds an LLM judge) and its own ``cascade_margin``; ``batch_api`` sends
the LLM judge's calls through the provider's Batch API (``halgate.judges.llm_batch``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..inputs.policy import Policy, policy_value_error
from ..models import Mode
from .protocol import Judge
from .registry import create_judge

LLM_JUDGES = ("llm", "cascade")
"""The judges that take the LLM options (model, endpoint, key, concurrency, batching)."""


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
    cascade_margin: float | None = None,
    batch_api: Mapping[str, Any] | None = None,
) -> Judge:
    """Create judge ``name`` for a run in ``mode`` under ``policy``'s severity rules.

    ``db`` is the review database the run will be saved to; the LLM judge caches its
    responses there. ``batch_api`` (the run's inputs, recorded with each batch so that
    ``halgate batches collect`` can finish it; ``{}`` records none) sends the LLM calls
    through the Batch API. LLM options (model, endpoint, key, concurrency, batching, Batch
    API) given to a judge without an LLM, or ``cascade_margin`` to any but ``cascade``, are
    a usage error, named as the CLI spells them (``--model`` ...).
    """
    llm: dict[str, Any] = {
        "model": model,
        "base_url": base_url,
        "api_key": api_key,
        "concurrency": concurrency,
        "batch_tokens": batch_tokens,
        "max_batch": max_batch,
        "batch_api": batch_api,
    }
    given = [f"--{k.replace('_', '-')}" for k, v in llm.items() if v is not None]
    if name not in LLM_JUDGES and given:
        raise UsageError(f"{', '.join(given)} only apply to --judge llm or --judge cascade")
    if cascade_margin is not None and name != "cascade":
        raise UsageError("--cascade-margin only applies to --judge cascade")
    if policy.judge_samples > 1 and (name != "llm" or mode == Mode.PAIRWISE):
        raise policy_value_error(
            policy,
            "judge_samples",
            f"repeated judging needs --judge llm in a claims mode (got --judge {name}, mode "
            f"{mode.value}): the offline judge gives the same verdicts every time, and the "
            "cascade and pairwise judging do not sample; set judge_samples = 1",
        )
    offline: dict[str, Any] = {"null_field_claims": policy.null_field_claims}
    if name in ("offline", "cascade") and policy.rule_packs:
        offline["rule_packs"] = checked_rule_packs(policy)
    if name not in LLM_JUDGES:
        return create_judge(
            name, severity_rules=policy.severity_rules, **(offline if name == "offline" else {})
        )
    if llm.pop("batch_api") is not None:
        from .llm_batch import BatchAPI

        llm["prefetch"] = BatchAPI(batch_api)
    if name == "cascade":
        llm |= offline | {"cascade_margin": cascade_margin}
    return create_judge(
        name,
        severity_rules=policy.severity_rules,
        mode=mode.value,
        db=str(db) if db else None,
        **llm,
        **({"samples": policy.judge_samples} if policy.judge_samples > 1 else {}),
    )


def checked_rule_packs(policy: Policy) -> list[str]:
    """The policy's rule packs, each known to the offline judge; an unknown one is a
    PolicyError naming the policy file, line and field."""
    from .offline.rules.table import RuleTableError, rule_table

    try:
        rule_table(policy.rule_packs)
    except RuleTableError as exc:
        raise policy_value_error(policy, "rule_packs", str(exc)) from None
    return list(policy.rule_packs)

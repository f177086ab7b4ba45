"""The gate policy: documented defaults, overridable from a TOML file.

A suite folder may carry its own ``policy.toml``; an explicit file (``--policy FILE``, or a
TOML uploaded in the dashboard) wins over it: see ``resolve_policy``.
"""

from __future__ import annotations

import math
import re
import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, PrivateAttr, ValidationError, ValidationInfo, field_validator

from ..errors import PolicyError
from ..models import GateMeasure, Record, Severity
from .toml_lines import key_line

Rate = Annotated[float, Field(ge=0.0, le=1.0, allow_inf_nan=False)]
"""A rate or rate change limit: finite, in [0, 1] (NaN, infinity, negative values refused)."""


class SeverityRules(Record):
    """Default severity rules (DESIGN.md §2), configurable per suite."""

    critical_domains: list[str] = Field(
        default=["medication", "medical", "safety", "legal", "health", "dosage"],
        description="A contradicted claim in a case of these domains (or tags) is CRITICAL.",
    )
    critical_keywords: list[str] = Field(
        default=[
            "dose",
            "dosage",
            "mg",
            "overdose",
            "contraindicated",
            "pregnan",
            "allerg",
            "warning",
            "liable",
            "liability",
            "lawsuit",
            "illegal",
            "penalty",
            "deadline",
            "must not",
            "do not",
            "never",
            "fatal",
            "death",
            "emergency",
        ],
        description="A contradicted claim containing one of these (lowercase) is CRITICAL.",
    )
    high_on_fabricated_specifics: bool = Field(
        default=True,
        description="A fabricated number, name, date or statistic is HIGH.",
    )


class Policy(Record):
    """Knobs of the gate (DESIGN.md §4). Every field has a default; TOML overrides any."""

    gate_on: GateMeasure = Field(
        default="answers",
        description="The measure that gates: answers (share of answers with a hallucination) "
        "or claims (hallucinated claims / all claims, pooled).",
    )
    max_rate_increase: Rate = Field(
        default=0.05,
        description="FAILED when candidate − baseline of the gated measure exceeds this.",
    )
    max_hallucination_rate: Rate | None = Field(
        default=None, description="FAILED when the gated system's gated measure exceeds this."
    )
    max_abstention_increase: Rate | None = Field(
        default=0.05,
        description="FAILED when candidate − baseline abstention rate exceeds this (empty, "
        "refusal, nonsense or claimless answers).",
    )
    max_abstention_rate: Rate | None = Field(
        default=0.5,
        description="FAILED when the gated system's abstention rate exceeds this (any mode; "
        "the default 0.5 means a system that answers junk, refusals or nothing never PASSES, "
        "in gate and consistency modes too, where there is no baseline to compare with).",
    )
    max_fabrication_rate: Rate | None = Field(
        default=0.10, description="FAILED when the gated system's fabrication rate exceeds this."
    )
    max_contradiction_rate: Rate | None = Field(
        default=0.05, description="FAILED when the gated system's contradiction rate exceeds this."
    )
    block_on_severity: Severity | None = Field(
        default=Severity.CRITICAL,
        description="FAILED when a hallucinated claim of this severity or worse remains.",
    )
    count_out_of_scope: bool = Field(
        default=False, description="Count OUT_OF_SCOPE claims as hallucinations."
    )
    partial_weight: Rate = Field(
        default=0.5, description="Weight of PARTIALLY_SUPPORTED in consistency_score."
    )
    review_severities: list[Severity] = Field(
        default=[Severity.CRITICAL, Severity.HIGH],
        description="Claims of these severities enter the review queue.",
    )
    require_review_before_pass: bool = Field(
        default=True, description="NEEDS_REVIEW while the review queue has unreviewed claims."
    )
    audit_sample: int | str = Field(
        default=30,
        description="Random audit sample reviewers label as whole answers: a number of cases "
        '(30: every system\'s answers to 30 seeded random cases) or a percentage ("5%" of the '
        "cases, rounded up); 0 turns it off.",
    )
    gate_on_corrected: bool = Field(
        default=False,
        description="Gate on the audit-corrected answers with a hallucination (and its change) "
        "once the audit sample is completely labelled; needs gate_on = answers.",
    )
    reviews_per_item: int = Field(
        default=1,
        ge=1,
        le=9,
        description="Reviewers who label each item of a queue (triage or audit sample) blind; "
        "with 2 or more, items the panel disagrees on go to adjudication and hold the gate "
        "at NEEDS_REVIEW until decided (docs/team-review.md).",
    )
    decide_on: Literal["interval", "estimate"] = Field(
        default="interval",
        description="How a rate rule decides: interval (FAILED when the whole interval lies "
        "above the limit, PASSED when it lies within, else NEEDS_REVIEW with how many more "
        "audit labels would decide) or estimate (the point estimate against the limit, never "
        "undecided). See docs/gate.md.",
    )
    confidence: float = Field(
        default=0.95,
        ge=0.5,
        le=0.999,
        allow_inf_nan=False,
        description="Confidence level of the intervals the gate decides on (0.5 to 0.999).",
    )
    power_tuning: bool = Field(
        default=True,
        description="Audit correction: weigh the judge by the λ that minimises the corrected "
        "figure's variance (PPI++), or false for classic PPI (λ = 1).",
    )
    judge_samples: int = Field(
        default=1,
        ge=1,
        le=9,
        exclude_if=lambda v: v == 1,
        description="LLM judge: judge each answer this many times (each sample cached on its "
        "own); the report gives the share of claim verdicts that flipped, and the corrected "
        "figures read the mean over samples with the samples' spread added to their variance "
        "(docs/metrics.md). 1 (default): one judgement, as before. Refused for the offline "
        "and cascade judges.",
    )
    risk_level: Severity = Field(
        default=Severity.MEDIUM,
        description="Risk of the release; at HIGH or CRITICAL every unsupported claim is reviewed.",
    )
    release_managers: list[str] = Field(
        default_factory=list, description="Reviewer names allowed to sign off."
    )
    bootstrap_resamples: int = Field(
        default=2000, ge=100, le=100_000, description="Bootstrap draws, 100 to 100000."
    )
    seed: int = Field(
        default=20261129, ge=0, description="Bootstrap seed (≥ 0): same input, same interval."
    )
    severity_rules: SeverityRules = Field(default_factory=SeverityRules)
    null_field_claims: Literal["unsupported", "ignore"] = Field(
        default="unsupported",
        description="Offline judge: a claim about a JSON record field that is null (unknown) "
        "is UNSUPPORTED (the record does not say it), or 'ignore' to judge it by its words "
        "alone (for records where null means 'not applicable').",
    )
    rule_packs: list[str] = Field(
        default_factory=list,
        description="Offline judge: the opt-in rule packs of one kind of data to turn on "
        "beside the core rules (e.g. ['business_listings', 'reviews']; see docs/judge.md). "
        "Default: none, only the core rules.",
    )
    _source: str | None = PrivateAttr(default=None)
    """The policy file this policy was read from (None for defaults): errors found later,
    when a value is put to use, name it."""

    @field_validator("audit_sample", mode="before")
    @classmethod
    def _audit_sample_form(cls, value: Any) -> int | str:
        """A count (int >= 0) or a percentage string "P%" with 0 <= P <= 100, nothing else."""
        if isinstance(value, int) and not isinstance(value, bool):
            if value < 0:
                raise ValueError("a count of cases must be >= 0 (0 turns the audit off)")
            return value
        found = _PERCENT.fullmatch(value) if isinstance(value, str) else None
        if found is None or not 0 <= float(found.group(1)) <= 100:
            raise ValueError(
                'write a number of cases (audit_sample = 30) or a percentage from "0%" to '
                '"100%" (audit_sample = "5%"); 0 turns the audit off'
            )
        return f"{float(found.group(1)):g}%"

    @field_validator("gate_on_corrected")
    @classmethod
    def _corrected_needs_answers_and_audit(cls, value: bool, info: ValidationInfo) -> bool:
        """The correction is answer-level and needs a sample to correct with."""
        if value and info.data.get("gate_on", "answers") != "answers":
            raise ValueError('needs gate_on = "answers" (the audit labels whole answers)')
        if value and info.data.get("audit_sample") in (0, "0%"):
            raise ValueError("needs an audit sample (audit_sample is 0)")
        return value

    def audit_size(self, eligible: int) -> int:
        """How many of ``eligible`` cases the audit sample draws: the count (at most all of
        them), or the percentage of them rounded up."""
        if isinstance(self.audit_sample, int):
            return min(self.audit_sample, eligible)
        share = float(self.audit_sample.rstrip("%")) / 100
        return min(eligible, math.ceil(round(share * eligible, 9)))


_PERCENT = re.compile(r"\s*(\d+(?:\.\d+)?)\s*%\s*")


def load_policy(path: Path | str | None) -> Policy:
    """Read a policy TOML; None gives the defaults. Errors name the file and field."""
    if path is None:
        return Policy()
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except FileNotFoundError:
        raise PolicyError(f"{path}: policy file not found") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise PolicyError(f"{path}: not valid TOML: {exc}") from None
    wrapped = "policy" in data
    if wrapped:
        extra = sorted(k for k in data if k != "policy")
        if extra or not isinstance(data["policy"], dict):
            what = f"unknown key(s) {', '.join(extra)} beside [policy]" if extra else "not a table"
            raise PolicyError(f"{path}: policy: {what}")
        data = data["policy"]
    try:
        policy = Policy.model_validate(data)
    except ValidationError as exc:
        problems = policy_problems(exc, str(path), text, ("policy",) if wrapped else ())
        raise PolicyError("\n".join(problems)) from None
    policy._source = str(path)
    return policy


def policy_value_error(policy: Policy, key: str, message: str) -> PolicyError:
    """A policy value found wrong when it is put to use (not when read: a rule pack's name
    is known to the judges, not to the policy), named as load errors are:
    ``FILE:LINE: key: message``, or ``policy: key: message`` for a policy built in code."""
    where = policy._source
    if where is None:
        return PolicyError(f"policy: {key}: {message}")
    try:
        text = Path(where).read_text(encoding="utf-8")
        wrapped = "policy" in tomllib.loads(text)
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return PolicyError(f"{where}: {key}: {message}")
    line = key_line(text, (key,), ("policy",) if wrapped else ())
    return PolicyError(f"{where}{f':{line}' if line is not None else ''}: {key}: {message}")


def policy_problems(
    exc: ValidationError, where: str, text: str = "", table: tuple[str, ...] = ()
) -> list[str]:
    """One line per invalid policy value: ``where:LINE: key: message (got value)``, the
    line being where the key is written in ``text`` (none for a key not written)."""
    out = []
    for e in exc.errors():
        key = ".".join(map(str, e["loc"]))
        msg = "unknown key" if e["type"] == "extra_forbidden" else e["msg"]
        got: Any = e.get("input")
        shown = "" if isinstance(got, dict) else f" (got {got!r})"
        line = key_line(text, e["loc"], table) if text else None
        at = f"{where}:{line}" if line is not None else where
        out.append(f"{at}: {key}: {msg}{shown}")
    return out


SUITE_POLICY_FILE = "policy.toml"


def policy_path(explicit: Path | str | None, suite_dir: Path | str | None) -> Path | None:
    """The policy file a run uses: ``explicit``, else the suite's ``policy.toml``, else None."""
    if explicit is not None:
        return Path(explicit)
    if suite_dir is not None:
        own = Path(suite_dir) / SUITE_POLICY_FILE
        if own.is_file():
            return own
    return None


def resolve_policy(explicit: Path | str | None, suite_dir: Path | str | None) -> Policy:
    """The policy of a run: the explicit file, else the suite's ``policy.toml``, else defaults.

    The one lookup rule of ``halgate run --policy`` and the dashboard's run form (whose
    uploaded TOML is an explicit file); a named file that is missing is a PolicyError.
    """
    return load_policy(policy_path(explicit, suite_dir))

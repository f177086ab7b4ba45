"""Severity of a hallucinated claim, by the default rules of DESIGN.md §2.

Pure and table-testable: the same inputs always give the same severity, and both judges
share it, so a severity means the same thing whoever produced the verdict.

- CRITICAL: a contradicted claim on a case whose risk level is CRITICAL; a contradicted (or
  fabricated, or a hedge asserted as fact with a number or name) claim on a safety, legal or
  medical fact: the
  case's domain or a tag is a critical domain, or the claim holds a critical keyword in a
  case whose risk level is HIGH or CRITICAL.
- HIGH: a fabricated number, name, date or statistic; any claim that is not supported (even
  partly supported or out of scope) on a case whose risk level is CRITICAL.
- MEDIUM: a distortion that changes meaning (a contradicted claim outside critical facts, a
  hedge asserted as fact, a fabrication with no specifics, a misattributed source).
- LOW: a minor imprecision (partially supported) or an out-of-scope claim, outside CRITICAL
  cases.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..inputs.policy import SeverityRules
from ..models import Case, HallucinationType, Severity, Verdict
from .quantities import extract_quantities
from .words import proper_names

_HIGH_RISK = {Severity.HIGH, Severity.CRITICAL}


def assign_severity(
    verdict: Verdict,
    hallucination_type: HallucinationType | None,
    claim_text: str,
    case: Case,
    rules: SeverityRules,
) -> Severity | None:
    """Severity of one judged claim; None for a supported claim."""
    if verdict == Verdict.SUPPORTED:
        return None
    if verdict in (Verdict.OUT_OF_SCOPE, Verdict.PARTIALLY_SUPPORTED):
        # On a CRITICAL case a half-backed claim is as doubtful as an unbacked one.
        return Severity.HIGH if case.risk_level == Severity.CRITICAL else Severity.LOW
    fabricated = hallucination_type == HallucinationType.FABRICATION
    # A hedged dose or deadline turned into a flat instruction is as dangerous as a wrong one.
    firmed = hallucination_type == HallucinationType.OMISSION_AS_FACT and has_specifics(claim_text)
    if verdict == Verdict.CONTRADICTED and case.risk_level == Severity.CRITICAL:
        return Severity.CRITICAL  # the case says its facts are critical: a wrong one is
    if (verdict == Verdict.CONTRADICTED or fabricated or firmed) and is_critical_fact(
        claim_text, case, rules
    ):
        return Severity.CRITICAL
    if fabricated and rules.high_on_fabricated_specifics and has_specifics(claim_text):
        return Severity.HIGH
    if verdict == Verdict.UNSUPPORTED and case.risk_level == Severity.CRITICAL:
        return Severity.HIGH  # an unbacked statement on a critical case is no minor matter
    return Severity.MEDIUM


def is_critical_fact(claim_text: str, case: Case, rules: SeverityRules) -> bool:
    """True when the claim is a safety, legal or medical fact by the suite's rules."""
    domains = {d.lower() for d in rules.critical_domains}
    labels = [case.domain or ""] + list(case.tags)
    if any(_matches_domain(label.lower(), domains) for label in labels if label):
        return True
    if case.risk_level in _HIGH_RISK:
        return _keyword_pattern(tuple(rules.critical_keywords)).search(claim_text) is not None
    return False


def _matches_domain(label: str, domains: set[str]) -> bool:
    # "medication-safety" or "medical/dosage" count as critical as well as "medical".
    return label in domains or any(part in domains for part in re.split(r"[\s/_\-:]+", label))


@lru_cache(maxsize=64)
def _keyword_pattern(keywords: tuple[str, ...]) -> re.Pattern[str]:
    # Keywords are word prefixes ("pregnan" matches "pregnancy"), but "mg" must not match
    # inside "among"; digits may precede ("50mg").
    alternatives = "|".join(re.escape(k.lower()) for k in keywords if k.strip())
    return re.compile(rf"(?<![a-z])(?:{alternatives or '(?!)'})", re.I)


def has_specifics(claim_text: str) -> bool:
    """True when the claim states a number, date, quantity or proper name."""
    return bool(extract_quantities(claim_text)) or bool(proper_names(claim_text))

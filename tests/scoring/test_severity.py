"""Severity rules (DESIGN.md §2) as a table."""

from __future__ import annotations

import pytest
from halgate.inputs.policy import SeverityRules
from halgate.models import Case, HallucinationType, Severity, Verdict
from halgate.text.severity import assign_severity, has_specifics, is_critical_fact

V, T, S = Verdict, HallucinationType, Severity
MED = Case(case_id="m", question="q", domain="medication", risk_level=S.CRITICAL)
TRAVEL = Case(case_id="t", question="q", domain="travel", risk_level=S.MEDIUM)
RISKY = Case(case_id="r", question="q", domain="billing", risk_level=S.HIGH)
TAGGED = Case(case_id="g", question="q", tags=["legal"], risk_level=S.LOW)


@pytest.mark.parametrize(
    ("verdict", "htype", "claim", "case", "expected"),
    [
        (V.SUPPORTED, None, "Take 50 mg.", MED, None),
        (V.CONTRADICTED, T.DISTORTION, "The maximum dose is 200 mg.", MED, S.CRITICAL),
        (V.UNSUPPORTED, T.FABRICATION, "Moderate drinking is fine.", MED, S.CRITICAL),
        (V.CONTRADICTED, T.DISTORTION, "Notice is three months.", TAGGED, S.CRITICAL),
        (V.CONTRADICTED, T.DISTORTION, "The deadline is 31 March.", RISKY, S.CRITICAL),
        (V.CONTRADICTED, T.DISTORTION, "Claims take 28 days.", RISKY, S.MEDIUM),
        (V.CONTRADICTED, T.DISTORTION, "The deadline is 31 March.", TRAVEL, S.MEDIUM),
        (V.UNSUPPORTED, T.FABRICATION, "Cover goes up to £5,000.", TRAVEL, S.HIGH),
        (V.UNSUPPORTED, T.FABRICATION, "It was founded by Jane Porter.", TRAVEL, S.HIGH),
        (V.UNSUPPORTED, T.FABRICATION, "Pre-existing conditions are covered.", TRAVEL, S.MEDIUM),
        # Unsupported on a CRITICAL case is at least HIGH; on a HIGH-risk case it stays MEDIUM.
        (V.UNSUPPORTED, T.OMISSION_AS_FACT, "It causes dizziness.", MED, S.HIGH),
        (V.UNSUPPORTED, T.OMISSION_AS_FACT, "It causes dizziness.", RISKY, S.MEDIUM),
        (V.CONTRADICTED, T.CITATION_ERROR, "The guide says 14 days.", TRAVEL, S.MEDIUM),
        # On a CRITICAL case every claim that is not supported is at least HIGH.
        (V.PARTIALLY_SUPPORTED, T.DISTORTION, "Claims are settled in 10 days.", MED, S.HIGH),
        (V.OUT_OF_SCOPE, None, "Paris is lovely.", MED, S.HIGH),
        (V.PARTIALLY_SUPPORTED, T.DISTORTION, "Claims are settled in 10 days.", RISKY, S.LOW),
        (V.OUT_OF_SCOPE, None, "Paris is lovely.", TRAVEL, S.LOW),
    ],
)
def test_default_rules(
    verdict: Verdict,
    htype: HallucinationType | None,
    claim: str,
    case: Case,
    expected: Severity | None,
) -> None:
    assert assign_severity(verdict, htype, claim, case, SeverityRules()) == expected


def test_rules_are_configurable() -> None:
    rules = SeverityRules(critical_domains=["travel"], high_on_fabricated_specifics=False)
    contradicted = assign_severity(V.CONTRADICTED, T.DISTORTION, "x is 3", TRAVEL, rules)
    assert contradicted == S.CRITICAL
    assert assign_severity(V.UNSUPPORTED, T.FABRICATION, "£5", RISKY, rules) == S.MEDIUM


@pytest.mark.parametrize(
    ("claim", "critical"),
    [
        ("Take 50mg daily.", True),
        ("It is found among adults.", False),
        ("Avoid during pregnancy.", True),
        ("Check the deadline.", True),
        ("Nice view.", False),
    ],
)
def test_keywords_match_as_word_prefixes(claim: str, critical: bool) -> None:
    assert is_critical_fact(claim, RISKY, SeverityRules()) is critical


@pytest.mark.parametrize(
    ("claim", "specific"),
    [
        ("It costs £30.", True),
        ("Founded in March 2020.", True),
        ("Made by Halvern Pharma.", True),
        ("It is cheap.", False),
    ],
)
def test_specifics(claim: str, specific: bool) -> None:
    assert has_specifics(claim) is specific

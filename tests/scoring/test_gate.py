"""Gate rules, table-driven: which findings give which decision and reasons."""

from __future__ import annotations

import pytest
from halgate.inputs.policy import Policy
from halgate.models import Case, GateStatus
from halgate.scoring.compare import compare_systems
from halgate.scoring.gate import decide, review_queue
from halgate.scoring.metrics import system_rates

from ..conftest import claim
from .conftest import analysis

CASES = [Case(case_id=f"c{i}", question="q", doc_ids=["d"], tags=["lookup"]) for i in range(4)]


# These tests are about which rule fires on four cases, so they read the point estimate
# (decide_on = "estimate"); the interval rule has its own tests in test_decide.py.
ESTIMATE = {"decide_on": "estimate"}


def run_gate(candidate_claims, policy=None, reviewed=(), baseline_claims=None, errors=()):
    policy = policy or Policy(require_review_before_pass=False, **ESTIMATE)
    analyses = []
    for i, case in enumerate(CASES):
        b = (baseline_claims or {}).get(i, [claim("SUPPORTED")])
        c = candidate_claims.get(i, [claim("SUPPORTED")])
        analyses.append(analysis(case.case_id, "baseline", b))
        analyses.append(
            analysis(
                case.case_id, "candidate", c, harness_error="bad json" if i in errors else None
            )
        )
    cmp = compare_systems(analyses, CASES, "baseline", "candidate", policy)
    rates = system_rates(analyses, "candidate")
    return decide(analyses, CASES, policy, "candidate", rates, cmp, reviewed)


def rules(decision, status):
    return {r.rule for r in decision.reasons if r.status == status}


def test_all_supported_passes_with_reasons_listed():
    d = run_gate({})
    assert d.status == GateStatus.PASSED and d.exit_code == 0
    assert {"max_rate_increase", "max_fabrication_rate", "block_on_severity"} <= rules(
        d, GateStatus.PASSED
    )


@pytest.mark.parametrize(
    "candidate, failing_rule",
    [
        ({0: [claim("UNSUPPORTED", "DISTORTION", "LOW"), claim("SUPPORTED")]}, "max_rate_increase"),
        (
            {0: [claim("UNSUPPORTED", "FABRICATION", "LOW")] + [claim("SUPPORTED")] * 3},
            "max_fabrication_rate",
        ),
        (
            {0: [claim("CONTRADICTED", "DISTORTION", "MEDIUM")] + [claim("SUPPORTED")] * 3},
            "max_contradiction_rate",
        ),
        (
            {0: [claim("CONTRADICTED", "DISTORTION", "CRITICAL")] + [claim("SUPPORTED")] * 30},
            "block_on_severity",
        ),
    ],
)
def test_each_rule_can_fail_the_gate(candidate, failing_rule):
    d = run_gate(candidate)
    assert d.status == GateStatus.FAILED and d.exit_code == 1
    assert failing_rule in rules(d, GateStatus.FAILED)


def test_blocking_reason_names_the_claims():
    d = run_gate({2: [claim("CONTRADICTED", "DISTORTION", "CRITICAL")] + [claim("SUPPORTED")] * 30})
    reason = next(r for r in d.reasons if r.rule == "block_on_severity")
    assert reason.claim_ids == ["c2/candidate/0"] and "c2/candidate/0" in reason.message


def test_overturned_critical_no_longer_blocks():
    # The effective verdict after a reviewer override is SUPPORTED: nothing blocks.
    d = run_gate({0: [claim("SUPPORTED", None, None)] + [claim("SUPPORTED")] * 30})
    assert d.status == GateStatus.PASSED


def test_pending_review_gives_needs_review_until_reviewed():
    cand = {1: [claim("UNSUPPORTED", "FABRICATION", "HIGH")] + [claim("SUPPORTED")] * 40}
    policy = Policy(max_fabrication_rate=None, max_rate_increase=0.5, **ESTIMATE)
    d = run_gate(cand, policy)
    assert d.status == GateStatus.NEEDS_REVIEW and d.exit_code == 3
    assert d.pending_review == ["c1/candidate/0"]
    d2 = run_gate(cand, policy, reviewed={"c1/candidate/0"})
    assert d2.status == GateStatus.PASSED and d2.pending_review == []


def test_harness_error_wins_over_everything():
    d = run_gate({0: [claim("CONTRADICTED", "DISTORTION", "CRITICAL")]}, errors={3})
    assert d.status == GateStatus.HARNESS_ERROR and d.exit_code == 2
    assert "c3/candidate" in next(r for r in d.reasons if r.rule == "harness_error").message
    assert "block_on_severity" in rules(d, GateStatus.FAILED)  # other findings still listed


def test_no_claims_at_all_fails_nothing_was_measured():
    # Every answer abstained (no checkable claim): a gate that measured nothing cannot pass.
    d = run_gate({i: [] for i in range(4)}, baseline_claims={i: [] for i in range(4)})
    assert d.status == GateStatus.FAILED
    assert "answers_measured" in rules(d, GateStatus.FAILED)
    assert any("nothing to measure" in r.message for r in d.reasons)


def test_review_queue_orders_by_severity_and_adds_risky_claims():
    a = analysis(
        "c0",
        "candidate",
        [
            claim("UNSUPPORTED", "DISTORTION", "LOW"),
            claim("UNSUPPORTED", "FABRICATION", "HIGH"),
            claim("CONTRADICTED", "DISTORTION", "CRITICAL"),
            claim("SUPPORTED"),
        ],
    )
    q = review_queue([a], CASES, Policy(), "candidate")
    assert [c.severity.value for c in q] == ["CRITICAL", "HIGH"]
    q_risky = review_queue([a], CASES, Policy(risk_level="HIGH"), "candidate")
    assert [c.severity.value for c in q_risky] == ["CRITICAL", "HIGH", "LOW"]


def test_out_of_scope_counted_only_when_policy_says_so():
    cand = {0: [claim("OUT_OF_SCOPE", None, "LOW"), claim("SUPPORTED")]}
    assert run_gate(cand).status == GateStatus.PASSED
    d = run_gate(
        cand, Policy(require_review_before_pass=False, count_out_of_scope=True, **ESTIMATE)
    )
    assert "max_rate_increase" in rules(d, GateStatus.FAILED)

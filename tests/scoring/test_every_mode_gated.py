"""Every mode gated: a single-system run that answers junk never PASSES, and while the gate
reads the corrected figures the claim-type limits read the corrected claim-type rates."""

from __future__ import annotations

import pytest
from halgate.inputs.policy import Policy
from halgate.models import Case, CorrectedRate, CorrectedTypeRate, GateStatus
from halgate.scoring.gate import decide
from halgate.scoring.metrics import system_rates

from ..conftest import claim
from .conftest import analysis


def _single_system(n_cases: int, junk: int, **knobs):
    """A gate-mode style run: one system, ``junk`` of its answers refusals or empty."""
    policy = Policy(require_review_before_pass=False, **knobs)
    cases = [Case(case_id=f"c{i}", question="q") for i in range(n_cases)]
    analyses = [
        analysis(c.case_id, "output", [] if i < junk else [claim("SUPPORTED")],
                 abstention="refusal" if i < junk else None)
        for i, c in enumerate(cases)
    ]  # fmt: skip
    rates = system_rates(analyses, "output", cases=cases)
    return decide(analyses, cases, policy, "output", rates)


@pytest.mark.parametrize("decide_on", ["interval", "estimate"])
def test_a_system_answering_junk_on_three_of_five_never_passes(decide_on):
    d = _single_system(5, 3, decide_on=decide_on)
    assert d.status != GateStatus.PASSED
    assert any(r.rule == "max_abstention_rate" and r.status != GateStatus.PASSED
               for r in d.reasons)  # fmt: skip


def test_mostly_junk_fails_and_a_clean_system_passes_under_the_default_limit():
    assert _single_system(30, 25).status == GateStatus.FAILED
    # a clean system needs enough claims to show its contradiction rate is under the 5%
    # limit: 0 of 30 claims is not proof (Wilson up to 11.4%), 0 of 80 is (up to 4.6%)
    assert _single_system(30, 0).status == GateStatus.NEEDS_REVIEW
    assert _single_system(80, 0).status == GateStatus.PASSED
    assert Policy().max_abstention_rate == 0.5


def test_claim_type_limits_read_the_corrected_figures_while_the_gate_does():
    policy = Policy(require_review_before_pass=False, gate_on_corrected=True,
                    max_fabrication_rate=0.01)  # fmt: skip
    cases = [Case(case_id=f"c{i}", question="q") for i in range(40)]
    analyses = [
        analysis(c.case_id, "output",
                 [claim("UNSUPPORTED", "FABRICATION", "LOW") if i < 10 else claim("SUPPORTED")])
        for i, c in enumerate(cases)
    ]  # fmt: skip
    rates = system_rates(analyses, "output", cases=cases)
    judged = decide(analyses, cases, policy, "output", rates)
    fab = next(r for r in judged.reasons if r.rule == "max_fabrication_rate")
    assert fab.status == GateStatus.FAILED  # no audit yet: the judge's figures gate
    corrected = CorrectedRate(
        system="output", judge_rate=0.25, n_answers=40, n_sample=30, n_labelled=30,
        complete=True, estimate=0.02, std_error=0.01, ci_low=0.0, ci_high=0.05,
    )  # fmt: skip
    # the reviewers found the judge's fabrications false alarms: corrected 0.0-0.8 %
    fixed = CorrectedTypeRate(
        system="output", kind="fabrication", judge_rate=0.25, n_claims=40, n_labelled=30,
        estimate=0.002, ci_low=0.0, ci_high=0.008, complete=True,
    )  # fmt: skip
    clean = fixed.model_copy(update={"kind": "contradiction", "judge_rate": 0.0, "estimate": 0.0})
    update = {"corrected": corrected, "corrected_fabrication": fixed,
              "corrected_contradiction": clean}  # fmt: skip
    audited = decide(analyses, cases, policy, "output", rates.model_copy(update=update))
    fab = next(r for r in audited.reasons if r.rule == "max_fabrication_rate")
    assert fab.status == GateStatus.PASSED and "review-corrected" in fab.message
    assert audited.status == GateStatus.PASSED
    # the reviewers confirmed them: the corrected interval lies above the limit
    update["corrected_fabrication"] = fixed.model_copy(
        update={"estimate": 0.2, "ci_low": 0.1, "ci_high": 0.3}
    )
    audited = decide(analyses, cases, policy, "output", rates.model_copy(update=update))
    fab = next(r for r in audited.reasons if r.rule == "max_fabrication_rate")
    assert fab.status == GateStatus.FAILED and "review-corrected" in fab.message

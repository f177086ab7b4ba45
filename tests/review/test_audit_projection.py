"""'Label N more' projects from the standard error the same shares of labels would give at
each look (``CorrectedRate.std_error_at_looks``), not from σ·√(n/m) (issue #33): the cases'
own sampling (Var(f)/N) and the pseudo-labels do not shrink with more labels, so when the
reviewers agree with the judge on every answer the old projection promised a decision that
no audit could give."""

from __future__ import annotations

from halgate.inputs.policy import Policy
from halgate.review.audit import audit_order
from halgate.scoring.intervals import t_quantile
from halgate.scoring.looks import labels_to_decide, level_at

from .audit_answers import answers_in_order, audit_report, labelled

RUN = "20260109T000000Z-cccccc"
N = 200
FIRST_LOOK = 30
BAD = {s: {f"k{i}" for i in range(0, N, 5)} for s in ("baseline", "candidate")}  # 20 %


def _rule(run):
    return next(r for r in run.report.decision.reasons if r.rule == "max_hallucination_rate")


def test_agreeing_reviewers_are_not_promised_a_decision_no_audit_can_give():
    policy = Policy(
        block_on_severity=None, max_contradiction_rate=None, max_fabrication_rate=None,
        max_abstention_increase=None, max_abstention_rate=None, max_rate_increase=1.0,
        max_hallucination_rate=0.26, gate_on_corrected=True, audit_sample=FIRST_LOOK,
    )  # fmt: skip
    report = audit_report(RUN, policy, N, set(), BAD, 3)
    answers = answers_in_order(report, set())
    first = sum(1 for c, _ in answers if c in audit_order(report)[:FIRST_LOOK])
    run = labelled(RUN, report, answers[:first], BAD)
    c = run.report.rates["candidate"].corrected
    assert c is not None and c.n_labelled == FIRST_LOOK and c.rectifier == 0.0
    rule = _rule(run)
    assert rule.status.value == "NEEDS_REVIEW" and rule.more_to_decide is None
    assert "a reviewer decides (sign-off)" in rule.message, rule.message
    # the √(n/m) projection asked for every audit answer left ...
    q = t_quantile(level_at(0.95, c.first_look, c.eligible, c.n_labelled), c.n_labelled - 1)
    assert c.estimate is not None and c.ci_low is not None and c.ci_high is not None
    shrinking = labels_to_decide(
        c.first_look, c.eligible, c.n_labelled, (c.ci_high - c.ci_low) / (2 * q),
        abs(c.estimate - 0.26), 0.95, tuple(c.answers_to_looks),
    )  # fmt: skip
    assert shrinking == len(answers) - first
    # ... and after every one of them the interval still holds the limit: no audit decides
    everything = _rule(labelled(RUN, report, answers, BAD))
    assert everything.status.value == "NEEDS_REVIEW"
    assert "every audit answer is labelled" in everything.message

"""Three-way rate rules: a limit is judged on the interval, not on the point estimate.

A rate rule (a rate or a change against its limit) reads the evidence at the policy's
``confidence``:

- FAILED when the whole interval lies above the limit (the evidence says it is exceeded);
- PASSED when the whole interval lies at or below it (the evidence says it is not);
- UNDECIDED otherwise, which gates as NEEDS_REVIEW with how many more audit labels would
  decide it at the current variance.

So an equivalent release fails at most (1 − confidence) / 2 of the time, whatever the audit
size, instead of about half the time when its true change sits near the limit (docs/gate.md).
``decide_on = "estimate"`` keeps the old rule (FAILED when the point estimate exceeds the
limit, never undecided) for those who want a decision from every run.

How many more labels: with n labels behind a standard error s, one more label's variance is
about n·s²; the interval's half width q·s shrinks below the gap |estimate − limit| once
n' > n·(q·s / gap)², so ``ceil(n' − n)`` more labels decide it if the estimate stays where it
is. An estimate on the limit can never be decided that way: the message says so.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import NamedTuple

from ..inputs.policy import Policy
from ..models import GateDecision, GateReason, GateStatus
from .intervals import t_quantile
from .looks import labels_to_decide, level_at


class Call(StrEnum):
    """What the evidence says of one limit."""

    ABOVE = "above"
    BELOW = "below"
    UNDECIDED = "undecided"


CALL_STATUS = {Call.ABOVE: GateStatus.FAILED, Call.BELOW: GateStatus.PASSED}
UNDECIDED_STATUS = GateStatus.NEEDS_REVIEW


class RuleEvidence(NamedTuple):
    """A gated figure: point estimate, interval ends (None when there is none) and the number
    of labels (or cases) its standard error rests on."""

    estimate: float | None
    low: float | None
    high: float | None
    n: int = 0
    corrected: bool = False
    unit: str = ""  # what more of decides, when not audit labels (e.g. "judged pairs")
    left: int | None = None  # audit answers not yet labelled, when known
    first_look: int = 0  # corrected figures: k, the sequential audit's first look (looks)
    eligible: int = 0  # and its last look, every eligible answer
    beyond_look: int = 0  # labels already past the last look, counted toward the next
    to_looks: tuple[int, ...] = ()  # audit answers to each look, when a look counts cases
    at_looks: tuple[float, ...] = ()  # the standard error the same shares give at each look
    #: The interval the same shares would give over m more cases, for an interval whose
    #: width does not shrink like 1/√n (Newcombe's and Wilson's near 0 or 1, and no case
    #: differing): 'about N more cases' is then read from it, not from the variance.
    interval_after: Callable[[int], tuple[float, float] | None] | None = None


def call(evidence: RuleEvidence, limit: float, policy: Policy) -> Call:
    """FAILED / PASSED / UNDECIDED for one limit (module doc)."""
    est = evidence.estimate
    if policy.decide_on == "estimate":
        return Call.ABOVE if est is not None and est > limit else Call.BELOW
    if evidence.low is None or evidence.high is None:
        return Call.UNDECIDED
    if evidence.low > limit:
        return Call.ABOVE
    if evidence.high <= limit:
        return Call.BELOW
    return Call.UNDECIDED


def more_to_decide(evidence: RuleEvidence, limit: float, confidence: float) -> int | None:
    """Labels (or cases) beyond ``evidence.n`` that would decide the limit at the current
    variance; None when no number can (no interval, fewer than 2, or the estimate on the
    limit)."""
    est, lo, hi, n = evidence.estimate, evidence.low, evidence.high, evidence.n
    if est is None or lo is None or hi is None or n < 2 or math.isclose(est, limit):
        return None
    k = evidence.first_look
    if evidence.corrected and k > 0:  # a sequential audit: to the look that would decide
        q = t_quantile(level_at(confidence, k, evidence.eligible, n), n - 1)
        se = (hi - lo) / (2 * q)
        gap = abs(est - limit)
        to_look = labels_to_decide(
            k, evidence.eligible, n, se, gap, confidence, evidence.to_looks, evidence.at_looks
        )
        if to_look is None:
            return None
        return max(1, to_look if evidence.to_looks else to_look - evidence.beyond_look)
    if evidence.interval_after is not None:
        return cases_to_decide(evidence.interval_after, limit)
    q = t_quantile(confidence, n - 1)
    std_error = (hi - lo) / (2 * q)
    needed = n * (q * std_error / abs(est - limit)) ** 2
    return max(1, math.ceil(needed - n))


def cases_to_decide(
    interval_after: Callable[[int], tuple[float, float] | None], limit: float
) -> int | None:
    """The fewest more cases whose interval (the same shares) lies wholly above or at or
    below the limit; None when none up to ``_MOST`` do. Its width shrinks as cases are added,
    so doubling then halving finds it."""

    def decides(more: int) -> bool:
        ends = interval_after(more)
        return ends is not None and (ends[0] > limit or ends[1] <= limit)

    high = 1
    while not decides(high):
        if high > _MOST:
            return None
        high *= 2
    low = high // 2  # 0, or a count that does not decide
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if decides(mid) else (mid, high)
    return high


_MOST = 1 << 24  # cases: past this no suite decides anything


def undecided_words(evidence: RuleEvidence, limit: float, confidence: float) -> str:
    """What an undecided rule asks for: the same words in every face."""
    more = more_to_decide(evidence, limit, confidence)
    if evidence.estimate is None or evidence.low is None:
        return "undecided: too few labels for an interval; label more audit answers to decide"
    on_limit = math.isclose(evidence.estimate, limit)
    if more is None and on_limit:
        return (
            "undecided: the estimate sits on the limit; no audit size decides it, a reviewer must"
        )
    if evidence.corrected and (
        more is None or (evidence.left is not None and more > evidence.left)
    ):
        if evidence.left == 0:
            return (
                "undecided: every audit answer is labelled and the interval still holds the "
                "limit; a reviewer decides (sign-off)"
            )
        left = f"the {evidence.left} answers left" if evidence.left is not None else "are left"
        return (
            f"undecided: more labels than {left} would be needed at "
            "this variance; a reviewer decides (sign-off)"
        )
    if more is None:
        return "undecided: no number of cases decides it at this variance, a reviewer must"
    if evidence.corrected:
        return f"undecided: label {more} {LABEL_MORE}"
    what = evidence.unit or "cases"
    if out_of_reach(more, evidence.n):
        who = "a reviewer decides (sign-off)" if evidence.unit else _AUDIT_OR_REVIEWER
        return (
            f"undecided: no realistic number of {what} decides it (over {OUT_OF_REACH}× the "
            f"{evidence.n} measured would be needed at this variance); {who}"
        )
    audit = "" if evidence.unit else ", or a complete audit with gate_on_corrected,"
    return f"undecided: about {more} more {what}{audit} would decide"


_AUDIT_OR_REVIEWER = "a complete audit with gate_on_corrected, or a reviewer (sign-off), decides"


#: More cases (or judged pairs) than this many times those measured do not count as a way to
#: decide: a suite grown tenfold is a different suite, and a projection that far out says
#: only that the estimate sits near the limit for an interval this wide.
OUT_OF_REACH = 10


def out_of_reach(more: int, measured: int) -> bool:
    """True when ``more`` cases (or pairs) beyond the ``measured`` ones is no realistic way
    to decide a rule on the judge's figures: over ``OUT_OF_REACH`` times them."""
    return more > OUT_OF_REACH * measured


LABEL_MORE = "more audit answers to decide"


def asks_for_labels(decision: GateDecision) -> bool:
    """Some rule on the corrected figures is undecided and more audit labels would decide
    it: the audit sample is then continued in draw order (``review.audit``)."""
    return any(
        r.status == UNDECIDED_STATUS and r.more_to_decide and LABEL_MORE in r.message
        for r in decision.reasons
    )


def labels_to_go(decision: GateDecision) -> int | None:
    """Audit labels the gate still asks for: the sampled answers not yet labelled while the
    gate waits for the sample, else the most any undecided corrected rule names ('label N
    more'); None when no label would change the decision. The Triage page's count."""
    return labels_asked(decision)[0]


def labels_asked(decision: GateDecision) -> tuple[int | None, str]:
    """``labels_to_go`` and the rule that asks for them (the Triage page names it: its look
    table shows the gated figure, the count may be another rule's)."""
    for r in decision.reasons:
        if r.rule == "gate_on_corrected" and r.status == UNDECIDED_STATUS and r.claim_ids:
            return len(r.claim_ids), r.rule
    asked = [
        (r.more_to_decide, r.rule)
        for r in decision.reasons
        if r.status == UNDECIDED_STATUS and r.more_to_decide and LABEL_MORE in r.message
    ]
    return max(asked, key=lambda a: a[0]) if asked else (None, "")


def rate_reason(
    rule: str, label: str, evidence: RuleEvidence, limit: float | None, policy: Policy,
    signed: bool = False,
) -> GateReason | None:  # fmt: skip
    """One rate rule's finding with its words: '<label> <estimate> (CI) above / below / holds
    the limit <limit>'."""
    if limit is None:
        return None
    est = evidence.estimate
    if est is None:
        return GateReason(
            rule=rule, status=GateStatus.PASSED, threshold=limit,
            message=f"{label}: nothing to measure",
        )  # fmt: skip
    verdict = call(evidence, limit, policy)
    sign = "+" if signed else ""
    shown = f"{label} {est:{sign}.1%}{ci_words(evidence, policy.confidence, signed)}"
    more = None
    if verdict == Call.UNDECIDED:
        why = undecided_words(evidence, limit, policy.confidence)
        more = more_to_decide(evidence, limit, policy.confidence)
        tail = f"straddles the limit {limit:.1%}: {why}"
    elif policy.decide_on == "estimate":
        word = "exceeds" if verdict == Call.ABOVE else "within"
        why = f"the point estimate is {'over' if verdict == Call.ABOVE else 'within'} the limit"
        tail = f"{word} the limit {limit:.1%} (point-estimate rule)"
    else:
        word = "above" if verdict == Call.ABOVE else "within"
        why = f"the whole interval is {word} the limit"
        tail = f"{word} the limit {limit:.1%} (the whole interval)"
    return GateReason(
        rule=rule,
        status=CALL_STATUS.get(verdict, UNDECIDED_STATUS),
        observed=est,
        threshold=limit,
        message=f"{shown} {tail}",
        why=why,
        more_to_decide=more,
    )


_PRECEDENCE = [GateStatus.HARNESS_ERROR, GateStatus.FAILED, GateStatus.NEEDS_REVIEW]
_VERB = {
    GateStatus.HARNESS_ERROR: "judge failed",
    GateStatus.FAILED: "failed",
    GateStatus.NEEDS_REVIEW: "waits",
}


def headline(status: GateStatus, reasons: Sequence[GateReason]) -> str:
    """What the gate decided and why, in one line: each rule that did not pass, with its
    few words ('max_rate_increase failed: the whole interval is above the limit')."""
    parts = [
        f"{r.rule} {_VERB[s]}" + (f": {r.why}" if r.why else "")
        for s in _PRECEDENCE
        for r in reasons
        if r.status == s
    ]
    if not parts:
        return f"{status.value}: every rule passed"
    return f"{status.value}: " + "; ".join(parts)


def worst(reasons: Sequence[GateReason]) -> GateStatus:
    """The decision of a list of findings: the worst status wins."""
    return next((s for s in _PRECEDENCE if any(r.status == s for r in reasons)), GateStatus.PASSED)


def ci_words(evidence: RuleEvidence, confidence: float, signed: bool = False) -> str:
    """' (95% CI a to b)', or '' without an interval."""
    if evidence.low is None or evidence.high is None:
        return ""
    f = "+.1%" if signed else ".1%"
    return f" ({confidence:.0%} CI {evidence.low:{f}} to {evidence.high:{f}})"

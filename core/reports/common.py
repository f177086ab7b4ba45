"""Helpers shared by the report writers: which claims to show, and who reviewed them.

Every writer takes the *effective* report (overrides applied). A ``ReviewedReport`` (what
``Store.reviewed_export`` returns) also carries its review record: each reviewed claim with the
judge's verdict, the sign-off in force and every sign-off. The fields every format shows for
them are defined here once (``review_fields``, ``signoff_line``, ``signoff_in_force_text``),
and so are the names and headings of the rates (``MEASURE_TITLES``, ``RATE_FIELDS``; their
values come from ``summary.measure_rows`` and ``summary.measure_changes``).
"""

from __future__ import annotations

import re

from ..inputs.policy import Policy
from ..models import (
    MEASURE_LABELS,
    ClaimJudgement,
    ClaimReview,
    ReviewedReport,
    ReviewRecord,
    RunReport,
    SignOff,
    is_hallucinated,
)

# Characters XML 1.0 forbids (C0 controls but tab/newline/CR, lone surrogates, U+FFFE/FFFF).
_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
# Terminal escapes (CSI ... final, OSC ... BEL/ST, other ESC x), then any control character
# but newline and tab, C1 controls, and the bidirectional overrides that reorder a line.
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b.?")
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_FORMULA_LEADS = ("=", "+", "-", "@", "\t", "\r")


def xml_text(text: str) -> str:
    """``text`` without the characters an XML 1.0 document may not contain."""
    return _XML_ILLEGAL.sub("", text)


def terminal_text(text: str) -> str:
    """``text`` safe to print to a terminal: escape sequences and control characters gone."""
    return _CONTROLS.sub("", _ESCAPES.sub("", text))


def spreadsheet_cell(value: object) -> object:
    """A CSV cell a spreadsheet will not run: text starting = + - @ tab or CR gets a ``'``."""
    if isinstance(value, str) and value.startswith(_FORMULA_LEADS):
        return "'" + value
    return value


def policy_of(report: RunReport) -> Policy:
    """The policy the report was decided with."""
    return Policy.model_validate(report.policy)


def all_claims(report: RunReport) -> list[ClaimJudgement]:
    """Every claim of every analysed answer, in report order."""
    return [c for a in report.analyses for c in a.claims]


def severe_claims(report: RunReport, limit: int | None = None) -> list[ClaimJudgement]:
    """Hallucinated claims of the gated system, most severe and most confident first."""
    policy = policy_of(report)
    gated = report.decision.gated_system
    bad = [
        c
        for c in all_claims(report)
        if c.system == gated and is_hallucinated(c.verdict, policy.count_out_of_scope)
    ]
    bad.sort(key=lambda c: (-(c.severity.rank if c.severity else -1), -c.score, c.claim_id))
    return bad[:limit] if limit is not None else bad


def review_of(report: RunReport) -> ReviewRecord | None:
    """The review record an exported report carries, or None for a report as judged."""
    return report.review if isinstance(report, ReviewedReport) else None


def claim_reviews(report: RunReport) -> dict[str, ClaimReview]:
    """The reviewed claims of a report by claim id (empty without a review record)."""
    record = review_of(report)
    return {r.claim_id: r for r in record.claims} if record else {}


def review_state(report: RunReport, claim_id: str, reviewed: bool) -> str:
    """'reviewed', 'pending' (in the queue, no review) or '' (not in the queue)."""
    if reviewed:
        return "reviewed"
    return "pending" if claim_id in set(report.decision.pending_review) else ""


MEASURE_TITLES: dict[str, str] = {
    **MEASURE_LABELS,
    "abstentions": "abstentions",
    "corrected": "answers with a hallucination, review-corrected",
}
"""The heading of each measure every export shows (``summary.measure_rows`` keys)."""

RATE_FIELDS: dict[str, str] = {
    "answers": "answers_with_a_hallucination",
    "claims": "claims_hallucinated",
    "corrected": "answers_with_a_hallucination_corrected",
}
"""Field names of the hallucination rates in CSV columns and JUnit properties (a change adds
``_change``): the answer level, the claim level, and the answer level corrected by the
reviewed audit sample (empty, or no property, until the audit has a label)."""


REVIEW_FIELDS: dict[str, str] = {
    "judge_verdict": "judge's verdict",
    "judge_hallucination_type": "judge's type",
    "judge_severity": "judge's severity",
    "verdict": "verdict in force",
    "hallucination_type": "type in force",
    "severity": "severity in force",
    "review_state": "review",
    "review_change": "review changed",
    "reviewer": "reviewer",
    "review_comment": "review comment",
    "reviewed_at": "reviewed at (UTC)",
}
"""Per-claim review fields every export shows: column name -> heading a person reads."""


def _value(x: object) -> str:
    return "" if x is None else str(getattr(x, "value", x))


def review_fields(
    report: RunReport, claim: ClaimJudgement, review: ClaimReview | None
) -> dict[str, str]:
    """``REVIEW_FIELDS`` of one claim of the effective report: the judge's reading beside the
    one in force (the same when nobody reviewed it), and who reviewed it, when and why."""
    verdict = review.judge_verdict if review else claim.verdict
    htype = review.judge_hallucination_type if review else claim.hallucination_type
    severity = review.judge_severity if review else claim.severity
    return {
        "judge_verdict": _value(verdict),
        "judge_hallucination_type": _value(htype),
        "judge_severity": _value(severity),
        "verdict": _value(claim.verdict),
        "hallucination_type": _value(claim.hallucination_type),
        "severity": _value(claim.severity),
        "review_state": review_state(report, claim.claim_id, review is not None),
        "review_change": "" if review is None else ("changed" if review.changed else "confirmed"),
        "reviewer": review.reviewer if review else "",
        "review_comment": review.comment if review else "",
        "reviewed_at": review.reviewed_at if review else "",
    }


def signoff_line(s: SignOff) -> str:
    """'#2 [in force] APPROVED by carol at T on decision PASSED: comment' (or stale/superseded)."""
    mark = "[STALE: overrides were recorded after it]" if s.stale else f"[{s.standing}]"
    gate = " (gate overridden)" if s.override_gate else ""
    return (
        f"#{s.id} {mark} {s.decision.value} by {s.reviewer} at {s.created_at} on decision "
        f"{s.decision_status.value}{gate}: {s.comment}"
    )


def signoff_in_force_text(record: ReviewRecord | None) -> str:
    """The sign-off in force in one line, or why there is none."""
    if record is None or not record.signoffs:
        return "none"
    s = record.signoff_in_force
    if s is None:
        return "none (overrides were recorded after the newest; sign off again)"
    gate = " (gate overridden)" if s.override_gate else ""
    return (
        f"#{s.id} {s.decision.value} by {s.reviewer} at {s.created_at} on decision "
        f"{s.decision_status.value}{gate}: {s.comment}"
    )


def reading(verdict: object, htype: object = None, severity: object = None) -> str:
    """A claim's labels in one phrase, worst first: 'CRITICAL CONTRADICTED DISTORTION'."""
    return " ".join(_value(x) for x in (severity, verdict, htype) if x)


def review_note(review: ClaimReview) -> str:
    """'judge: CRITICAL CONTRADICTED DISTORTION; in force: SUPPORTED (changed by ana at T):
    comment' — the judge's reading beside the one in force, who decided, when and why."""
    judge = reading(review.judge_verdict, review.judge_hallucination_type, review.judge_severity)
    now = reading(review.verdict, review.hallucination_type, review.severity)
    how = "changed" if review.changed else "confirmed"
    more = f", {review.n_overrides} reviews" if review.n_overrides > 1 else ""
    return (
        f"judge: {judge}; in force: {now} ({how} by {review.reviewer} at {review.reviewed_at}"
        f"{more}): {review.comment}"
    )

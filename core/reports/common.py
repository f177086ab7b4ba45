"""Helpers shared by the report writers: which claims to show, and who reviewed them.

Every writer takes the *effective* report (overrides already applied) plus, optionally, the
override history, so exports show what the gate decided on and who changed what.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from ..inputs.policy import Policy
from ..models import ClaimJudgement, RunReport
from ..scoring.metrics import is_hallucinated


class OverrideLike(Protocol):
    """What a report needs of an override (halgate.store.Override satisfies it)."""

    id: int
    claim_id: str
    reviewer: str
    comment: str


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


def latest_overrides(overrides: Sequence[OverrideLike]) -> dict[str, OverrideLike]:
    """The override in force per claim (highest id)."""
    latest: dict[str, OverrideLike] = {}
    for o in sorted(overrides, key=lambda o: o.id):
        latest[o.claim_id] = o
    return latest


def review_state(report: RunReport, claim_id: str, overridden: bool) -> str:
    """'reviewed', 'pending' (in the queue, no review) or '' (not in the queue)."""
    if overridden:
        return "reviewed"
    return "pending" if claim_id in set(report.decision.pending_review) else ""

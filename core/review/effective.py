"""Effective verdicts: the judge's records with reviewers' overrides applied (pure functions).

Kept apart from the database code so the rule "newest override in force, judge verdict never
edited in place" is testable without SQLite and reusable for reports loaded from files.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from ..models import ClaimJudgement, RunReport, Verdict
from ..models.review import AgreementCell, JudgeAgreement, Override
from ..scoring.memo import remembered
from ..scoring.pairwise_gate import review_id
from ..scoring.rescore import rescore
from .audit import audit_input
from .queue import decided_pairs, queue_ids


def canonical_text(report: RunReport) -> str:
    """The report's canonical JSON (sorted keys, UTF-8 as is): what ``report_hash`` hashes,
    and what the store keeps, so a read can check the hash without re-dumping it."""
    return json.dumps(report.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)


def report_hash(report: RunReport) -> str:
    """sha256 of the report's canonical JSON: identifies exactly what was judged."""
    return _sha256(canonical_text(report))


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def stored_text_hash(text: str, recorded: str | None = None) -> str:
    """sha256 of a stored report's JSON text, read as data rather than through today's model:
    the hash ``report_hash`` gave when it was saved, even after a newer halgate added fields
    with defaults (re-dumping the model would add them and read every older run as altered).

    A text stored in canonical form (``canonical_text``) hashes to ``recorded`` as it is, which
    proves it canonical: then the parse and re-dump (seconds for a 10,000-case run) are
    skipped. Any other text, including one altered since, is canonicalised and hashed."""
    raw = _sha256(text)
    if recorded is not None and raw == recorded:
        return raw
    return _sha256(json.dumps(json.loads(text), sort_keys=True, ensure_ascii=False))


def inputs_hash(report_digest: str, overrides: Iterable[Override]) -> str:
    """Hash of everything a decision rests on: the judged report and every override id.

    A sign-off stores it; a later override changes it, which marks the sign-off stale.
    """
    ids = ",".join(str(o.id) for o in sorted(overrides, key=lambda o: o.id))
    return hashlib.sha256(f"{report_digest}|{ids}".encode()).hexdigest()


def apply_override(claim: ClaimJudgement, override: Override) -> ClaimJudgement:
    """One override on top of a claim; unset fields keep the value in force.

    Turning a claim SUPPORTED clears its type and severity (they describe hallucinations
    only) unless the reviewer set them explicitly.
    """
    update: dict[str, Any] = {}
    if override.verdict is not None:
        update["verdict"] = override.verdict
        if override.verdict == Verdict.SUPPORTED:
            update["hallucination_type"] = None
            update["severity"] = None
    if override.hallucination_type is not None:
        update["hallucination_type"] = override.hallucination_type
    if override.severity is not None:
        update["severity"] = override.severity
    return claim.model_copy(update=update)


def latest_by_claim(overrides: Iterable[Override]) -> dict[str, Override]:
    """The override in force per claim: the one with the highest id."""
    latest: dict[str, Override] = {}
    for o in sorted(overrides, key=lambda o: o.id):
        latest[o.claim_id] = o
    return latest


def with_overrides(report: RunReport, overrides: Sequence[Override]) -> tuple[RunReport, set[str]]:
    """The report with every claim's overrides folded in, oldest first, and the reviewed ids.

    Metrics are not recomputed here; see ``effective_report``. An override of a pairwise case
    (``pairwise:CASE``) marks it reviewed and, with a ``preference``, puts the reviewer's A / B /
    TIE in force for it; overrides of unknown ids are ignored.
    """
    by_claim: dict[str, list[Override]] = {}
    for o in sorted(overrides, key=lambda o: o.id):
        by_claim.setdefault(o.claim_id, []).append(o)
    reviewed: set[str] = set()
    analyses = []
    for a in report.analyses:
        if not any(c.claim_id in by_claim for c in a.claims):
            analyses.append(a)  # untouched: shared, never mutated (reports are immutable)
            continue
        claims = []
        for c in a.claims:
            for o in by_claim.get(c.claim_id, []):
                c = apply_override(c, o)
                reviewed.add(c.claim_id)
            claims.append(c)
        analyses.append(a.model_copy(update={"claims": claims}))
    update: dict[str, Any] = {"analyses": analyses}
    pairs = pair_review_ids(report)
    reviewed |= {o.claim_id for o in overrides if o.claim_id in pairs}
    if report.pairwise is not None and pairs & reviewed:
        update["pairwise"] = decided_pairs(report.pairwise, latest_by_claim(overrides))
    return report.model_copy(update=update), reviewed


def claim_index(report: RunReport) -> dict[str, tuple[int, int]]:
    """Claim id -> (answer, claim) position in ``report.analyses``: the same positions in
    every report derived from it by overrides (a dict read instead of one built over every
    claim after each review; remembered for the report, which must not be changed)."""
    return remembered(
        report,
        "claim_index",
        lambda: {
            c.claim_id: (i, j)
            for i, a in enumerate(report.analyses)
            for j, c in enumerate(a.claims)
        },
    )


def claim_at(report: RunReport, position: tuple[int, int]) -> ClaimJudgement:
    """The claim at a ``claim_index`` position."""
    return report.analyses[position[0]].claims[position[1]]


def pair_review_ids(report: RunReport) -> set[str]:
    """Ids under which a reviewer's decision on a pairwise case is recorded (``pairwise:ID``)."""
    return {review_id(p.case_id) for p in report.pairwise or []}


def effective_report(report: RunReport, overrides: Sequence[Override]) -> RunReport:
    """Overrides applied, then metrics, comparison and gate decision recomputed from them.

    The gate's review rule counts the run's whole review queue (``queue.review_ids``): the
    claims the judge queued stay in it after a reviewer cleared them, as reviewed, so the
    decision's "P of N claim(s) ... await a reviewer" has the N every other view shows.
    The audit sample's labels (``audit:CASE:SYSTEM``) add the audit-corrected rates.
    """
    patched, reviewed = with_overrides(report, overrides)
    audit = audit_input(report, overrides)
    return rescore(patched, reviewed=reviewed, extra_review_ids=queue_ids(report), audit=audit)


def judge_agreement(
    run_id: str, judged: RunReport, overrides: Sequence[Override]
) -> JudgeAgreement:
    """Per judge verdict and severity: share of reviewed claims whose verdict was kept."""
    index = claim_index(judged)
    by_claim: dict[str, list[Override]] = {}
    for o in sorted(overrides, key=lambda o: o.id):
        if o.claim_id in index:
            by_claim.setdefault(o.claim_id, []).append(o)
    result = JudgeAgreement(run_id=run_id)
    for claim_id in sorted(by_claim, key=index.__getitem__):  # in the report's order
        c = claim_at(judged, index[claim_id])
        after = c
        for o in by_claim[claim_id]:
            after = apply_override(after, o)
        kept = after.verdict == c.verdict
        severity = c.severity.value if c.severity else "NONE"
        for cell in (
            result.overall,
            result.by_verdict.setdefault(c.verdict.value, AgreementCell()),
            result.by_severity.setdefault(severity, AgreementCell()),
        ):
            cell.reviewed += 1
            cell.kept += int(kept)
            cell.rate = cell.kept / cell.reviewed
    return result

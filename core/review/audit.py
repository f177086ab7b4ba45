"""The audit sample: a seeded random sample of answers reviewers label as a whole.

The severity-ordered review queue shows reviewers the claims most likely to matter; it is
not a random sample, so what reviewers find there cannot correct a rate. The audit sample
can: ``policy.audit_sample`` cases (a count, or a percentage of the cases) are drawn at
random, and every judged system's answer to each drawn case is an audit item
``audit:CASE:SYSTEM``, labelled HALLUCINATED or FAITHFUL as a whole answer (the claims are
shown to help). The labels feed the prediction-powered correction (``scoring.corrected``).

Which answers: those the answer-level rate counts (rated answers). A harness error is not
judged and an abstention on a case that expects an answer is counted apart (abstentions), so
neither is drawn: a drawn case contributes an item for each system whose answer there is
rated. An answer to a should-abstain case is counted hallucinated by rule, so it is labelled
by the rule, not shown. Both exclusions depend on answers, never on verdicts, so the sample
stays the same after any override.

The draw is a permutation of the eligible cases (suite order) seeded by the run's
``audit_seed``, which the store draws (a fresh secret random value) when it saves or imports
the run, records in the ``runs`` table and in the audit log, and sets on every report it
loads. No field of a report chooses it: a report's own value is discarded on save, and a
re-import of the same report elsewhere gets a new sample. A report no store has seeded has
no sample. One stored run always audits the same cases; its first k cases, in draw order,
are the sample (labelling in that order keeps any prefix a random sample too).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence

import numpy as np
from pydantic import Field

from ..inputs.policy import Policy
from ..models import AnswerAnalysis, AuditInput, AuditLabel, Mode, Record, RunReport
from ..models.review import Override
from ..scoring.corrected import AUDIT_PREFIX, audit_id
from ..scoring.memo import remembered
from ..scoring.metrics import outcome_counts, should_abstain_ids


class AuditItem(Record):
    """One answer of the audit sample as a reviewer sees it: the whole answer with its claims
    (effective verdicts), the judge's answer label and the label in force, if any."""

    review_id: str = Field(description="The id its label is recorded under: audit:CASE:SYSTEM.")
    case_id: str
    system: str
    analysis: AnswerAnalysis = Field(description="The answer's claims, overrides applied.")
    judge_hallucinated: bool = Field(
        description="The judge's label (effective verdicts): some claim counts as hallucinated."
    )
    label: AuditLabel | None = Field(default=None, description="The reviewer's label in force.")
    latest_override: Override | None = None

    @property
    def reviewed(self) -> bool:
        """A reviewer's label is in force."""
        return self.label is not None


def draw_audit_seed() -> int:
    """A fresh secret seed for a run's audit sample (63 bits: an SQLite INTEGER)."""
    return secrets.randbits(63)


def _rated(report: RunReport, policy: Policy) -> dict[str, dict[str, AnswerAnalysis]]:
    """System -> case -> analysis, for the answers the answer-level rate counts (remembered
    for the report: asked again after every review of a run)."""
    oos = policy.count_out_of_scope
    return remembered(report, ("rated", oos), lambda: _rated_now(report, oos))


def _rated_now(report: RunReport, count_out_of_scope: bool) -> dict[str, dict[str, AnswerAnalysis]]:
    abstain = should_abstain_ids(report.cases)
    out: dict[str, dict[str, AnswerAnalysis]] = {s: {} for s in report.systems}
    for a in report.analyses:
        if a.system not in out or a.harness_error is not None:
            continue
        if outcome_counts(a, a.case_id in abstain, count_out_of_scope).answers[1]:
            out[a.system][a.case_id] = a
    return out


def audit_order(report: RunReport, policy: Policy | None = None) -> list[str]:
    """Every eligible case in draw order: the sample is its first k, and labelling on
    continues it in the same order (empty when the policy turns the audit off, in pairwise
    mode, which measures preferences, and for a report no store has seeded)."""
    policy = policy or Policy.model_validate(report.policy)
    if report.mode == Mode.PAIRWISE or policy.audit_sample in (0, "0%"):
        return []
    if report.audit_seed is None:  # not drawn by a store: no sample anybody could choose
        return []
    rated = _rated(report, policy)

    def draw() -> list[str]:
        eligible = [c.case_id for c in report.cases if any(c.case_id in r for r in rated.values())]
        order = np.random.default_rng(report.audit_seed).permutation(len(eligible))
        return [eligible[i] for i in order]

    return list(remembered(report, ("audit_order", policy.count_out_of_scope), draw))


def audit_cases(report: RunReport, policy: Policy | None = None) -> list[str]:
    """The cases drawn into a run's audit sample (the policy's size), in draw order."""
    policy = policy or Policy.model_validate(report.policy)
    order = audit_order(report, policy)
    return order[: policy.audit_size(len(order))]


def sample_in_force(
    report: RunReport, latest: Mapping[str, Override], policy: Policy | None = None
) -> list[str]:
    """The sample the correction reads: the policy's k cases, continued in draw order by
    every further case whose answers are all labelled (a sequential audit: any prefix of the
    draw order is a random sample, so labelling on keeps it one)."""
    policy = policy or Policy.model_validate(report.policy)
    order = audit_order(report, policy)
    k = policy.audit_size(len(order))
    keys = _item_keys(report, policy)
    done = k
    while done < len(order) and all(
        audit_id(order[done], s) in latest for s in keys.get(order[done], [])
    ):
        done += 1
    return order[:done]


def _item_keys(report: RunReport, policy: Policy) -> dict[str, list[str]]:
    """Case -> the systems whose answer there is an audit item (rated, not should-abstain)."""
    rated = _rated(report, policy)
    abstain = should_abstain_ids(report.cases)
    return remembered(
        report,
        ("item_keys", policy.count_out_of_scope),
        lambda: {
            c.case_id: [s for s in report.systems if c.case_id in rated[s]]
            for c in report.cases
            if c.case_id not in abstain
        },
    )


def audit_labels(overrides: Sequence[Override]) -> dict[str, Override]:
    """The label in force per audit id: the newest override carrying a label."""
    latest: dict[str, Override] = {}
    for o in sorted(overrides, key=lambda o: o.id):
        if o.claim_id.startswith(AUDIT_PREFIX) and o.label is not None:
            latest[o.claim_id] = o
    return latest


def _hallucinated(a: AnswerAnalysis, should_abstain: bool, policy: Policy) -> bool:
    return bool(outcome_counts(a, should_abstain, policy.count_out_of_scope).answers[0])


def audit_input(judged: RunReport, overrides: Sequence[Override]) -> AuditInput | None:
    """What the correction needs: per system the drawn cases it has a rated answer to, the
    reviewers' labels in force and the judge's own labels.

    None when there is no audit sample, and while no answer of it is labelled unless the gate
    waits for it (``gate_on_corrected``): a run nobody audits reports what it did before.
    """
    policy = Policy.model_validate(judged.policy)
    latest = audit_labels(overrides)
    if not latest and not policy.gate_on_corrected:
        return None
    drawn = sample_in_force(judged, latest, policy)
    if not drawn:
        return None
    rated = _rated(judged, policy)
    abstain = should_abstain_ids(judged.cases)
    sample = {s: [c for c in drawn if c in rated[s]] for s in judged.systems}
    labels = {
        s: {
            c: latest[audit_id(c, s)].label == AuditLabel.HALLUCINATED
            for c in cases
            if audit_id(c, s) in latest
        }
        for s, cases in sample.items()
    }
    judge = {
        s: {c: _hallucinated(rated[s][c], c in abstain, policy) for c in cases}
        for s, cases in sample.items()
    }
    keys = _item_keys(judged, policy)
    rest = audit_order(judged, policy)[len(drawn) :]
    ahead = [sum(audit_id(c, s) not in latest for s in keys.get(c, [])) for c in rest]
    return AuditInput(
        sample=sample, labels=labels, judged=judge, order=drawn, ahead=ahead, ahead_cases=rest
    )


def _audit_keys(
    judged: RunReport, latest: Mapping[str, Override] | None = None, offer_next: bool = True
) -> list[tuple[str, str]]:
    """(case, system) of every audit item: draw order, then system order; answers to
    should-abstain cases are labelled by rule and are no item. With ``offer_next``, once the
    sample in force is labelled the next case of the draw order is an item too (labelling
    on continues the sample)."""
    policy = Policy.model_validate(judged.policy)
    keys = _item_keys(judged, policy)
    order = audit_order(judged, policy)
    cases = sample_in_force(judged, latest or {}, policy)
    complete = all(audit_id(c, s) in (latest or {}) for c in cases for s in keys.get(c, []))
    if offer_next and complete and len(cases) < len(order):
        cases = order[: len(cases) + 1]
    return [(c, s) for c in cases for s in keys.get(c, [])]


def audit_review_ids(judged: RunReport, latest: Mapping[str, Override] | None = None) -> list[str]:
    """The ids of a run's audit items (audit:CASE:SYSTEM), in the order reviewers see them:
    the sample, and once it is labelled the next answers of the draw order."""
    return [audit_id(c, s) for c, s in _audit_keys(judged, latest)]


def audit_items(
    judged: RunReport,
    effective: RunReport,
    latest: Mapping[str, Override] | None = None,
    offer_next: bool = False,
) -> list[AuditItem]:
    """The audit sample as review items, in draw order, with the label in force of each
    (``latest``: the labels in force by id, ``audit_labels`` of the run's overrides)."""
    latest = latest or {}
    policy = Policy.model_validate(effective.policy)
    by_key = {(a.case_id, a.system): a for a in effective.analyses}
    out = []
    for case_id, system in _audit_keys(judged, latest, offer_next):
        a, rid = by_key[(case_id, system)], audit_id(case_id, system)
        o = latest.get(rid)
        out.append(
            AuditItem(
                review_id=rid,
                case_id=case_id,
                system=system,
                analysis=a,
                judge_hallucinated=_hallucinated(a, False, policy),
                label=o.label if o else None,
                latest_override=o,
            )
        )
    return out

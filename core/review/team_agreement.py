"""Agreement figures of team review: between reviewers, and between the judge and people.

Between reviewers, on the items two or more of them labelled blind: the share of items
whose labels all agree, Cohen's kappa of each item's first two labels and Fleiss' kappa of
its first m labels (statsmodels' ``inter_rater``), and Krippendorff's alpha (nominal) over
every label (the ``krippendorff`` package), which takes items with any number of labels.

Between the judge and people, on every item with a human label in force (agreed,
adjudicated, or one reviewer's): a confusion matrix of the judge's label against the
human one (claim verdicts, or HALLUCINATED / FAITHFUL for audit answers), and per case risk
level the counts on "hallucinated" with the judge's precision and recall there.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import krippendorff
import numpy as np

from ..inputs.policy import Policy
from ..models import AuditLabel, RunReport, Verdict, is_hallucinated
from ..models.review import Override
from ..models.team import (
    JudgeHumanAgreement,
    PanelItem,
    ReviewerAgreement,
    RiskConfusion,
    TeamAgreement,
)
from .audit import audit_items, audit_labels
from .effective import latest_by_claim, with_overrides

HALLUCINATED = AuditLabel.HALLUCINATED.value
FAITHFUL = AuditLabel.FAITHFUL.value


def _finite(value: float) -> float | None:
    return float(value) if math.isfinite(value) else None


def _codes(items: Sequence[PanelItem]) -> dict[str, int]:
    names = sorted({x.label for item in items for x in item.labels})
    return {name: i for i, name in enumerate(names)}


def _cohen(items: Sequence[PanelItem], codes: dict[str, int]) -> float | None:
    pairs = np.array([[codes[i.labels[0].label], codes[i.labels[1].label]] for i in items])
    if len(pairs) < 2 or len(codes) < 2:
        return None
    # statsmodels (with pandas and scipy) takes 0.8 CPU seconds to import: every `halgate`
    # command would pay it, and only team review reads kappas.
    from statsmodels.stats.inter_rater import cohens_kappa, to_table

    table = to_table(pairs, bins=len(codes))[0]
    with np.errstate(divide="ignore", invalid="ignore"):
        return _finite(cohens_kappa(table).kappa)


def _fleiss(items: Sequence[PanelItem], codes: dict[str, int]) -> float | None:
    m = min(len(i.labels) for i in items)
    rows = np.array([[codes[x.label] for x in i.labels[:m]] for i in items])
    if len(rows) < 2 or len(codes) < 2:
        return None
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa  # see _cohen

    counts = aggregate_raters(rows, n_cat=len(codes))[0]
    with np.errstate(divide="ignore", invalid="ignore"):
        return _finite(fleiss_kappa(counts))


def _alpha(items: Sequence[PanelItem], codes: dict[str, int]) -> float | None:
    raters = sorted({x.reviewer for i in items for x in i.labels})
    data = np.full((len(raters), len(items)), np.nan)
    for col, item in enumerate(items):
        for x in item.labels:
            data[raters.index(x.reviewer), col] = codes[x.label]
    if len(codes) < 2:
        return None
    try:
        return _finite(krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"))
    except ValueError:  # too few pairable values
        return None


def reviewer_agreement(items: Sequence[PanelItem]) -> ReviewerAgreement | None:
    """The inter-reviewer figures over the items with two or more labels (None without)."""
    multi = [i for i in items if len(i.labels) >= 2]
    if not multi:
        return None
    codes = _codes(multi)
    same = sum(1 for i in multi if len({x.label for x in i.labels}) == 1)
    return ReviewerAgreement(
        n_items=len(multi),
        n_labels=sum(len(i.labels) for i in multi),
        raters=len({x.reviewer for i in multi for x in i.labels}),
        percent_agreement=same / len(multi),
        cohen_kappa=_cohen(multi, codes),
        fleiss_kappa=_fleiss(multi, codes),
        krippendorff_alpha=_alpha(multi, codes),
        disputed=sum(1 for i in items if i.state == "disputed"),
        adjudicated=sum(1 for i in items if i.state == "adjudicated"),
    )


def _pairs(judged: RunReport, overrides: Sequence[Override]) -> list[tuple[str, str, str, bool]]:
    """(judge label, human label, risk level, count out of scope) per item with a human label."""
    policy = Policy.model_validate(judged.policy)
    risk = {c.case_id: (c.risk_level.value if c.risk_level else "NONE") for c in judged.cases}
    out = []
    for item in audit_items(judged, judged, audit_labels(overrides)):
        if item.label is not None:
            judge = HALLUCINATED if item.judge_hallucinated else FAITHFUL
            out.append((judge, item.label.value, risk.get(item.case_id, "NONE"), False))
    latest = latest_by_claim(overrides)
    patched = with_overrides(judged, overrides)[0]
    after = {c.claim_id: c for a in patched.analyses for c in a.claims}
    for a in judged.analyses:
        for c in a.claims:
            if c.claim_id in latest:
                human = after[c.claim_id].verdict.value
                out.append((c.verdict.value, human, risk.get(c.case_id, "NONE"), True))
    return [(j, h, r, policy.count_out_of_scope and oos) for j, h, r, oos in out]


def _flag(label: str, count_out_of_scope: bool) -> bool:
    if label in (HALLUCINATED, FAITHFUL):
        return label == HALLUCINATED
    return is_hallucinated(Verdict(label), count_out_of_scope)


def _confusion(flags: Sequence[tuple[bool, bool]]) -> RiskConfusion:
    tp = sum(1 for j, h in flags if j and h)
    fp = sum(1 for j, h in flags if j and not h)
    fn = sum(1 for j, h in flags if h and not j)
    tn = len(flags) - tp - fp - fn
    return RiskConfusion(
        tp=tp,
        fp=fp,
        fn=fn,
        tn=tn,
        precision=tp / (tp + fp) if tp + fp else None,
        recall=tp / (tp + fn) if tp + fn else None,
    )


def judge_human_agreement(
    judged: RunReport, overrides: Sequence[Override]
) -> JudgeHumanAgreement | None:
    """The judge against the human labels in force (None while there are none)."""
    pairs = _pairs(judged, overrides)
    if not pairs:
        return None
    matrix: dict[str, dict[str, int]] = {}
    flags: dict[str, list[tuple[bool, bool]]] = {}
    for judge, human, risk, oos in pairs:
        row = matrix.setdefault(judge, {})
        row[human] = row.get(human, 0) + 1
        flags.setdefault(risk, []).append((_flag(judge, oos), _flag(human, oos)))
    return JudgeHumanAgreement(
        n=len(pairs),
        by_verdict=matrix,
        by_risk={risk: _confusion(f) for risk, f in sorted(flags.items())},
        overall=_confusion([f for fs in flags.values() for f in fs]),
    )


def team_agreement(
    judged: RunReport, overrides: Sequence[Override], items: Sequence[PanelItem]
) -> TeamAgreement:
    """Both agreement figures and the disputed items of one run."""
    per_item = Policy.model_validate(judged.policy).reviews_per_item
    return TeamAgreement(
        reviews_per_item=per_item,
        items=sum(1 for i in items if i.labels),
        reviewers=reviewer_agreement(items),
        judge=judge_human_agreement(judged, overrides),
        disputed_items=[i.item_id for i in items if i.state == "disputed"],
    )

"""The self-test's figures, each from hand-made items."""

from __future__ import annotations

from halgate.models import Severity, Verdict
from halgate.selftest.report import SelftestItem, risk_score, transform_score, worst_items
from halgate.selftest.targets import check_targets


def item(transform="verbatim", family="copy", keeps=True, verdict=Verdict.SUPPORTED, **kw):
    return SelftestItem(
        transform=transform,
        family=family,
        preserves_truth=keeps,
        case_id="c",
        doc_id="d",
        source="s",
        claim="c",
        verdict=verdict,
        **kw,
    )


def test_a_preserving_item_is_right_only_when_supported_and_a_changing_one_otherwise():
    assert item().right and not item(verdict=Verdict.PARTIALLY_SUPPORTED).right
    assert item(keeps=False, verdict=Verdict.UNSUPPORTED).right
    assert not item(keeps=False).right
    assert not item(keeps=False, verdict=None).right  # no claim read: nothing was caught


def test_transform_score_counts_false_alarms_contradictions_and_severities():
    items = [
        item(),
        item(verdict=Verdict.CONTRADICTED, severity=Severity.CRITICAL),
        item(verdict=Verdict.PARTIALLY_SUPPORTED, severity=Severity.LOW),
        item(),
    ]
    s = transform_score("verbatim", "copy", True, "", items)
    assert (s.claims, s.right, s.share_right, s.false_alarms, s.contradicted) == (4, 2, 0.5, 2, 1)
    assert s.severities == {"CRITICAL": 1, "LOW": 1}
    assert transform_score("x", "copy", True, "", []).share_right is None


def test_risk_score_splits_preserving_from_changing():
    items = [
        item(),
        item(
            keeps=False,
            family="polarity",
            verdict=Verdict.CONTRADICTED,
            severity=Severity.CRITICAL,
            queued=True,
        ),
        item(
            keeps=False,
            family="polarity",
            verdict=Verdict.PARTIALLY_SUPPORTED,
            severity=Severity.LOW,
        ),
    ]
    r = risk_score("CRITICAL", items)
    assert (r.preserving, r.preserving_right, r.changing) == (1, 1.0, 2)
    assert (r.changing_caught, r.changing_severe, r.changing_queued) == (1.0, 0.5, 0.5)


def test_targets_are_met_at_their_share_and_null_without_claims():
    items = [item(), item(verdict=Verdict.PARTIALLY_SUPPORTED)]
    targets = {t.name: t for t in check_targets(items)}
    assert targets["copies SUPPORTED"].observed == 0.5 and targets["copies SUPPORTED"].met is False
    assert targets["copies never CRITICAL"].met is True
    assert targets["polarity flips CONTRADICTED"].met is None


def test_critical_target_needs_a_severe_and_queued_reading_on_a_safety_sentence():
    base = dict(keeps=False, family="polarity", risk_level=Severity.CRITICAL, critical_fact=True)
    items = [
        item(verdict=Verdict.CONTRADICTED, severity=Severity.CRITICAL, queued=True, **base),
        item(verdict=Verdict.PARTIALLY_SUPPORTED, severity=Severity.LOW, queued=True, **base),
    ]
    target = next(t for t in check_targets(items) if t.name.startswith("CRITICAL cases"))
    assert (target.observed, target.met) == (0.5, False)


def test_worst_readings_put_a_critical_copy_first_and_keep_two_per_transform():
    items = [
        item(keeps=False, family="polarity", transform="negation_flip", score=0.1),
        item(verdict=Verdict.CONTRADICTED, severity=Severity.CRITICAL),
        item(verdict=Verdict.PARTIALLY_SUPPORTED, severity=Severity.LOW),
        item(verdict=Verdict.PARTIALLY_SUPPORTED, severity=Severity.LOW),
        item(),
    ]
    worst = worst_items(items)
    assert worst[0].severity == Severity.CRITICAL
    assert [i.transform for i in worst].count("verbatim") == 2 and len(worst) == 3


def test_a_share_just_short_of_all_does_not_read_100_percent():
    from halgate.selftest import share_text as _pct

    assert _pct(314 / 315) == "99.7%"
    assert _pct(1 / 315) == "0.3%"
    assert _pct(1.0) == "100%"
    assert _pct(0.0) == "0%"
    assert _pct(0.94) == "94%"
    assert _pct(None) == "-"

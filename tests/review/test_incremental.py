"""An overturn redoes only what it changes (issue #31 item 3): ``review_run_since`` gives the
same reviewed run as ``review_run`` on the whole history, step after step, for every kind of
override (verdict, type, severity, a second one on the same claim, a confirm, an audit label)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from halgate.inputs.policy import Policy
from halgate.inputs.suite import load_suite
from halgate.judges.registry import create_judge
from halgate.models import Override, RunReport
from halgate.review import audit_review_ids, review_run
from halgate.review.incremental import review_run_since
from halgate.run.engine import run_suite

EXAMPLE = Path(__file__).resolve().parents[2] / "data" / "examples" / "acme-helpdesk"


@pytest.fixture(scope="module")
def judged() -> RunReport:
    report = run_suite(load_suite(EXAMPLE), create_judge("offline"), Policy(audit_sample=6))
    return report.model_copy(update={"audit_seed": 5})  # what the store draws on saving


def _override(i: int, claim_id: str, **fields: str) -> Override:
    return Override(id=i, run_id="r", claim_id=claim_id, comment="why", reviewer="ana",
                    created_at="2026-01-06T01:00:00+00:00", **fields)  # fmt: skip


def _history(report: RunReport) -> list[Override]:
    bad = [c for a in report.analyses for c in a.claims if c.verdict.value != "SUPPORTED"]
    good = [c for a in report.analyses for c in a.claims if c.verdict.value == "SUPPORTED"]
    audit = audit_review_ids(report)
    assert len(bad) >= 3 and good and audit
    return [
        _override(1, bad[0].claim_id, verdict="SUPPORTED"),
        _override(
            2,
            good[0].claim_id,
            verdict="CONTRADICTED",
            hallucination_type="DISTORTION",
            severity="CRITICAL",
        ),  # fmt: skip
        _override(3, bad[1].claim_id, severity="LOW"),
        _override(4, bad[0].claim_id, verdict="UNSUPPORTED"),  # the same claim again
        _override(5, bad[2].claim_id),  # a confirm
        _override(6, audit[0], label="HALLUCINATED"),  # whole answer: done in full
        _override(7, good[0].claim_id, verdict="SUPPORTED"),  # incremental after a label
    ]


def test_each_step_equals_the_whole_review(judged: RunReport):
    history = _history(judged)
    run = review_run("r", judged, [])
    for n in range(1, len(history) + 1):
        previous, run = run, review_run_since(run, judged, history[:n])
        pairs = zip(run.report.analyses, previous.report.analyses, strict=True)
        kept = sum(a is b for a, b in pairs)
        if history[n - 1].label is None:  # one claim's answer redone, every other one kept
            assert kept == len(judged.analyses) - 1, f"after override {n}"
        whole = review_run("r", judged, history[:n])
        assert run.report == whole.report, f"after override {n}"
        assert run.queue == whole.queue and run.agreement == whole.agreement
        assert run.overrides == whole.overrides
    assert run.report.decision != review_run("r", judged, []).report.decision  # it moved


def test_a_history_that_is_not_the_previous_one_plus_more_is_done_whole(judged: RunReport):
    history = _history(judged)
    later = review_run("r", judged, history[:3])
    other = [history[0], history[4]]  # overrides 2 and 3 gone: not an extension
    assert review_run_since(later, judged, other).report == review_run("r", judged, other).report
    rejudged = judged.model_copy()  # another read of the run: nothing is shared
    again = review_run_since(later, rejudged, history[:4])
    assert again.report == review_run("r", rejudged, history[:4]).report


def test_an_overturn_recomputes_the_rates_of_the_changed_system_only(
    judged: RunReport, monkeypatch: pytest.MonkeyPatch
):
    """The other system's answers are the same objects: its rates are the last ones."""
    import halgate.scoring.reuse as reuse

    computed: list[str] = []
    real = reuse.system_rates

    def counted(answers: Any, system: str, *args: Any) -> Any:
        computed.append(system)
        return real(answers, system, *args)

    monkeypatch.setattr(reuse, "system_rates", counted)
    run = review_run("r", judged, [])
    assert computed == judged.systems
    claim = next(
        c for a in judged.analyses if a.system == "candidate" for c in a.claims
        if c.verdict.value != "SUPPORTED"
    )  # fmt: skip
    computed.clear()
    history = [_override(1, claim.claim_id, verdict="SUPPORTED")]
    after = review_run_since(run, judged, history)
    assert computed == ["candidate"]
    assert after.report == review_run("r", judged, history).report
    assert after.report.rates["candidate"] != run.report.rates["candidate"]

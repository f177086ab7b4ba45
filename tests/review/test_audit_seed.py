"""An audit nobody can choose: the store draws the sample's seed, never a report field."""

from __future__ import annotations

from halgate.review import audit_cases, audit_review_ids
from halgate.store import Store

from .test_audit import wide_report


def _stored_sample(path, report) -> tuple[list[str], int]:
    with Store(path) as store:
        run_id = store.save_run(report)
        loaded = store.load_report(run_id)
        [saved] = [e for e in store.audit(run_id) if e.action == "save_run"]
        assert saved.detail["audit_seed"] == loaded.audit_seed  # the audit log records it
        return audit_cases(loaded), loaded.audit_seed


def test_a_report_uploaded_twice_gets_two_different_samples(tmp_path):
    report = wide_report(audit_sample=10)
    first, seed1 = _stored_sample(tmp_path / "a.db", report)
    second, seed2 = _stored_sample(tmp_path / "b.db", report)
    assert seed1 != seed2 and first != second
    assert len(first) == len(second) == 10


def test_no_report_field_changes_which_answers_are_audited(tmp_path):
    # The uploader's own seed, run id and policy seed are discarded: the sample follows the
    # store's draw alone, so forging them chooses nothing.
    forged = [
        wide_report(audit_sample=10, audit_seed=s, seed=p, run_id=f"20260106T000000Z-{r}")
        for s, p, r in ((1, 7, "aaaaaa"), (2, 8, "bbbbbb"), (None, 9, "cccccc"))
    ]
    samples = []
    for i, report in enumerate(forged):
        with Store(tmp_path / f"{i}.db") as store:
            run_id = store.save_run(report)
            loaded = store.load_report(run_id)
            assert loaded.audit_seed not in (1, 2, None)
            same = wide_report(audit_sample=10, audit_seed=loaded.audit_seed)
            assert audit_cases(loaded) == audit_cases(same)  # only the store's seed matters
            samples.append(tuple(audit_cases(loaded)))
    assert len(set(samples)) == 3


def test_labelling_on_continues_the_same_random_sample_in_draw_order():
    from halgate.models import Override
    from halgate.review.audit import audit_order, sample_in_force

    report = wide_report(audit_sample=5)
    order = audit_order(report)
    assert order[:5] == audit_cases(report)

    def labels(cases):
        return {
            f"audit:{c}:{s}": Override(id=1, run_id=report.run_id, claim_id=f"audit:{c}:{s}",
                                       label="FAITHFUL", comment="c", reviewer="ana",
                                       created_at="2026-01-06T01:00:00+00:00")
            for c in cases for s in ("baseline", "candidate")
        }  # fmt: skip

    assert sample_in_force(report, {}) == order[:5]
    # A label past the next case does not count: only an unbroken prefix is a random sample.
    assert sample_in_force(report, labels(order[:5] + order[6:7])) == order[:5]
    assert sample_in_force(report, labels(order[:7])) == order[:7]
    # Once the sample is labelled, the next case of the draw order may be labelled too.
    ids = audit_review_ids(report, labels(order[:5]))
    assert ids[-2:] == [f"audit:{order[5]}:baseline", f"audit:{order[5]}:candidate"]

"""The review store on a real SQLite file and a real PostgreSQL server (each test on both):
runs, effective verdicts, overrides, sign-offs, audit."""

from __future__ import annotations

import sqlite3

import pytest
from halgate.errors import NotFoundError, PermissionDeniedError, StoreError, UsageError
from halgate.models import GateStatus, HallucinationType, Severity, Verdict
from halgate.store import SCHEMA_VERSION, SignOffDecision, Store

from ..conftest import build_report
from ..pg.fixtures import raw_refusal

GOOD_ANSWERS = [
    "The maximum daily dose is 100 mg.",
    "No. Zelparin must not be used during pregnancy.",
    "Refunds are issued within 14 days of a return.",
]


def saved(path, **kw) -> tuple[Store, str]:
    store = Store(path)
    return store, store.save_run(build_report(**kw))


def test_save_and_load_round_trip(store_url):
    report = build_report()
    with Store(store_url) as store:
        assert store.schema_version == SCHEMA_VERSION
        run_id = store.save_run(report)
        loaded = store.load_report(run_id)
        # The store draws the audit seed; the report's own value is discarded.
        assert loaded.audit_seed is not None and loaded.audit_seed != report.audit_seed
        assert loaded == report.model_copy(update={"audit_seed": loaded.audit_seed})
        assert store.save_run(report) == run_id  # same report again: a no-op
        assert store.load_report(run_id).audit_seed == loaded.audit_seed
        assert [e.action for e in store.audit()] == ["save_run"]
        [row] = store.list_runs()
    assert row.run_id == run_id and row.suite_name == "tiny" and row.judge_id == "fixture/none@v1"
    assert row.judged_status == row.status == GateStatus.FAILED
    assert (row.n_claims, row.n_review, row.pending_review, row.n_overrides) == (6, 2, 2, 0)
    assert row.micro_rate == pytest.approx(2 / 3) and row.agreement is None


def test_reopened_file_keeps_everything(store_url):
    with Store(store_url) as store:
        run_id = store.save_run(build_report())
        store.add_override(
            run_id, "q1/candidate/0", verdict="SUPPORTED", comment="ok", reviewer="a"
        )
    with Store(store_url) as store:
        assert len(store.override_history(run_id)) == 1
        assert store.effective_report(run_id).rates["candidate"].micro_rate == pytest.approx(1 / 3)


def test_wal_mode_and_busy_timeout(store_db):
    with Store(store_db) as store:
        assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.db.execute("PRAGMA busy_timeout").fetchone()[0] == 30000


def test_overrides_turn_failed_into_passed(store_url):
    store, run_id = saved(store_url)
    assert store.effective_report(run_id).decision.status == GateStatus.FAILED
    store.add_override(
        run_id, "q1/candidate/0", verdict="SUPPORTED", comment="100 mg", reviewer="a"
    )
    assert store.effective_report(run_id).decision.status == GateStatus.FAILED
    store.add_override(run_id, "q2/candidate/0", verdict="supported", comment="fine", reviewer="b")
    effective = store.effective_report(run_id)
    assert effective.decision.status == GateStatus.PASSED and effective.decision.exit_code == 0
    assert effective.comparison.rate_change.estimate == 0
    assert store.load_report(run_id).decision.status == GateStatus.FAILED  # judge record kept
    assert store.list_runs()[0].status == GateStatus.PASSED


def test_override_turns_passed_into_failed(store_url):
    store, run_id = saved(store_url, candidate={}, candidate_answers=GOOD_ANSWERS)
    assert store.effective_report(run_id).decision.status == GateStatus.PASSED
    store.add_override(
        run_id,
        "q3/candidate/0",
        verdict="UNSUPPORTED",
        hallucination_type="FABRICATION",
        severity="HIGH",
        comment="14 is not in the doc",
        reviewer="a",
    )
    d = store.effective_report(run_id).decision
    assert d.status == GateStatus.FAILED
    assert {"max_rate_increase", "max_fabrication_rate"} <= {
        r.rule for r in d.reasons if r.status == GateStatus.FAILED
    }
    assert d.pending_review == []  # the reviewer's own finding counts as reviewed


def test_newest_override_is_in_force_and_history_is_kept(store_url):
    store, run_id = saved(store_url)
    cid = "q1/candidate/0"
    store.add_override(run_id, cid, verdict="SUPPORTED", comment="first look", reviewer="a")
    store.add_override(
        run_id, cid, verdict="CONTRADICTED", severity="HIGH", comment="no", reviewer="b"
    )
    history = store.override_history(run_id, cid)
    assert [o.reviewer for o in history] == ["a", "b"] and history[0].id < history[1].id
    claim = next(
        c for a in store.effective_report(run_id).analyses for c in a.claims if c.claim_id == cid
    )
    assert (claim.verdict, claim.severity) == (Verdict.CONTRADICTED, Severity.HIGH)
    assert claim.hallucination_type is None  # cleared by the SUPPORTED override, not reset


def test_supported_override_clears_type_and_severity(store_url):
    store, run_id = saved(store_url)
    store.add_override(run_id, "q1/candidate/0", verdict="SUPPORTED", comment="ok", reviewer="a")
    [item] = [i for i in store.review_queue(run_id) if i.claim.claim_id == "q1/candidate/0"]
    assert i_fields(item.claim) == (Verdict.SUPPORTED, None, None)
    assert i_fields(item.judged) == (
        Verdict.CONTRADICTED,
        HallucinationType.DISTORTION,
        Severity.CRITICAL,
    )
    assert item.reviewed and item.latest_override.comment == "ok"


def i_fields(c):
    return c.verdict, c.hallucination_type, c.severity


def test_confirm_marks_reviewed_without_changing_verdicts(store_url):
    store, run_id = saved(
        store_url, max_rate_increase=1.0, max_contradiction_rate=None, block_on_severity=None
    )
    assert store.effective_report(run_id).decision.status == GateStatus.NEEDS_REVIEW
    queue = store.review_queue(run_id)
    assert [i.reviewed for i in queue] == [False, False]
    for item in queue:
        store.add_override(run_id, item.claim.claim_id, comment="confirmed", reviewer="a")
    effective = store.effective_report(run_id)
    assert effective.decision.status == GateStatus.PASSED  # only review was missing
    assert effective.rates == store.load_report(run_id).rates
    assert all(i.reviewed for i in store.review_queue(run_id))


def test_judge_agreement_per_verdict_and_severity(store_url):
    store, run_id = saved(store_url)
    store.add_override(run_id, "q1/candidate/0", verdict="SUPPORTED", comment="wrong", reviewer="a")
    store.add_override(run_id, "q2/candidate/0", comment="right", reviewer="a")
    store.add_override(run_id, "q3/candidate/0", comment="right", reviewer="a")
    a = store.judge_agreement(run_id)
    assert (a.overall.reviewed, a.overall.kept) == (3, 2)
    assert a.by_verdict["CONTRADICTED"].rate == 0.5 and a.by_verdict["SUPPORTED"].rate == 1.0
    assert a.by_severity["CRITICAL"].model_dump() == {"reviewed": 2, "kept": 1, "rate": 0.5}
    assert a.by_severity["NONE"].kept == 1
    assert store.list_runs()[0].agreement == pytest.approx(2 / 3)  # stored with the run


@pytest.mark.parametrize(
    "kwargs, error, text",
    [
        ({"claim_id": "q9/candidate/0"}, NotFoundError, "claim 'q9/candidate/0' not found"),
        ({"run_id": "nope"}, NotFoundError, "run 'nope' not found"),
        ({"verdict": "MAYBE"}, UsageError, "verdict 'MAYBE' is not one of"),
        ({"severity": "HUGE"}, UsageError, "severity 'HUGE'"),
        ({"comment": " "}, UsageError, "comment"),
        ({"reviewer": ""}, UsageError, "reviewer"),
    ],
)
def test_bad_overrides_are_refused_with_a_clear_message(store_url, kwargs, error, text):
    store, run_id = saved(store_url)
    args = {"run_id": run_id, "claim_id": "q1/candidate/0", "comment": "c", "reviewer": "r"}
    args.update(kwargs)
    with pytest.raises(error, match=text):
        store.add_override(args.pop("run_id"), args.pop("claim_id"), **args)
    assert store.override_history(run_id) == []


def test_run_id_prefix_resolves_and_ambiguity_is_an_error(store_url):
    store = Store(store_url)
    store.save_run(build_report(run_id="20260101T000000Z-aaaaaa"))
    store.save_run(build_report(run_id="20260101T000000Z-bbbbbb"))
    assert store.load_report("20260101T000000Z-b").run_id == "20260101T000000Z-bbbbbb"
    with pytest.raises(UsageError, match="ambiguous"):
        store.load_report("2026")
    assert [r.run_id for r in store.list_runs()] == [
        "20260101T000000Z-bbbbbb",
        "20260101T000000Z-aaaaaa",
    ]


def test_sign_off_refused_for_non_managers(store_url, monkeypatch):
    monkeypatch.setenv("HALGATE_RELEASE_MANAGERS", "rita")
    store, run_id = saved(store_url)
    with pytest.raises(PermissionDeniedError, match="'mallory' is not a release manager"):
        store.sign_off(run_id, "approve", "mallory", "ship it")
    with pytest.raises(PermissionDeniedError, match="allowed: ops"):
        store.sign_off(run_id, "approve", "rita", "ship it", release_managers=["ops"])
    with pytest.raises(UsageError, match="approve or reject"):
        store.sign_off(run_id, "maybe", "rita", "hmm")
    assert store.signoffs(run_id) == []


def test_sign_off_records_decision_and_goes_stale_after_an_override(store_url, monkeypatch):
    monkeypatch.setenv("HALGATE_RELEASE_MANAGERS", "rita")
    store, run_id = saved(store_url)
    s = store.sign_off(run_id, "reject", "rita", "two critical contradictions")
    assert (s.decision, s.decision_status, s.stale) == (
        SignOffDecision.REJECTED,
        GateStatus.FAILED,
        False,
    )
    assert store.signoffs(run_id)[0].stale is False
    store.add_override(run_id, "q1/candidate/0", verdict="SUPPORTED", comment="ok", reviewer="a")
    [old] = store.signoffs(run_id)
    assert old.stale and old.inputs_hash == s.inputs_hash
    row = store.list_runs()[0]
    assert row.signoff == SignOffDecision.REJECTED and row.signoff_stale
    fresh = store.sign_off(run_id, "REJECTED", "rita", "still one left")
    assert not fresh.stale and [x.stale for x in store.signoffs(run_id)] == [True, False]


def test_audit_log_records_everything_and_is_append_only(store_url, monkeypatch):
    monkeypatch.setenv("HALGATE_RELEASE_MANAGERS", "rita")
    store, run_id = saved(store_url)
    store.add_override(run_id, "q1/candidate/0", verdict="SUPPORTED", comment="ok", reviewer="ana")
    store.sign_off(run_id, "approve", "rita", "fine", override_gate=True)  # still FAILED
    log = store.audit(run_id)
    assert [(e.action, e.actor) for e in log[1:]] == [("override", "ana"), ("signoff", "rita")]
    assert log[1].detail["claim_id"] == "q1/candidate/0" and log[1].detail["verdict"] == "SUPPORTED"
    assert [e.id for e in log] == sorted(e.id for e in log)
    for sql in (
        "UPDATE audit_log SET actor = 'x'",
        "DELETE FROM audit_log",
        "UPDATE overrides SET verdict = 'CONTRADICTED'",
        "DELETE FROM overrides",
        "DELETE FROM signoffs",
        "INSERT INTO overrides (id, run_id, claim_id, comment, reviewer, created_at) "
        "VALUES (1, 'x', 'c', 'forged', 'eve', 't') ON CONFLICT(id) DO UPDATE SET comment = 'x'",
    ):
        assert "append-only" in raw_refusal(store_url, sql)
    assert len(store.audit()) == 3


def test_changed_report_under_same_id_is_refused_and_the_stored_run_kept(store_url):
    store, run_id = saved(store_url)
    with pytest.raises(StoreError, match="already exists"):
        store.save_run(build_report(candidate={}, candidate_answers=GOOD_ANSWERS))
    assert [e.action for e in store.audit(run_id)] == ["save_run"]
    assert store.list_runs()[0].status == GateStatus.FAILED


def test_a_file_that_is_not_a_database_is_a_store_error(tmp_path):
    bad = tmp_path / "notes.db"
    bad.write_text("this is not sqlite " * 100)
    with pytest.raises(StoreError, match="notes.db"):
        Store(bad)


def test_pairwise_case_needing_a_person_is_reviewed_by_comment(store_url):
    from halgate.models import PairwiseJudgement
    from halgate.scoring.rescore import rescore

    pair = PairwiseJudgement(
        case_id="q1",
        system_a="baseline",
        system_b="candidate",
        preference="TIE",
        justification="orders disagree",
        confidence=0.4,
        disagreement=True,
        needs_review=True,
    )
    report = rescore(build_report(candidate={}).model_copy(update={"pairwise": [pair]}))
    assert "pairwise:q1" in report.decision.pending_review
    with Store(store_url) as store:
        run_id = store.save_run(report)
        with pytest.raises(UsageError, match="comment only"):
            store.add_override(
                run_id, "pairwise:q1", verdict="SUPPORTED", comment="c", reviewer="a"
            )
        with pytest.raises(NotFoundError):
            store.add_override(run_id, "pairwise:q2", comment="c", reviewer="a")
        store.add_override(run_id, "pairwise:q1", comment="A is right", reviewer="a")
        assert store.effective_report(run_id).decision.pending_review == []


def test_a_summary_computed_by_the_caller_is_listed_and_never_replaced_by_an_older_one(
    store_url,
):
    from halgate.review import review_run

    store, run_id = saved(store_url)
    judged = store.load_report(run_id)
    first = store.add_override(
        run_id, "q1/candidate/0", verdict="SUPPORTED", comment="ok", reviewer="a"
    )
    old = store.override_history(run_id)
    store.add_override(run_id, "q2/candidate/0", verdict="SUPPORTED", comment="ok", reviewer="a")
    new = store.override_history(run_id)
    for history in (new, old):  # the newer summary arrives first; the older must not win
        store.cache_summary(review_run(run_id, judged, history))
    row = store.db.execute(
        "SELECT summary_upto FROM run_summaries WHERE run_id = ?", [run_id]
    ).fetchone()
    assert row[0] == new[-1].id > first.id
    [listed] = store.list_runs()
    assert listed.n_overrides == 2 and listed.status == GateStatus.PASSED


def test_a_report_rewritten_behind_the_stores_back_is_altered(store_url, monkeypatch):
    from halgate.errors import RunAlteredError

    monkeypatch.setenv("HALGATE_RELEASE_MANAGERS", "rita")
    store, run_id = saved(store_url)
    store.sign_off(run_id, "reject", "rita", "two contradictions")
    _rewrite_report(store_url)  # runs is not append-only (a migration may update it), but…
    with pytest.raises(RunAlteredError, match="ALTERED.*sign-off"):
        store.load_report(run_id)
    store.close()


def _rewrite_report(url: str) -> None:
    """Flip every verdict in the stored report with the engine's own driver."""
    sql = "UPDATE runs SET report = replace(report, 'CONTRADICTED', 'SUPPORTED')"
    if url.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(sql)
    else:
        raw = sqlite3.connect(url)
        raw.execute(sql)
        raw.commit()
        raw.close()

"""#12 A: an imported report never overwrites a stored run, and never grants sign-off rights."""

from __future__ import annotations

import json

import pytest
from halgate.errors import PermissionDeniedError, StoreError
from halgate.review import release_managers
from halgate.store import Store

from ..conftest import EVIDENCE, build_report

GOOD = list(EVIDENCE)  # the candidate repeats the sources: a PASSED report


def test_saving_a_different_report_under_an_existing_run_id_is_refused(store_db):
    with Store(store_db) as store:
        run_id = store.save_run(build_report())
        before = store.load_report(run_id).model_dump_json()
        forged = build_report(candidate={}, candidate_answers=GOOD)
        with pytest.raises(StoreError, match=f"run {run_id} already exists"):
            store.save_run(forged)
        assert store.load_report(run_id).model_dump_json() == before
        assert [e.action for e in store.audit()] == ["save_run"]
        assert store.save_run(build_report()) == run_id  # the very same report: a no-op


def test_dashboard_import_of_a_clashing_report_is_refused_with_a_message(store_db):
    from halgate.dashboard import actions

    with Store(store_db) as store:
        run_id = store.save_run(build_report())
    forged = build_report(candidate={}, candidate_answers=GOOD)
    with pytest.raises(actions.ActionError, match="already exists"):
        actions.import_report(str(store_db), forged.model_dump_json().encode(), "forged.json")
    with Store(store_db) as store:
        assert store.load_report(run_id).decision.status.value == "FAILED"


def test_an_imported_policy_never_makes_its_author_a_release_manager(
    store_db, tmp_path, monkeypatch
):
    monkeypatch.delenv("HALGATE_RELEASE_MANAGERS", raising=False)
    monkeypatch.chdir(tmp_path)  # no halgate.toml here
    report = build_report()
    data = json.loads(report.model_dump_json())
    data["policy"]["release_managers"] = ["mallory"]
    from halgate.dashboard import actions

    run_id = actions.import_report(str(store_db), json.dumps(data).encode(), "evil.json")
    with Store(store_db) as store:
        with pytest.raises(PermissionDeniedError, match="no release managers are configured"):
            store.sign_off(run_id, "approve", "mallory", "self-approved")
        assert store.signoffs(run_id) == []
    assert release_managers() == []


def test_release_managers_come_from_the_environment_then_halgate_toml(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert release_managers(env={}) == []
    (tmp_path / "halgate.toml").write_text(
        '[review]\nrelease_managers = ["omar", " zoe", "omar"]\n'
    )
    assert release_managers(env={}) == ["omar", "zoe"]
    assert release_managers(env={"HALGATE_RELEASE_MANAGERS": "ann, bo"}) == ["ann", "bo"]
    (tmp_path / "halgate.toml").write_text('[review]\nrelease_managers = "omar"\n')
    from halgate.errors import UsageError

    with pytest.raises(UsageError, match="release_managers"):
        release_managers(env={})

"""Issue #29 item 4: roles from the store's roles table, the login's groups claim and the
configured release managers; one rule (``halgate.review.roles``) for every face."""

from __future__ import annotations

import sqlite3

import pytest
from halgate.cli import app
from halgate.errors import PermissionDeniedError, UsageError
from halgate.models import Role
from halgate.models.team import RoleChange
from halgate.review import claimed_roles, login_identity, role_groups, roles_managed, roles_of
from halgate.review.roles import check_may_review, roles_in_force
from halgate.store import Store
from typer.testing import CliRunner

from ..conftest import build_report

GROUPS = {Role.REVIEWER: {"rev"}, Role.RELEASE_MANAGER: {"rm"}, Role.ADMIN: {"adm"}}


def _change(i: int, action: str, who: str, role: Role) -> RoleChange:
    return RoleChange(id=i, at="t", actor="a", action=action, principal=who, role=role)


def test_the_newest_change_per_identity_and_role_is_in_force():
    history = [
        _change(1, "grant", "ana", Role.REVIEWER),
        _change(2, "grant", "ana", Role.RELEASE_MANAGER),
        _change(3, "revoke", "ana", Role.RELEASE_MANAGER),
        _change(4, "grant", "ben", Role.ADMIN),
        _change(5, "revoke", "ben", Role.ADMIN),
    ]
    assert roles_in_force(history) == {"ana": {Role.REVIEWER}}


@pytest.mark.parametrize(
    ("granted", "configured", "claimed", "expected"),
    [
        ({"ana": {Role.ADMIN}}, [], [], {Role.ADMIN, Role.RELEASE_MANAGER, Role.REVIEWER}),
        ({}, ["ana"], [], {Role.RELEASE_MANAGER, Role.REVIEWER}),
        ({}, [], [Role.REVIEWER], {Role.REVIEWER}),
        ({"ben": {Role.ADMIN}}, ["ben"], [], set()),
    ],
)
def test_roles_of_merges_table_configuration_and_claim(granted, configured, claimed, expected):
    assert roles_of("ana", granted, configured, claimed) == expected


def test_nobody_holds_a_role_without_an_identity():
    assert roles_of("", {"": {Role.ADMIN}}, [""], [Role.ADMIN]) == set()
    assert roles_of(None, {}, [], [Role.ADMIN]) == set()


def test_a_groups_claim_grants_the_mapped_roles_of_a_logged_in_user_only():
    user = {"is_logged_in": True, "groups": ["rev", "other"]}
    assert claimed_roles(user, "groups", GROUPS) == {Role.REVIEWER}
    assert claimed_roles({**user, "groups": "rm, rev"}, "groups", GROUPS) == {
        Role.REVIEWER,
        Role.RELEASE_MANAGER,
    }
    assert claimed_roles({**user, "is_logged_in": False}, "groups", GROUPS) == set()
    assert claimed_roles(user, "", GROUPS) == set()  # no claim configured: nothing


def test_a_display_name_or_an_unverified_email_grants_nothing():
    """The identity a grant is keyed on is a verified email or the subject, never the name or
    an email the provider has not verified, so a typed 'admin' cannot pick up admin's role."""
    user = {"is_logged_in": True, "sub": "u-77", "name": "boss", "email": "boss@corp.test"}
    who = login_identity(user)
    granted = {"boss": {Role.ADMIN}, "boss@corp.test": {Role.ADMIN}}
    assert who == "u-77" and roles_of(who, granted) == set()
    assert claimed_roles({**user, "name": "adm"}, "groups", GROUPS) == set()


def test_role_groups_default_to_the_role_names_and_bad_config_names_the_file(tmp_path):
    good = tmp_path / "halgate.toml"
    good.write_text('[review.role_groups]\nreviewer = ["team-a"]\n', encoding="utf-8")
    groups = role_groups([good])
    assert groups[Role.REVIEWER] == {"team-a"} and groups[Role.ADMIN] == {"admin"}
    good.write_text('[review.role_groups]\nreviewer = "team-a"\n', encoding="utf-8")
    with pytest.raises(UsageError, match=str(good)):
        role_groups([good])
    good.write_text('[review.role_groups]\nboss = ["x"]\n', encoding="utf-8")
    with pytest.raises(UsageError, match="'boss' is not one of"):
        role_groups([good])


def test_reviewing_needs_the_role_only_once_roles_are_managed():
    assert not roles_managed("", {})
    check_may_review("ana", set(), managed=False)
    with pytest.raises(PermissionDeniedError, match="does not hold the reviewer role"):
        check_may_review("ana", set(), managed=True)
    check_may_review("ana", {Role.REVIEWER}, managed=True)


def test_store_grants_and_revokes_with_history_and_audit(tmp_path):
    with Store(tmp_path / "r.db") as store:
        store.change_role("grant", "carol@x.test", "release-manager", "admin")
        store.change_role("grant", "ana@x.test", "reviewer", "admin")
        store.change_role("revoke", "ana@x.test", "reviewer", "admin")
        with pytest.raises(UsageError, match="does not hold the reviewer role"):
            store.change_role("revoke", "ana@x.test", "reviewer", "admin")
        with pytest.raises(UsageError, match="already holds"):
            store.change_role("grant", "carol@x.test", "release_manager", "admin")
        assert store.granted_roles() == {"carol@x.test": {Role.RELEASE_MANAGER}}
        assert [c.action for c in store.role_history()] == ["grant", "grant", "revoke"]
        assert [e.action for e in store.audit()] == ["role_grant", "role_grant", "role_revoke"]
        for sql in ("UPDATE role_grants SET role = 'admin'", "DELETE FROM role_grants"):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                store.db.execute(sql)


def test_a_release_manager_of_the_roles_table_may_sign_off_from_the_cli(
    tmp_path, monkeypatch, store_url
):
    """On both engines: ``--db`` may be a SQLite file or a PostgreSQL URL."""
    monkeypatch.setenv("HALGATE_RELEASE_MANAGERS", "")
    monkeypatch.chdir(tmp_path)  # no halgate.toml here
    db = store_url
    with Store(db) as store:
        run_id = store.save_run(build_report())
    runner = CliRunner()
    sign = ["signoff", run_id, "--decision", "reject", "-m", "no", "--db", db]
    refused = runner.invoke(app, [*sign, "-r", "carol"])
    assert refused.exit_code == 4 and "'carol' is not a release manager" in refused.output
    granted = runner.invoke(app, ["roles", "grant", "carol", "release_manager", "--db", db])
    assert granted.exit_code == 0 and "carol now holds release_manager" in granted.output
    listed = runner.invoke(app, ["roles", "list", "--history", "--db", db])
    assert "carol: release_manager" in listed.output and " grant carol " in listed.output
    assert runner.invoke(app, [*sign, "-r", "carol"]).exit_code == 0
    bad = runner.invoke(app, ["roles", "grant", "dan", "boss", "--db", db])
    assert bad.exit_code == 4 and "'boss' is not one of" in bad.output

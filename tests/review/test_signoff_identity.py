"""Whether the dashboard may take a sign-off from who it sees (#12 item 3): the rule lives in
halgate.review, and the Sign-off page only asks it."""

from __future__ import annotations

import pytest
from halgate.errors import PermissionDeniedError, UsageError
from halgate.review import allow_unauthenticated_signoff, check_sign_off_identity

VAR = "HALGATE_ALLOW_UNAUTHENTICATED_SIGNOFF"

IDENTITY = [
    # login configured, logged in, unauthenticated sign-off allowed -> refusal (None: may)
    (True, True, False, None),
    (False, True, False, None),  # st.user says logged in: nothing to allow
    (True, False, True, "log in first"),  # with a login, an allowance replaces nothing
    (True, False, False, "log in first"),
    (False, False, True, None),  # no login; the server allows typed names (make demo)
    (False, False, False, "sign-off is off: this dashboard runs unauthenticated"),
]


@pytest.mark.parametrize("configured, logged_in, allowed, refusal", IDENTITY)
def test_who_the_dashboard_may_take_a_sign_off_from(configured, logged_in, allowed, refusal):
    if refusal is None:
        check_sign_off_identity(configured, logged_in, allowed)
    else:
        with pytest.raises(PermissionDeniedError, match=refusal):
            check_sign_off_identity(configured, logged_in, allowed)


@pytest.mark.parametrize(
    "value, allowed",
    [("1", True), ("true", True), (" Yes ", True), ("on", True)]
    + [("0", False), ("false", False), ("NO", False), ("off", False)],
)
def test_the_variable_decides_when_set(tmp_path, value, allowed):
    config = tmp_path / "halgate.toml"
    config.write_text(f"[review]\nallow_unauthenticated_signoff = {str(not allowed).lower()}\n")
    assert allow_unauthenticated_signoff({VAR: value}, [config]) is allowed


def test_else_halgate_toml_decides_and_the_default_is_off(tmp_path):
    config = tmp_path / "halgate.toml"
    assert allow_unauthenticated_signoff({}, [config]) is False
    config.write_text("[review]\nrelease_managers = ['carol']\n")
    assert allow_unauthenticated_signoff({VAR: ""}, [config]) is False
    config.write_text("[review]\nallow_unauthenticated_signoff = true\n")
    assert allow_unauthenticated_signoff({}, [config]) is True


def test_a_bad_setting_is_a_usage_error_naming_it(tmp_path):
    config = tmp_path / "halgate.toml"
    with pytest.raises(UsageError, match=f"{VAR}='maybe'"):
        allow_unauthenticated_signoff({VAR: "maybe"}, [config])
    config.write_text('[review]\nallow_unauthenticated_signoff = "yes"\n')
    with pytest.raises(UsageError, match="allow_unauthenticated_signoff must be true or false"):
        allow_unauthenticated_signoff({}, [config])


def test_the_default_reads_the_process_environment(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(VAR, "1")
    check_sign_off_identity(False, False)
    monkeypatch.delenv(VAR)
    with pytest.raises(PermissionDeniedError):
        check_sign_off_identity(False, False)

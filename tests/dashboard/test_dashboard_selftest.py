"""The self-test page: run on the selected run's suite, or a report opened from a file."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from .conftest import goto


def _on_screen(at: AppTest) -> str:
    parts = [e.value for e in at.markdown] + [e.value for e in at.caption]
    parts += [e.value for e in at.text] + [str(e.value) for e in at.warning]
    parts += [str(e.value) for e in at.success] + [str(e.value) for e in at.info]
    return "\n".join(parts)


def test_the_page_tests_the_selected_runs_suite_and_shows_targets_and_transforms(app):
    goto(app, "selftest")
    assert app.title[0].value == "How well the judge reads these documents"
    assert not app.dataframe  # nothing judged before the button is pressed
    app.button[0].click().run()
    assert not app.exception
    tables = [d.value for d in app.dataframe]
    targets, transforms = tables[0], tables[1]
    assert "copies SUPPORTED" in list(targets["target"])
    assert {"verbatim", "negation_flip", "condition_dropped"} <= set(transforms["transform"])
    claims = int(transforms["claims"].sum())
    assert f"{claims} generated claims" in _on_screen(app)
    assert "targets missed" in _on_screen(app) or "Every target" in _on_screen(app)


def test_a_suite_outside_the_roots_is_not_read(app, monkeypatch, tmp_path):
    monkeypatch.setenv("HALGATE_SUITE_ROOTS", str(tmp_path / "elsewhere"))
    goto(app, "selftest")
    assert "suite roots" in _on_screen(app)
    assert not app.dataframe

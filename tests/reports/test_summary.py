"""The terminal summary people read after `halgate run`, pinned by a snapshot."""

from __future__ import annotations

import os

from halgate.reports.summary import pct, signed_pct, summary_text

from ..conftest import REPO, build_report

SNAP = REPO / "tests" / "snapshots" / "summary.txt"


def test_summary_snapshot():
    text = summary_text(build_report())
    if os.environ.get("UPDATE_SNAPSHOTS"):
        SNAP.write_text(text, encoding="utf-8")
    assert text == SNAP.read_text(encoding="utf-8")


def test_summary_names_the_decision_rules_and_claims():
    text = summary_text(build_report())
    assert "Gate: FAILED (exit code 1) for candidate" in text
    assert "[FAILED] block_on_severity" in text and "q1/candidate/0" in text
    assert "Rate change candidate - baseline" in text and "95% CI" in text


def test_rates_print_as_percentages_or_na():
    assert pct(None) == "n/a" and pct(0.1234) == "12.3%"
    assert signed_pct(0.05) == "+5.0%" and signed_pct(-0.05) == "-5.0%"

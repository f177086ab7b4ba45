"""Exports: JUnit parses, HTML escapes untrusted text, Markdown matches its snapshot, CSV rows."""

from __future__ import annotations

import csv
import io
import os
import re
from pathlib import Path

import junitparser
import pytest
from halgate.errors import UsageError
from halgate.reports.json_report import parse_report
from halgate.reports.markdown import md_text
from halgate.reports.render import FORMATS, render
from halgate.store import Store

from ..conftest import build_report

SNAPSHOTS = Path(__file__).parent / "snapshots"
SCRIPT = "<script>alert('x')</script>"


@pytest.fixture
def reviewed(store_db):
    """A FAILED run as exported: one CRITICAL claim overturned, one confirmed, a sign-off made
    stale by the confirmation, then an approval (overriding the gate) that is in force."""
    with Store(store_db) as store:
        run_id = store.save_run(build_report())
        store.add_override(
            run_id,
            "q1/candidate/0",
            verdict="SUPPORTED",
            comment="dose matches the leaflet",
            reviewer="ana",
        )
        store.sign_off(run_id, "reject", "carol", "wait for bo", release_managers=["carol"])
        store.add_override(
            run_id, "q2/candidate/0", comment="confirmed: [bad] *claim*", reviewer="bo"
        )
        store.sign_off(
            run_id,
            "approve",
            "carol",
            "known issue, ship",
            release_managers=["carol"],
            override_gate=True,
        )
        return store.reviewed_export(run_id)


def test_junit_is_valid_and_fails_only_queued_claims_of_the_gated_system(reviewed):
    xml = junitparser.JUnitXml.fromstring(render(reviewed, "junit"))
    suites = {s.name: s for s in xml}
    assert set(suites) == {"halgate.baseline", "halgate.candidate"}
    failed = {
        c.name.split(":")[0]
        for s in xml
        for c in s
        if any(isinstance(r, junitparser.Failure) for r in c.result)
    }
    assert failed == {"q2/candidate/0", "gate decision"}
    cand = suites["halgate.candidate"]
    assert (cand.tests, cand.failures, cand.errors) == (4, 2, 0)
    assert suites["halgate.baseline"].failures == 0
    [q2] = [c for c in cand if c.name.startswith("q2/")]
    assert "CRITICAL CONTRADICTED DISTORTION" in q2.result[0].message
    assert "Zelparin must not be used during pregnancy." in q2.result[0].text


def test_junit_gate_testcase_passes_when_the_gate_passes(store_db):
    report = build_report(candidate={})
    xml = junitparser.JUnitXml.fromstring(render(report, "junit"))
    assert all(s.failures == 0 and s.errors == 0 for s in xml)


def test_html_escapes_answers_documents_and_rationales():
    report = build_report(
        candidate_answers=[
            SCRIPT,
            "Zelparin can be used <b>during</b> pregnancy.",
            "Refunds & returns.",
        ]
    )
    page = render(report, "html")
    assert SCRIPT not in page and "<b>during</b>" not in page
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page
    assert "<script" not in page.lower() and "Refunds &amp; returns." in page
    assert page.startswith("<!DOCTYPE html>") and "http" not in page  # self-contained


def test_markdown_matches_snapshot(reviewed):
    # Reviews and sign-offs are stamped with the time they were recorded.
    text = re.sub(r"\d{4}-\d\d-\d\dT[\d:.]+\+00:00", "TIME", render(reviewed, "markdown"))
    snap = SNAPSHOTS / "report.md"
    if os.environ.get("UPDATE_SNAPSHOTS") or not snap.exists():
        snap.parent.mkdir(exist_ok=True)
        snap.write_text(text, encoding="utf-8")
    assert text == snap.read_text(encoding="utf-8")


def test_markdown_neutralises_untrusted_text():
    assert md_text("[x](http://evil) <img src=x> | # h") == (
        r"\[x\](http\[:\]//evil) &lt;img src=x&gt; \| # h"
    )
    assert md_text("# Heading") == r"\# Heading" and md_text("1. item") == r"1\. item"
    report = build_report(
        candidate_answers=[
            "The maximum daily dose is 200 mg.\n# Heading",
            "<img src=x onerror=alert(1)>",
            "ok",
        ]
    )
    text = render(report, "markdown")
    assert "<img" not in text and "\n# Heading" not in text


def test_csv_has_one_row_per_claim_with_effective_values(reviewed):
    rows = list(csv.DictReader(io.StringIO(render(reviewed, "csv"))))
    assert len(rows) == 6
    by_id = {r["claim_id"]: r for r in rows}
    q1 = by_id["q1/candidate/0"]
    assert (q1["verdict"], q1["severity"], q1["overridden"], q1["reviewer"]) == (
        "SUPPORTED",
        "",
        "True",
        "ana",
    )
    assert by_id["q2/candidate/0"]["review_state"] == "reviewed"
    assert (
        by_id["q2/candidate/0"]["evidence_quote"] == "Zelparin must not be used during pregnancy."
    )


def test_json_of_a_judged_report_is_a_schema_valid_report():
    report = build_report()
    assert parse_report(render(report, "json")) == report


def test_every_format_renders_and_unknown_is_refused(reviewed):
    assert all(render(reviewed, f) for f in FORMATS)
    with pytest.raises(UsageError, match="unknown format 'pdf'"):
        render(reviewed, "pdf")

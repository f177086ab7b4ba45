"""#13 item 3, #11 item 7: every export carries the whole record.

For each reviewed claim the judge's verdict beside the one in force, reviewer, comment and
time; the sign-off in force and every sign-off; both hallucination rates, labelled plainly.
Each format is read back with the parser its consumers use (jsonschema, csv, html.parser,
junitparser), not by searching the text.
"""

from __future__ import annotations

import csv
import io
import json
from html import escape
from html.parser import HTMLParser

import jsonschema
import junitparser
import pytest
from halgate.errors import ReportError
from halgate.reports.json_report import parse_report
from halgate.reports.render import render
from halgate.reports.schemas import load_schema
from halgate.store import Store

from ..conftest import EXAMPLE_SUITE, build_report

Q1 = "q1/candidate/0"  # judged CRITICAL CONTRADICTED, overturned to SUPPORTED by ana
Q2 = "q2/candidate/0"  # judged CRITICAL CONTRADICTED, confirmed by bo


@pytest.fixture
def exported(store_db):
    """A FAILED run with Q1 overturned, a rejection made stale by Q2's confirmation, then an
    approval that overrides the gate and is in force."""
    with Store(store_db) as store:
        run_id = store.save_run(build_report())
        store.add_override(run_id, Q1, verdict="SUPPORTED", comment="dose ok", reviewer="ana")
        store.sign_off(run_id, "reject", "carol", "wait for bo", release_managers=["carol"])
        store.add_override(run_id, Q2, comment="really contradicted", reviewer="bo")
        store.sign_off(
            run_id, "approve", "carol", "ship it", release_managers=["carol"], override_gate=True
        )
        return store.reviewed_export(run_id)


def test_json_export_matches_the_reviewed_report_schema_and_shows_each_review(exported):
    data = json.loads(render(exported, "json"))
    jsonschema.validate(data, load_schema("reviewed_report"))
    review = data["review"]
    by_id = {r["claim_id"]: r for r in review["claims"]}
    assert set(by_id) == {Q1, Q2}
    q1 = by_id[Q1]
    assert (q1["judge_verdict"], q1["judge_severity"], q1["verdict"], q1["severity"]) == (
        "CONTRADICTED",
        "CRITICAL",
        "SUPPORTED",
        None,
    )
    assert (q1["reviewer"], q1["comment"], q1["changed"]) == ("ana", "dose ok", True)
    assert q1["reviewed_at"].startswith("20") and by_id[Q2]["changed"] is False
    claims = {c["claim_id"]: c for a in data["analyses"] for c in a["claims"]}
    assert claims[Q1]["verdict"] == "SUPPORTED"  # the report part is the effective one
    assert review["judged_status"] == "FAILED" and len(review["overrides"]) == 2
    assert review["signoff_in_force"]["id"] == 2
    assert review["signoff_in_force"]["override_gate"] is True
    assert [(s["id"], s["stale"], s["in_force"]) for s in review["signoffs"]] == [
        (1, True, False),
        (2, False, True),
    ]


def test_a_reviewed_export_is_not_loaded_as_a_judged_report(exported):
    with pytest.raises(ReportError, match="reviewed export"):
        parse_report(render(exported, "json"), "export.json")


def test_a_stale_newest_signoff_leaves_none_in_force(store_db):
    with Store(store_db) as store:
        run_id = store.save_run(build_report())
        store.sign_off(run_id, "reject", "carol", "no", release_managers=["carol"])
        store.add_override(run_id, Q1, comment="looked again", reviewer="ana")
        exported = store.reviewed_export(run_id)
    assert exported.review.signoff_in_force is None
    row = next(csv.DictReader(io.StringIO(render(exported, "csv"))))
    assert row["signoff_in_force"].startswith("none (overrides were recorded after the newest")
    assert "#1 [STALE" in row["signoff_history"]


def test_csv_rows_carry_judge_and_reviewed_verdicts_rates_and_signoffs(exported):
    rows = {r["claim_id"]: r for r in csv.DictReader(io.StringIO(render(exported, "csv")))}
    q1, q3 = rows[Q1], rows["q3/candidate/0"]
    assert (q1["judge_verdict"], q1["verdict"], q1["review_change"]) == (
        "CONTRADICTED",
        "SUPPORTED",
        "changed",
    )
    assert (q1["reviewer"], q1["review_comment"]) == ("ana", "dose ok")
    assert q1["reviewed_at"] and rows[Q2]["review_change"] == "confirmed"
    assert (q3["judge_verdict"], q3["verdict"], q3["reviewer"]) == ("SUPPORTED", "SUPPORTED", "")
    assert q1["signoff_in_force"].startswith("#2 APPROVED by carol")
    assert "(gate overridden)" in q1["signoff_in_force"]
    history = q1["signoff_history"].splitlines()
    assert history[0].startswith("#1 [STALE") and history[1].startswith("#2 [in force]")
    assert q1["answers_with_a_hallucination"].startswith("33.3% (1 of 3; 95% CI")
    assert q1["claims_hallucinated"].startswith("33.3% (1 of 3;")
    assert rows["q1/baseline/0"]["claims_hallucinated"].startswith("0.0% (0 of 3;")


def _properties(suite: junitparser.TestSuite) -> dict[str, str]:
    return {p.name: p.value for p in suite.properties()}


def test_junit_properties_carry_decision_rates_and_signoffs(exported):
    xml = junitparser.JUnitXml.fromstring(render(exported, "junit"))
    suites = {s.name: s for s in xml}
    cand = _properties(suites["halgate.candidate"])
    assert (cand["decision"], cand["decision_as_judged"]) == ("FAILED", "FAILED")
    assert cand["answers_with_a_hallucination"].startswith("33.3% (1 of 3")
    assert cand["claims_hallucinated"].startswith("33.3% (1 of 3")
    assert cand["answers_with_a_hallucination_change"].startswith("+33.3% (95% CI")
    assert cand["signoff_in_force"].startswith("#2 APPROVED by carol")
    assert cand["signoff_1"].startswith("#1 [STALE") and cand["signoff_2"].startswith(
        "#2 [in force]"
    )
    assert _properties(suites["halgate.baseline"])["claims_hallucinated"].startswith("0.0%")
    cases = {c.name.split(":")[0]: c for c in suites["halgate.candidate"]}
    assert "judge: CRITICAL CONTRADICTED DISTORTION; in force: SUPPORTED" in cases[Q1].system_out
    assert "by ana at" in cases[Q1].system_out and not cases[Q1].result  # passes now
    [failure] = cases[Q2].result
    assert "review: judge: CRITICAL CONTRADICTED DISTORTION" in failure.text


def test_markdown_shows_the_signoff_in_force_history_and_every_review(exported):
    text = render(exported, "markdown")
    assert "**Sign-off in force:** \\#2 APPROVED by carol" in text
    assert "- \\#1 \\[STALE: overrides were recorded after it\\] REJECTED by carol" in text
    reviews = text[text.index("### Reviews") :]
    # the overturned claim is no longer severe, but its review is still in the export
    assert f"`{Q1}` judge: CRITICAL CONTRADICTED DISTORTION; in force: SUPPORTED" in reviews
    assert "(changed by ana at " in reviews and "(confirmed by bo at " in reviews
    assert "answers with a hallucination" in text and "claims hallucinated" in text


class Page(HTMLParser):
    """What the tests read from an HTML export: ids, links, marks and table rows (as text)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.marks: dict[str, str] = {}  # id of a <mark> -> its text
        self.rows: list[list[str]] = []
        self.sections: dict[str, str] = {}  # id of a <section> -> its text
        self._mark: str | None = None
        self._section: str | None = None
        self._cell: list[str] | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
        if tag == "mark" and "id" in a:
            self._mark = a["id"]
            self.marks[self._mark] = ""
        if tag == "section":
            self._section = a.get("id")
            self.sections[self._section] = ""
        if tag == "tr":
            self.rows.append([])
        if tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag == "mark":
            self._mark = None
        if tag == "section":
            self._section = None
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data):
        if self._mark:
            self.marks[self._mark] += data
        if self._section:
            self.sections[self._section] += data
        if self._cell is not None:
            self._cell.append(data)


def test_html_carries_reviews_signoffs_and_links_every_citation_to_a_marked_passage(exported):
    page = Page(render(exported, "html"))
    [review_head] = [r for r in page.rows if r and r[0] == "claim" and "reviewer" in r]
    q1 = next(r for r in page.rows if r and r[0] == Q1 and "ana" in r)
    cell = dict(zip(review_head, q1, strict=True))
    assert (cell["judge's reading"], cell["in force"], cell["review comment"]) == (
        "CRITICAL CONTRADICTED DISTORTION",
        "SUPPORTED",
        "dose ok",
    )
    assert (cell["reviewer"], cell["review changed"]) == ("ana", "changed")
    assert cell["reviewed at (UTC)"].startswith("20")
    signoffs = [r for r in page.rows if r and r[0] in ("1", "2")]
    assert [r[1] for r in signoffs] == ["STALE: overrides were recorded after it", "in force"]
    anchors = [h[1:] for h in page.links if h.startswith("#")]
    assert anchors and all(a in page.ids for a in anchors)  # no dangling link
    cited = [a for a in anchors if a in page.marks]
    assert "Zelparin must not be used during pregnancy." in {page.marks[a] for a in cited}
    for doc_text in (d.text for d in exported.documents):  # each once, in its own section
        holders = [s for s in page.sections.values() if doc_text in s]
        assert len(holders) == 1


def test_html_shows_a_script_in_a_document_as_text():
    report = build_report()
    docs = [
        d.model_copy(update={"text": d.text + " <script>alert(1)</script>"})
        for d in report.documents
    ]
    page = render(report.model_copy(update={"documents": docs}), "html")
    assert "<script" not in page.lower()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    section = next(s for s in Page(page).sections.values() if "Zelparin leaflet" in s)
    assert "<script>alert(1)</script>" in section  # shown, as text, once per document


# `halgate export RUN -f html` of the example suite's run before documents were printed once
# (commit a732a4f): every full document repeated in every case that cites it.
EXAMPLE_HTML_BYTES_BEFORE = 291_706


@pytest.mark.skipif(not EXAMPLE_SUITE.exists(), reason="example suite not present")
def test_example_suite_html_prints_each_document_once_and_is_much_smaller(store_db, capsys):
    from halgate.inputs.policy import Policy
    from halgate.inputs.suite import load_suite
    from halgate.judges.registry import create_judge
    from halgate.run.engine import run_suite

    report = run_suite(load_suite(EXAMPLE_SUITE), create_judge("offline"), Policy())
    with Store(store_db) as store:
        exported = store.reviewed_export(store.save_run(report))
    page = render(exported, "html")
    size = len(page.encode("utf-8"))
    with capsys.disabled():
        print(
            f"\nexample suite HTML export ({len(report.cases)} cases, {len(report.documents)} "
            f"documents): before {EXAMPLE_HTML_BYTES_BEFORE:,} bytes, after {size:,} bytes "
            f"({size / EXAMPLE_HTML_BYTES_BEFORE:.0%})"
        )
    assert size < 0.75 * EXAMPLE_HTML_BYTES_BEFORE
    parsed = Page(page)
    for d in report.documents:
        assert len([s for s in parsed.sections.values() if d.text in s]) == 1
        assert page.count(escape(d.text)) <= 1  # the whole text is never repeated
    cited = {parsed.marks[h[1:]] for h in parsed.links if h[1:] in parsed.marks}
    quotes = {q.quote for a in report.analyses for c in a.claims for q in c.citations if q.verified}
    assert cited and all(any(q in m for m in cited) for q in quotes)  # each quote is marked


def test_a_type_only_override_keeps_the_comment_that_explained_the_verdict(store_db):
    """#31: a later override that fixes only the type must not hide why the verdict changed."""
    with Store(store_db) as store:
        run_id = store.save_run(build_report())
        store.add_override(
            run_id, Q1, verdict="UNSUPPORTED", comment="no source says 5 mg", reviewer="ana"
        )
        store.add_override(
            run_id, Q1, hallucination_type="FABRICATION", comment="made up", reviewer="bo"
        )
        export = store.reviewed_export(run_id)
    (review,) = [c for c in export.review.claims if c.claim_id == Q1]
    assert review.verdict.value == "UNSUPPORTED" and review.reviewer == "bo"
    assert "no source says 5 mg" in review.comment and "made up" in review.comment
    rows = list(csv.DictReader(io.StringIO(render(export, "csv"))))
    (row,) = [r for r in rows if r.get("claim_id") == Q1]
    assert "no source says 5 mg" in row["review_comment"]
    assert "no source says 5 mg" in render(export, "markdown")
    assert escape("no source says 5 mg") in render(export, "html")

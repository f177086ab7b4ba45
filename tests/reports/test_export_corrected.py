"""#11 item 3 in the exports: once reviewers labelled the random audit sample, the
review-corrected answers with a hallucination (and its change) appear beside the judge's
figures in Markdown, HTML, CSV and JUnit as they do in the JSON report; before any label they
do not. Each format is read back with a parser (csv, html.parser, junitparser, JSON), not by
searching the text.
"""

from __future__ import annotations

import csv
import io
import json
from html.parser import HTMLParser

import junitparser
import pytest
from halgate.reports.common import MEASURE_TITLES, RATE_FIELDS
from halgate.reports.render import render
from halgate.reports.summary import pct
from halgate.review import audit_review_ids
from halgate.store import Store

from ..conftest import AUDIT_GATED, build_report

RUN = "20260108T000000Z-aaaaaa"
# The reviewers' word on the candidate's answers: q3 is hallucinated too, which the judge
# missed, so the corrected rate lies above the judge's.
LABELS = {"q1": "HALLUCINATED", "q2": "HALLUCINATED", "q3": "HALLUCINATED"}
TITLE = MEASURE_TITLES["corrected"]
FIELD = RATE_FIELDS["corrected"]


def _store(db, labelled: bool):
    report = build_report(run_id=RUN, **AUDIT_GATED)
    with Store(db) as store:
        store.save_run(report)
        if labelled:
            for rid in audit_review_ids(report):
                case_id, system = rid.split(":")[1:]
                label = LABELS[case_id] if system == "candidate" else "FAITHFUL"
                store.add_override(RUN, rid, label=label, comment="read it", reviewer="ana")
        return store.reviewed_export(RUN)


@pytest.fixture
def audited(store_db):
    """The audit sample of both systems completely labelled: the gate uses the correction."""
    return _store(store_db, labelled=True)


@pytest.fixture
def unaudited(store_db):
    return _store(store_db, labelled=False)


def _corrected(report, system: str):
    return report.rates[system].corrected


def test_the_json_report_carries_the_corrected_rates_and_change(audited):
    data = json.loads(render(audited, "json"))
    cand = data["rates"]["candidate"]["corrected"]
    assert cand["estimate"] == pytest.approx(1.0) and cand["judge_rate"] == pytest.approx(2 / 3)
    assert cand["complete"] is True
    assert data["comparison"]["corrected_change"]["estimate"] == pytest.approx(1.0)
    assert data["comparison"]["gated_on_corrected"] is True


def _md_rows(text: str) -> list[list[str]]:
    return [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in text.splitlines()
        if line.startswith("| ") and not line.startswith("|---")
    ]


def test_markdown_rates_and_changes_show_the_corrected_figure_as_gated(audited):
    rows = _md_rows(render(audited, "markdown"))
    rates = {r[1]: r for r in rows if len(r) == 5 and r[0].startswith(TITLE)}
    assert set(rates) == {"baseline", "candidate"}
    cand = rates["candidate"]
    assert cand[0] == f"{TITLE} **(gated)**"
    assert cand[2] == "judge 66.7%; audit 3 of 3 labelled, complete"
    assert cand[3] == pct(_corrected(audited, "candidate").estimate) == "100.0%"
    assert not any(r[0] == "answers with a hallucination **(gated)**" for r in rows)
    [change] = [r for r in rows if len(r) == 3 and r[0].startswith(TITLE)]
    assert change[1] == "**+100.0%**"


class _Tables(HTMLParser):
    """Every table row of an HTML page as its cells' text."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def test_html_rates_and_changes_show_the_corrected_figure(audited):
    parser = _Tables()
    parser.feed(render(audited, "html"))
    found = [r for r in parser.rows if r and r[0].startswith(TITLE)]
    rates = {r[1]: r for r in found if len(r) == 5}
    assert rates["candidate"][0] == f"{TITLE} (gated)"
    assert rates["candidate"][3] == "100.0%"
    assert rates["baseline"][3] == "0.0%"
    [change] = [r for r in found if len(r) == 3]
    assert change[1] == "+100.0%"


def test_csv_rows_carry_the_corrected_rate_of_their_system(audited):
    rows = list(csv.DictReader(io.StringIO(render(audited, "csv"))))
    cand = next(r for r in rows if r["system"] == "candidate")
    base = next(r for r in rows if r["system"] == "baseline")
    assert cand[FIELD].startswith("100.0% (judge 66.7%; audit 3 of 3 labelled, complete; 95% CI")
    assert base[FIELD].startswith("0.0% (judge 0.0%;")


def _properties(suite) -> dict[str, str]:
    return {p.name: p.value for p in suite.properties()}


def test_junit_properties_carry_the_corrected_rate_and_its_change(audited):
    xml = junitparser.JUnitXml.fromstring(render(audited, "junit"))
    suites = {s.name: _properties(s) for s in xml}
    cand = suites["halgate.candidate"]
    assert cand[FIELD].startswith("100.0% (judge 66.7%;")
    assert cand[f"{FIELD}_change"].startswith("+100.0% (95% CI ")
    assert suites["halgate.baseline"][FIELD].startswith("0.0% (judge 0.0%;")


def test_without_labels_no_export_shows_a_corrected_figure(unaudited):
    assert all(r.corrected is None or r.corrected.n_labelled == 0 for r in unaudited.rates.values())
    assert TITLE not in render(unaudited, "markdown")
    assert TITLE not in render(unaudited, "html")
    rows = list(csv.DictReader(io.StringIO(render(unaudited, "csv"))))
    assert FIELD in rows[0] and {r[FIELD] for r in rows} == {""}  # a stable header, empty
    xml = junitparser.JUnitXml.fromstring(render(unaudited, "junit"))
    assert not any(FIELD in _properties(s) for s in xml)

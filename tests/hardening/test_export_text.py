"""#12: hostile text in a report cannot ping people or autolink in a PR comment, break the
HTML export with XML-illegal characters, or drive the terminal through the summary."""

from __future__ import annotations

import re

from halgate.models.review import Override
from halgate.reports.html import html_report
from halgate.reports.markdown import markdown_report, md_text
from halgate.reports.summary import summary_text
from halgate.review import review_run, reviewed_report

from ..conftest import build_report

LOUD = "@everyone see http://evil.example/x and HTTPS://evil.example, www.evil.example @octo-cat"
CONTROLS = "\x1b[2J\x1b]0;owned\x07\x00bad\x08\x0b\x0c\x0e\x1f\x7f\x9b31m \u202eevil end"
XML_ILLEGAL = "\x00\x01\x08\x0b\x0c\x0e\x1f"


def hostile_report(text: str):
    """A report whose untrusted text (answers, documents, claims, citations, reasons, names)
    is ``text``."""
    report = build_report()
    analyses = []
    for a in report.analyses:
        claims = [
            c.model_copy(
                update={
                    "text": text,
                    "rationale": text,
                    "citations": [q.model_copy(update={"quote": text}) for q in c.citations],
                }
            )
            for c in a.claims
        ]
        analyses.append(a.model_copy(update={"claims": claims, "error_message": text}))
    answers = {s: {k: text for k in by_case} for s, by_case in report.answers.items()}
    documents = [d.model_copy(update={"text": text, "title": text}) for d in report.documents]
    cases = [c.model_copy(update={"question": text}) for c in report.cases]
    reasons = [r.model_copy(update={"message": text}) for r in report.decision.reasons]
    decision = report.decision.model_copy(update={"reasons": reasons})
    suite = report.suite.model_copy(update={"name": text})
    return report.model_copy(
        update={
            "analyses": analyses,
            "answers": answers,
            "documents": documents,
            "cases": cases,
            "decision": decision,
            "suite": suite,
        }
    )


def hostile_override(report, text: str) -> Override:
    claim = next(c for a in report.analyses for c in a.claims)
    return Override(
        id=1,
        run_id=report.run_id,
        claim_id=claim.claim_id,
        comment=text,
        reviewer=text,
        created_at="t",
    )


def test_md_text_defuses_mentions_and_autolinks():
    out = md_text(LOUD)
    assert "@everyone" not in out and "@octo-cat" not in out
    assert "@\u200beveryone" in out and "@\u200bocto-cat" in out
    assert not re.search(r"(?i)https?://|www\.", out)
    assert "evil.example" in out  # still readable


def with_review(report, override: Override):
    """The report as exported after ``override``: effective verdicts plus the review record."""
    return reviewed_report(review_run(report.run_id, report, [override]))


def test_markdown_report_has_no_mention_or_autolink_from_untrusted_text():
    report = hostile_report(LOUD)
    text = markdown_report(with_review(report, hostile_override(report, LOUD)))
    assert "evil.example" in text and "\u200b" in text
    text = re.sub(r"`[^`\n]*`", "", text)  # code spans (ids) never mention or link
    assert not re.search(r"@[A-Za-z0-9]", text), re.findall(r".{20}@[A-Za-z0-9].{10}", text)
    assert not re.search(r"(?i)https?://|www\.", text)


def test_html_export_has_no_xml_illegal_characters():
    report = hostile_report(f"before{XML_ILLEGAL}after <script>x</script>")
    text = html_report(with_review(report, hostile_override(report, f"note{XML_ILLEGAL}")))
    assert "beforeafter" in text and "noteafter" not in text and "note" in text
    assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f]", text)
    assert "<script>" not in text


def test_terminal_summary_strips_control_characters():
    text = summary_text(hostile_report(CONTROLS))
    assert "bad" in text and "evil end" in text
    for bad in ("\x1b", "\x07", "\x00", "\x08", "\x0b", "\x0c", "\x7f", "\x9b", "\u202e"):
        assert bad not in text, repr(bad)


def test_show_prints_a_stored_hostile_report_clean(tmp_path):
    import halgate.cli  # noqa: F401  (registers the commands)
    from halgate.cli.app import app
    from halgate.store import Store
    from typer.testing import CliRunner

    report = hostile_report(CONTROLS)
    db = tmp_path / "h.db"
    with Store(db) as store:
        store.save_run(report)
    result = CliRunner().invoke(app, ["show", report.run_id, "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "bad" in result.output
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]", result.output)

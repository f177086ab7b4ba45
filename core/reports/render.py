"""One entry point for every export format, used by `halgate export` and the dashboard."""

from __future__ import annotations

from ..errors import UsageError
from ..models import RunReport

FORMATS = ("json", "markdown", "junit", "csv", "html")
EXTENSIONS = {"json": ".json", "markdown": ".md", "junit": ".xml", "csv": ".csv", "html": ".html"}


def render(report: RunReport, fmt: str) -> str:
    """The report as text in ``fmt``.

    Pass the effective report; a ``ReviewedReport`` (``Store.reviewed_export``) also carries
    the review record, which every format shows: judge verdict beside the verdict in force,
    reviewer, comment and time per reviewed claim, the sign-off in force and every sign-off.
    """
    if fmt == "json":
        from .json_report import report_to_json

        return report_to_json(report) + "\n"
    if fmt == "markdown":
        from .markdown import markdown_report

        return markdown_report(report)
    if fmt == "junit":
        from .junit import junit_xml

        return junit_xml(report)
    if fmt == "csv":
        from .csv_report import csv_report

        return csv_report(report)
    if fmt == "html":
        from .html import html_report

        return html_report(report)
    raise UsageError(f"unknown format {fmt!r}; choose one of: {', '.join(FORMATS)}")

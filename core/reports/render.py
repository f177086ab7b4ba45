"""One entry point for every export format, used by `halgate export` and the dashboard."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import UsageError
from ..models import RunReport
from .common import OverrideLike

FORMATS = ("json", "markdown", "junit", "csv", "html")
EXTENSIONS = {"json": ".json", "markdown": ".md", "junit": ".xml", "csv": ".csv", "html": ".html"}


def render(report: RunReport, fmt: str, overrides: Sequence[OverrideLike] = ()) -> str:
    """The report as text in ``fmt``; pass the effective report and its override history."""
    if fmt == "json":
        from .json_report import report_to_json

        return report_to_json(report) + "\n"
    if fmt == "markdown":
        from .markdown import markdown_report

        return markdown_report(report, overrides)
    if fmt == "junit":
        from .junit import junit_xml

        return junit_xml(report)
    if fmt == "csv":
        from .csv_report import csv_report

        return csv_report(report, overrides)
    if fmt == "html":
        from .html import html_report

        return html_report(report, overrides)
    raise UsageError(f"unknown format {fmt!r}; choose one of: {', '.join(FORMATS)}")

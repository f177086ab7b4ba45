"""Report writers: JSON (schema-validated), Markdown, JUnit, CSV and HTML."""

from .json_report import load_report, parse_report, write_report
from .team_text import RISK_HEAD, confusion_rows, reviewer_rows, risk_rows

__all__ = [
    "RISK_HEAD",
    "confusion_rows",
    "load_report",
    "parse_report",
    "reviewer_rows",
    "risk_rows",
    "write_report",
]

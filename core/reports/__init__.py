"""Report writers: JSON (schema-validated), Markdown, JUnit, CSV and HTML."""

from .json_report import load_report, parse_report, write_report

__all__ = ["load_report", "parse_report", "write_report"]

"""The committed JSON Schemas match the models, and reports validate against them."""

from __future__ import annotations

import pytest

from halgate.errors import ReportError
from halgate.reports.json_report import parse_report, validate_report_data
from halgate.schemas import PUBLISHED, schema_path, schema_text


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_committed_schema_matches_model(name):
    committed = schema_path(name).read_text(encoding="utf-8")
    assert committed == schema_text(name), (
        f"data/schemas/{name}.schema.json drifted from the model: run `halgate schemas --write`"
    )


def test_invalid_report_is_rejected_with_path():
    with pytest.raises(ReportError, match="run_id"):
        validate_report_data({"schema_version": "1.0"})
    with pytest.raises(ReportError, match="not valid JSON"):
        parse_report(b"{not json", "upload.json")

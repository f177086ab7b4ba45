"""The committed JSON Schemas match the models, and reports validate against them."""

from __future__ import annotations

import json

import pytest
from halgate.errors import ReportError
from halgate.reports.json_report import parse_report, validate_report_data
from halgate.reports.schemas import PUBLISHED, schema_path, schema_text

from ..conftest import build_report


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


def _report_with_bad_claim(tiny_suite, copies: int, bad_index: int):
    from halgate.inputs.policy import Policy
    from halgate.inputs.suite import load_suite
    from halgate.judges.registry import create_judge
    from halgate.run.engine import run_suite

    report = run_suite(load_suite(tiny_suite), create_judge("offline"), Policy())
    template = next(a for a in report.analyses if a.claims)
    analyses = [template] * copies
    bad_claim = template.claims[0].model_copy(update={"score": 5.0})  # not validated
    analyses[bad_index] = template.model_copy(update={"claims": [bad_claim]})
    return report.model_copy(update={"analyses": analyses})


@pytest.mark.parametrize("copies, bad_index", [(10, 7), (2400, 1500)])  # in-process, processes
def test_report_writer_rejects_a_bad_analysis_with_its_path(
    tiny_suite, tmp_path, copies, bad_index
):
    from halgate.reports.json_report import write_report

    report = _report_with_bad_claim(tiny_suite, copies, bad_index)
    out = tmp_path / "r.json"
    with pytest.raises(ReportError, match=rf"analyses/{bad_index}/claims/0/score"):
        write_report(report, out)
    assert not out.exists()


def test_report_writer_refuses_text_that_is_not_unicode(tiny_suite, tmp_path):
    """A lone surrogate that slipped past the inputs is a clear error naming the file."""
    from halgate.reports.json_report import write_report

    report = _report_with_bad_claim(tiny_suite, 1, 0)
    analysis = report.analyses[0]
    claim = analysis.claims[0].model_copy(update={"score": 0.5, "rationale": "bad \udc80 text"})
    report.analyses[0] = analysis.model_copy(update={"claims": [claim]})
    out = tmp_path / "r.json"
    with pytest.raises(ReportError, match=r"r\.json: report holds text that is not valid Unicode"):
        write_report(report, out)
    assert not out.exists()


@pytest.mark.parametrize("systems", [[], ["baseline"], ["a", "b", "c"]])
def test_a_compare_report_without_two_systems_is_refused(systems):
    data = json.loads(build_report().model_dump_json())
    assert data["mode"] == "compare"
    data["systems"] = systems
    with pytest.raises(ReportError, match="systems: compare mode judges 2 system"):
        parse_report(json.dumps(data), "upload.json")

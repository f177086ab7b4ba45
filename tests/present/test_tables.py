"""The claims table the explorer filters: one row per effective claim, every filter exact."""

from __future__ import annotations

import pytest
from halgate.present.tables import CLAIM_COLUMNS, ClaimFilter, claims_frame, filter_claims


@pytest.fixture
def frame(make_report):
    report = make_report()
    unverified = (
        report.analyses[1]
        .claims[0]
        .model_copy(
            update={
                "citations": [
                    report.analyses[1].claims[0].citations[0].model_copy(update={"verified": False})
                ]
            }
        )
    )
    uncited = report.analyses[3].claims[0].model_copy(update={"citations": []})
    analyses = list(report.analyses)
    analyses[1] = analyses[1].model_copy(update={"claims": [unverified]})
    analyses[3] = analyses[3].model_copy(update={"claims": [uncited]})
    report = report.model_copy(update={"analyses": analyses})
    return claims_frame(report, overridden={"q2/candidate/0"})


def ids(df) -> list[str]:
    return sorted(df["claim_id"])


def test_one_row_per_claim_with_the_documented_columns(frame):
    assert list(frame.columns) == CLAIM_COLUMNS
    assert len(frame) == 6
    row = frame.set_index("claim_id").loc["q1/candidate/0"]
    assert (row.verdict, row.severity, row.type) == ("CONTRADICTED", "CRITICAL", "DISTORTION")
    assert row.tags == "lookup, numeric"


@pytest.mark.parametrize(
    ("flt", "expected"),
    [
        (ClaimFilter(), 6),
        (ClaimFilter(systems=["candidate"]), 3),
        (ClaimFilter(verdicts=["CONTRADICTED"]), 2),
        (ClaimFilter(severities=["CRITICAL"], systems=["candidate"]), 2),
        (ClaimFilter(types=["DISTORTION"]), 2),
        (ClaimFilter(tags=["numeric"]), 2),
        (ClaimFilter(cases=["q3"]), 2),
        (ClaimFilter(overridden="yes"), 1),
        (ClaimFilter(overridden="no"), 5),
        (ClaimFilter(citation="unverified"), 1),
        (ClaimFilter(citation="none"), 1),
        (ClaimFilter(citation="verified"), 4),
    ],
)
def test_each_filter_narrows_exactly(frame, flt, expected):
    assert len(filter_claims(frame, flt)) == expected


def test_filters_combine_with_and(frame):
    got = filter_claims(frame, ClaimFilter(systems=["candidate"], citation="unverified"))
    assert ids(got) == ["q1/candidate/0"]


def test_queue_rows_say_who_reviewed_each_item_what_they_decided_and_when(make_report):
    from halgate.models import Override
    from halgate.present import queue_audit_rows, queue_claim_rows
    from halgate.review import review_run

    report = make_report()
    run = review_run(
        report.run_id,
        report,
        [
            Override(
                id=1,
                run_id=report.run_id,
                claim_id="q1/candidate/0",
                verdict="SUPPORTED",
                comment="dose ok",
                reviewer="ana",
                created_at="2026-01-05T10:11:12.345+00:00",
            )
        ],
    )
    rows = {r["claim"]: r for r in queue_claim_rows(run.queue)}
    assert rows["q1/candidate/0"] == {
        "claim": "q1/candidate/0",
        "severity": "",
        "verdict": "SUPPORTED",
        "judge verdict": "CONTRADICTED",
        "reviewed": True,
        "decision": "verdict=SUPPORTED",
        "by": "ana",
        "when (UTC)": "2026-01-05 10:11:12",
    }
    assert (rows["q2/candidate/0"]["by"], rows["q2/candidate/0"]["reviewed"]) == ("", False)
    audit = queue_audit_rows(run.queue)
    assert audit and {r["label"] for r in audit} == {""}

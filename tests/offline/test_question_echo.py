"""An answer that echoes the user's figure is checked against the sources now in force."""

from __future__ import annotations

from halgate.judges.protocol import JudgeTask
from halgate.judges.registry import create_judge
from halgate.models import Case, Document, Verdict

NEW = Document(
    doc_id="leaflet-2024",
    title="Zelparin leaflet (revised March 2024)",
    text="Take one tablet twice daily. Do not take more than 100 mg in 24 hours. "
    "If you take more than you should, contact your doctor.",
)
OLD = Document(
    doc_id="leaflet-2021",
    title="Zelparin leaflet (revised June 2021)",
    text="Take one tablet twice daily. If your doctor decides so, you may take up "
    "to 150 mg in 24 hours.",
)
LETTER = Document(
    doc_id="letter-2023",
    title="Safety letter (12 September 2023)",
    text="Patients currently taking 150 mg a day should be switched to 100 mg.",
)


def judge(answer: str, question: str) -> list:
    case = Case(
        case_id="q",
        question=question,
        doc_ids=["leaflet-2024", "leaflet-2021", "letter-2023"],
        domain="medication",
        risk_level="CRITICAL",
    )
    task = JudgeTask(case=case, documents=[NEW, OLD, LETTER], answers={"candidate": answer})
    return create_judge("offline").judge([task])[0].claims["candidate"]


def test_echoed_outdated_dose_is_contradicted_by_the_current_leaflet():
    claims = judge(
        "You may take up to 150 mg in 24 hours if your doctor advises it.",
        "How much can I take in 24 hours? My old leaflet says 150 mg.",
    )
    assert [c.verdict for c in claims] == [Verdict.CONTRADICTED]
    assert claims[0].severity.value in ("CRITICAL", "HIGH")


def test_a_claim_about_the_old_version_by_its_date_is_not_contradicted():
    claims = judge(
        "The leaflet revised in June 2021 allowed up to 150 mg in 24 hours.",
        "Did the leaflet ever allow 150 mg?",
    )
    assert all(c.verdict != Verdict.CONTRADICTED for c in claims)

"""The offline judge on a user's own suite, with no task tags (#15 acceptance).

Two suites written as a user would write them (questions, documents, two systems' answers,
no benchmark tag anywhere):
- real RAG answers of GPT-4 and GPT-3.5 to the same RAGTruth sources (needs
  ``../shared/benchmarks``; skipped without it), whose human hallucination rates are close:
  swapping one for the other is an equivalent release the gate must not block;
- a small hand-written suite of faithful answers that paraphrase their sources.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .ragtruth_pairs import write_pair_suite

RAGTRUTH = Path(__file__).resolve().parents[2].parent / "shared/benchmarks/ragtruth/dev.jsonl"
HALGATE = [sys.executable, "-m", "halgate.cli"]


def _run(suite: Path, out: Path) -> tuple[int, dict]:
    proc = subprocess.run(
        [*HALGATE, "run", str(suite), "--judge", "offline", "--out", str(out), "-q"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode in (0, 1, 2, 3), proc.stderr
    return proc.returncode, json.loads(out.read_text(encoding="utf-8"))


def _answer_rate(report: dict, system: str) -> float:
    return report["rates"][system]["answer_level_rate"]


@pytest.mark.skipif(not RAGTRUTH.exists(), reason="needs ../shared/benchmarks (RAGTruth)")
def test_an_equivalent_llm_swap_is_not_blocked(tmp_path: Path) -> None:
    human = write_pair_suite(RAGTRUTH, tmp_path / "suite", holdout_only=False)
    code, report = _run(tmp_path / "suite", tmp_path / "report.json")
    judged = {s: _answer_rate(report, s) for s in ("baseline", "candidate")}
    print(f"\n{human['n']} sources; human answer-level rates", human, "judge", judged)
    assert report["decision"]["status"] != "FAILED", report["decision"]["reasons"]
    assert code != 1
    # The change the judge sees stays near the true one (+1.7 points): no false block.
    seen = judged["candidate"] - judged["baseline"]
    assert abs(seen - (human["candidate"] - human["baseline"])) < 0.15


PARAPHRASES = [
    (
        "The library opens at 9 am on weekdays and at 10 am on Saturdays. It is closed on "
        "Sundays. Members may borrow up to 8 books at a time for 3 weeks.",
        "When is the library open?",
        "On weekdays the library opens at 9 am, and on Saturdays an hour later, at 10 am. "
        "It does not open on Sundays.",
    ),
    (
        "Refunds are paid to the original payment card within 14 days of the return being "
        "received. Items must be unused and in their original packaging.",
        "How do refunds work?",
        "Once the return arrives, the refund goes back to the card you paid with within 14 "
        "days. The item has to be unused and still in its original packaging.",
    ),
    (
        "The warranty covers manufacturing defects for 2 years from the date of purchase. "
        "Accidental damage and normal wear are not covered.",
        "What does the warranty cover?",
        "Manufacturing defects are covered for 2 years after purchase. The warranty does not "
        "cover accidental damage or normal wear.",
    ),
    (
        "Employees accrue 25 days of paid annual leave per year. Up to 5 unused days may be "
        "carried over into the next year.",
        "How much annual leave do I get?",
        "You get 25 days of paid annual leave each year, and you can carry up to 5 unused days "
        "over to the following year.",
    ),
    (
        "The clinic offers walk-in appointments from 8 am to 6 pm, Monday to Friday. "
        "Appointments for vaccinations must be booked online in advance.",
        "Can I walk in for a vaccination?",
        "Walk-in appointments are available Monday to Friday between 8 am and 6 pm, but "
        "vaccinations need an appointment booked online beforehand.",
    ),
    (
        "Parcels within the UK are delivered in 2 to 3 working days. Express delivery, which "
        "costs £6.99, arrives the next working day if ordered before 2 pm.",
        "How fast is delivery?",
        "UK parcels take 2 to 3 working days. If you order before 2 pm you can pay £6.99 for "
        "express delivery and get it the next working day.",
    ),
    (
        "The gym pool is reserved for lessons between 4 pm and 6 pm on weekdays. Outside "
        "those hours it is open to all members.",
        "When can I swim?",
        "Members can use the pool at any time except 4 pm to 6 pm on weekdays, when it is "
        "kept for lessons.",
    ),
    (
        "Students must submit the thesis by 30 June. Late submissions are accepted only with "
        "written approval from the supervisor.",
        "What is the thesis deadline?",
        "The thesis is due by 30 June, and a late submission is only accepted if the "
        "supervisor approves it in writing.",
    ),
    (
        "The museum is free for children under 12. Adult tickets cost £15, and concessions "
        "for students and seniors cost £10.",
        "How much are tickets?",
        "Adults pay £15 and students and seniors pay a concession price of £10, while "
        "children under 12 get in free.",
    ),
    (
        "The software supports Windows 10 and 11 and macOS 13 or later. Linux is not supported.",
        "Which systems are supported?",
        "It runs on Windows 10 and Windows 11 and on macOS 13 or newer; there is no Linux support.",
    ),
]


def _write_paraphrase_suite(root: Path) -> None:
    (root / "answers").mkdir(parents=True)
    docs, cases, answers = [], [], []
    for i, (doc, question, answer) in enumerate(PARAPHRASES):
        docs.append({"doc_id": f"doc-{i}", "text": doc})
        cases.append({"case_id": f"case-{i}", "question": question, "doc_ids": [f"doc-{i}"]})
        answers.append({"case_id": f"case-{i}", "answer": answer})
    for name, rows in (("documents", docs), ("cases", cases)):
        (root / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    for system in ("baseline", "candidate"):
        (root / "answers" / f"{system}.jsonl").write_text(
            "".join(json.dumps(r) + "\n" for r in answers)
        )


def test_faithful_paraphrases_are_mostly_judged_faithful(tmp_path: Path) -> None:
    _write_paraphrase_suite(tmp_path / "suite")
    _, report = _run(tmp_path / "suite", tmp_path / "report.json")
    rate = _answer_rate(report, "baseline")
    flagged = [
        c["text"]
        for a in report["analyses"]
        if a["system"] == "baseline"
        for c in a["claims"]
        if c["verdict"] in ("UNSUPPORTED", "CONTRADICTED")
    ]
    print(f"\nparaphrase suite: {rate:.0%} of faithful answers flagged: {flagged}")
    assert rate <= 0.15

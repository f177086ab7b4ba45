"""Rule packs: the conventions of one kind of data run only when a suite's policy turns
their pack on (``rule_packs``); off, their signals are not computed and their rules are
not in the table. An unknown pack is a usage error naming where it was asked for."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from halgate.evidence.index import evidence_index
from halgate.inputs.policy import Policy, load_policy
from halgate.judges.build import build_judge
from halgate.judges.offline.conventions import LISTINGS_PACK, REVIEWS_PACK
from halgate.judges.offline.judge import OfflineJudge
from halgate.judges.offline.rules.table import rule_table
from halgate.judges.protocol import JudgeTask
from halgate.models import Case, ClaimJudgement, Document, Mode, Verdict

LISTING = Document(
    doc_id="lark",
    text=json.dumps(
        {
            "name": "The Lark",
            "attributes": {"Alcohol": "full_bar", "OutdoorSeating": True},
            "hours": {"Monday": "17:0-22:0", "Tuesday": "17:0-22:0"},
        }
    ),
)
NO_ALCOHOL = "The Lark does not serve alcohol."
ON_SUNDAY = "The Lark is open on Sunday."


def judged(answer: str, packs: tuple[str, ...] = (), doc: Document = LISTING) -> ClaimJudgement:
    task = JudgeTask(case=Case(case_id="c", question=""), documents=[doc], answers={"s": answer})
    (claim,) = OfflineJudge(use_model=False, rule_packs=packs).judge_task(task).claims["s"]
    return claim


def test_a_listing_value_affirms_its_field_only_with_the_listings_pack() -> None:
    off, on = judged(NO_ALCOHOL), judged(NO_ALCOHOL, (LISTINGS_PACK,))
    assert on.verdict == Verdict.CONTRADICTED and on.deciding_rule == "listing_conflict"
    assert on.signals["listing_conflicts"] == ['attributes.Alcohol = "full_bar"']
    assert off.deciding_rule != "listing_conflict" and "listing_conflicts" not in off.signals


def test_a_day_the_listing_leaves_out_is_closed_only_with_the_listings_pack() -> None:
    week = dict.fromkeys(("Monday", "Tuesday", "Wednesday", "Thursday", "Friday"), "10:0-20:0")
    deli = Document(doc_id="deli", text=json.dumps({"name": "Corner Deli", "hours": week}))
    answer = "Corner Deli is open from 10 AM to 8 PM every day of the week."
    off, on = judged(answer, doc=deli), judged(answer, (LISTINGS_PACK,), deli)
    assert on.deciding_rule == "listing_conflict", on.rationale
    assert on.signals["listing_conflicts"] == ["no hours.Saturday", "no hours.Sunday"]
    assert off.verdict != Verdict.CONTRADICTED and not off.signals["record_conflicts"]


def test_zero_hours_show_as_closed_only_with_the_listings_pack() -> None:
    """ "0:0-0:0" means closed to a business listing's writers, open all day to others: the
    passage shows "closed" only under the pack, and each reading has its own cached index."""
    hours = {"Monday": "0:0-0:0", "Tuesday": "17:0-22:0"}
    doc = Document(doc_id="zero", text=json.dumps({"name": "Nook", "hours": hours}))
    answer = "Nook is closed on Monday."

    def monday(closed_hours: bool) -> str:
        index = evidence_index([doc], closed_hours=closed_hours)
        return next(p.text for p in index.passages if p.text.startswith("hours Monday"))

    assert monday(False) == "hours Monday: 0:0-0:0"
    assert monday(True) == "hours Monday: closed"
    assert monday(False) == "hours Monday: 0:0-0:0"  # not the other reading's cached index
    off, on = judged(answer, doc=doc), judged(answer, (LISTINGS_PACK,), doc)
    assert on.verdict == Verdict.SUPPORTED, on.rationale
    assert off.verdict == Verdict.PARTIALLY_SUPPORTED and off.signals["missing_words"] == ["clos"]


def test_review_wording_frames_a_claim_only_with_the_reviews_pack() -> None:
    answer = "Reviewers praised the outdoor seating."
    off, on = judged(answer), judged(answer, (REVIEWS_PACK,))
    assert on.signals["informative_uncovered"] < off.signals["informative_uncovered"]


def test_the_table_holds_a_packs_rules_only_when_it_is_on() -> None:
    assert "listing_conflict" not in {r.id for r in rule_table().rules}
    assert "listing_conflict" in {r.id for r in rule_table([LISTINGS_PACK]).rules}


def test_the_policy_turns_packs_on_for_the_judge_it_builds(tmp_path: Path) -> None:
    assert Policy().rule_packs == []
    path = tmp_path / "policy.toml"
    path.write_text('rule_packs = ["business_listings"]\n', encoding="utf-8")
    judge = build_judge("offline", load_policy(path), Mode.COMPARE, None)
    assert judge.spec.options["rule_packs"] == ["business_listings"]


def halgate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "halgate.cli", *args], capture_output=True, text=True, check=False
    )


def test_an_unknown_pack_in_the_policy_exits_4_naming_the_file_and_field(
    tmp_path: Path, tiny_suite: Path
) -> None:
    path = tmp_path / "policy.toml"
    path.write_text('gate_on = "answers"\nrule_packs = ["yelp"]\n', encoding="utf-8")
    proc = halgate("run", str(tiny_suite), "--policy", str(path), "-q", "--no-save")
    assert proc.returncode == 4, proc.stderr
    assert f"{path}:2: rule_packs: unknown rule pack(s) yelp" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_an_unknown_pack_on_the_command_line_exits_4(tiny_suite: Path) -> None:
    proc = halgate("eval-judge", str(tiny_suite), "--rule-packs", "yelp")
    assert proc.returncode == 4 and "--rule-packs: unknown rule pack(s) yelp" in proc.stderr


def test_compare_packs_lists_the_claims_the_pack_changes(tmp_path: Path) -> None:
    answer = f"{NO_ALCOHOL} {ON_SUNDAY}"
    row = {
        "id": "lark-1",
        "task": "data2text",
        "documents": [{"doc_id": "lark", "text": LISTING.text}],
        "answer": answer,
        "label": "hallucinated",
        "spans": [{"start": 0, "end": len(answer)}],
    }
    bench = tmp_path / "bench.jsonl"
    bench.write_text(json.dumps(row) + "\n", encoding="utf-8")
    args = ["eval-judge", "--benchmark", str(bench), "--compare-packs", "-q", "--json"]
    proc = halgate(*args, "--rule-packs", "business_listings")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    changed = {c["claim_id"]: c for c in data["changed"]}
    assert data["rule_packs"] == ["business_listings"]
    by_rule = {c["rule_after"]: c for c in changed.values()}
    assert by_rule["listing_conflict"]["after"] == "CONTRADICTED"
    assert by_rule["listing_conflict"]["before"] != "CONTRADICTED"
    assert data["without"]["overall"]["n"] == data["with"]["overall"]["n"] == 1

"""The frozen corpus's judgements are pinned (tests/judgements/pinned.py): a changed verdict,
type, severity or deciding rule fails here with a diff that names the rule behind it, and is
accepted by regenerating the snapshot in the same commit."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location("pinned", Path(__file__).with_name("pinned.py"))
assert _spec and _spec.loader
pinned = importlib.util.module_from_spec(_spec)
sys.modules["pinned"] = pinned
_spec.loader.exec_module(pinned)


def test_the_corpus_is_judged_as_the_snapshot_says() -> None:
    old, new = pinned.read_snapshot(), pinned.judge_corpus()
    assert {r["mode"] for r in old} == {"rules", "model"} and len(old) > 600
    diff = pinned.snapshot_diff(old, new)
    assert not diff, (
        "judgements changed (accept with `.venv/bin/python tests/judgements/pinned.py "
        "--write` in the same commit):\n" + "\n".join(diff)
    )


def test_a_changed_verdict_is_reported_with_the_rule_before_and_after() -> None:
    old = pinned.read_snapshot()
    new = [dict(r) for r in old]
    changed = next(r for r in new if r["deciding_rule"] == "supported")
    changed.update(
        verdict="UNSUPPORTED",
        hallucination_type="FABRICATION",
        severity="HIGH",
        deciding_rule="number_unmatched",
    )
    (line,) = pinned.snapshot_diff(old, new)
    assert changed["claim_id"] in line
    before, after = "SUPPORTED/-/- (rule supported)", "UNSUPPORTED/FABRICATION/HIGH"
    assert f"{before} -> {after} (rule number_unmatched)" in line
    gone = pinned.snapshot_diff(old[:-1], old)
    assert gone == [f"model {old[-1]['claim_id']}: new claim: {old[-1]['text']!r}"]


def test_the_committed_corpus_is_small_and_samples_all_three_files() -> None:
    size = pinned.CORPUS.stat().st_size + pinned.SNAPSHOT.stat().st_size
    assert size < 300_000
    sources = [line.split('"source": "')[1].split('"')[0] for line in
               pinned.CORPUS.read_text(encoding="utf-8").splitlines()]  # fmt: skip
    assert {s: sources.count(s) for s in set(sources)} == dict.fromkeys(pinned.SAMPLED, 12)

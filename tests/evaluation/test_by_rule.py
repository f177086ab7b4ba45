"""`halgate eval-judge --by-rule`: per rule, how often it fired and decided and how often
what it proposed agrees with the labels of a suite, a benchmark file or a store's
reviewers; and every offline claim records its rules (provenance)."""

from __future__ import annotations

import json
from pathlib import Path

from halgate.cli.app import app
from halgate.evaluation.by_rule import store_claims, tally_rules
from halgate.models import (
    AuditLabel,
    ClaimJudgement,
    Override,
    RuleFinding,
    Verdict,
)
from halgate.store import Store
from typer.testing import CliRunner

from ..conftest import EXAMPLE_SUITE, build_report, claim, judged_run_db, write_jsonl

runner = CliRunner()
V = Verdict


def _with_rules(c: ClaimJudgement, *rules: tuple[str, Verdict], changed: bool = False):
    findings = [RuleFinding(rule=r, verdict=v, reason=f"{r} says so") for r, v in rules]
    return c.model_copy(
        update={"findings": findings, "deciding_rule": rules[0][0], "model_changed": changed}
    )


def test_a_rule_agrees_when_its_proposal_is_hallucinated_exactly_when_the_label_is() -> None:
    a = _with_rules(claim("UNSUPPORTED"), ("numbers", V.UNSUPPORTED), ("supported", V.SUPPORTED))
    b = _with_rules(claim("SUPPORTED"), ("supported", V.SUPPORTED))
    c = _with_rules(claim("PARTIALLY_SUPPORTED"), ("numbers", V.UNSUPPORTED), changed=True)
    d = _with_rules(claim("SUPPORTED"), ("supported", V.SUPPORTED))
    tallies = {t.rule: t for t in tally_rules([(a, True), (b, False), (c, False), (d, None)])}
    numbers, supported = tallies["numbers"], tallies["supported"]
    assert (numbers.fired, numbers.decided, numbers.overturned) == (2, 2, 1)
    assert numbers.precision_decided == 0.5 and numbers.precision_fired == 0.5
    assert (supported.fired, supported.decided) == (3, 2)
    # fired on a (hallucinated: disagrees), b (faithful: agrees); d has no label
    assert supported.precision_fired == 0.5 and supported.precision_decided == 1.0
    assert supported.decided_labelled == 1


def test_store_labels_are_the_newest_override_and_a_faithful_audited_answer() -> None:
    report = build_report()
    answers = [a for a in report.analyses if a.claims]
    first, second, other = answers[0].claims[0], answers[1].claims[0], answers[2]

    def override(i: int, claim_id: str, **kw) -> Override:
        return Override(
            id=i,
            run_id=report.run_id,
            claim_id=claim_id,
            comment="c",
            reviewer="r",
            created_at="2026-01-01T00:00:00Z",
            **kw,
        )

    reviews = [
        override(1, first.claim_id, verdict=V.SUPPORTED),
        override(2, first.claim_id, verdict=V.CONTRADICTED),  # newest wins
        override(3, second.claim_id),  # a confirmation: the judge's verdict is the label
        override(4, f"audit:{other.case_id}:{other.system}", label=AuditLabel.FAITHFUL),
    ]
    labels = {c.claim_id: label for c, label in store_claims(report, reviews)}
    assert labels[first.claim_id] is True
    assert labels[second.claim_id] is (second.verdict in {V.UNSUPPORTED, V.CONTRADICTED})
    assert all(labels[c.claim_id] is False for c in other.claims)
    unlabelled = [c for x in report.analyses for c in x.claims if labels[c.claim_id] is None]
    assert len(unlabelled) == len(labels) - 2 - len(other.claims)


def test_by_rule_on_the_example_suite_counts_every_offline_claim() -> None:
    r = runner.invoke(app, ["eval-judge", str(EXAMPLE_SUITE), "--by-rule", "--json", "-q"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    rules = {t["rule"]: t for t in data["rules"]}
    assert sum(t["decided"] for t in rules.values()) == data["n_claims"] > 100
    assert data["n_labelled"] > 0.9 * data["n_claims"]
    assert rules["misattributed"]["precision_decided"] == 1.0
    assert {"supported", "number_conflict", "number_unmatched"} <= set(rules)


def test_by_rule_on_a_benchmark_file(tmp_path: Path) -> None:
    doc = {"doc_id": "d", "text": "The shop opens at 9 am. Parking is free for customers."}
    write_jsonl(
        tmp_path / "bench.jsonl",
        [
            {"id": "a", "task": "qa", "documents": [doc], "answer": "The shop opens at 9 am.",
             "label": "faithful"},
            {"id": "b", "task": "qa", "documents": [doc], "answer": "The shop opens at 7 am.",
             "label": "hallucinated", "spans": [{"start": 0, "end": 23}]},
        ],
    )  # fmt: skip
    r = runner.invoke(
        app, ["eval-judge", "--benchmark", str(tmp_path / "bench.jsonl"), "--by-rule", "-q"]
    )
    assert r.exit_code == 0, r.output
    assert "2 claims, 2 labelled" in r.output
    rows = {x.split()[0]: x.split()[1:] for x in r.output.splitlines()[2:]}
    # supported fired on both answers (their words are covered); the faithful one copies
    # the document's sentence, so source_copy (earlier in the table) decided it
    assert rows["supported"] == ["2", "0", "0", "50%", "—", "2/0"]
    assert rows["source_copy"][:2] == ["1", "1"]
    assert rows["number_conflict"][:2] == ["1", "1"] and rows["number_conflict"][4] == "100%"


def test_by_rule_on_a_store_reads_the_reviewers_overrides(tmp_path: Path, tiny_suite) -> None:
    db = tmp_path / "h.db"
    run_id = judged_run_db(tiny_suite, db)
    with Store(db) as store:
        report = store.load_report(run_id)
        c = next(c for a in report.analyses for c in a.claims if c.deciding_rule)
        store.add_override(run_id, c.claim_id, comment="checked", reviewer="ana")
    r = runner.invoke(app, ["eval-judge", "--by-rule", "--db", str(db), "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert (data["run_id"], data["n_labelled"]) == (run_id, 1)
    decided = next(t for t in data["rules"] if t["rule"] == c.deciding_rule)
    assert decided["decided_labelled"] == 1 and decided["precision_decided"] == 1.0
    bad = runner.invoke(app, ["eval-judge", "--db", str(db)])
    assert bad.exit_code == 4 and "--by-rule" in bad.output


def test_every_offline_claim_names_its_deciding_rule_first_among_its_findings(
    tiny_suite,
) -> None:
    from halgate.inputs.policy import Policy
    from halgate.inputs.suite import load_suite
    from halgate.judges.registry import create_judge
    from halgate.run.engine import run_suite

    report = run_suite(load_suite(tiny_suite), create_judge("offline"), Policy())
    claims = [c for a in report.analyses for c in a.claims]
    assert claims and all(c.findings[0].rule == c.deciding_rule for c in claims)
    for c in claims:
        first = c.findings[0]
        if c.model_changed:
            assert c.verdict != first.verdict and "the rules said" in c.rationale
            assert "learned model overturned" in c.provenance()[0]
        else:
            assert (c.verdict, c.rationale) == (first.verdict, first.reason)
        assert c.provenance()[1:] == [f"Also fired: {f.rule}: {f.reason}" for f in c.also_fired]

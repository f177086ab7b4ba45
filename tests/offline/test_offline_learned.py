"""The offline judge's v2 additions: record nulls, names, severity of firmed hedges, the
learned claim model (aggregates, loading, rescoring) and the `halgate calibrate` command."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import numpy as np
import pytest
from halgate.cli.app import app
from halgate.evaluation.calibrate import (
    THRESHOLD_DRAWS,
    AnswerSample,
    _answer_out_of_fold,
    _fit_claims,
    _out_of_fold,
    balancing_weights,
    benchmark_weight,
    best_threshold,
    out_of_fold_flags,
    steady_threshold,
)
from halgate.evaluation.logistic_fit import fit_logistic
from halgate.inputs.policy import SeverityRules
from halgate.judges.offline.answer_model import ANSWER_FEATURES, aggregates, answer_vector, centre
from halgate.judges.offline.calibration_file import load_model
from halgate.judges.offline.claim_model import FEATURES, AnswerContext, InputShape, is_refusal
from halgate.judges.offline.judge import OfflineJudge, load_calibration
from halgate.judges.protocol import JudgeTask
from halgate.models import Case, Document, HallucinationType, Severity, Verdict
from halgate.text.severity import assign_severity
from typer.testing import CliRunner

V = Verdict
RECORD = Document(
    doc_id="biz",
    text=json.dumps(
        {
            "name": "Taffy's Pizza",
            "city": "Santa Barbara",
            "state": "CA",
            "attributes": {
                "WiFi": "free",
                "RestaurantsTakeOut": True,
                "Music": None,
                "DogsAllowed": False,
            },
        }
    ),
)


def judge(answer: str, docs: list[Document], domain: str | None = None, question: str = ""):
    case = Case(case_id="c1", question=question, domain=domain, tags=[domain] if domain else [])
    task = JudgeTask(case=case, documents=docs, answers={"s": answer})
    return OfflineJudge().judge_task(task).claims["s"]


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("Taffy's Pizza plays live music.", V.UNSUPPORTED),  # Music is null: unknown
        ("Taffy's Pizza allows dogs.", V.CONTRADICTED),  # DogsAllowed: false
        ("Taffy's Pizza has free Wi-Fi.", V.SUPPORTED),  # key WiFi, hyphen dropped
    ],
)
def test_record_claims_by_the_rules(answer: str, verdict: Verdict) -> None:
    (claim,) = judge(answer, [RECORD])
    assert claim.verdict == verdict, claim.rationale


@pytest.mark.parametrize(
    ("answer", "word"),
    [
        ("Taffy's Pizza offers takeout.", "takeout"),  # key RestaurantsTakeOut, parts joined
        ("Taffy's Pizza is in Santa Barbara, California.", "California"),
    ],  # state code CA
)
def test_record_keys_and_state_codes_match_paraphrases(answer: str, word: str) -> None:
    (claim,) = judge(answer, [RECORD])
    assert claim.verdict != V.UNSUPPORTED, claim.rationale
    assert word not in claim.signals["names_missing"]
    if word.islower():  # a word, not a name: its stem must be matched in the record
        assert word not in claim.signals["missing_words"]


def test_a_claim_about_a_null_field_names_the_field() -> None:
    (claim,) = judge("Taffy's Pizza plays live music.", [RECORD])
    assert claim.signals["null_fields"] and "Music" in claim.rationale


def test_a_null_field_named_by_a_generic_key_word_fills_no_gap() -> None:
    record = Document(doc_id="biz", text=json.dumps({"name": "Taffy's Pizza", "Attributes": None}))
    (claim,) = judge("Taffy's Pizza lists its attributes.", [record])
    assert claim.signals["null_fields"] == []  # "attributes" names no particular field


def test_a_number_from_an_unrelated_sentence_does_not_back_the_claim() -> None:
    doc = Document(
        doc_id="terms",
        text=(
            "After the fixed term ends, the tenant may end the tenancy by giving at least one "
            "month's written notice. The agent may inspect the property with 24 hours' written "
            "notice, no more than once every three months."
        ),
    )
    (claim,) = judge("After the fixed term, you must give three months' written notice.", [doc])
    assert claim.verdict in (V.CONTRADICTED, V.UNSUPPORTED), claim.rationale


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Patients over 80 should take 50 mg once daily.", Severity.CRITICAL),  # a dose
        ("It causes dizziness.", Severity.MEDIUM),  # no specifics: stays MEDIUM
    ],
)
def test_a_hedge_firmed_into_a_dose_is_critical_in_medicine(text: str, expected: Severity) -> None:
    case = Case(case_id="m", question="", domain="medical")
    got = assign_severity(
        V.UNSUPPORTED, HallucinationType.OMISSION_AS_FACT, text, case, SeverityRules()
    )
    assert got == expected


@pytest.mark.parametrize(
    ("answer", "refusal"),
    [
        ("Unable to answer based on given passages.", True),
        ("The passages do not provide information about the fee.", True),
        ("The fee is $5.", False),
    ],
)
def test_refusals_are_recognised(answer: str, refusal: bool) -> None:
    assert is_refusal(answer) is refusal


def test_answer_aggregates_are_worst_mean_and_noisy_or() -> None:
    got = aggregates(np.array([0.8, 0.2, 0.5]))
    assert got == pytest.approx([0.8, 0.5, 1 - 0.2 * 0.8 * 0.5])
    assert aggregates(np.zeros(0)) == [0.0, 0.0, 0.0]


@pytest.mark.parametrize(
    ("score", "threshold", "expected"),
    [(0.2, 0.2, 0.5), (0.1, 0.2, 0.25), (0.6, 0.2, 0.75), (0.0, 0.3, 0.0)],
)
def test_centre_puts_the_threshold_at_one_half(score, threshold, expected) -> None:
    assert centre(score, threshold, 0.5) == pytest.approx(expected)


def test_fit_logistic_finds_the_informative_feature() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 2))
    y = (x[:, 0] + 0.3 * rng.normal(size=400) > 0).astype(float)
    w, _ = fit_logistic(x, y, l2=1.0)
    assert w[0] > 2 and abs(w[1]) < 0.5


def test_a_benchmark_weight_sets_how_much_its_rows_count() -> None:
    # Two benchmarks whose one feature points opposite ways: the heavier one decides the sign.
    rng = np.random.default_rng(0)

    def sample(group: str, sign: float) -> AnswerSample:
        x = rng.normal(size=(200, 1))
        y = (sign * x[:, 0] + 0.3 * rng.normal(size=200) > 0).astype(float)
        return AnswerSample(group, x, y, bool(y.any()), None, None)  # type: ignore[arg-type]

    samples = [sample("a:qa", 1.0), sample("b:summary", -1.0)]
    signs = {heavy: _fit_claims(samples, 1.0, {heavy: 4.0})["weights"][0] for heavy in "ab"}
    assert signs["a"] > 0 > signs["b"]
    assert benchmark_weight("a:any", {"a": 4.0}) == 4.0
    assert benchmark_weight("faithbench:summary", {}) == 1.0


def test_the_answer_threshold_is_the_median_of_several_fold_draws_best_cuts() -> None:
    # One draw's best cut wanders with its folds where accuracy is flat near its best; the
    # shipped cut is the median over THRESHOLD_DRAWS draws (seeds s, s + 1, ...).
    rng = np.random.default_rng(1)
    shape = InputShape(question=True, structured=False, answer_words=40, source_words=400)
    samples = []
    for i in range(120):
        x = rng.normal(size=(3, len(FEATURES)))
        y = (x[:, 0] + 1.5 * rng.normal(size=3) > 0.8).astype(float)
        ctx = AnswerContext(novelty=0.1, n_claims=3, max_uncovered=0.2, mean_uncovered=0.1,
                            refusal=False)  # fmt: skip
        samples.append(AnswerSample(f"g{i % 2}:qa", x, y, bool(y.any()), ctx, shape))
    labels = np.asarray([s.label for s in samples], bool)
    weights = balancing_weights([s.group for s in samples], list(labels))

    def draw(seed: int) -> np.ndarray:
        probs = _out_of_fold(samples, 10.0, seed)
        xa = np.asarray(
            [answer_vector(p, s.ctx, s.shape) for p, s in zip(probs, samples, strict=True)]
        )
        return _answer_out_of_fold(xa, labels, weights, seed)

    cuts = [best_threshold(list(labels), list(draw(3 + k)), weights)[0] for k in range(5)]
    assert THRESHOLD_DRAWS == 5 and len(set(cuts)) > 1  # the draws disagree here
    steady = steady_threshold(samples, 10.0, 3, labels, weights, {}, draw(3))
    assert steady == float(np.median(cuts)) != cuts[0]  # not the first draw's own cut


def test_out_of_fold_flags_read_answers_as_the_product_flags_them() -> None:
    # Flagged: an answer scored at or above the steady threshold by models that never saw
    # it, or one whose rule verdict stands; never an answer without claims.
    rng = np.random.default_rng(2)
    shape = InputShape(question=True, structured=False, answer_words=40, source_words=400)
    ctx = AnswerContext(novelty=0.1, n_claims=3, max_uncovered=0.2, mean_uncovered=0.1,
                        refusal=False)  # fmt: skip
    samples = []
    for i in range(120):
        x = rng.normal(size=(3, len(FEATURES)))
        y = (x[:, 0] + 0.5 * rng.normal(size=3) > 0.8).astype(float)
        samples.append(AnswerSample(f"g{i % 2}:qa", x, y, bool(y.any()), ctx, shape))
    plain = out_of_fold_flags(samples, 10.0, seed=0)
    labels = np.asarray([s.label for s in samples])
    assert plain.dtype == bool and len(plain) == len(samples)
    majority = max(labels.mean(), 1 - labels.mean())
    assert (plain == labels).mean() > majority  # a feature that tells: better than a guess
    calm = [i for i, f in enumerate(plain) if not f]
    samples[calm[0]] = dataclasses.replace(samples[calm[0]], stands=True)
    samples[1] = dataclasses.replace(samples[1], x=np.zeros((0, len(FEATURES))), y=np.zeros(0))
    flags = out_of_fold_flags(samples, 10.0, seed=0)
    assert flags[calm[0]] and not flags[1]


def test_calibrate_refuses_a_malformed_weight(tmp_path) -> None:
    bench = tmp_path / "b.jsonl"
    bench.write_text("", encoding="utf-8")
    for spec in ("faithbench", "faithbench=x", "=1", "faithbench=-1", "faithbench=nan"):
        result = CliRunner().invoke(
            app,
            [
                "calibrate",
                "--benchmark",
                str(bench),
                "--out",
                str(tmp_path / "c.json"),
                "--weight",
                spec,
            ],
        )
        assert result.exit_code == 4, (spec, result.output)
        assert "--weight" in result.output and "NAME=W" in result.output
        assert not (tmp_path / "c.json").exists()


def test_best_threshold_maximises_balanced_accuracy() -> None:
    t, bal = best_threshold([False, False, True, True], [0.1, 0.3, 0.6, 0.9])
    assert 0.3 < t < 0.6 and bal == 1.0


def test_the_shipped_calibration_loads_one_model_for_every_suite() -> None:
    cal = load_calibration()
    assert cal.model is not None
    general = cal.model.general
    assert sorted(general.claim.features) == sorted(FEATURES)
    assert sorted(general.answer.features) == sorted(ANSWER_FEATURES)
    assert 0 < general.threshold < 1
    assert load_model(cal) is not None
    # No feature is a task name: what differs is read from the input.
    assert not any(t in f for f in FEATURES for t in ("qa", "summary", "data2text"))


def test_the_verdict_does_not_depend_on_tags_or_domain() -> None:
    doc = Document(doc_id="d", text="The museum opens at 9 am. Tickets cost 12 dollars.")
    answer = "The museum opens at 9 am. Tickets cost 15 dollars and the cafe sells soup."
    seen = set()
    for tags, domain in (([], None), (["qa"], "qa"), (["summary"], "summary"), (["x"], "retail")):
        case = Case(case_id="c", question="", tags=tags, domain=domain)
        task = JudgeTask(case=case, documents=[doc], answers={"s": answer})
        claims = OfflineJudge().judge_task(task).claims["s"]
        seen.add(tuple((c.verdict, c.score) for c in claims))
    assert len(seen) == 1


def _tiny_benchmark(path: Path) -> None:
    """Synthetic QA rows: faithful answers copy the document, hallucinated ones invent."""
    rnd = random.Random(7)
    facts = [
        "The museum opens at 9 am",
        "Tickets cost 12 dollars",
        "The cafe serves soup",
        "Guided tours run on Sundays",
        "Parking is free for visitors",
    ]
    fakes = [
        "The museum has a rooftop cinema",
        "Children receive golden medals",
        "The founder sailed to Brazil",
        "Dinosaur bones arrived by zeppelin",
    ]
    with path.open("w") as f:
        for i in range(60):
            doc = ". ".join(rnd.sample(facts, 4)) + "."
            bad = i % 2 == 0
            first = doc.split(". ")[0]
            answer = f"{first}. {rnd.choice(fakes)}." if bad else f"{first}."
            at = len(first) + 2
            spans = [{"start": at, "end": len(answer), "text": answer[at:]}] if bad else []
            f.write(
                json.dumps(
                    {
                        "id": f"row-{i}",
                        "task": "qa",
                        "question": "Tell me about the museum.",
                        "documents": [{"doc_id": "d", "text": doc}],
                        "answer": answer,
                        "label": "hallucinated" if bad else "faithful",
                        "spans": spans,
                    }
                )
                + "\n"
            )


def test_calibrate_is_deterministic_and_its_file_drives_the_judge(tmp_path: Path) -> None:
    bench = tmp_path / "bench.jsonl"
    _tiny_benchmark(bench)
    runner = CliRunner()
    outs = []
    for name in ("a.json", "b.json"):
        res = runner.invoke(
            app,
            [
                "calibrate",
                "--benchmark",
                str(bench),
                "--part",
                "all",
                "--seed",
                "0",
                "--out",
                str(tmp_path / name),
            ],
        )
        assert res.exit_code == 0, res.output
        outs.append((tmp_path / name).read_text())
    assert outs[0] == outs[1]
    cal = json.loads(outs[0])
    assert set(cal["model"]) == {"general"}
    assert cal["provenance"]["trained_with"]["seed"] == 0
    assert cal["provenance"]["trained_with"]["part"] == "all"
    # The written file is the typed format, and the rules and score settings of the base.
    assert load_calibration(tmp_path / "a.json").model_dump(exclude={"model", "provenance"}) == (
        load_calibration().model_dump(exclude={"model", "provenance"})
    )
    doc = Document(doc_id="d", text="The museum opens at 9 am. Tickets cost 12 dollars.")
    case = Case(case_id="x", question="", domain="qa", tags=["qa"])
    j = OfflineJudge(calibration=tmp_path / "a.json")
    claims = j.judge_task(
        JudgeTask(
            case=case,
            documents=[doc],
            answers={"s": ("The museum opens at 9 am. The founder sailed to Brazil.")},
        )
    ).claims["s"]
    assert claims[0].score < claims[1].score and claims[1].verdict in (V.UNSUPPORTED,)
    assert all((c.score >= 0.5) == (c.verdict in (V.UNSUPPORTED, V.CONTRADICTED)) for c in claims)


def test_calibrate_refuses_the_holdout(tmp_path: Path) -> None:
    bench = tmp_path / "bench.jsonl"
    _tiny_benchmark(bench)
    res = CliRunner().invoke(
        app,
        [
            "calibrate",
            "--benchmark",
            str(bench),
            "--part",
            "holdout",
            "--out",
            str(tmp_path / "x.json"),
        ],
    )
    assert res.exit_code != 0 and "holdout" in res.output

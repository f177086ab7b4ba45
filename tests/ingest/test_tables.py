"""halgate import of tables: each fixture written by the library that owns its format
(pandas for CSV, TSV, JSONL and Parquet; Hugging Face ``datasets`` for saved datasets), then
imported, loaded as an ordinary suite, and traced back to its row."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from halgate.cli import app
from halgate.ingest import ImportOptions, Mapping, import_sources
from halgate.inputs.suite import load_suite
from typer.testing import CliRunner

ROWS = [
    {
        "id": "q1",
        "question": "What is the maximum daily dose?",
        "contexts": ["The maximum daily dose is 100 mg.", "Take it with water."],
        "answer_baseline": "The maximum daily dose is 100 mg.",
        "answer_candidate": "The maximum daily dose is 300 mg.",
        "reference": "100 mg a day.",
        "tags": ["numeric"],
        "risk_level": "critical",
    },
    {
        "id": "q2",
        "question": "How should it be taken?",
        "contexts": ["Take it with water."],
        "answer_baseline": "Take it with water.",
        "answer_candidate": "Take it with water.",
        "reference": None,
        "tags": [],
        "risk_level": None,
    },
]


def _write(kind: str, folder: Path, rows: list[dict] = ROWS) -> Path:
    frame = pd.DataFrame(rows)
    path = folder / f"cases.{kind}"
    if kind == "csv":
        frame.to_csv(path, index=False)  # lists become Python list literals
    elif kind == "tsv":
        frame.to_csv(path, index=False, sep="\t")
    elif kind == "jsonl":
        frame.to_json(path, orient="records", lines=True)
    else:
        frame.to_parquet(path)
    return path


@pytest.mark.parametrize("kind", ["csv", "tsv", "jsonl", "parquet"])
def test_a_table_written_by_pandas_becomes_a_suite_with_rows_as_provenance(kind, tmp_path):
    source = _write(kind, tmp_path)
    summary = import_sources(kind, [source], tmp_path / "suite")
    suite = load_suite(tmp_path / "suite")
    assert summary["systems"] == ["baseline", "candidate"]
    assert [c.case_id for c in suite.cases] == ["q1", "q2"]
    q1 = suite.cases[0]
    assert q1.risk_level is not None and q1.risk_level.value == "CRITICAL"
    assert q1.tags == ["numeric"] and q1.reference_answer == "100 mg a day."
    assert suite.answers["candidate"]["q1"].answer == "The maximum daily dose is 300 mg."
    assert {(p.source, p.row, p.part) for p in q1.provenance} == {
        (str(source), 1, "question"),
        (str(source), 1, "answer:baseline"),
        (str(source), 1, "answer:candidate"),
    }


def test_a_repeated_context_is_one_document_with_a_content_id_and_every_row(tmp_path):
    import_sources("csv", [_write("csv", tmp_path)], tmp_path / "suite")
    suite = load_suite(tmp_path / "suite")
    water = [d for d in suite.documents.values() if d.text == "Take it with water."]
    assert len(water) == 1 and len(suite.documents) == 2
    assert water[0].doc_id.startswith("doc-") and len(water[0].doc_id) == 20
    assert [p.row for p in water[0].provenance] == [1, 2]
    again = tmp_path / "again"
    import_sources("csv", [_write("csv", tmp_path)], again)
    assert set(load_suite(again).documents) == set(suite.documents)  # stable ids


def test_a_saved_hugging_face_dataset_and_its_parquet_import_alike(tmp_path):
    import datasets

    ds = datasets.Dataset.from_list(ROWS)
    ds.save_to_disk(str(tmp_path / "saved"))
    datasets.DatasetDict({"test": ds, "train": ds}).save_to_disk(str(tmp_path / "dict"))
    ds.to_parquet(str(tmp_path / "hf.parquet"))
    import_sources("hf", [tmp_path / "saved"], tmp_path / "a")
    opts = ImportOptions(split="test")
    import_sources("hf", [tmp_path / "dict"], tmp_path / "b", opts)
    import_sources("parquet", [tmp_path / "hf.parquet"], tmp_path / "c")
    texts = [
        {c.case_id: c.question for c in load_suite(tmp_path / n).cases} for n in ("a", "b", "c")
    ]
    assert (
        texts[0] == texts[1] == texts[2] == {"q1": ROWS[0]["question"], "q2": ROWS[1]["question"]}
    )


def test_a_dataset_dict_without_a_named_split_is_refused_naming_the_splits(tmp_path):
    import datasets

    ds = datasets.Dataset.from_list(ROWS)
    datasets.DatasetDict({"test": ds, "train": ds}).save_to_disk(str(tmp_path / "dict"))
    with pytest.raises(Exception, match=r"split: name one of \['test', 'train'\]"):
        import_sources("hf", [tmp_path / "dict"], tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_two_sources_join_on_a_key_and_one_sided_cases_are_listed(tmp_path):
    base = [r | {"answer": r["answer_baseline"]} for r in ROWS]
    cand = [r | {"answer": r["answer_candidate"]} for r in ROWS[:1]]
    extra = dict(ROWS[1], id="q3", question="Is it safe for children?")
    cand.append(extra | {"answer": "Yes."})
    keep = ["id", "question", "contexts", "answer"]
    pd.DataFrame(base)[keep].to_json(tmp_path / "base.jsonl", orient="records", lines=True)
    pd.DataFrame(cand)[keep].to_json(tmp_path / "cand.jsonl", orient="records", lines=True)
    result = CliRunner().invoke(
        app,
        ["import", "jsonl", str(tmp_path / "base.jsonl"), str(tmp_path / "cand.jsonl"),
         "--out", str(tmp_path / "suite")],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "2 case(s) not imported" in result.output
    assert "'q2': answered by baseline, missing candidate" in result.output
    assert f"{tmp_path / 'cand.jsonl'}:2" in result.output  # where q3 came from
    listed = json.loads((tmp_path / "suite" / "import.json").read_text())["one_sided"]
    assert sorted(o["key"] for o in listed) == ["q2", "q3"]
    assert [c.case_id for c in load_suite(tmp_path / "suite").cases] == ["q1"]


def test_a_mapping_file_names_the_columns_and_flags_override_it(tmp_path):
    rows = [
        {
            "Frage": r["question"],
            "Quellen": "|".join(r["contexts"]),
            "Antwort": r["answer_baseline"],
        }
        for r in ROWS
    ]
    pd.DataFrame(rows).to_csv(tmp_path / "t.csv", index=False)
    (tmp_path / "map.toml").write_text(
        'question = "Frage"\ncontexts = "Quellen"\nlist_separator = "|"\n'
        '[answers]\nprod = "Antwort"\n'
    )
    result = CliRunner().invoke(
        app,
        ["import", "csv", str(tmp_path / "t.csv"), "--mapping", str(tmp_path / "map.toml"),
         "--out", str(tmp_path / "suite")],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    suite = load_suite(tmp_path / "suite")
    assert list(suite.answers) == ["prod"]
    assert len(suite.case_documents(suite.cases[0])) == 2
    result = CliRunner().invoke(
        app,
        ["import", "csv", str(tmp_path / "t.csv"), "--mapping", str(tmp_path / "map.toml"),
         "--answer", "prod=Frage", "--out", str(tmp_path / "suite")],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    again = load_suite(tmp_path / "suite")
    assert [again.answers["prod"][c.case_id].answer for c in again.cases] == [
        r["question"] for r in ROWS
    ]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("question,contexts,answer\nWhat?,,An answer\n", "contexts: no retrieved context"),
        ("question,contexts,answer\n,ctx,An answer\n", "t.csv:1: question: empty question"),
        ("question,contexts,answer\nWhat?,ctx,\n", "t.csv:1: answer: empty answer"),
        ("question,contexts,answer,risk_level\nWhat?,ctx,A,huge\n", "t.csv:1: risk_level"),
        ("question,contexts,answer\nWhat?,ctx,A,extra\n", "t.csv:1: (row): more cells"),
        ("query_text,answer\nWhat?,A\n", "t.csv: question: no question column"),
    ],
)
def test_bad_input_names_file_row_and_field_exits_4_and_writes_nothing(content, expected, tmp_path):
    (tmp_path / "t.csv").write_text(content)
    result = CliRunner().invoke(
        app, ["import", "csv", str(tmp_path / "t.csv"), "--out", str(tmp_path / "suite")]
    )
    assert result.exit_code == 4
    assert expected in result.output
    assert not (tmp_path / "suite").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["t.csv"]  # no temporary folder left


def test_a_folder_that_is_not_a_former_import_is_never_overwritten(tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    result = CliRunner().invoke(
        app, ["import", "csv", str(_write("csv", tmp_path)), "--out", str(tmp_path / "mine")]
    )
    assert result.exit_code == 4 and "is not a suite halgate imported" in result.output
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep me"


def test_the_join_key_may_be_the_question_text(tmp_path):
    opts = ImportOptions(mapping=Mapping(join_on="question"))
    import_sources("csv", [_write("csv", tmp_path)], tmp_path / "suite", opts)
    ids = [c.case_id for c in load_suite(tmp_path / "suite").cases]
    assert ids == ["q1", "q2"]  # the id column still names the cases


def test_a_lone_surrogate_escape_is_refused_naming_the_row(tmp_path):
    rows = ['{"question": "Q?", "contexts": ["c"], "answer": "fine"}',
            '{"question": "Q2?", "contexts": ["c"], "answer": "bad \\ud800 text"}']  # fmt: skip
    (tmp_path / "t.jsonl").write_text("\n".join(rows) + "\n")
    result = CliRunner().invoke(
        app, ["import", "jsonl", str(tmp_path / "t.jsonl"), "--out", str(tmp_path / "suite")]
    )
    assert result.exit_code == 4
    assert "t.jsonl:2: (text): contains a lone surrogate" in result.output
    assert not (tmp_path / "suite").exists()

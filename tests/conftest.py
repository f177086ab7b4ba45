"""Shared fixtures: tiny records and suites built in tmp_path (append new fixtures below)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from halgate.judges.offline.judge import OfflineJudge
from halgate.judges.protocol import JudgeTask
from halgate.models import Case, ClaimJudgement, Document, HallucinationType, Severity, Verdict

from .pg.fixtures import pg_server, pg_url, store_url  # noqa: F401 (fixtures)

REPO = Path(__file__).resolve().parents[1]
EXAMPLE_SUITE = REPO / "data" / "examples" / "acme-helpdesk"
SHARED_BENCHMARKS = REPO.parent / "shared" / "benchmarks"


def claim(
    verdict: Verdict | str,
    htype: HallucinationType | str | None = None,
    severity: Severity | str | None = None,
    case_id: str = "c1",
    system: str = "candidate",
    index: int = 0,
    score: float = 0.5,
) -> ClaimJudgement:
    """A judged claim with just the fields a metric or gate test cares about."""
    return ClaimJudgement(
        claim_id=f"{case_id}/{system}/{index}",
        case_id=case_id,
        system=system,
        index=index,
        text="x",
        start=0,
        end=1,
        verdict=Verdict(verdict),
        hallucination_type=HallucinationType(htype) if htype else None,
        severity=Severity(severity) if severity else None,
        rationale="test",
        score=score,
    )


@pytest.fixture
def make_claim():
    """Factory for ClaimJudgement records."""
    return claim


def write_jsonl(path: Path, rows: list[dict]) -> None:
    """Write rows as JSON lines, creating parent folders."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


TINY_DOCS = [
    {
        "doc_id": "leaflet",
        "title": "Zelparin leaflet",
        "text": "Zelparin is taken once daily. The maximum daily dose is 100 mg. "
        "Zelparin must not be used during pregnancy. It may cause dizziness in some patients.",
    },
    {
        "doc_id": "policy",
        "title": "Refund policy",
        "text": "Refunds are issued within 14 days of a return. "
        "Opened software cannot be refunded.",
    },
]
TINY_CASES = [
    {
        "case_id": "q1",
        "question": "What is the maximum daily dose?",
        "doc_ids": ["leaflet"],
        "reference_answer": "The maximum daily dose is 100 mg.",
        "tags": ["lookup", "numeric"],
        "risk_level": "CRITICAL",
        "domain": "medication",
    },
    {
        "case_id": "q2",
        "question": "Can Zelparin be used in pregnancy?",
        "doc_ids": ["leaflet"],
        "reference_answer": "No, it must not be used during pregnancy.",
        "tags": ["lookup"],
        "risk_level": "CRITICAL",
        "domain": "medication",
    },
    {
        "case_id": "q3",
        "question": "How fast are refunds issued?",
        "doc_ids": ["policy"],
        "reference_answer": "Within 14 days of a return.",
        "tags": ["lookup"],
        "domain": "legal",
    },
]
TINY_ANSWERS = {
    "baseline": [
        "The maximum daily dose is 100 mg.",
        "No. Zelparin must not be used during pregnancy.",
        "Refunds are issued within 14 days of a return.",
    ],
    "candidate": [
        "The maximum daily dose is 200 mg.",
        "Zelparin can be used during pregnancy.",
        "Refunds are issued within 14 days of a return.",
    ],
}


@pytest.fixture
def tiny_suite(tmp_path: Path) -> Path:
    """A three-case suite in which the candidate doubles a dose and flips a contraindication."""
    root = tmp_path / "tiny"
    write_jsonl(root / "documents.jsonl", TINY_DOCS)
    write_jsonl(root / "cases.jsonl", TINY_CASES)
    for system, answers in TINY_ANSWERS.items():
        rows = [
            {"case_id": c["case_id"], "answer": a} for c, a in zip(TINY_CASES, answers, strict=True)
        ]
        write_jsonl(root / "answers" / f"{system}.jsonl", rows)
    # Three cases: no interval can decide a limit, so the flows tested on this suite read the
    # point estimate (the interval rule is tested in tests/scoring/test_decide.py).
    (root / "policy.toml").write_text(TINY_POLICY, encoding="utf-8")
    return root


TINY_POLICY = 'decide_on = "estimate"\n'


# --------------------------------------------------------------------------- store fixtures

BAD_CANDIDATE = {
    0: ("CONTRADICTED", "DISTORTION", "CRITICAL"),
    1: ("CONTRADICTED", "DISTORTION", "CRITICAL"),
}
EVIDENCE = [
    "The maximum daily dose is 100 mg.",
    "Zelparin must not be used during pregnancy.",
    "Refunds are issued within 14 days of a return.",
]


def disagreeing_pair(
    case_id: str = "q1",
    justification: str = "The two orders disagree (first A, swapped B): a / swapped: b",
):
    """A pairwise judgement whose two orders disagree, so it waits for a reviewer."""
    from halgate.models import PairwiseJudgement

    return PairwiseJudgement(
        case_id=case_id,
        system_a="baseline",
        system_b="candidate",
        preference="TIE",
        swapped_preference="B",
        disagreement=True,
        needs_review=True,
        justification=justification,
        confidence=0.4,
    )


#: Policy knobs for a report that only its audit sample can hold: the gate uses the
#: review-corrected rate, and no severity, contradiction or rate rule blocks it first.
AUDIT_GATED = {
    "gate_on_corrected": True,
    "block_on_severity": None,
    "max_contradiction_rate": None,
    "max_rate_increase": 1.0,
}


def build_report(
    run_id: str = "20260101T000000Z-aaaaaa",
    candidate: dict | None = None,
    candidate_answers: list[str] | None = None,
    **policy_knobs,
):
    """A compare-mode RunReport over the TINY_* data, built without a judge.

    Each answer is one claim; ``candidate`` maps a case index to (verdict, type, severity) of
    the candidate's claim (default BAD_CANDIDATE: two CRITICAL contradictions, gate FAILED).
    Baseline claims are all SUPPORTED. The policy names "rita" as release manager.
    """
    from halgate.inputs.policy import Policy
    from halgate.models import (
        Case,
        Citation,
        Document,
        GateDecision,
        GateStatus,
        JudgeSpec,
        Mode,
        RunReport,
        SuiteInfo,
    )
    from halgate.scoring.rescore import analysis_of, rescore

    candidate = BAD_CANDIDATE if candidate is None else candidate
    policy = Policy(release_managers=["rita"], **{"decide_on": "estimate", **policy_knobs})
    docs = {d["doc_id"]: Document(**d) for d in TINY_DOCS}
    cases = [Case(**c) for c in TINY_CASES]
    answers = {
        "baseline": list(TINY_ANSWERS["baseline"]),
        "candidate": candidate_answers or list(TINY_ANSWERS["candidate"]),
    }
    analyses = []
    for i, case in enumerate(cases):
        doc = docs[case.doc_ids[0]]
        start = doc.text.index(EVIDENCE[i])
        cite = Citation(
            doc_id=doc.doc_id,
            start=start,
            end=start + len(EVIDENCE[i]),
            quote=EVIDENCE[i],
            verified=True,
        )
        for system in ("baseline", "candidate"):
            text = answers[system][i]
            v, t, s = (
                candidate.get(i, ("SUPPORTED", None, None))
                if system == "candidate"
                else ("SUPPORTED", None, None)
            )
            c = claim(
                v, t, s, case_id=case.case_id, system=system, score=0.1 if v == "SUPPORTED" else 0.9
            )
            c = c.model_copy(
                update={
                    "text": text,
                    "end": len(text),
                    "citations": [cite],
                    "rationale": f"judged {v} against {doc.doc_id}",
                }
            )
            analyses.append(analysis_of(case.case_id, system, [c], policy))
    report = RunReport(
        run_id=run_id,
        created_at="2026-01-01T00:00:00+00:00",
        mode=Mode.COMPARE,
        suite=SuiteInfo(
            name="tiny",
            path="tiny",
            content_hash="0" * 64,
            n_cases=len(cases),
            systems=["baseline", "candidate"],
        ),
        judge=JudgeSpec(name="fixture", model="none", prompt_version="v1"),
        policy=policy.model_dump(mode="json"),
        systems=["baseline", "candidate"],
        cases=cases,
        documents=list(docs.values()),
        answers={s: {c.case_id: answers[s][i] for i, c in enumerate(cases)} for s in answers},
        analyses=analyses,
        rates={},
        decision=GateDecision(
            status=GateStatus.PASSED, exit_code=0, reasons=[], gated_system="candidate"
        ),
        timings={"judge_seconds": 0.5},
        audit_seed=AUDIT_SEED,  # what a store would draw; saving it draws a fresh one
    )
    return rescore(report)


AUDIT_SEED = 20260101


@pytest.fixture
def make_report():
    """Factory for RunReport records (see build_report)."""
    return build_report


@pytest.fixture
def store_db(tmp_path: Path) -> Path:
    """Path of a fresh review database file in tmp_path (created on first Store open)."""
    return tmp_path / "halgate.db"


# --------------------------------------------------------------------------- dashboard

XSS_ANSWER = "Refunds are issued within 14 days. <img src=x onerror=\"document.title='pwned'\">"


def judged_run_db(suite_dir: Path, db: Path, release_managers: tuple[str, ...] = ("rita",)) -> str:
    """Run the real offline judge on a suite folder, save the run in ``db``; return the run id."""
    from halgate.inputs.policy import Policy
    from halgate.inputs.suite import load_suite
    from halgate.judges.registry import create_judge
    from halgate.run.engine import run_suite
    from halgate.store import Store

    # a three-case suite: the flows read the point estimate (see TINY_POLICY)
    policy = Policy(release_managers=list(release_managers), decide_on="estimate")
    judge = create_judge("offline", severity_rules=policy.severity_rules)
    report = run_suite(load_suite(suite_dir), judge, policy)
    with Store(db) as store:
        return store.save_run(report)


@pytest.fixture
def dashboard_db(tiny_suite: Path, tmp_path: Path) -> tuple[Path, str]:
    """(database, run id): the tiny suite judged by the offline judge, saved in a fresh store.

    The candidate's answer to q3 carries an ``<img onerror>`` payload so every page that shows
    answers is also checked for escaping.
    """
    rows = [
        {"case_id": c["case_id"], "answer": a}
        for c, a in zip(TINY_CASES, TINY_ANSWERS["candidate"][:2] + [XSS_ANSWER], strict=True)
    ]
    write_jsonl(tiny_suite / "answers" / "candidate.jsonl", rows)
    db = tmp_path / "dash.db"
    return db, judged_run_db(tiny_suite, db)


# --------------------------------------------------------------------------- LLM judge


def load_fake_openai():
    """The shared fake OpenAI server module (tests/ is not a package under importlib mode)."""
    import importlib.util
    import sys

    name = "halgate_tests_fake_openai"
    if name not in sys.modules:
        folder = Path(__file__).parent / "fake_openai"
        spec = importlib.util.spec_from_file_location(
            name, folder / "__init__.py", submodule_search_locations=[str(folder)]
        )
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


@pytest.fixture
def fake_openai():
    """A real OpenAI-compatible HTTP server on 127.0.0.1, scripted per test, stopped after."""
    server = load_fake_openai().FakeOpenAI().start()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def _no_llm_endpoint_from_the_environment(monkeypatch, tmp_path_factory):
    """Tests choose their judge explicitly: a developer's OPENAI_* variables or config file
    must not turn the offline default into live LLM calls."""
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "HALGATE_MODEL"):
        monkeypatch.delenv(var, raising=False)
    # Nor may a developer's dashboard settings (sign-off without login, suite roots) leak in.
    for var in ("HALGATE_ALLOW_UNAUTHENTICATED_SIGNOFF", "HALGATE_SUITE_ROOTS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path_factory.getbasetemp() / "home"))
    # A command or page that opens the default database writes it under the test's temp
    # folder, never a stray ./halgate.db in the working tree (tests may set their own).
    default_db = tmp_path_factory.mktemp("default-db", numbered=True) / "halgate.db"
    monkeypatch.setenv("HALGATE_DB", str(default_db))


def pytest_sessionstart(session):
    """Note whether the tree already holds a halgate.db, so the end of the run can tell."""
    session.config._halgate_db_before = (REPO / "halgate.db").exists()


def pytest_sessionfinish(session, exitstatus):
    """`make test` must leave the working tree as it found it: fail a run that wrote
    ./halgate.db (the README promises a clean checkout after `make test`)."""
    if (REPO / "halgate.db").exists() and not session.config._halgate_db_before:
        print(f"\nerror: the tests left {REPO / 'halgate.db'} behind")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture
def isolated_llm_env(monkeypatch, tmp_path):
    """For LLM-judge tests: no real key, endpoint, config file or database leaks in, and
    relative paths (halgate.toml, halgate.db) land in the test's own folder."""
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "HALGATE_MODEL", "HALGATE_DB"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)


def offline_claims(
    answer: str,
    documents: Sequence[Document],
    question: str = "?",
    risk: Severity | None = None,
    model: bool = False,
) -> list[ClaimJudgement]:
    """The offline judge's claims of one answer to one case (the rules alone unless
    `model`): the set-up of the tests that judge a sentence against a source."""
    case = Case(case_id="c", question=question, risk_level=risk)
    task = JudgeTask(case=case, documents=list(documents), answers={"s": answer})
    return OfflineJudge(use_model=model).judge_task(task).claims["s"]

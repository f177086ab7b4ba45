"""pytest plugin: `pytest --halgate SUITE` gates a suite as tests, and a fixture gates one
built in Python.

Registered through the ``pytest11`` entry point, so it loads in every pytest run; it only
adds options until ``--halgate`` is given, and then adds one test per case (failing where the
gated system's answer holds a hallucinated claim, each listed with the judge's reason) and a
``gate`` test that fails with the gate's reasons (NEEDS_REVIEW fails too, unless
``--halgate-allow-review``). The suite is judged once, when its first test runs. Every test
carries the ``halgate`` marker (``-m halgate`` runs only these); JUnit comes from pytest's
own ``--junitxml``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from .models import RunReport, Suite

_REPORT = pytest.StashKey["RunReport"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """The plugin's options; nothing else happens unless --halgate is given."""
    group = parser.getgroup("halgate", "hallucination regression gate")
    group.addoption("--halgate", metavar="SUITE", help="Gate this suite folder as tests.")
    group.addoption("--halgate-judge", default="offline", help="Judge (default: offline).")
    group.addoption("--halgate-policy", metavar="TOML", help="Policy file (default: the suite's).")
    group.addoption("--halgate-baseline", default="baseline", help="Baseline system name.")
    group.addoption("--halgate-candidate", default="candidate", help="Candidate system name.")
    group.addoption(
        "--halgate-allow-review",
        action="store_true",
        help="Let the gate test pass when the decision is NEEDS_REVIEW.",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "halgate: a test added by halgate's --halgate option")


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """With --halgate: one item per case of the suite, then the gate item."""
    folder = config.getoption("--halgate")
    if not folder:
        return
    from .errors import HalgateError
    from .inputs.suite import load_suite

    try:
        suite = load_suite(folder)
    except HalgateError as exc:
        raise pytest.UsageError(f"--halgate {folder}: {exc}") from None
    where = Path(folder).resolve() / "cases.jsonl"
    for case in suite.cases:
        items.append(CaseItem.from_parent(session, name=f"halgate[{case.case_id}]", path=where))
    items.append(GateItem.from_parent(session, name="halgate[gate]", path=where))
    config.stash[_SUITE] = suite


_SUITE = pytest.StashKey["Suite"]()


def _report(config: pytest.Config) -> RunReport:
    """The suite judged once per session, as `halgate run` would judge it."""
    if _REPORT not in config.stash:
        from .inputs.policy import resolve_policy

        suite = config.stash[_SUITE]
        policy = resolve_policy(config.getoption("--halgate-policy"), suite.path)
        config.stash[_REPORT] = gate_report(
            suite,
            judge=config.getoption("--halgate-judge"),
            policy=policy,
            baseline=config.getoption("--halgate-baseline"),
            candidate=config.getoption("--halgate-candidate"),
        )
    return config.stash[_REPORT]


class CaseItem(pytest.Item):
    """One case: fails when the gated system's answer holds a hallucinated claim."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_marker("halgate")

    def runtest(self) -> None:
        report = _report(self.config)
        case_id = self.name[len("halgate[") : -1]
        bad = case_failures(report, case_id)
        if bad:
            raise HalgateFailure("\n".join(bad))

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        if isinstance(excinfo.value, HalgateFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, self.name


class GateItem(CaseItem):
    """The release decision: fails with the gate's reasons unless it passed."""

    def runtest(self) -> None:
        report = _report(self.config)
        allow = bool(self.config.getoption("--halgate-allow-review"))
        problem = gate_problem(report, allow_review=allow)
        if problem is not None:
            raise HalgateFailure(problem)


class HalgateFailure(AssertionError):
    """A gate or case failure; shown as its message, without a traceback."""


def case_failures(report: RunReport, case_id: str) -> list[str]:
    """The gated system's hallucinated claims in one case, one line each with the reason."""
    from .scoring.metrics import is_hallucinated

    system = report.decision.gated_system
    out_of_scope = bool(report.policy.get("count_out_of_scope", False))
    out = []
    for analysis in report.analyses:
        if analysis.case_id != case_id or analysis.system != system:
            continue
        for c in analysis.claims:
            if is_hallucinated(c.verdict, out_of_scope):
                kind = c.hallucination_type.value if c.hallucination_type else ""
                out.append(f"{c.verdict.value} {kind} {c.claim_id}: {c.text!r} -- {c.rationale}")
    return out


def gate_problem(report: RunReport, allow_review: bool = False) -> str | None:
    """Why the gate did not pass (its status and every reason), or None when it passed."""
    from .models import GateStatus

    status = report.decision.status
    if status is GateStatus.PASSED or (allow_review and status is GateStatus.NEEDS_REVIEW):
        return None
    reasons = [f"[{r.status.value}] {r.rule}: {r.message}" for r in report.decision.reasons]
    return f"halgate gate: {status.value}\n" + "\n".join(reasons)


def gate_report(
    suite: Suite | str | Path,
    judge: str = "offline",
    policy: Any = None,
    baseline: str = "baseline",
    candidate: str = "candidate",
) -> RunReport:
    """Judge a suite (a folder or a ``Suite`` built in Python) and decide the gate, with the
    judge built as `halgate run` builds it (the policy's severity rules applied; an LLM judge
    reads its endpoint from OPENAI_* and caches nothing)."""
    from .inputs.policy import Policy, resolve_policy
    from .inputs.suite import load_suite
    from .judges.build import build_judge
    from .models import Mode
    from .run.engine import run_suite

    if isinstance(suite, str | Path):
        pol = policy if policy is not None else resolve_policy(None, suite)
        loaded = load_suite(suite)
    else:
        pol, loaded = (policy if policy is not None else Policy()), suite
    built = build_judge(judge, pol, Mode.COMPARE, None)
    return run_suite(loaded, built, pol, Mode.COMPARE, baseline, candidate)


def make_suite(
    cases: list[dict[str, Any]],
    documents: list[dict[str, Any]],
    answers: dict[str, dict[str, str]],
    name: str = "python-suite",
) -> Suite:
    """A suite from plain records, as cases.jsonl, documents.jsonl and answers hold them."""
    from .models import Answer, Case, Document, Suite

    digest = hashlib.sha256(json.dumps([cases, documents, answers], sort_keys=True).encode())
    return Suite(
        name=name,
        path="(python)",
        content_hash=digest.hexdigest(),
        documents={d["doc_id"]: Document.model_validate(d) for d in documents},
        cases=[Case.model_validate(c) for c in cases],
        answers={
            system: {cid: Answer(case_id=cid, answer=text) for cid, text in by_case.items()}
            for system, by_case in answers.items()
        },
    )


def assert_gate_passes(report: RunReport, allow_review: bool = False) -> None:
    """Fail the calling test with the gate's reasons unless it passed."""
    __tracebackhide__ = True
    problem = gate_problem(report, allow_review)
    if problem is not None:
        raise HalgateFailure(problem)


@pytest.fixture
def halgate_gate() -> Any:
    """``halgate_gate(suite, **options)``: the gated report of a suite folder or ``Suite``;
    pair it with ``assert_gate_passes``."""
    return gate_report

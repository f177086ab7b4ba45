"""halgate: a hallucination regression gate with a review dashboard.

The public API; the CLI and the dashboard are thin faces over these functions::

    from . import load_suite, create_judge, run_suite, load_policy, write_report

    suite = load_suite("data/examples/acme-helpdesk")
    report = run_suite(suite, create_judge("offline"), load_policy(None))
    print(report.decision.status, [r.message for r in report.decision.reasons])
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .collector import collector_paused
    from .errors import (
        HalgateError,
        NotFoundError,
        PermissionDeniedError,
        PolicyError,
        ReportError,
        StoreError,
        SuiteError,
        UsageError,
    )
    from .inputs.policy import Policy, load_policy, resolve_policy
    from .inputs.suite import load_suite
    from .judges.build import build_judge
    from .judges.protocol import Judge, JudgeResult, JudgeTask
    from .judges.registry import create_judge, judge_names, register_judge
    from .models import (
        AnswerAnalysis,
        Citation,
        Claim,
        ClaimJudgement,
        ComparisonSummary,
        GateDecision,
        GateStatus,
        HallucinationType,
        Mode,
        RunReport,
        Severity,
        Suite,
        Verdict,
    )
    from .reports.json_report import load_report, write_report
    from .review import QueueCounts, ReviewedRun, release_managers, review_run
    from .run.engine import run_suite
    from .scoring.compare import compare_systems
    from .scoring.gate import decide, review_queue
    from .scoring.rescore import rescore
    from .selftest import SelftestReport, selftest_suite
    from .store import Store

# name -> module: imported on first use, so `import halgate.x` costs only x's imports
_WHERE = {
    "AnswerAnalysis": ".models",
    "Citation": ".models",
    "Claim": ".models",
    "ClaimJudgement": ".models",
    "ComparisonSummary": ".models",
    "GateDecision": ".models",
    "GateStatus": ".models",
    "HalgateError": ".errors",
    "HallucinationType": ".models",
    "Judge": ".judges.protocol",
    "JudgeResult": ".judges.protocol",
    "JudgeTask": ".judges.protocol",
    "Mode": ".models",
    "NotFoundError": ".errors",
    "PermissionDeniedError": ".errors",
    "Policy": ".inputs.policy",
    "PolicyError": ".errors",
    "QueueCounts": ".review",
    "ReportError": ".errors",
    "ReviewedRun": ".review",
    "RunReport": ".models",
    "SelftestReport": ".selftest",
    "Severity": ".models",
    "Store": ".store",
    "StoreError": ".errors",
    "Suite": ".models",
    "SuiteError": ".errors",
    "UsageError": ".errors",
    "Verdict": ".models",
    "build_judge": ".judges.build",
    "collector_paused": ".collector",
    "compare_systems": ".scoring.compare",
    "create_judge": ".judges.registry",
    "decide": ".scoring.gate",
    "judge_names": ".judges.registry",
    "load_policy": ".inputs.policy",
    "load_report": ".reports.json_report",
    "load_suite": ".inputs.suite",
    "register_judge": ".judges.registry",
    "release_managers": ".review",
    "rescore": ".scoring.rescore",
    "resolve_policy": ".inputs.policy",
    "review_queue": ".scoring.gate",
    "review_run": ".review",
    "run_suite": ".run.engine",
    "selftest_suite": ".selftest",
    "write_report": ".reports.json_report",
}


def __getattr__(name: str) -> Any:
    """Import the public name's module on first use (PEP 562)."""
    if name not in _WHERE:
        raise AttributeError(f"module 'halgate' has no attribute {name!r}")
    value = getattr(importlib.import_module(_WHERE[name], __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "AnswerAnalysis",
    "Citation",
    "Claim",
    "ClaimJudgement",
    "ComparisonSummary",
    "GateDecision",
    "GateStatus",
    "HalgateError",
    "HallucinationType",
    "Judge",
    "JudgeResult",
    "JudgeTask",
    "Mode",
    "NotFoundError",
    "PermissionDeniedError",
    "Policy",
    "PolicyError",
    "QueueCounts",
    "ReportError",
    "ReviewedRun",
    "RunReport",
    "SelftestReport",
    "Severity",
    "Store",
    "StoreError",
    "Suite",
    "SuiteError",
    "UsageError",
    "Verdict",
    "build_judge",
    "collector_paused",
    "compare_systems",
    "create_judge",
    "decide",
    "judge_names",
    "load_policy",
    "load_report",
    "load_suite",
    "register_judge",
    "release_managers",
    "rescore",
    "resolve_policy",
    "review_queue",
    "review_run",
    "run_suite",
    "selftest_suite",
    "write_report",
]

"""halgate: a hallucination regression gate with a review dashboard.

The public API; the CLI and the dashboard are thin faces over these functions::

    from . import load_suite, create_judge, run_suite, load_policy, write_report

    suite = load_suite("data/examples/acme-helpdesk")
    report = run_suite(suite, create_judge("offline"), load_policy(None))
    print(report.decision.status, [r.message for r in report.decision.reasons])
"""

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

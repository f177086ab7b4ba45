"""The records halgate reads and writes, one module per part of the pipeline.

Every judgement is a named record carrying its reason and evidence; failures are records
too. The JSON Schemas in ``data/schemas/`` are generated from these models
(``halgate schemas``) and a test fails when they drift.
"""

from .claims import AnswerAnalysis, Citation, Claim, ClaimJudgement, VerdictCounts
from .record import Record
from .report import (
    MEASURE_LABELS,
    ComparisonSummary,
    GateDecision,
    GateMeasure,
    GateReason,
    Interval,
    JudgeSpec,
    PairwiseJudgement,
    RateChange,
    RunReport,
    Shift,
    SuiteInfo,
    SystemRates,
    ci_bounds,
)
from .review import (
    AgreementCell,
    AuditEntry,
    JudgeAgreement,
    Override,
    ReviewItem,
    RunRow,
    SignOff,
    SignOffDecision,
)
from .suite import Answer, Case, Document, Suite
from .verdicts import (
    EXIT_BAD_INPUT,
    EXIT_CODES,
    GATE_LABELS,
    SCHEMA_VERSION,
    SEVERITIES_DESC,
    GateLabel,
    GateStatus,
    HallucinationType,
    Mode,
    Preference,
    Severity,
    Verdict,
)

__all__ = [
    "ci_bounds",
    "MEASURE_LABELS",
    "AgreementCell",
    "Answer",
    "AnswerAnalysis",
    "AuditEntry",
    "Case",
    "Citation",
    "Claim",
    "ClaimJudgement",
    "ComparisonSummary",
    "Document",
    "EXIT_BAD_INPUT",
    "EXIT_CODES",
    "GATE_LABELS",
    "GateDecision",
    "GateMeasure",
    "GateLabel",
    "GateReason",
    "GateStatus",
    "HallucinationType",
    "JudgeAgreement",
    "Interval",
    "JudgeSpec",
    "Mode",
    "Override",
    "PairwiseJudgement",
    "Preference",
    "RateChange",
    "Record",
    "ReviewItem",
    "RunReport",
    "RunRow",
    "SCHEMA_VERSION",
    "SEVERITIES_DESC",
    "Severity",
    "Shift",
    "SignOff",
    "SignOffDecision",
    "Suite",
    "SuiteInfo",
    "SystemRates",
    "Verdict",
    "VerdictCounts",
]

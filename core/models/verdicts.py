"""Named outcomes: verdicts, hallucination types, severities, gate states, modes.

Never 0/1 and never NaN: every judgement is one of these names.
"""

from __future__ import annotations

from enum import StrEnum

SCHEMA_VERSION = "1.0"


class Verdict(StrEnum):
    """How a claim stands against the sources (the one internal verdict enum)."""

    SUPPORTED = "SUPPORTED"
    PARTIALLY_SUPPORTED = "PARTIALLY_SUPPORTED"
    UNSUPPORTED = "UNSUPPORTED"
    CONTRADICTED = "CONTRADICTED"
    OUT_OF_SCOPE = "OUT_OF_SCOPE"


#: The verdicts that count as a hallucination in every rate (OUT_OF_SCOPE only when a
#: policy says so: see is_hallucinated). Here, below judges and scoring, so both read it.
HALLUCINATED = frozenset({Verdict.UNSUPPORTED, Verdict.CONTRADICTED})


def is_hallucinated(verdict: Verdict, count_out_of_scope: bool = False) -> bool:
    """UNSUPPORTED and CONTRADICTED always; OUT_OF_SCOPE only if the policy counts it."""
    return verdict in HALLUCINATED or (count_out_of_scope and verdict == Verdict.OUT_OF_SCOPE)


class HallucinationType(StrEnum):
    """What kind of error a non-supported claim is."""

    FABRICATION = "FABRICATION"
    DISTORTION = "DISTORTION"
    OMISSION_AS_FACT = "OMISSION_AS_FACT"
    CITATION_ERROR = "CITATION_ERROR"


class Severity(StrEnum):
    """How much harm a hallucinated claim can do; also used as a case's risk level."""

    LOW = "LOW"
    MEDIUM = "MEDIUM"
    HIGH = "HIGH"
    CRITICAL = "CRITICAL"

    @property
    def rank(self) -> int:
        """Order for comparisons: LOW=0 ... CRITICAL=3."""
        return _SEVERITY_ORDER.index(self)


_SEVERITY_ORDER = [Severity.LOW, Severity.MEDIUM, Severity.HIGH, Severity.CRITICAL]


SEVERITIES_DESC = list(reversed(_SEVERITY_ORDER))


class GateStatus(StrEnum):
    """The release decision; each maps to one CLI exit code."""

    PASSED = "PASSED"
    FAILED = "FAILED"
    NEEDS_REVIEW = "NEEDS_REVIEW"
    HARNESS_ERROR = "HARNESS_ERROR"

    @property
    def exit_code(self) -> int:
        """Exit code a CI job acts on (DESIGN.md §4)."""
        return EXIT_CODES[self]


EXIT_CODES = {
    GateStatus.PASSED: 0,
    GateStatus.FAILED: 1,
    GateStatus.HARNESS_ERROR: 2,
    GateStatus.NEEDS_REVIEW: 3,
}


EXIT_BAD_INPUT = 4


class GateLabel(StrEnum):
    """The vocabulary of `gate` mode, mapped from Verdict at the edges (see GATE_LABELS)."""

    VERIFIED = "VERIFIED"
    FABRICATED = "FABRICATED"
    UNVERIFIABLE = "UNVERIFIABLE"


#: A claim the references confirm is VERIFIED; one they do not back or that they contradict is
#: FABRICATED; one that is only partly backed or outside their scope is UNVERIFIABLE.
GATE_LABELS = {
    Verdict.SUPPORTED: GateLabel.VERIFIED,
    Verdict.PARTIALLY_SUPPORTED: GateLabel.UNVERIFIABLE,
    Verdict.UNSUPPORTED: GateLabel.FABRICATED,
    Verdict.CONTRADICTED: GateLabel.FABRICATED,
    Verdict.OUT_OF_SCOPE: GateLabel.UNVERIFIABLE,
}


class Mode(StrEnum):
    """The four ways to ask (DESIGN.md §1)."""

    COMPARE = "compare"
    GATE = "gate"
    CONSISTENCY = "consistency"
    PAIRWISE = "pairwise"


class Preference(StrEnum):
    """Which of two outputs is more factual; A and B name positions, not systems."""

    A = "A"
    B = "B"
    TIE = "TIE"

"""One answer broken into claims, each with its verdict, evidence and reason."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, TypeVar

from pydantic import ConfigDict, Field

from .record import Record
from .verdicts import HallucinationType, Severity, Verdict

_M = TypeVar("_M", bound=Record)


class SharedFields(set[str]):
    """The fields set of every record that a trusted builder below makes of one class: one
    object, not one per record (a set takes 728 bytes; a 10,000-case run holds some 300,000
    such records in its main process, and a judge worker pickles each set apart). A copy
    (pydantic's ``model_copy``) is a plain set of its own; a change in place, such as an
    assignment to a field would make, is an error rather than a change to every record."""

    def __copy__(self) -> set[str]:
        return set(self)

    def add(self, element: str) -> None:
        """Refused: the set is shared (see the class)."""
        raise TypeError(f"a shared fields set is not changed in place (adding {element!r})")


class Citation(Record):
    """Evidence for a verdict; halgate itself checks that the quote occurs in the source."""

    doc_id: str = Field(description="Document the quote is taken from.")
    start: int | None = Field(default=None, ge=0, description="Start offset in the document.")
    end: int | None = Field(default=None, ge=0, description="End offset (exclusive).")
    quote: str = Field(description="The quoted passage as given by the judge.")
    verified: bool = Field(description="True when the quote was found in the named document.")
    match: Literal["exact", "normalized", "fuzzy", "none"] = Field(
        default="exact", description="How the quote was located."
    )


_CITATION_SET = SharedFields(Citation.model_fields)


def trusted_citation(
    doc_id: str, start: int, end: int, quote: str, match: Literal["exact", "normalized", "fuzzy"]
) -> Citation:
    """A verified Citation of a quote halgate itself located in a document, without
    validation: what ``model_construct`` makes (a run makes one for most claims)."""
    state = {"doc_id": doc_id, "start": start, "end": end, "quote": quote}
    state.update(verified=True, match=match)
    return _unvalidated(Citation, state, _CITATION_SET)


def claim_id(case_id: str, system: str, index: int) -> str:
    """The stable id of the `index`-th claim of a system's answer to a case."""
    return f"{case_id}/{system}/{index}"


class Claim(Record):
    """One verifiable statement of an answer, located by its character span."""

    claim_id: str = Field(description="Stable id: case_id/system/index.")
    case_id: str = Field(description="Case whose answer holds the claim.")
    system: str = Field(description="System that produced the answer.")
    index: int = Field(ge=0, description="Position of the claim in its answer.")
    text: str = Field(description="The claim text, equal to answer[start:end].")
    start: int = Field(ge=0, description="Start offset in the answer.")
    end: int = Field(ge=0, description="End offset in the answer (exclusive).")


_CLAIM_FIELDS = ("claim_id", "case_id", "system", "index", "text", "start", "end")
_CLAIM_SET = SharedFields(_CLAIM_FIELDS)


def trusted_claim(case_id: str, system: str, index: int, text: str, start: int, end: int) -> Claim:
    """A Claim from a splitter's own values (a span of the answer, its position), without
    validation: what ``model_construct`` makes (a run makes one for every claim)."""
    state = {
        "claim_id": claim_id(case_id, system, index),
        "case_id": case_id,
        "system": system,
        "index": index,
        "text": text,
        "start": start,
        "end": end,
    }
    return _unvalidated(Claim, state, _CLAIM_SET)


class RuleFinding(Record):
    """What one rule of a rule-based judge found about a claim: its provenance."""

    model_config = ConfigDict(frozen=True)

    rule: str = Field(description="Id of the rule that fired (docs/judge.md lists them).")
    verdict: Verdict = Field(description="The verdict the rule proposes.")
    hallucination_type: HallucinationType | None = Field(
        default=None, description="The hallucination type the rule proposes."
    )
    reason: str = Field(description="The rule's rationale.")
    about: list[str] = Field(
        default_factory=list, description="Values, names or fields the finding is about."
    )

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as its five values (judge workers send every claim's findings back to
        the run): a third of the bytes, and restored without pydantic's per-object state."""
        # The enum members themselves: pickled once per message and then referred to, where
        # their values were turned back into members for every finding.
        return _finding, (self.rule, self.verdict, self.hallucination_type, self.reason, self.about)


_FINDING_SET = SharedFields(("rule", "verdict", "hallucination_type", "reason", "about"))


def _finding(
    rule: str, verdict: Verdict, kind: HallucinationType | None, reason: str, about: list[str]
) -> RuleFinding:
    """A RuleFinding from its pickled values (they were valid when it was pickled)."""
    return trusted_finding(rule, verdict, kind, reason, about)


def trusted_finding(
    rule: str,
    verdict: Verdict,
    kind: HallucinationType | None,
    reason: str,
    about: list[str],
) -> RuleFinding:
    """A RuleFinding from values already of their declared types (a rule table's finding),
    without validation: what ``model_construct`` makes, in a third of its time (a run
    makes one for every rule that fires on every claim)."""
    state = {
        "rule": rule,
        "verdict": verdict,
        "hallucination_type": kind,
        "reason": reason,
        "about": about,
    }
    return _unvalidated(RuleFinding, state, _FINDING_SET)


def trusted_copy(record: _M, **update: Any) -> _M:
    """``record.model_copy(update=update)`` for values already of their fields' types, but
    keeping a shared fields set shared when the update sets no new field (``model_copy``
    gives every copy a set of its own; the offline judge copies every claim it rescores)."""
    fields = record.__pydantic_fields_set__
    if not (isinstance(fields, SharedFields) and fields.issuperset(update)):
        fields = set(fields) | set(update)
    return _unvalidated(type(record), {**record.__dict__, **update}, fields)


def _unvalidated(cls: type[_M], state: dict[str, Any], fields_set: set[str]) -> _M:
    """An instance of `cls` holding `state` as is, laid out as ``model_construct`` lays it
    out (the trusted builders below and above; tests/offline/test_twin_answers.py)."""
    obj = cls.__new__(cls)
    object.__setattr__(obj, "__dict__", state)
    object.__setattr__(obj, "__pydantic_fields_set__", fields_set)
    object.__setattr__(obj, "__pydantic_extra__", None)
    object.__setattr__(obj, "__pydantic_private__", None)
    return obj


class ClaimJudgement(Claim):
    """A claim with the judge's verdict, reason and evidence."""

    verdict: Verdict = Field(description="The judge's verdict.")
    hallucination_type: HallucinationType | None = Field(
        default=None, description="Set for non-supported claims."
    )
    severity: Severity | None = Field(default=None, description="Set for non-supported claims.")
    rationale: str = Field(description="Why the judge decided so, in one or two sentences.")
    citations: list[Citation] = Field(default_factory=list, description="Supporting evidence.")
    score: float = Field(
        ge=0.0, le=1.0, description="Judge's hallucination score (0 = surely supported)."
    )
    signals: dict[str, Any] = Field(
        default_factory=dict, description="Judge-specific features behind the verdict."
    )
    deciding_rule: str | None = Field(
        default=None,
        description="Id of the rule whose finding gave the rules' verdict (rule-based judges; "
        "null for others).",
    )
    findings: list[RuleFinding] = Field(
        default_factory=list,
        description="Every rule that fired on the claim, the deciding one first, then the "
        "others in rule-table order.",
    )
    model_changed: bool = Field(
        default=False,
        description="The judge's learned model overturned the rules' verdict (the deciding "
        "rule's finding then holds the rules' verdict, and the rationale says so).",
    )
    sample_verdicts: list[Verdict | None] = Field(
        default=[],  # not a factory: model_construct would inspect it per claim (gc cycles)
        exclude_if=lambda v: not v,
        description="Repeated judging (policy judge_samples = k > 1): this claim's verdict in "
        "judge samples 2..k, matched by span or text (null where a sample did not find the "
        "claim); absent with one sample. A claim flipped when they are not all its verdict.",
    )

    @property
    def also_fired(self) -> list[RuleFinding]:
        """The findings of the rules that fired but did not decide (listed under the
        rationale)."""
        return self.findings[1:]

    def provenance(self) -> list[str]:
        """The lines a reviewer reads under the rationale: which rule decided, whether the
        learned model overturned it, and every other rule that fired with its reason (none
        for a judge without rules)."""
        if self.deciding_rule is None:
            return []
        decided = f"Decided by rule {self.deciding_rule}"
        if self.model_changed and self.findings:
            rules = self.findings[0].verdict.value
            decided += f"; the learned model overturned its verdict ({rules})"
        return [decided + ".", *(f"Also fired: {f.rule}: {f.reason}" for f in self.also_fired)]


#: ClaimJudgement's own fields in declaration order, as ``model_construct`` lays them out.
_VERDICT_FIELDS = tuple(
    n for n in ClaimJudgement.model_fields if n not in Claim.model_fields and n != "sample_verdicts"
)
_JUDGEMENT_SET = SharedFields((*Claim.model_fields, *_VERDICT_FIELDS))


def trusted_judgement(claim: Claim, **verdict: Any) -> ClaimJudgement:
    """A ClaimJudgement of `claim` from verdict fields already of their declared types (every
    field but ``sample_verdicts``), without validation: what ``model_construct`` makes, in a
    third of its time (a run makes one for every claim)."""
    state = {**claim.__dict__, **{name: verdict[name] for name in _VERDICT_FIELDS}}
    state["sample_verdicts"] = []
    return _unvalidated(ClaimJudgement, state, _JUDGEMENT_SET)


class VerdictCounts(Record):
    """Claim counts per verdict."""

    SUPPORTED: int = 0
    PARTIALLY_SUPPORTED: int = 0
    UNSUPPORTED: int = 0
    CONTRADICTED: int = 0
    OUT_OF_SCOPE: int = 0

    @property
    def total(self) -> int:
        """All claims counted."""
        return (
            self.SUPPORTED
            + self.PARTIALLY_SUPPORTED
            + self.UNSUPPORTED
            + self.CONTRADICTED
            + self.OUT_OF_SCOPE
        )


class JudgeFailure(Record):
    """Why a judge produced no verdicts for an answer: the typed record of a harness error
    (the engine's guard writes one when a judge raises; a judge that reports an error
    itself, such as the LLM judge after its repairs, gets one too)."""

    judge_id: str = Field(description="The judge that failed (its judge id).")
    exception_type: str | None = Field(
        default=None,
        description="The exception's class name when the judge raised; null when the judge "
        "reported the error itself.",
    )
    message: str = Field(description="What went wrong.")
    raw_reply: str | None = Field(
        default=None, description="The judge's unusable raw reply, where there is one."
    )


def count_verdicts(claims: Iterable[ClaimJudgement]) -> VerdictCounts:
    """Claims per verdict (a plain loop: this runs once per answer, 20,000 times a big run)."""
    counts = dict.fromkeys(_VERDICT_NAMES, 0)
    for claim in claims:
        counts[claim.verdict.value] += 1
    return VerdictCounts(**counts)


_VERDICT_NAMES = [v.value for v in Verdict]


class AnswerAnalysis(Record):
    """The judged claims of one answer and the rates derived from them."""

    case_id: str
    system: str
    claims: list[ClaimJudgement] = Field(default_factory=list)
    counts: VerdictCounts = Field(default_factory=VerdictCounts)
    hallucination_rate: float | None = Field(
        default=None, description="Null when the answer has no factual claims (never 0/0 = 0)."
    )
    fabrication_rate: float | None = None
    contradiction_rate: float | None = None
    consistency_score: float | None = Field(
        default=None, description="(SUPPORTED + 0.5 * PARTIALLY_SUPPORTED) / total claims."
    )
    hallucination_flag: bool = Field(
        default=False,
        description="Some claim counts as hallucinated (UNSUPPORTED or CONTRADICTED, and "
        "OUT_OF_SCOPE when the policy counts it): the answer-level rate's own test, every mode.",
    )
    answer_score: float = Field(
        default=0.0, ge=0.0, le=1.0, description="Answer-level hallucination score (max claim)."
    )
    error_message: str | None = Field(
        default=None, description="Why the answer could not be analysed (empty, nonsense)."
    )
    abstention: str | None = Field(
        default=None,
        description="Why the answer counts as an abstention (empty output, nonsense, refusal, "
        "no checkable claim); null when it answered. Abstentions are counted on their own "
        "(abstention_rate), never as clean or hallucinated answers.",
    )
    harness_error: str | None = Field(
        default=None, description="The judge failed on this answer after retries."
    )
    raw_output: str | None = Field(
        default=None, description="The judge's unusable raw output, kept for diagnosis."
    )
    failure: JudgeFailure | None = Field(
        default=None, description="The typed record of the harness error (null without one)."
    )
    usage: dict[str, int] = Field(default_factory=dict, description="Calls and tokens spent.")
    sample_counts: list[VerdictCounts] = Field(
        default=[],  # pydantic copies it per instance; a factory costs a signature per build
        exclude_if=lambda v: not v,
        description="Repeated judging (policy judge_samples = k > 1): the claim counts of "
        "judge samples 2..k of this answer (sample 1 is ``counts``); absent with one sample.",
    )

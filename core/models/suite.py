"""What a user gives: documents, cases, answers, gathered in a suite."""

from __future__ import annotations

from pydantic import Field, field_validator

from .record import Record
from .verdicts import Severity

#: The tag of a case whose sources hold no answer: abstaining is the correct outcome there,
#: and a judge may treat any claim it cannot find in them as invented.
SHOULD_ABSTAIN_TAG = "should-abstain"


class SourceLocation(Record):
    """Where an imported case, document or answer came from, so a reviewer can go back to it."""

    source: str = Field(description="File (or folder) it was read from.")
    row: int | None = Field(default=None, description="1-based row or line in that file.")
    trace_id: str | None = Field(default=None, description="Trace id, for a trace export.")
    span_id: str | None = Field(default=None, description="Span or run id, for a trace export.")
    part: str | None = Field(
        default=None, description="What it gave: question, document, or answer:<system>."
    )

    def where(self) -> str:
        """``file:row`` or ``file: trace T span S``, as errors, listings and reports name it."""
        if self.span_id is not None:
            return f"{self.source}: trace {self.trace_id} span {self.span_id}"
        return f"{self.source}:{self.row}" if self.row is not None else self.source


class Document(Record):
    """A source document that answers are checked against."""

    doc_id: str = Field(min_length=1, description="Stable id, referenced by cases and citations.")
    text: str = Field(description="Full text; citation spans index into it.")
    title: str | None = Field(default=None, description="Human-readable title.")
    provenance: list[SourceLocation] = Field(
        default_factory=list, description="Where an imported document was read (first 20)."
    )


class Case(Record):
    """One golden question with the documents its answer must rest on."""

    case_id: str = Field(min_length=1, description="Stable id, unique in the suite.")
    question: str = Field(description="The question put to the system.")
    doc_ids: list[str] = Field(default_factory=list, description="Ids of the source documents.")
    documents: list[Document] = Field(
        default_factory=list, description="Inline documents (an alternative to doc_ids)."
    )
    reference_answer: str | None = Field(default=None, description="The golden answer, if any.")
    tags: list[str] = Field(default_factory=list, description="Failure modes, e.g. multi-hop.")
    risk_level: Severity | None = Field(default=None, description="Risk of the case's domain.")
    domain: str | None = Field(default=None, description="Subject area, e.g. medication.")
    provenance: list[SourceLocation] = Field(
        default_factory=list,
        description="Where an imported case's question and each system's answer were read.",
    )

    @field_validator("risk_level", mode="before")
    @classmethod
    def _any_case(cls, value: object) -> object:
        """``critical`` or ``Critical`` is the level CRITICAL (refusing it named the spelling
        it refused as the one allowed)."""
        return value.strip().upper() if isinstance(value, str) else value


class Answer(Record):
    """One system's answer to one case."""

    case_id: str = Field(min_length=1, description="The case answered.")
    answer: str = Field(description="The system's answer text; claim spans index into it.")


class Suite(Record):
    """A loaded, validated golden suite: cases, documents, and answers per system."""

    name: str = Field(description="Suite name (folder name unless suite.json says otherwise).")
    path: str = Field(description="Folder it was loaded from.")
    content_hash: str = Field(description="sha256 over every input file, for reproducibility.")
    documents: dict[str, Document] = Field(description="Documents by doc_id.")
    cases: list[Case] = Field(description="Cases in file order.")
    answers: dict[str, dict[str, Answer]] = Field(
        description="Answers by system name, then by case_id."
    )

    def case_documents(self, case: Case) -> list[Document]:
        """The documents a case's answers are checked against, in the case's order."""
        return [self.documents[d] for d in case.doc_ids] + list(case.documents)

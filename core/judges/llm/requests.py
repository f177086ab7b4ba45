"""Plan the LLM requests of a case: which prompt, which answers together, which evidence.

Economy first: both answers of a compare case go into one request with the documents sent
once, as long as that fits the context budget; otherwise each answer gets its own request.
Evidence that does not fit is windowed to the most relevant passages (recorded); an answer
is never cut. Answers are labelled by position (A, B), not by system name, so the model
cannot favour "candidate" or "baseline".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...models import Document, Mode
from ..protocol import JudgeTask
from .cache import cache_key
from .config import LLMSettings
from .evidence import estimate_tokens, window_documents
from .prompts import WINDOWED_NOTE, Prompt, answer_block, document_block, load_prompt, question_text
from .reply_schemas import OutputKind, ReplyFormat, ReplyShape, reply_format

LABELS = ("A", "B")
# Evidence keeps at least this share of the budget even beside a very long answer.
_MIN_EVIDENCE_SHARE = 0.25


@dataclass
class Request:
    """One chat request: rendered messages, what the labels mean, and its cache key."""

    kind: OutputKind
    prompt: Prompt
    messages: list[dict[str, str]]
    labels: dict[str, str]  # position label -> system
    windowed: bool
    key: str
    answers: dict[str, str] = field(default_factory=dict)  # system -> answer text
    # The rendered, escaped template fields (question, documents, answers, ...): a batch
    # re-wraps them in its own case block instead of rendering the case again.
    fields: dict[str, str] = field(default_factory=dict)
    # Claims requests: the answer ids and document ids the reply's schema admits.
    shape: ReplyShape | None = None

    def reply_format(self) -> ReplyFormat:
        """The reply model and schema of this request (its answer and document ids)."""
        return reply_format(self.kind, self.shape)


def task_mode(task: JudgeTask, configured: Mode | None) -> Mode:
    """The prompt a claims task needs: the run's mode, else inferred from the task."""
    if configured in (Mode.COMPARE, Mode.GATE, Mode.CONSISTENCY):
        return configured
    if len(task.answers) > 1:
        return Mode.COMPARE
    if task.documents and all(d.doc_id.endswith(":reference") for d in task.documents):
        return Mode.CONSISTENCY
    return Mode.GATE


def _fields(
    task: JudgeTask, docs: list[Document], labels: dict[str, str], windowed: bool
) -> dict[str, str]:
    """The template fields of one case, every untrusted text escaped in its block."""
    return {
        "question": question_text(task.case.question),
        "documents": "\n\n".join(document_block(d.doc_id, d.text, d.title) for d in docs),
        "answers": "\n\n".join(answer_block(lab, task.answers[s]) for lab, s in labels.items()),
        "answer_ids": ", ".join(labels),
        "evidence_note": WINDOWED_NOTE if windowed else "",
    }


def _render(
    prompt: Prompt,
    task: JudgeTask,
    docs: list[Document],
    labels: dict[str, str],
    windowed: bool,
) -> list[dict[str, str]]:
    return prompt.render(**_fields(task, docs, labels, windowed))


def _overhead(prompt: Prompt, task: JudgeTask, labels: dict[str, str]) -> int:
    """Tokens of everything but the documents (instructions, question, answers)."""
    messages = _render(prompt, task, [], labels, True)
    return sum(estimate_tokens(m["content"]) for m in messages)


def build_request(
    kind: OutputKind,
    prompt: Prompt,
    task: JudgeTask,
    labels: dict[str, str],
    settings: LLMSettings,
) -> Request:
    """Render one request, windowing the documents to what the budget leaves."""
    budget = settings.context_budget
    room = max(budget - _overhead(prompt, task, labels), int(budget * _MIN_EVIDENCE_SHARE))
    answers = [task.answers[s] for s in labels.values()]
    docs, windowed = window_documents(task.documents, answers, room)
    fields = _fields(task, docs, labels, windowed)
    messages = prompt.render(**fields)
    key = cache_key(prompt.version, settings.model, {"kind": kind, "messages": messages})
    return Request(
        kind=kind,
        prompt=prompt,
        messages=messages,
        labels=labels,
        windowed=windowed,
        key=key,
        answers={s: task.answers[s] for s in labels.values()},
        fields=fields,
        shape=ReplyShape(tuple(labels), tuple(d.doc_id for d in docs))
        if kind == "claims"
        else None,
    )


def claim_requests(task: JudgeTask, mode: Mode, settings: LLMSettings) -> list[Request]:
    """All answers in one request (documents sent once) unless only splitting avoids windowing.

    If the documents fit beside one answer but not beside both, one request per answer
    keeps the evidence whole; if they fit beside neither, one windowed request is cheaper.
    """
    if not task.answers:
        return []
    prompt = load_prompt(mode.value, settings.prompt_version)
    systems = list(task.answers)
    if len(systems) > len(LABELS):
        return [build_request("claims", prompt, task, {"A": s}, settings) for s in systems]
    together = build_request(
        "claims", prompt, task, dict(zip(LABELS, systems, strict=False)), settings
    )
    if not together.windowed or len(systems) == 1:
        return [together]
    single = [build_request("claims", prompt, task, {"A": s}, settings) for s in systems]
    return together_or(single, together)


def together_or(single: list[Request], together: Request) -> list[Request]:
    """Separate requests only when that gets every answer its whole evidence."""
    return [together] if any(r.windowed for r in single) else single


def pairwise_requests(
    task: JudgeTask, systems: tuple[str, str], settings: LLMSettings
) -> list[Request]:
    """The pair in both orders: (A=first, B=second) and (A=second, B=first)."""
    prompt = load_prompt(Mode.PAIRWISE.value, settings.prompt_version)
    a, b = systems
    return [
        build_request("pairwise", prompt, task, {"A": a, "B": b}, settings),
        build_request("pairwise", prompt, task, {"A": b, "B": a}, settings),
    ]


def completion_estimate(request: Request) -> int:
    """Expected reply tokens, for dry runs: claims echo the answer plus rationale and quote."""
    if request.kind == "pairwise":
        return 150
    return sum(40 + 3 * estimate_tokens(text) for text in request.answers.values())

"""The judge interface and its registry.

Judges plug in by name, the way a third party would register one: a factory registered under
a name builds the judge from options; heavy SDKs are imported inside the factory only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..errors import UsageError
from ..models import Case, ClaimJudgement, Document, JudgeSpec


@dataclass(frozen=True)
class JudgeTask:
    """One case to judge: its documents and the answers of one or more systems.

    Judging both answers of a compare case in one task lets a judge send the documents once.
    """

    case: Case
    documents: list[Document]
    answers: dict[str, str]


@dataclass
class JudgeResult:
    """What a judge made of one task: claims per system, or a harness error per system."""

    case_id: str
    claims: dict[str, list[ClaimJudgement]] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    usage: dict[str, int] = field(default_factory=dict)
    raw: dict[str, str] = field(default_factory=dict)


ProgressCallback = Callable[[JudgeResult], None]


class Judge(Protocol):
    """Anything that turns (answers, documents) into claim verdicts with evidence."""

    spec: JudgeSpec

    def judge(
        self, tasks: Sequence[JudgeTask], progress: ProgressCallback | None = None
    ) -> list[JudgeResult]:
        """Judge every task; results in task order. A failing task yields errors, not raises."""
        ...


JudgeFactory = Callable[..., Judge]
_REGISTRY: dict[str, JudgeFactory] = {}


def register_judge(name: str) -> Callable[[JudgeFactory], JudgeFactory]:
    """Decorator registering a judge factory under `name`."""

    def wrap(factory: JudgeFactory) -> JudgeFactory:
        _REGISTRY[name] = factory
        return factory

    return wrap


def judge_names() -> list[str]:
    """Names of the registered judges."""
    _load_builtins()
    return sorted(_REGISTRY)


def create_judge(name: str, **options: Any) -> Judge:
    """Build a registered judge; an unknown name is a usage error listing the known ones."""
    _load_builtins()
    try:
        factory = _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise UsageError(f"unknown judge {name!r}; choose one of: {known}") from None
    return factory(**options)


def _load_builtins() -> None:
    # Importing registers them; kept lazy so importing halgate stays cheap.
    from . import offline  # noqa: F401

    try:
        from . import llm  # noqa: F401
    except ImportError:  # the LLM judge module may be absent in minimal builds
        pass

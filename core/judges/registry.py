"""The judge interface and its registry.

Judges plug in by name, the way a third party would register one: a factory registered under
a name builds the judge from options; heavy SDKs are imported inside the factory only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import UsageError
from .protocol import Judge

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
    from .offline import judge as _offline  # noqa: F401

    try:
        from .llm import judge as _llm  # noqa: F401
    except ImportError:  # the LLM judge module may be absent in minimal builds
        pass

"""The judge registry: judges are built by name from factories.

Judges plug in by name, the way a third party would register one: a factory registered under
a name builds the judge from options; heavy SDKs are imported inside the factory only.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

from ..errors import UsageError
from .protocol import Judge

JudgeFactory = Callable[..., Judge]


ENTRY_POINT_GROUP = "halgate.judges"
"""Where judges are found: the built-ins are declared here in pyproject.toml, as a plug-in
package would declare its own, so the registry never imports a judge module itself."""

_REGISTRY: dict[str, JudgeFactory] = {}


def register_judge(name: str) -> Callable[[JudgeFactory], JudgeFactory]:
    """Decorator registering a judge factory under `name` (takes precedence over plug-ins)."""

    def wrap(factory: JudgeFactory) -> JudgeFactory:
        _REGISTRY[name] = factory
        return factory

    return wrap


def judge_names() -> list[str]:
    """Names of the registered judges and of every installed plug-in judge."""
    return sorted(set(_REGISTRY) | {ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)})


def create_judge(name: str, **options: Any) -> Judge:
    """Build a registered judge; an unknown name is a usage error listing the known ones."""
    return _factory(name)(**options)


def _factory(name: str) -> JudgeFactory:
    if name in _REGISTRY:
        return _REGISTRY[name]
    for ep in entry_points(group=ENTRY_POINT_GROUP, name=name):
        try:
            factory: JudgeFactory = ep.load()  # imports the judge's module: lazy by design
        except ImportError as exc:
            raise UsageError(f"judge {name!r} cannot be loaded ({exc}); reinstall halgate") from exc
        _REGISTRY.setdefault(name, factory)
        return _REGISTRY[name]
    known = ", ".join(judge_names())
    raise UsageError(f"unknown judge {name!r}; choose one of: {known}")

"""Every self-test transform, in report order: truth-preserving first, then truth-changing
by family. The one list the generator, the report and the docs read."""

from __future__ import annotations

from ..errors import UsageError
from .additions import ADDITIONS
from .polarity import POLARITY
from .preserving import PRESERVING
from .restrictions import RESTRICTIONS
from .swaps import SWAPS
from .transform import Transform
from .values import VALUES

TRANSFORMS: list[Transform] = PRESERVING + POLARITY + VALUES + SWAPS + RESTRICTIONS + ADDITIONS


def select_transforms(names: list[str] | None) -> list[Transform]:
    """The transforms named (all when None), in catalogue order; an unknown name is a usage
    error that lists the known ones."""
    if not names:
        return list(TRANSFORMS)
    known = {t.name for t in TRANSFORMS}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise UsageError(
            f"unknown transform(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )
    return [t for t in TRANSFORMS if t.name in names]

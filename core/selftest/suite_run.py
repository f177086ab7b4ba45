"""The self-test of one suite folder under its own policy with the offline judge: the one
call the dashboard makes (the CLI takes the same steps with its options)."""

from __future__ import annotations

from pathlib import Path

from ..inputs.policy import resolve_policy
from ..inputs.suite import load_suite
from ..judges.build import build_judge
from ..models import Mode
from .catalogue import TRANSFORMS
from .report import SelftestReport
from .run import run_selftest
from .sources import suite_targets


def selftest_suite(
    path: Path | str, seed: int = 0, per_document: int = 6, judge: str = "offline"
) -> SelftestReport:
    """Load the suite at ``path`` and its policy, and run every transform on its documents."""
    policy = resolve_policy(None, path)
    targets = suite_targets(load_suite(path))
    j = build_judge(judge, policy, Mode.COMPARE, None)
    return run_selftest(str(path), targets, j, policy, TRANSFORMS, seed, per_document)

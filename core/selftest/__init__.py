"""The judge tested on a suite's own documents: claims of known truth generated from the
sources by named transforms, judged as answers to the suite's cases (`halgate selftest`)."""

from .catalogue import TRANSFORMS, select_transforms
from .report import SelftestItem, SelftestReport
from .run import run_selftest
from .sources import benchmark_targets, sample_documents, suite_targets
from .suite_run import selftest_suite
from .table import selftest_table, share_text
from .transform import Source, Transform

__all__ = [
    "TRANSFORMS",
    "SelftestItem",
    "SelftestReport",
    "Source",
    "Transform",
    "benchmark_targets",
    "run_selftest",
    "sample_documents",
    "select_transforms",
    "selftest_suite",
    "selftest_table",
    "share_text",
    "suite_targets",
]

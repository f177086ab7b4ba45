"""Inputs of a run: the suite (folder or zip archive) and the gate policy.

The public API the faces use to load what a run is asked about.
"""

from .archive import extract_suite_archive
from .policy import Policy, SeverityRules, load_policy, policy_path, resolve_policy
from .suite import load_suite

__all__ = [
    "Policy",
    "SeverityRules",
    "extract_suite_archive",
    "load_policy",
    "load_suite",
    "policy_path",
    "resolve_policy",
]

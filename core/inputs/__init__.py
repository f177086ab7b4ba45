"""Inputs of a run: the suite (folder or zip archive), the gate policy, and the server's
configuration file (``halgate.toml``) with the suite roots the dashboard may read from.

The public API the faces use to load what a run is asked about.
"""

from .archive import extract_suite_archive
from .policy import Policy, SeverityRules, load_policy, policy_path, resolve_policy
from .server_config import config_paths, config_section
from .suite import load_suite
from .suite_roots import allowed_suite_folder, suite_roots

__all__ = [
    "Policy",
    "SeverityRules",
    "allowed_suite_folder",
    "config_paths",
    "config_section",
    "extract_suite_archive",
    "load_policy",
    "load_suite",
    "policy_path",
    "resolve_policy",
    "suite_roots",
]

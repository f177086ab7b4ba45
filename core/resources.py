"""Files shipped with halgate (schemas, prompts, calibration, example suites).

The repository's top-level ``data/`` folder is installed as the package ``halgate.data``, so
the same paths work from a clone, an editable install and a wheel.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def data_path(*parts: str) -> Path:
    """Path of a shipped data file, e.g. ``data_path("schemas", "run_report.json")``."""
    return Path(str(files("halgate.data").joinpath(*parts)))

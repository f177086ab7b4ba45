"""The engine: judge every case of a suite, then score and decide (one entry point)."""

from .engine import check_two_systems, run_suite

__all__ = ["check_two_systems", "run_suite"]

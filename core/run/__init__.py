"""The engine: judge every case of a suite, then score and decide (one entry point)."""

from .engine import run_suite

__all__ = ["run_suite"]

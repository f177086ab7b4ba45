"""What the LLM judge tests share: the key, the tiny suite's questions, ways to run the judge."""

from __future__ import annotations

from pathlib import Path

from halgate.cli.app import app
from halgate.judges.registry import create_judge
from typer.testing import CliRunner

from ..conftest import TINY_CASES

KEY = "sk-halgate-test-SECRET-0123456789abcdef"
Q1, Q2, Q3 = (c["question"] for c in TINY_CASES)


def run_args(
    suite: Path, fake, db: Path, out: Path, *extra: str, judge: str = "llm", key: str = KEY
) -> list[str]:
    """The arguments of a quiet `halgate run SUITE --judge JUDGE` against the fake server."""
    return [
        "run",
        str(suite),
        "--judge",
        judge,
        "--base-url",
        fake.url,
        "--api-key",
        key,
        "--db",
        str(db),
        "--out",
        str(out),
        "-q",
        *extra,
    ]


def cli(suite: Path, fake, tmp_path: Path, *extra: str, key: str = KEY):
    """Invoke `halgate run --judge llm` in-process; returns (result, report path)."""
    out = tmp_path / "report.json"
    args = run_args(suite, fake, tmp_path / "h.db", out, "--max-batch", "1", *extra, key=key)
    return CliRunner().invoke(app, args), out


def judge(fake, tmp_path: Path, key: str = KEY, **options):
    """The LLM judge built through the registry, as the CLI builds it."""
    options.setdefault("db", str(tmp_path / "h.db"))
    options.setdefault("max_batch", 1)
    return create_judge("llm", base_url=fake.url, api_key=key, **options)


def analyses(report) -> dict[tuple[str, str], object]:
    return {(a.case_id, a.system): a for a in report.analyses}


def about(fake, question: str) -> list:
    return [r for r in fake.completions() if question in r.user]

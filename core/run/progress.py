"""A progress bar for long judge runs: cases done, calls, tokens and errors."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..judges.protocol import JudgeResult, ProgressCallback


@contextmanager
def judge_progress(total: int, enabled: bool = True) -> Iterator[ProgressCallback]:
    """Yield a callback that advances a stderr progress bar by one judged case."""
    stats = {"calls": 0, "tokens": 0, "errors": 0}
    progress = Progress(
        TextColumn("judging"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[stats]}"),
        console=Console(stderr=True),
        transient=False,
        disable=not enabled,
    )
    task = progress.add_task("cases", total=total, stats="")

    def tick(result: JudgeResult) -> None:
        stats["calls"] += result.usage.get("calls", 0)
        stats["tokens"] += result.usage.get("prompt_tokens", 0) + result.usage.get(
            "completion_tokens", 0
        )
        stats["errors"] += len(result.errors)
        text = (
            f"calls {stats['calls']} tokens {stats['tokens']} errors {stats['errors']}"
            if stats["calls"]
            else f"errors {stats['errors']}"
        )
        progress.update(task, advance=1, stats=text)

    with progress:
        yield tick

"""Repeated judging in words: how often the judge changed its mind across samples.

The figure is ``SystemRates.judge_flips`` (``scoring.judge_samples``); every face (terminal
summary, Markdown, HTML, the dashboard) says it with ``flip_sentence``, so they agree.
"""

from __future__ import annotations

from collections.abc import Callable

from ..models import JudgeFlips, RunReport

#: How many flipped claims a listing names one by one.
SHOW_FLIPPED = 10


def flip_sentence(flips: JudgeFlips) -> str:
    """'judge flips: 3 of 12 claims (25.0%) across 3 samples; 2 of 6 answers changed label'."""
    share = f"{flips.share:.1%}" if flips.share is not None else "n/a"
    return (
        f"judge flips: {flips.flipped} of {flips.compared} claims ({share}) changed verdict "
        f"across {flips.samples} samples; {flips.answers_flipped} of {flips.answers} answers "
        "changed label"
    )


def flipped_list(flips: JudgeFlips) -> str:
    """The flipped claims' ids, the first ``SHOW_FLIPPED`` of them."""
    shown = ", ".join(flips.flipped_claims[:SHOW_FLIPPED])
    more = len(flips.flipped_claims) - SHOW_FLIPPED
    return shown + (f" and {more} more" if more > 0 else "")


def flip_items(report: RunReport) -> list[str]:
    """One line per system judged more than once ([] with one sample), and its flipped
    claims: the items every face lists (padded for the terminal; the others strip them)."""
    lines: list[str] = []
    for rates in report.rates.values():
        flips = rates.judge_flips
        if flips is None:
            continue
        lines.append(f"  {rates.system:<14}{flip_sentence(flips)}")
        if flips.flipped_claims:
            lines.append(f"  {'':<14}flipped: {flipped_list(flips)}")
    return lines


def flip_lines(report: RunReport) -> list[str]:
    """The terminal's section: a heading over ``flip_items`` ([] with one sample)."""
    items = flip_items(report)
    return ["", "Repeated judging (judge_samples):", *items] if items else []


def flip_markdown(report: RunReport, escape: Callable[[str], str]) -> list[str]:
    """The same items as a Markdown list (``escape`` is the Markdown face's text escaper)."""
    items = flip_items(report)
    if not items:
        return []
    return [
        "",
        "**Repeated judging** (judge_samples):",
        "",
        *(f"- {escape(x.strip())}" for x in items),
    ]

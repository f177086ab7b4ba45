"""`eval-judge --compare-packs`: the offline judge's figures without and with rule packs,
and every claim whose verdict the packs change.

A pack encodes the conventions of one kind of data (docs/judge.md, "Rule packs"); whether a
suite should turn it on is a question of figures on its own labels, so this report judges
the same labelled inputs twice, with the core rules alone and with the packs, and lists the
claims that differ with the rule that decided each way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ..models import ClaimJudgement


@dataclass(frozen=True)
class VerdictChange:
    """One claim judged otherwise with the packs on than without them."""

    claim_id: str
    text: str
    before: str
    """Its verdict without the packs."""
    after: str
    """Its verdict with the packs."""
    rule_before: str | None
    rule_after: str | None


def verdict_changes(
    without: Sequence[ClaimJudgement], with_packs: Sequence[ClaimJudgement]
) -> list[VerdictChange]:
    """The claims (matched by id) whose verdict differs between the two judgements."""
    before = {c.claim_id: c for c in without}
    out = []
    for c in with_packs:
        b = before.get(c.claim_id)
        if b is not None and b.verdict != c.verdict:
            out.append(
                VerdictChange(
                    c.claim_id,
                    c.text,
                    b.verdict.value,
                    c.verdict.value,
                    b.deciding_rule,
                    c.deciding_rule,
                )
            )
    return out


def pack_report(
    packs: Sequence[str],
    figures: tuple[dict[str, Any], dict[str, Any]],
    tables: tuple[str, str],
    changes: Sequence[VerdictChange],
) -> tuple[str, dict[str, Any]]:
    """The report for people and as JSON: figures without and with `packs` (each as the
    figures' own table), then every changed claim."""
    names = ", ".join(packs)
    lines = [
        "without rule packs (core rules only)",
        tables[0].rstrip("\n"),
        "",
        f"with rule packs: {names}",
        tables[1].rstrip("\n"),
        "",
        f"{len(changes)} claim(s) judged otherwise with {names}:",
    ]
    for ch in changes:
        lines.append(
            f"  {ch.claim_id}: {ch.before} ({ch.rule_before}) -> {ch.after} ({ch.rule_after})"
            f"  {ch.text[:80]!r}"
        )
    data = {
        "rule_packs": list(packs),
        "without": figures[0],
        "with": figures[1],
        "changed": [asdict(ch) for ch in changes],
    }
    return "\n".join(lines) + "\n", data

"""`eval-judge --by-rule`: per rule of a rule-based judge, how often it fired and decided,
and how often what it proposed agrees with a label.

A rule *agrees* with a claim's label when the verdict it proposes is hallucinated exactly
when the label is (a SUPPORTED rule agrees on a faithful claim). Its precision is the
share of its labelled claims it agrees with, counted twice: over every claim it fired on,
and over the claims it decided. Labels come from a suite's labels.jsonl (matched claims),
a benchmark's hallucinated spans (a claim overlapping one), or a store: a reviewer's
override or confirmation of a claim, and an audited answer labelled FAITHFUL (all its
claims faithful) — per-rule precision on the user's own data.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

from ..judges.protocol import Judge, JudgeTask, ProgressCallback
from ..models import HALLUCINATED, AuditLabel, ClaimJudgement, Override, RunReport
from ..run.guard import guarded_judge
from ..scoring.corrected import AUDIT_PREFIX, audit_id
from .benchmark import BenchRow, bench_case, claim_label

#: A judged claim with its label: hallucinated (True), faithful (False) or unknown (None).
LabelledClaim = tuple[ClaimJudgement, bool | None]


@dataclass
class RuleTally:
    """One rule's counts over a set of judged claims."""

    rule: str
    fired: int = 0
    decided: int = 0
    overturned: int = 0
    """Claims it decided whose verdict the learned model overturned."""
    fired_labelled: int = 0
    fired_agree: int = 0
    decided_labelled: int = 0
    decided_agree: int = 0

    @property
    def precision_fired(self) -> float | None:
        """Share of the labelled claims it fired on whose label it agrees with."""
        return self.fired_agree / self.fired_labelled if self.fired_labelled else None

    @property
    def precision_decided(self) -> float | None:
        """Share of the labelled claims it decided whose label it agrees with."""
        return self.decided_agree / self.decided_labelled if self.decided_labelled else None

    def as_dict(self) -> dict[str, object]:
        """The counts and both precisions, for --json."""
        return {
            **asdict(self),
            "precision_fired": self.precision_fired,
            "precision_decided": self.precision_decided,
        }


def tally_rules(claims: Iterable[LabelledClaim]) -> list[RuleTally]:
    """Per rule (in the order rules first appear, deciding ones first), its counts."""
    tallies: dict[str, RuleTally] = {}
    for claim, label in claims:
        for i, f in enumerate(claim.findings):
            t = tallies.setdefault(f.rule, RuleTally(f.rule))
            agree = (f.verdict in HALLUCINATED) == label
            t.fired += 1
            if label is not None:
                t.fired_labelled += 1
                t.fired_agree += agree
            if i == 0:
                t.decided += 1
                t.overturned += claim.model_changed
                if label is not None:
                    t.decided_labelled += 1
                    t.decided_agree += agree
    return sorted(tallies.values(), key=lambda t: (-t.decided, -t.fired, t.rule))


def benchmark_claims(
    judge: Judge,
    rows: Sequence[BenchRow],
    progress: ProgressCallback | None = None,
    task_hints: bool = True,
) -> list[LabelledClaim]:
    """Every claim the judge makes on the rows, labelled by the rows' hallucinated spans."""
    tasks = [
        JudgeTask(case=bench_case(r, task_hints), documents=r.documents, answers={"s": r.answer})
        for r in rows
    ]
    out: list[LabelledClaim] = []
    for row, result in zip(rows, guarded_judge(judge, tasks, progress), strict=True):
        out += [(c, claim_label(c.start, c.end, row)) for c in result.claims.get("s", [])]
    return out


def store_claims(report: RunReport, overrides: Sequence[Override]) -> list[LabelledClaim]:
    """A stored run's claims labelled by its reviewers: the newest override of a claim (a
    confirmation keeps the judge's verdict as the label), or an audited answer's FAITHFUL
    label for each of its claims; unlabelled otherwise."""
    newest: dict[str, Override] = {}
    for o in sorted(overrides, key=lambda o: o.id):
        newest[o.claim_id] = o
    out: list[LabelledClaim] = []
    for a in report.analyses:
        audit = newest.get(audit_id(a.case_id, a.system))
        faithful = audit is not None and audit.label == AuditLabel.FAITHFUL
        for c in a.claims:
            review = newest.get(c.claim_id)
            label: bool | None = None
            if review is not None and not review.claim_id.startswith(AUDIT_PREFIX):
                label = (review.verdict or c.verdict) in HALLUCINATED
            elif faithful:
                label = False
            out.append((c, label))
    return out


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x:.0%}"


def by_rule_table(tallies: Sequence[RuleTally], n_claims: int, n_labelled: int) -> str:
    """The per-rule table eval-judge prints."""
    head = f"{'rule':<18}{'fired':>7}{'decided':>9}{'overturned':>12}{'prec.fired':>12}"
    head += f"{'prec.decided':>14}{'labelled(f/d)':>15}"
    lines = [
        f"{n_claims} claims, {n_labelled} labelled; a rule agrees with a label when the "
        "verdict it proposes is hallucinated exactly when the label is",
        head,
    ]
    for t in tallies:
        lines.append(
            f"{t.rule:<18}{t.fired:>7}{t.decided:>9}{t.overturned:>12}"
            f"{_pct(t.precision_fired):>12}{_pct(t.precision_decided):>14}"
            f"{f'{t.fired_labelled}/{t.decided_labelled}':>15}"
        )
    if not tallies:
        lines.append("(no claim records a rule: this judge has no rule table)")
    return "\n".join(lines) + "\n"


def by_rule_result(claims: Sequence[LabelledClaim]) -> tuple[str, dict[str, object]]:
    """The table and the JSON of the per-rule figures of these labelled claims."""
    tallies = tally_rules(claims)
    n_labelled = sum(label is not None for _, label in claims)
    data = {
        "n_claims": len(claims),
        "n_labelled": n_labelled,
        "rules": [t.as_dict() for t in tallies],
    }
    return by_rule_table(tallies, len(claims), n_labelled), data

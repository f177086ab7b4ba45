"""Judge generated claims with a suite's judge and gather the self-test report.

Each claim is judged as the whole answer of its case (one task per claim, so a CPU-bound
judge spreads over processes); the answer's worst claim is its reading.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext

from ..inputs.policy import Policy
from ..judges.protocol import Judge, JudgeResult, JudgeTask, ProgressCallback
from ..models import ClaimJudgement, Verdict
from ..run.parallel import judge_tasks
from ..scoring.gate import queues_claim
from ..text.severity import is_critical_fact
from .catalogue import TRANSFORMS
from .generate import GeneratedClaim, generate_claims
from .report import SelftestItem, SelftestReport, risk_score, transform_score, worst_items
from .sources import DocumentTargets
from .targets import check_targets
from .transform import Transform

SYSTEM = "selftest"
_WORST_FIRST = [
    Verdict.CONTRADICTED,
    Verdict.UNSUPPORTED,
    Verdict.PARTIALLY_SUPPORTED,
    Verdict.OUT_OF_SCOPE,
    Verdict.SUPPORTED,
]


def run_selftest(
    source: str,
    targets: DocumentTargets,
    judge: Judge,
    policy: Policy,
    transforms: Sequence[Transform] = TRANSFORMS,
    seed: int = 0,
    per_document: int = 6,
    progress: Callable[[int], AbstractContextManager[ProgressCallback]] | None = None,
) -> SelftestReport:
    """Generate claims from the documents of ``targets``, judge them, report the figures;
    ``progress(total)`` gives a context that yields a callback ticked per judged claim."""
    began = time.perf_counter()
    generated = generate_claims(targets, transforms, seed, per_document)
    tasks = [JudgeTask(g.target.case, g.target.documents, {SYSTEM: g.text}) for g in generated]
    with progress(len(tasks)) if progress else nullcontext(None) as tick:
        results = judge_tasks(judge, tasks, tick)
    items = [_item(g, r, policy) for g, r in zip(generated, results, strict=True)]
    return SelftestReport(
        source=source,
        judge=judge.spec.name,
        seed=seed,
        documents=len({g.doc_id for g in generated}),
        sentences=len({(g.doc_id, g.source) for g in generated}),
        seconds=round(time.perf_counter() - began, 2),
        transforms=[
            transform_score(
                t.name,
                t.family,
                t.preserves_truth,
                t.description,
                [i for i in items if i.transform == t.name],
            )
            for t in transforms
        ],
        risks=[
            risk_score(
                level,
                [i for i in items if (i.risk_level.value if i.risk_level else "NONE") == level],
            )
            for level in ("CRITICAL", "HIGH", "MEDIUM", "LOW", "NONE")
            if any((i.risk_level.value if i.risk_level else "NONE") == level for i in items)
        ],
        targets=check_targets(items),
        worst=worst_items(items),
        items=items,
    )


def deciding_rule(claim: ClaimJudgement) -> str | None:
    """The judge rule that decided the claim, where the judge names one."""
    rule = getattr(claim, "deciding_rule", None) or claim.signals.get("rule")
    return str(rule) if rule else None


def _item(g: GeneratedClaim, result: JudgeResult, policy: Policy) -> SelftestItem:
    claims = result.claims.get(SYSTEM, [])
    worst = min(claims, key=lambda c: (_WORST_FIRST.index(c.verdict), -c.score), default=None)
    case = g.target.case
    severities = [c.severity for c in claims if c.severity]
    return SelftestItem(
        transform=g.transform.name,
        family=g.transform.family,
        preserves_truth=g.transform.preserves_truth,
        case_id=case.case_id,
        risk_level=case.risk_level,
        doc_id=g.doc_id,
        source=g.source,
        claim=g.text,
        critical_fact=is_critical_fact(g.source, case, policy.severity_rules),
        verdict=worst.verdict if worst else None,
        severity=max(severities, key=lambda s: s.rank) if severities else None,
        queued=any(queues_claim(c, case.risk_level, policy) for c in claims),
        rationale=worst.rationale if worst else (result.errors.get(SYSTEM) or "no claim extracted"),
        rule=deciding_rule(worst) if worst else None,
        score=worst.score if worst else 0.0,
    )

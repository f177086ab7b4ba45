"""What the offline judge stores with each claim: its signals and its rule score.

Kept apart from the rules (judge.py) because both the rules' score and the learned model
(claim_model.py) read these numbers: one definition, stored with the claim for review and
calibration.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ...models import Verdict as V
from ...text.lexicon import FRAMING_STEMS
from .claim_model import ClaimSignals
from .conventions import CORE_CONVENTIONS, Conventions
from .features import Alignment, ClaimFeatures

if TYPE_CHECKING:
    from .calibration_file import Score
    from .restating.context import Restatement


def rule_score(score: Score, verdict: V, al: Alignment, c: ClaimFeatures) -> float:
    """Hallucination probability-like score, ordered for AUROC and kept on the verdict's
    side of the decision (the bounds in the calibration's ``score`` section), so score and
    verdict never disagree."""
    w = score.weights
    z = score.bias + w.uncovered * (1 - al.support_coverage)
    z += w.number_unmatched * _share(len(al.numbers_unmatched), len(c.quantities))
    z += w.number_conflict * bool(al.number_conflict)
    z += w.name_missing * _share(len(al.names_missing), len(c.names))
    z += w.negation_mismatch * al.negation_mismatch
    z += w.hedge_mismatch * al.hedge_mismatch
    z += w.citation_mismatch * al.citation_mismatch
    z += w.record_conflict * bool(al.record_conflicts or al.listing_conflicts)
    p = 1 / (1 + math.exp(-z))
    if verdict in (V.SUPPORTED, V.PARTIALLY_SUPPORTED, V.OUT_OF_SCOPE):
        return round(
            min(p, score.supported_max if verdict == V.SUPPORTED else score.undecided_max), 6
        )
    return round(max(p, score.hallucinated_min), 6)


def informative_uncovered(
    al: Alignment, c: ClaimFeatures, framing: frozenset[str] = FRAMING_STEMS
) -> float:
    """Share of the claim's content stems (`framing` words like 'it is described as'
    aside) that no evidence passage holds."""
    wanted = [s for s in c.stems if s not in framing]
    if not wanted:
        return 0.0
    missing = set(al.missing_stems)
    return sum(s in missing for s in wanted) / len(wanted)


def _share(n: int, total: int) -> float:
    return n / total if total else 0.0


def claim_signals(
    al: Alignment,
    c: ClaimFeatures,
    restated: Restatement,
    conventions: Conventions = CORE_CONVENTIONS,
) -> ClaimSignals:
    """The features behind the verdict, stored with the claim for review and calibration
    (`restated`: the claim's findings against the sentence it restates, hard signals the
    learned model may not clear; `conventions`: those of the suite's rule packs, a pack's
    own signal is stored only when the pack is on)."""
    framing = conventions.framing_stems
    signals: ClaimSignals = {
        "coverage": round(al.coverage, 4),
        "n_stems": len(c.stems),
        "question_coverage": round(al.question_coverage, 4),
        "support_coverage": round(al.support_coverage, 4),
        "doc_coverage": round(al.doc_coverage, 4),
        "retrieval_score": round(al.hits[0].score, 4) if al.hits else 0.0,
        "missing_words": al.missing_stems[:8],
        "numbers_unmatched": al.numbers_unmatched,
        "numbers_elsewhere": al.numbers_elsewhere,
        "values_invented": al.values_invented,
        "number_conflict": al.number_conflict is not None,
        "names_missing": al.names_missing,
        "sources_unnamed": al.sources_unnamed,
        "negation_mismatch": al.negation_mismatch,
        "hedge_mismatch": al.hedge_mismatch,
        "claim_hedged": c.hedged,
        "attributed_doc": al.attributed_doc,
        "citation_mismatch": al.citation_mismatch,
        "evidence_doc": al.best.doc_id if al.best else None,
        "null_fields": al.null_fields,
        "record_conflicts": [conflict.field for conflict in al.record_conflicts],
        "informative_uncovered": round(informative_uncovered(al, c, framing), 4),
        **restated.signals(),  # type: ignore[typeddict-item]
        "addition_invented": restated.addition is not None,
        "informative_missing": sum(s not in framing for s in al.missing_stems),
    }
    if conventions.listings:
        signals["listing_conflicts"] = [conflict.field for conflict in al.listing_conflicts]
    return signals


def copy_signals(signals: dict[str, Any]) -> dict[str, Any]:
    """A copy whose lists are not shared (memoised verdicts serve several claims)."""
    return {k: list(v) if isinstance(v, list) else v for k, v in signals.items()}

"""What an offline-judge rule is: one named, typed object with its own finding.

A rule reads the alignment of one claim with its evidence (:class:`RuleInput`, read-only)
and returns a :class:`Finding` when it fires, or None. It writes into nothing shared: the
decision is a fold over the ordered table of rules (table.py), the first finding by
precedence decides, and every finding that fired is kept with the claim as provenance.

Rules live one per module in a family folder of ``judges/offline/rules/`` (coverage,
values, wording, or a pack's own folder) and never import each other (an import-linter
contract says so); adding a rule is one new module there that defines ``RULE``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ....evidence.index import Passage
from ....models import HallucinationType, Verdict
from ....models.filled import filled
from ..features import Alignment, ClaimFeatures
from ..restating.context import Restatement, Slot

if TYPE_CHECKING:
    from ..calibration_file import Thresholds, Verdicts

#: The pack of the generic rules, on for every suite; other packs are opt-in (policy
#: ``rule_packs``).
CORE_PACK = "core"


@dataclass(frozen=True)
class RuleInput:
    """What every rule may read about one claim: its features, its alignment with the
    evidence, the calibration's thresholds and policy verdicts, and what the sentence it
    restates says against it (found once per claim; never written to)."""

    claim: ClaimFeatures
    alignment: Alignment
    thresholds: Thresholds
    verdicts: Verdicts
    restatement: Restatement

    @property
    def at(self) -> str:
        """' (doc_id)' of the best evidence passage, for a rationale ('' when none)."""
        best = self.alignment.best
        return f" ({best.doc_id})" if best else ""


@dataclass(frozen=True)
class Finding:
    """What one rule found about one claim: the verdict and type it proposes and why."""

    rule: str
    """The id of the rule that found it."""
    verdict: Verdict
    type: HallucinationType | None
    reason: str
    """The rationale a reviewer reads when this finding decides."""
    about: tuple[str, ...] = ()
    """The values, names or fields the finding is about (empty for coverage findings)."""


class Rule(ABC):
    """One row of the offline judge's rule table.

    A subclass sets the class attributes and implements :meth:`fires` and :meth:`reason`
    (and :meth:`about` when the finding names values); :meth:`find` builds the finding.
    """

    id: ClassVar[str]
    """Stable name, stored with every claim it decides (``deciding_rule``)."""
    detects: ClassVar[str]
    """What the rule detects, in one line (the rules table of docs/judge.md)."""
    precedence: ClassVar[int]
    """Lower decides first: the table is ordered by it, and ids break no ties (unique)."""
    verdict: ClassVar[Verdict]
    """The verdict the rule proposes (unless ``verdict_setting`` names the calibration's)."""
    type: ClassVar[HallucinationType | None]
    """The hallucination type the rule proposes (None for a supported claim)."""
    verdict_setting: ClassVar[str | None] = None
    """A field of the calibration's ``verdicts`` section that sets the proposed verdict."""
    signal: ClassVar[str | None] = None
    """The stored claim signal that carries this finding; when the calibration lists it
    among ``verdicts.hard_signals`` the learned model may not clear the claim."""
    pack: ClassVar[str] = CORE_PACK
    """The rule pack the rule belongs to (``core`` is always on)."""
    restates: ClassVar[str | None] = None
    """The field of :class:`Restatement` the rule reads: when the rule decides, the
    passage of that finding is what the claim cites (a copy cites the sentence it copies,
    a flipped restatement the sentence it flips), not whichever passage retrieval ranked."""

    @abstractmethod
    def fires(self, e: RuleInput) -> bool:
        """Whether the rule's finding holds for this claim."""

    @abstractmethod
    def reason(self, e: RuleInput) -> str:
        """The rationale of the finding (called only when the rule fires)."""

    def about(self, e: RuleInput) -> tuple[str, ...]:
        """The values, names or fields the finding is about."""
        return ()

    def proposed_verdict(self, verdicts: Verdicts) -> Verdict:
        """The verdict this rule proposes under the calibration's policy verdicts."""
        if self.verdict_setting is None:
            return self.verdict
        return Verdict(getattr(verdicts, self.verdict_setting))

    def model_may_clear(self, hard_signals: tuple[str, ...] | list[str]) -> bool:
        """Whether the learned model may overturn this rule's verdict (not when its signal
        is one of the calibration's hard signals)."""
        return self.signal is None or self.signal not in hard_signals

    def cited(self, e: RuleInput) -> Passage | None:
        """The passage the finding rests on (None: the alignment's evidence is cited)."""
        if self.restates is None:
            return None
        found = getattr(e.restatement, self.restates)
        return found.passage if isinstance(found, Slot) else found

    def find(self, e: RuleInput) -> Finding | None:
        """The rule's finding about this claim, or None when it does not fire."""
        if not self.fires(e):
            return None
        return self.finding(e)

    def finding(self, e: RuleInput) -> Finding:
        """The rule's finding about a claim it fires on (the table's fold asks `fires`
        itself: one call less per rule and claim)."""
        return filled(
            Finding,
            rule=self.id,
            verdict=self.proposed_verdict(e.verdicts),
            type=self.type,
            reason=self.reason(e),
            about=self.about(e),
        )


def coverage(e: RuleInput) -> float:
    """The share of the claim's content words the evidence holds (best single passage or a
    discounted union of several): the measure most rules gate on."""
    return e.alignment.support_coverage


__all__ = ["CORE_PACK", "Alignment", "ClaimFeatures", "RuleInput", "Finding", "Rule", "coverage"]

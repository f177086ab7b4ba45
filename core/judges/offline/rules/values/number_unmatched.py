"""Number unmatched: a number of the claim that its evidence does not state."""

from __future__ import annotations

from .....models import HallucinationType, Verdict
from ..rule import Rule, RuleInput


class NumberUnmatched(Rule):
    id = "number_unmatched"
    detects = "a number, date, time or phone number the evidence does not state"
    precedence = 60
    verdict = Verdict.UNSUPPORTED
    type = HallucinationType.FABRICATION
    signal = "numbers_unmatched"

    def fires(self, e: RuleInput) -> bool:
        return bool(e.alignment.numbers_unmatched)

    def reason(self, e: RuleInput) -> str:
        al = e.alignment
        if al.numbers_elsewhere:
            where = (
                f"the evidence{e.at} does not state it (it occurs elsewhere, about something else)"
            )
        elif al.number_conflict is not None:  # a rival too weakly aligned to contradict
            where = f"the evidence ({al.number_conflict.doc_id}) gives another value for it"
        else:
            where = "it appears in no source document"
        return f"Unsupported: {', '.join(al.numbers_unmatched)}: {where}."

    def about(self, e: RuleInput) -> tuple[str, ...]:
        return tuple(e.alignment.numbers_unmatched)


RULE = NumberUnmatched()

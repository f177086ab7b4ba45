"""What the tests read from the rule table rather than list by hand."""

from __future__ import annotations

from dataclasses import fields, replace

from halgate.evidence.index import evidence_index
from halgate.judges.offline.alignment import align
from halgate.judges.offline.features import claim_features, question_features
from halgate.judges.offline.judge import OfflineJudge
from halgate.judges.offline.restating.context import Restatement, Slot
from halgate.judges.offline.rules.rule import Rule, RuleInput
from halgate.judges.offline.rules.table import builtin_rules
from halgate.models import Document

_DOC = Document(doc_id="d", text="Guests should wear a life jacket on the jetty.")


def slot_fields() -> list[str]:
    """The fields of a Restatement that each hold one finding against the restated passage."""
    return [f.name for f in fields(Restatement) if f.type == "Slot | None"]


def restating_rules() -> dict[str, Rule]:
    """The table's rule that fires on each restatement finding alone, by the Restatement
    field holding the finding: the rules are asked about a claim with no finding and about
    the same claim with that one finding set."""
    judge = OfflineJudge(use_model=False)
    f = claim_features(_DOC.text)
    al = align(f, evidence_index([_DOC]), question_features(""), judge.cal.retrieval, judge.th)
    assert al.best is not None
    plain = RuleInput(f, al, judge.th, judge.cal.verdicts, Restatement())
    quiet = [r for r in builtin_rules() if not r.fires(plain)]
    found = {}
    for name in slot_fields():
        e = replace(plain, restatement=Restatement(**{name: Slot(al.best, "found")}))
        (found[name],) = [r for r in quiet if r.fires(e)]
    return found

"""Source copy: the claim is a source passage's words, word for word, with nothing left out
that restricts it; no other passage can contradict what the sources themselves say."""

from __future__ import annotations

from .....models import Verdict
from ..rule import Rule, RuleInput


class SourceCopy(Rule):
    id = "source_copy"
    detects = "a claim that copies a source sentence (or a run of it) word for word"
    precedence = 14
    verdict = Verdict.SUPPORTED
    type = None
    restates = "copied"

    def fires(self, e: RuleInput) -> bool:
        r = e.restatement
        return r.copied is not None and r.copy_restricted is None

    def reason(self, e: RuleInput) -> str:
        p = e.restatement.copied
        return (
            f"Supported: the claim copies the source{f' ({p.doc_id})' if p else ''} word for word."
        )


RULE = SourceCopy()

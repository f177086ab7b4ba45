"""The offline judge: deterministic, no network, no model download, fast.

For every answer: extract claims, retrieve evidence sentences, compute alignment signals
(alignment.py), then decide verdict and type by a fold over the table of named rules
(rules/table.py, one rule per module in rules/<family>/), so the rationale can name the
rule that decided.
Thresholds and score weights come from ``data/calibration/offline_v3.json`` (typed and
checked in calibration_file.py), never from constants here; its learned model
(claim_model.py) then rescores every claim.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from ...evidence.index import EvidenceIndex, Passage, evidence_index
from ...evidence.locate import locate_quote
from ...inputs.policy import SeverityRules
from ...models import (
    Citation,
    Document,
    HallucinationType,
    JudgeFailure,
    JudgeSpec,
)
from ...models import Verdict as V
from ...models.filled import filled
from ...resources import data_path
from ...text.claims import extract_claims
from ...text.quantities import Quantity
from ...text.severity import assign_severity
from ..protocol import JudgeResult, JudgeTask, ProgressCallback
from ..registry import register_judge
from .alignment import align
from .calibration_file import Calibration, load_calibration_file, load_model
from .claim_model import (
    answer_context,
    answer_novelty,
    claim_matrix,
    input_shape,
    is_refusal,
)
from .conventions import conventions_for
from .features import Alignment, ClaimFeatures, QuestionFeatures, claim_features, question_features
from .rescore import rescore_claims
from .restating.context import Restatement, restatement_of
from .reuse import ClaimDecision, Judged, as_system, findings_of
from .rules.rule import Rule, RuleInput
from .rules.table import rule_table
from .signals import claim_signals, rule_score
from .source_rules import version_marks

T = HallucinationType


DEFAULT_CALIBRATION = "offline_v3.json"


def load_calibration(path: Path | str | None = None) -> Calibration:
    """The judge's thresholds, weights and model (the shipped offline_v3.json by default),
    checked: a bad file raises CalibrationError naming the file and field."""
    return load_calibration_file(
        Path(path) if path else data_path("calibration", DEFAULT_CALIBRATION)
    )


#: Tasks whose answers the learned model scores together (one prediction for them all).
LEARNED_BATCH = 32
MAX_CASE_SECONDS = 60.0
"""Rule work one case may take; past it the case is a harness error of its own (a case
whose documents and answers reach the size limits could otherwise take many minutes)."""


class CaseTimeout(Exception):
    """A case took longer than ``MAX_CASE_SECONDS`` to judge."""


@dataclass(frozen=True)
class _Pending:
    """An answer whose rule-judged claims (``result.claims[system]``) await the model."""

    result: JudgeResult
    system: str
    task: JudgeTask
    index: EvidenceIndex

    @property
    def answer(self) -> str:
        return self.task.answers[self.system]


def _failed(task: JudgeTask, exc: Exception, judge_id: str) -> JudgeResult:
    msg = f"offline judge failed: {type(exc).__name__}: {exc}"
    failure = JudgeFailure(judge_id=judge_id, exception_type=type(exc).__name__, message=str(exc))
    return JudgeResult(
        task.case.case_id,
        errors=dict.fromkeys(task.answers, msg),
        failures=dict.fromkeys(task.answers, failure),
    )


def _table_options(packs: Sequence[str], extra: Sequence[Rule]) -> dict[str, list[str]]:
    """The judge spec's record of a rule table other than the default (none for it, so a
    default judge's spec is what it always was)."""
    out = {}
    if packs:
        out["rule_packs"] = sorted(packs)
    if extra:
        out["extra_rules"] = [r.id for r in extra]
    return out


class OfflineJudge:
    """Claim extraction + BM25 evidence + alignment rules; the embedded default judge."""

    #: Pure CPU work with no shared state: the engine may spread tasks over processes.
    cpu_bound = True

    def __init__(
        self,
        severity_rules: SeverityRules | dict[str, Any] | None = None,
        calibration: str | Path | None = None,
        use_model: bool = True,
        null_field_claims: str = "unsupported",
        rule_packs: Sequence[str] = (),
        extra_rules: Sequence[Rule] = (),
    ):
        self.cal = load_calibration(calibration)
        # Calibration trains on the rule verdicts alone, so it switches the model off.
        self.model = load_model(self.cal) if use_model else None
        self.rules = SeverityRules.model_validate(
            severity_rules.model_dump()
            if isinstance(severity_rules, SeverityRules)
            else severity_rules or {}
        )
        self.th = self.cal.thresholds
        self.table = rule_table(rule_packs, extra_rules)
        self.conventions = conventions_for(rule_packs)
        self.null_fields = null_field_claims != "ignore"
        self.spec = JudgeSpec(
            name="offline",
            model=None,
            prompt_version=self.cal.version,
            options={
                "calibration": str(calibration) if calibration else DEFAULT_CALIBRATION,
                "use_model": self.model is not None,
                "null_field_claims": null_field_claims,
                "severity_rules": self.rules.model_dump(mode="json"),
                **_table_options(rule_packs, extra_rules),
            },
        )

    def judge(
        self, tasks: Sequence[JudgeTask], progress: ProgressCallback | None = None
    ) -> list[JudgeResult]:
        """Judge every task in order; a task that raises becomes per-system errors."""
        results = []
        for start in range(0, len(tasks), LEARNED_BATCH):
            for result in self._judge_batch(tasks[start : start + LEARNED_BATCH]):
                results.append(result)
                if progress:
                    progress(result)
        return results

    def judge_task(self, task: JudgeTask) -> JudgeResult:
        """Judge the answers of one case against its documents (indexed once)."""
        return self._judge_batch([task])[0]

    def _judge_batch(self, tasks: Sequence[JudgeTask]) -> list[JudgeResult]:
        """The rules task by task, then the learned model once for every answer of the
        batch; a task that raises in either stage becomes per-system errors, alone."""
        staged: list[tuple[JudgeTask, JudgeResult, list[_Pending], dict[str, str]]] = []
        for task in tasks:
            try:
                staged.append((task, *self._rule_stage(task)))
            except Exception as exc:  # one bad case must not sink the run
                staged.append((task, _failed(task, exc, self.spec.judge_id), [], {}))
        try:
            self._learn([p for _, _, pending, _ in staged for p in pending])
        except Exception:  # find the case that fails, and only it
            for i, (task, _, pending, _) in enumerate(staged):
                try:
                    self._learn(pending)
                except Exception as exc:
                    staged[i] = (task, _failed(task, exc, self.spec.judge_id), [], {})
        for _, result, _, twins in staged:
            for system, first in twins.items():
                result.claims[system] = [as_system(c, system) for c in result.claims[first]]
        return [result for _, result, _, _ in staged]

    def _rule_stage(self, task: JudgeTask) -> tuple[JudgeResult, list[_Pending], dict[str, str]]:
        """Every answer's claims with their rule verdicts, what the learned model needs, and
        the systems whose answer repeats an earlier system's word for word (its twin).

        A claim's verdict depends only on its text and the case, so a sentence that
        several systems share (the common case in a regression run) is judged once; an
        unchanged answer is not even split again, and takes its twin's final judgements.
        """
        deadline = time.monotonic() + MAX_CASE_SECONDS
        index = evidence_index(
            task.documents, self.cal.retrieval.bm25_weight, self.conventions.listings
        )
        docs = {d.doc_id: d for d in task.documents}
        question = question_features(task.case.question)
        result = JudgeResult(task.case.case_id, usage={"calls": 0, "tokens": 0})
        pending = []
        memo: dict[tuple[str, tuple[Quantity, ...]], Judged] = {}
        features: dict[str, ClaimFeatures] = {}
        first: dict[str, str] = {}
        twins: dict[str, str] = {}
        for system, answer in task.answers.items():
            twin = first.setdefault(answer, system)
            if twin != system:
                twins[system] = twin
                result.claims[system] = []  # filled from the twin once the model has scored
                continue
            judged = []
            # "Under the 2023 wording you would not have been eligible, because the age
            # limit was 74": a version named in one claim carries over to the next ones.
            context: tuple[Quantity, ...] = ()
            for claim in extract_claims(answer, task.case.case_id, system):
                if time.monotonic() > deadline:
                    raise CaseTimeout(f"judging took more than {MAX_CASE_SECONDS:g} s; stopped")
                f = features.get(claim.text)
                if f is None:
                    f = features[claim.text] = claim_features(claim.text)
                named = f.reference.quantities if f.reference else ()
                marks = version_marks(f.quantities + named)
                context = marks or context
                key = (claim.text, () if marks else context)
                j = memo.get(key)
                again = j is not None
                if j is None:
                    j = memo[key] = self._judge_text(f, task, index, docs, question, key[1])
                judged.append(j.judgement(claim, again))
            result.claims[system] = judged
            if judged and self.model is not None:
                pending.append(_Pending(result, system, task, index))
        return result, pending, twins

    def _learn(self, pending: Sequence[_Pending]) -> None:
        """Rule verdicts rescored by the learned model, in place, for many answers at once;
        the same model for every suite, told only what the input itself shows."""
        if self.model is None or not pending:
            return
        inputs = []
        for p in pending:
            claims, case = p.result.claims[p.system], p.task.case
            novelty = answer_novelty(p.answer, p.index.vocabulary)
            ctx = answer_context(claims, novelty, is_refusal(p.answer))
            shape = input_shape(case.question, p.answer, p.index)
            inputs.append((claim_matrix(claims, ctx, shape), ctx, shape))
        cut, hard = self.cal.score.decision_score, self.cal.verdicts.hard_signals
        for p, probs in zip(pending, self.model.many_claim_scores(inputs), strict=True):
            claims = p.result.claims[p.system]
            p.result.claims[p.system] = rescore_claims(
                claims, probs, p.task.case, self.rules, cut, hard
            )

    def _judge_text(
        self,
        features: ClaimFeatures,
        task: JudgeTask,
        index: EvidenceIndex,
        docs: dict[str, Document],
        question: QuestionFeatures,
        context: tuple[Quantity, ...] = (),
    ) -> Judged:
        text = features.text
        al = align(
            features,
            index,
            question,
            self.cal.retrieval,
            self.th,
            context,
            self.null_fields,
            self.conventions,
        )
        restated = restatement_of(features, al, index)
        decision = self.decide(features, al, restated)
        return Judged(
            decision,
            assign_severity(decision.verdict, decision.type, text, task.case, self.rules),
            tuple(self._citations(decision, al, docs)),
            rule_score(self.cal.score, decision.verdict, al, features),
            cast(dict[str, Any], claim_signals(al, features, restated, self.conventions)),
            findings_of(decision.rules) if decision.rules else (),
        )

    def decide(self, c: ClaimFeatures, al: Alignment, restated: Restatement) -> ClaimDecision:
        """The fold over the rule table: every rule's finding, the first by precedence
        decides (table.py)."""
        e = filled(
            RuleInput,
            claim=c,
            alignment=al,
            thresholds=self.th,
            verdicts=self.cal.verdicts,
            restatement=restated,
        )
        d = self.table.decide(e)
        found = d.deciding
        return filled(
            ClaimDecision, verdict=found.verdict, type=found.type, reason=found.reason, rules=d
        )

    def _citations(
        self, d: ClaimDecision, al: Alignment, docs: dict[str, Document]
    ) -> list[Citation]:
        """Verified citations of the deciding evidence (none for fabrications)."""
        if d.type in (T.FABRICATION, None) and d.verdict != V.SUPPORTED:
            return []
        passages: list[Passage]
        if d.rules is not None and d.rules.cited is not None:
            passages = [d.rules.cited]  # the sentence the deciding rule read
        elif d.verdict == V.CONTRADICTED and (al.record_conflicts or al.listing_conflicts):
            passages = [c.passage for c in (*al.record_conflicts, *al.listing_conflicts)]
        elif al.number_conflict:
            passages = [al.number_conflict]
        else:
            passages = al.support or ([al.best] if al.best is not None else [])
        cites = []
        for p in passages:
            if p.doc_id in docs:
                doc = docs[p.doc_id]
                cites.append(locate_quote(doc, doc.text[p.start : p.end]))
        return cites


@register_judge("offline")
def create_offline_judge(**options: Any) -> OfflineJudge:
    """Factory registered as 'offline'; options: severity_rules, calibration, use_model,
    null_field_claims, rule_packs, extra_rules."""
    return OfflineJudge(**options)

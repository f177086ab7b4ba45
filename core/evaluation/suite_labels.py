"""Score a judge against a suite's expected claims (``labels.jsonl``).

Expected claims are aligned to the judge's claims by character overlap in the answer; each
expected claim takes the verdict of the judged claim that overlaps it most (``NO_CLAIM`` if
none does). Judged claims that overlap no expected claim count against the judge's precision
for their verdict.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from pydantic import BaseModel, Field

from ..errors import SuiteError
from ..inputs.policy import Policy
from ..inputs.suite import _parse, _Problems, read_jsonl
from ..judges.protocol import Judge
from ..models import (
    HALLUCINATED,
    AnswerAnalysis,
    ClaimJudgement,
    HallucinationType,
    Mode,
    Record,
    Severity,
    Suite,
    Verdict,
)
from ..run.engine import run_suite
from ..scoring.metrics import f1_score, ratio
from .roc import balanced_accuracy_interval

NO_CLAIM = "NO_CLAIM"
NO_LABEL = "NO_LABEL"
NONE = "NONE"


class ExpectedClaim(Record):
    """A labelled claim: where it is in the answer and what a judge should say."""

    start: int
    end: int
    text: str
    verdict: Verdict
    hallucination_type: HallucinationType | None = None
    severity: Severity | None = None


class AnswerLabels(Record):
    """Expected claims of one system's answer to one case."""

    case_id: str
    system: str
    claims: list[ExpectedClaim]


class PRF(BaseModel):
    """Precision, recall, F1 and the counts behind them."""

    precision: float | None
    recall: float | None
    f1: float | None
    support: int = Field(description="Expected items with this label.")
    predicted: int = Field(description="Judged items with this label.")


class LabelMiss(BaseModel):
    """One claim on which judge and labels disagree about hallucination, to look up by id."""

    case_id: str
    system: str
    claim_id: str | None = Field(description="The judged claim (None: the judge made none).")
    text: str = Field(description="The labelled claim's text, else the judged claim's.")
    expected: str = Field(description=f"The label's verdict ({NO_LABEL}: no labelled claim).")
    judged: str = Field(description=f"The judge's verdict ({NO_CLAIM}: no judged claim).")


class JudgeScores(BaseModel):
    """How a judge's claims compare with the labels."""

    judge_id: str
    n_answers: int
    n_expected_claims: int
    n_judged_claims: int
    per_verdict: dict[str, PRF]
    per_type: dict[str, PRF]
    type_detection_recall: dict[str, float | None] = Field(
        description="Share of expected claims of each type the judge flagged as hallucinated."
    )
    answer_level: dict[str, float | int | None]
    critical_caught: int
    critical_total: int
    missed: list[LabelMiss] = Field(
        default=[], description="Labelled hallucinations the judge did not flag."
    )
    false_alarms: list[LabelMiss] = Field(
        default=[], description="Claims the judge flagged that no label calls hallucinated."
    )


def load_labels(path: Path, suite: Suite) -> list[AnswerLabels]:
    """Read labels.jsonl, checking that every span matches the answer it points into.

    A claim may give its ``text`` alone: its span is where that text stands in the answer
    (``locate_labelled_claims``), so nobody counts characters by hand.
    """
    p = _Problems()
    out = []
    for line, obj in read_jsonl(path, p):
        if not locate_labelled_claims(obj, suite, path, line, p):
            continue
        lab = _parse(AnswerLabels, obj, path, line, p)
        if lab is None:
            continue
        answer = suite.answers.get(lab.system, {}).get(lab.case_id)
        if answer is None:
            p.add(path, line, "case_id", f"no answer of {lab.system!r} for {lab.case_id!r}")
            continue
        for i, c in enumerate(lab.claims):
            if answer.answer[c.start : c.end] != c.text:
                p.add(path, line, f"claims.{i}.text", "does not equal answer[start:end]")
        out.append(lab)
    if p.items:
        raise SuiteError(p.items)
    return out


def locate_labelled_claims(obj: object, suite: Suite, path: Path, line: int, p: _Problems) -> bool:
    """Fill in ``start``/``end`` of each claim of a labels record that gives only its text:
    the one place the text stands in the answer; absent or standing twice is a problem
    (then False: the record is not read further)."""
    if not isinstance(obj, dict) or not isinstance(obj.get("claims"), list):
        return True  # the record's own validation names what is wrong
    located = True
    answer = suite.answers.get(str(obj.get("system")), {}).get(str(obj.get("case_id")))
    for i, claim in enumerate(obj["claims"]):
        if not isinstance(claim, dict) or "start" in claim or "end" in claim:
            continue
        text = claim.get("text")
        if answer is None or not isinstance(text, str) or not text:
            continue
        found = answer.answer.count(text)
        if found != 1:
            why = "not found in the answer" if not found else f"stands {found} times in the answer"
            p.add(path, line, f"claims.{i}.text", f"{why}: give start and end")
            located = False
            continue
        claim["start"] = answer.answer.index(text)
        claim["end"] = claim["start"] + len(text)
    return located


def prf(labels: Sequence[tuple[str, str]], extra: Counter, key: str) -> PRF:
    """P/R/F1 of one label over (expected, predicted) pairs plus unmatched predictions."""
    tp = sum(1 for e, pr in labels if e == key and pr == key)
    support = sum(1 for e, _ in labels if e == key)
    predicted = sum(1 for _, pr in labels if pr == key) + extra[key]
    p, r = ratio(tp, predicted), ratio(tp, support)
    return PRF(precision=p, recall=r, f1=f1_score(p, r), support=support, predicted=predicted)


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(0, min(a[1], b[1]) - max(a[0], b[0]))


def match_claims(expected: Sequence[ExpectedClaim], judged: Sequence[ClaimJudgement]):
    """Pair each expected claim with its best-overlapping judged claim (or None)."""
    pairs, used = [], set()
    for e in expected:
        best = max(judged, key=lambda j: _overlap((e.start, e.end), (j.start, j.end)), default=None)
        if best is not None and _overlap((e.start, e.end), (best.start, best.end)) == 0:
            best = None
        if best is not None:
            used.add(best.claim_id)
        pairs.append((e, best))
    unmatched = [j for j in judged if j.claim_id not in used]
    return pairs, unmatched


_FLAGGED = {v.value for v in HALLUCINATED}


def _misses(
    lab: AnswerLabels,
    pairs: Sequence[tuple[ExpectedClaim, ClaimJudgement | None]],
    unmatched: Sequence[ClaimJudgement],
) -> list[LabelMiss]:
    """The answer's claims where judge and label disagree on hallucinated or not."""
    out = []
    for e, j in pairs:
        if (e.verdict in HALLUCINATED) != (j is not None and j.verdict in HALLUCINATED):
            judged = j.verdict.value if j else NO_CLAIM
            out.append(_miss(lab, j, e.text, e.verdict.value, judged))
    out += [
        _miss(lab, j, j.text, NO_LABEL, j.verdict.value)
        for j in unmatched
        if j.verdict in HALLUCINATED
    ]
    return out


def _miss(
    lab: AnswerLabels, j: ClaimJudgement | None, text: str, expected: str, judged: str
) -> LabelMiss:
    claim_id = j.claim_id if j else None
    return LabelMiss(
        case_id=lab.case_id,
        system=lab.system,
        claim_id=claim_id,
        text=text,
        expected=expected,
        judged=judged,
    )


def score_analyses(
    labels: Iterable[AnswerLabels], analyses: Sequence[AnswerAnalysis], judge_id: str
) -> JudgeScores:
    """Compare judged analyses with labels at claim, type and answer level."""
    by_key = {(a.case_id, a.system): a for a in analyses}
    verdict_pairs, type_pairs = [], []
    extra_v: Counter[str] = Counter()
    extra_t: Counter[str] = Counter()
    detect: Counter[tuple[str, bool]] = Counter()
    caught, crit = 0, 0
    conf: Counter[tuple[bool, bool]] = Counter()
    n_answers = n_exp = n_judged = 0
    misses: list[LabelMiss] = []
    for lab in labels:
        a = by_key.get((lab.case_id, lab.system))
        judged = a.claims if a else []
        n_answers, n_exp, n_judged = n_answers + 1, n_exp + len(lab.claims), n_judged + len(judged)
        pairs, unmatched = match_claims(lab.claims, judged)
        for e, j in pairs:
            verdict_pairs.append((e.verdict.value, j.verdict.value if j else NO_CLAIM))
            e_type = e.hallucination_type.value if e.hallucination_type else NONE
            j_type = j.hallucination_type.value if j and j.hallucination_type else NONE
            type_pairs.append((e_type, j_type))
            flagged = j is not None and j.verdict in HALLUCINATED
            if e.verdict in HALLUCINATED and e.hallucination_type:
                detect[(e_type, flagged)] += 1
            if e.severity == Severity.CRITICAL and e.verdict in HALLUCINATED:
                crit += 1
                caught += flagged and j.severity in (Severity.CRITICAL, Severity.HIGH)
        misses.extend(_misses(lab, pairs, unmatched))
        for j in unmatched:
            extra_v[j.verdict.value] += 1
            extra_t[j.hallucination_type.value if j.hallucination_type else NONE] += 1
        truth = any(e.verdict in HALLUCINATED for e in lab.claims)
        pred = any(j.verdict in HALLUCINATED for j in judged)
        conf[(truth, pred)] += 1
    tp, fn, tn, fp = (conf[k] for k in ((True, True), (True, False), (False, False), (False, True)))
    tpr, tnr = ratio(tp, tp + fn), ratio(tn, tn + fp)
    bal = None if tpr is None or tnr is None else (tpr + tnr) / 2
    interval = balanced_accuracy_interval(tp, fn, tn, fp)
    return JudgeScores(
        judge_id=judge_id,
        n_answers=n_answers,
        n_expected_claims=n_exp,
        n_judged_claims=n_judged,
        per_verdict={v.value: prf(verdict_pairs, extra_v, v.value) for v in Verdict},
        per_type={t.value: prf(type_pairs, extra_t, t.value) for t in HallucinationType},
        type_detection_recall={
            t.value: ratio(
                detect[(t.value, True)], detect[(t.value, True)] + detect[(t.value, False)]
            )
            for t in HallucinationType
        },
        answer_level={
            "balanced_accuracy": bal,
            # Its 95 % interval at the judge's fixed decision (Agresti-Caffo, evaluation/roc).
            "balanced_accuracy_low": interval.low if interval else None,
            "balanced_accuracy_high": interval.high if interval else None,
            "recall": tpr,
            "specificity": tnr,
            "tp": tp,
            "fn": fn,
            "tn": tn,
            "fp": fp,
        },
        critical_caught=caught,
        critical_total=crit,
        missed=[m for m in misses if m.expected != NO_LABEL and m.judged not in _FLAGGED],
        false_alarms=[m for m in misses if m.judged in _FLAGGED],
    )


def judge_labelled_suite(
    suite: Suite, judge: Judge, policy: Policy | None = None
) -> tuple[list[AnswerLabels], list[AnswerAnalysis]]:
    """The suite's labels and the judge's analyses of every labelled answer."""
    path = Path(suite.path) / "labels.jsonl"
    if not path.exists():
        raise SuiteError([f"{path}: (file): missing: eval-judge needs a labels file"])
    labels = load_labels(path, suite)
    systems = sorted({lab.system for lab in labels})
    policy = policy or Policy()
    analyses: list[AnswerAnalysis] = []
    if "baseline" in systems and "candidate" in systems and len(systems) == 2:
        analyses = run_suite(suite, judge, policy).analyses
    else:
        for s in systems:
            analyses += run_suite(suite, judge, policy, mode=Mode.GATE, system=s).analyses
    return labels, analyses


def labelled_claims(
    labels: Iterable[AnswerLabels], analyses: Sequence[AnswerAnalysis]
) -> list[tuple[ClaimJudgement, bool | None]]:
    """Every judged claim of a labelled answer with its label: hallucinated or not as the
    expected claim it matches says, None when it matches none."""
    by_key = {(a.case_id, a.system): a for a in analyses}
    out: list[tuple[ClaimJudgement, bool | None]] = []
    for lab in labels:
        a = by_key.get((lab.case_id, lab.system))
        pairs, unmatched = match_claims(lab.claims, a.claims if a else [])
        out += [(j, e.verdict in HALLUCINATED) for e, j in pairs if j is not None]
        out += [(j, None) for j in unmatched]
    return out


def evaluate_judge_on_suite(
    suite: Suite, judge: Judge, policy: Policy | None = None
) -> JudgeScores:
    """Run the judge on every labelled answer of the suite and score it."""
    labels, analyses = judge_labelled_suite(suite, judge, policy)
    return score_analyses(labels, analyses, judge.spec.judge_id)


def _f(x: float | None) -> str:
    return "  n/a" if x is None else f"{x:5.2f}"


def scores_table(s: JudgeScores) -> str:
    """A table for people: P/R/F1 per verdict and per type, answer-level accuracy."""
    lines = [
        f"judge {s.judge_id}: {s.n_answers} answers, {s.n_expected_claims} expected claims, "
        f"{s.n_judged_claims} judged claims",
        "",
        f"  {'verdict':<22}{'prec':>6}{'rec':>6}{'F1':>6}{'support':>9}{'predicted':>11}",
    ]
    for k, v in s.per_verdict.items():
        lines.append(
            f"  {k:<22}{_f(v.precision):>6}{_f(v.recall):>6}{_f(v.f1):>6}"
            f"{v.support:>9}{v.predicted:>11}"
        )
    lines += ["", f"  {'type':<22}{'prec':>6}{'rec':>6}{'F1':>6}{'support':>9}{'detected':>10}"]
    for k, v in s.per_type.items():
        lines.append(
            f"  {k:<22}{_f(v.precision):>6}{_f(v.recall):>6}{_f(v.f1):>6}{v.support:>9}"
            f"{_f(s.type_detection_recall[k]):>10}"
        )
    al = s.answer_level
    lines += [
        "",
        f"answer level: balanced accuracy {_f(al['balanced_accuracy']).strip()} "
        f"(95% {_f(al['balanced_accuracy_low']).strip()}-"
        f"{_f(al['balanced_accuracy_high']).strip()}; "
        f"recall {_f(al['recall']).strip()}, specificity {_f(al['specificity']).strip()}; "
        f"tp {al['tp']} fn {al['fn']} tn {al['tn']} fp {al['fp']})",
        "CRITICAL hallucinations caught as CRITICAL/HIGH: "
        f"{s.critical_caught} of {s.critical_total}",
    ]
    for title, items in (("missed", s.missed), ("false alarms", s.false_alarms)):
        lines += ["", f"{title} ({len(items)}): claim id, label -> judge, text"]
        lines += [
            f"  {m.claim_id or m.case_id + '/' + m.system + '/-'}  {m.expected} -> {m.judged}  "
            f"{_cut(m.text)}"
            for m in items
        ]
    return "\n".join(lines) + "\n"


def _cut(text: str, width: int = 70) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."

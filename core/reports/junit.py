"""JUnit XML so a CI system shows severe claims as failing tests, natively.

One testsuite per system, one testcase per claim. A claim of the gated system that sits in
the review queue (effective verdicts) fails; every other claim passes. The gated system's
suite also has a ``gate decision`` testcase (failure unless PASSED, error on harness errors)
and an error testcase per answer the judge could not analyse. Characters XML 1.0 forbids
(control characters, lone surrogates) are dropped from every name, attribute and text, so
the file always parses.

Each testsuite's properties carry the run: decision in force (and as judged), both
hallucination rates of its system (``answers_with_a_hallucination``, ``claims_hallucinated``),
the review-corrected one once the audit sample has labels
(``answers_with_a_hallucination_corrected``), in compare mode their changes (``..._change``),
the sign-off in force and every sign-off. A reviewed claim's
testcase says what the judge said beside what is in force, who reviewed it and when.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ..models import ClaimJudgement, ClaimReview, GateStatus, RunReport
from ..review.queue import queue_ids
from .common import (
    claim_reviews,
    review_note,
    review_of,
    signoff_in_force_text,
    signoff_line,
    xml_text,
)
from .summary import RATE_FIELDS, ci_text, measure_changes, measure_rows, measure_text, signed_pct

_MAX_NAME = 80


def _claim_case(c: ClaimJudgement, failing: bool, review: ClaimReview | None) -> ET.Element:
    short = c.text if len(c.text) <= _MAX_NAME else c.text[: _MAX_NAME - 1] + "…"
    case = ET.Element(
        "testcase",
        classname=f"halgate.{c.system}.{c.case_id}",
        name=f"{c.claim_id}: {short}",
        time="0",
    )
    if failing:
        labels = [c.severity, c.verdict, c.hallucination_type]
        message = " ".join(x.value for x in labels if x is not None) + f": {c.text}"
        body = [f"claim: {c.text}", f"judge: {c.rationale}"]
        body += [
            f"evidence [{x.doc_id}{'' if x.verified else ', NOT verified'}]: {x.quote}"
            for x in c.citations
        ]
        body += [f"review: {review_note(review)}"] if review else []
        fail = ET.SubElement(case, "failure", message=message, type=c.verdict.value)
        fail.text = "\n".join(body)
    elif review is not None:
        ET.SubElement(case, "system-out").text = f"review: {review_note(review)}"
    return case


def _properties(report: RunReport, system: str) -> list[tuple[str, str]]:
    """The run as testsuite properties, the rates those of ``system``."""
    record = review_of(report)
    props = [
        ("run_id", report.run_id),
        ("suite", report.suite.name),
        ("judge", report.judge.judge_id),
        ("decision", report.decision.status.value),
    ]
    if record is not None:
        props.append(("decision_as_judged", record.judged_status.value))
    rows = measure_rows(report.rates)
    for measure, name in RATE_FIELDS.items():
        props += [(name, measure_text(m)) for m in rows.get(measure, []) if m.system == system]
    for measure, change in measure_changes(report).items():
        if change is not None and measure in RATE_FIELDS:
            text = f"{signed_pct(change.estimate)} ({ci_text(change, signed=True)})"
            props.append((f"{RATE_FIELDS[measure]}_change", text))
    props.append(("signoff_in_force", signoff_in_force_text(record)))
    for s in record.signoffs if record else []:
        props.append((f"signoff_{s.id}", signoff_line(s)))
    return props


def _gate_case(report: RunReport) -> ET.Element:
    d = report.decision
    case = ET.Element(
        "testcase", classname=f"halgate.{d.gated_system}", name="gate decision", time="0"
    )
    if d.status != GateStatus.PASSED:
        tag = "error" if d.status == GateStatus.HARNESS_ERROR else "failure"
        el = ET.SubElement(case, tag, message=f"gate {d.status.value}", type=d.status.value)
        el.text = "\n".join(f"[{r.status.value}] {r.rule}: {r.message}" for r in d.reasons)
    return case


def junit_xml(report: RunReport) -> str:
    """The report as a JUnit XML document (parsed by junitparser in the tests)."""
    failing = set(queue_ids(report))
    reviews = claim_reviews(report)
    gated = report.decision.gated_system
    root = ET.Element("testsuites", name=f"halgate {report.run_id}")
    totals = {"tests": 0, "failures": 0, "errors": 0}
    for system in report.systems:
        cases = [
            _claim_case(c, system == gated and c.claim_id in failing, reviews.get(c.claim_id))
            for a in report.analyses
            if a.system == system
            for c in a.claims
        ]
        for a in report.analyses:
            if a.system == system and a.harness_error:
                case = ET.Element(
                    "testcase",
                    classname=f"halgate.{system}.{a.case_id}",
                    name=f"{a.case_id}/{system}: judge",
                    time="0",
                )
                ET.SubElement(case, "error", message=a.harness_error, type="HARNESS_ERROR")
                cases.append(case)
        if system == gated:
            cases.insert(0, _gate_case(report))
        counts = {
            "tests": len(cases),
            "failures": sum(1 for c in cases if c.find("failure") is not None),
            "errors": sum(1 for c in cases if c.find("error") is not None),
        }
        attrib = {"name": f"halgate.{system}", "skipped": "0", "time": "0"}
        attrib |= {k: str(v) for k, v in counts.items()}
        suite = ET.SubElement(root, "testsuite", attrib)
        props = ET.SubElement(suite, "properties")
        for k, v in _properties(report, system):
            ET.SubElement(props, "property", name=k, value=v)
        suite.extend(cases)
        for k in totals:
            totals[k] += counts[k]
    root.attrib.update({k: str(v) for k, v in totals.items()})
    for el in root.iter():
        el.attrib = {k: xml_text(v) for k, v in el.attrib.items()}
        if el.text:
            el.text = xml_text(el.text)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"

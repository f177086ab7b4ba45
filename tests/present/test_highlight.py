"""Evidence markup is built from escaped text: claims and citations marked, nothing executable."""

from __future__ import annotations

import html
from html.parser import HTMLParser

import pytest
from halgate.models import Citation, GateDecision, GateReason, GateStatus, Verdict
from halgate.present.highlight import (
    VERDICT_CLASS,
    citation_span,
    decision_banner,
    highlight_answer,
    highlight_source,
    safe_id,
    scroll_script,
)

from ..conftest import claim

PAYLOADS = [
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    '"><svg onload=alert(1)>',
    "<a href='javascript:alert(1)'>x</a>",
]


class Tags(HTMLParser):
    """Collects every start tag and attribute the markup really contains."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(markup: str) -> Tags:
    p = Tags()
    p.feed(markup)
    p.close()
    return p


def spanned(text: str, start: int, end: int, verdict: str, index: int = 0):
    c = claim(verdict, index=index)
    return c.model_copy(update={"text": text[start:end], "start": start, "end": end})


@pytest.mark.parametrize("payload", PAYLOADS)
def test_untrusted_answer_text_renders_as_text_never_as_markup(payload):
    answer = f"The dose is 200 mg. {payload} Take it daily."
    claims = [
        spanned(answer, 0, 19, "CONTRADICTED"),
        spanned(answer, 20, len(answer), "UNSUPPORTED", 1),
    ]
    out = highlight_answer(answer, claims)
    tags = parse(out)
    assert {t for t, _ in tags.tags} <= {"div", "mark"}
    assert all(not k.startswith("on") and k != "href" for _, a in tags.tags for k in a)
    assert "".join(tags.text) == answer  # every character survives, as text


@pytest.mark.parametrize("payload", PAYLOADS)
def test_untrusted_document_text_renders_as_text(payload):
    doc = f"Intro. {payload} The maximum daily dose is 100 mg."
    quote = "The maximum daily dose is 100 mg."
    cite = Citation(
        doc_id="d",
        quote=quote,
        verified=True,
        start=doc.index(quote),
        end=doc.index(quote) + len(quote),
    )
    tags = parse(highlight_source(doc, [cite]))
    assert {t for t, _ in tags.tags} <= {"div", "mark"}
    assert "".join(tags.text) == doc


def test_every_claim_span_is_marked_with_its_verdict_class():
    answer = "Zelparin is taken daily. The dose is 200 mg. It is safe in pregnancy."
    claims = [
        spanned(answer, 0, 24, "SUPPORTED", 0),
        spanned(answer, 25, 44, "CONTRADICTED", 1),
        spanned(answer, 45, len(answer), "UNSUPPORTED", 2),
    ]
    tags = parse(highlight_answer(answer, claims, selected=claims[1].claim_id))
    marks = [a["class"] for t, a in tags.tags if t == "mark"]
    assert marks == [
        VERDICT_CLASS[Verdict.SUPPORTED],
        VERDICT_CLASS[Verdict.CONTRADICTED] + " selected",
        VERDICT_CLASS[Verdict.UNSUPPORTED],
    ]
    out = highlight_answer(answer, claims)
    mark = '<mark class="verdict-contradicted" title="CONTRADICTED">The dose is 200 mg.</mark>'
    assert mark in out


def test_overlapping_and_out_of_range_spans_keep_markup_well_formed():
    answer = "abcdefghij"
    claims = [spanned(answer, 0, 6, "SUPPORTED", 0), spanned(answer, 3, 8, "CONTRADICTED", 1)]
    bad = claim("UNSUPPORTED", index=2).model_copy(update={"start": 8, "end": 50})
    out = highlight_answer(answer, [*claims, bad])
    assert out.count("<mark") == out.count("</mark>") == 3
    assert "".join(parse(out).text) == answer


def test_source_marks_cited_passage_with_scroll_anchor_and_skips_unverified_quotes():
    doc = "Refunds are issued within 14 days of a return. Opened software cannot be refunded."
    good = Citation(
        doc_id="policy",
        quote="Opened software cannot be refunded.",
        verified=True,
        start=47,
        end=82,
    )
    invented = Citation(doc_id="policy", quote="Refunds take 30 days.", verified=False)
    out = highlight_source(doc, [invented, good], anchor="cite-1")
    marks = [(a.get("id"), a["class"]) for t, a in parse(out).tags if t == "mark"]
    assert marks == [("cite-1", "cited")]
    assert '<mark class="cited" title="cited passage (exact match)" id="cite-1">Opened' in out


def test_citation_with_stale_offsets_falls_back_to_the_quote():
    doc = "one two three four"
    stale = Citation(doc_id="d", quote="three", verified=True, start=40, end=45)
    assert citation_span(doc, stale) == (8, 13)
    assert citation_span(doc, Citation(doc_id="d", quote="absent", verified=True)) is None


def test_ids_and_scroll_script_cannot_carry_injected_code():
    assert safe_id("cite-q1/candidate/0'\"><script>") == "cite-q1-candidate-0-script"
    script = scroll_script("x');alert(1);('")
    assert "alert" in script  # reduced to an id of letters and dashes …
    assert "getElementById('x-alert-1')" in script  # … so it is only a name, never code


def test_decision_banner_escapes_reasons_and_lists_every_one():
    decision = GateDecision(
        status=GateStatus.FAILED,
        exit_code=1,
        gated_system="<b>cand</b>",
        reasons=[
            GateReason(
                rule="block_on_severity",
                status=GateStatus.FAILED,
                message="1 CRITICAL in <img src=x onerror=alert(1)>",
            ),
            GateReason(rule="max_rate_increase", status=GateStatus.PASSED, message="within"),
        ],
    )
    out = decision_banner(decision)
    assert 'data-status="FAILED"' in out
    assert out.count('class="hg-reason') == 2
    assert "<img" not in out and html.escape("<img src=x onerror=alert(1)>") in out
    assert "<b>cand</b>" not in out


def test_scroll_script_body_has_no_markup_characters_that_dompurify_would_drop():
    body = scroll_script("cite-q1")
    inner = body.removeprefix("<script>").removesuffix("</script>")
    assert "<" not in inner and "&" not in inner

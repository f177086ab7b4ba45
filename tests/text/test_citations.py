"""Quotes are located in the real source text; invented quotes are never verified."""

from __future__ import annotations

import pytest
from halgate.evidence.locate import locate_quote, quote_in_any
from halgate.models import Document

DOC = Document(
    doc_id="leaflet",
    text=(
        "Refunds are issued within 14 days.\nOpening hours:   Monday–Friday, 9am to 5pm. "
        "Ibuprofen may cause stomach bleeding in some patients."
    ),
)


@pytest.mark.parametrize(
    ("quote", "match", "located"),
    [
        ("within 14 days", "exact", "within 14 days"),
        ("refunds ARE issued within 14   days", "normalized", "Refunds are issued within 14 days"),
        (
            "Opening hours: Monday-Friday 9am to 5pm",
            "normalized",
            "Opening hours:   Monday–Friday, 9am to 5pm",
        ),
        (
            "Ibuprofen can cause stomach bleeding in some patients",
            "fuzzy",
            "Ibuprofen may cause stomach bleeding in some patients",
        ),
    ],
)
def test_quote_is_located(quote: str, match: str, located: str) -> None:
    c = locate_quote(DOC, quote)
    assert (c.verified, c.match, c.doc_id) == (True, match, "leaflet")
    assert DOC.text[c.start : c.end] == located
    assert c.quote == quote  # kept as the judge gave it


@pytest.mark.parametrize("quote", ["Aspirin prevents cancer in all adults", "", "x", "  "])
def test_invented_or_empty_quote_is_not_verified(quote: str) -> None:
    c = locate_quote(DOC, quote)
    assert (c.verified, c.match, c.start, c.end) == (False, "none", None, None)


def test_fuzzy_threshold_is_respected() -> None:
    quote = "Ibuprofen can cause stomach bleeding in some patients"
    assert locate_quote(DOC, quote, threshold=99.5).verified is False


def test_quote_found_in_another_document() -> None:
    other = Document(doc_id="other", text="Nothing relevant here.")
    c = quote_in_any([other, DOC], "Refunds are issued within 14 days.", doc_id="other")
    assert (c.verified, c.doc_id) == (True, "leaflet")
    missing = quote_in_any([other, DOC], "Free shipping worldwide on all orders", doc_id="other")
    assert (missing.verified, missing.doc_id) == (False, "other")

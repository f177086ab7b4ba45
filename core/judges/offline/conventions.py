"""The domain conventions of the rule packs, as data the signal code reads.

Generic checks (numbers, dates, times, names, negation, hedges, records of any JSON schema)
hold for every suite. Some habits hold for one kind of data only, and a suite that is not of
that kind must not be judged by them: a day an opening-hours listing leaves out is closed
(business listings), "RestaurantsGoodForKids" names the field "kids", "full_bar" affirms
"Alcohol", "reviewers praised" frames a claim rather than states it (review summaries).
These live here, one section per pack, and the signal code applies a pack's conventions
only when the suite's policy turns the pack on (``rule_packs``); with none on, only the
core conventions apply and the pack's signals are not computed at all.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from ...text.lexicon import FRAMING_STEMS
from ...text.words import stem

#: Business listings (Yelp-like records): key vocabulary, the values that affirm a field,
#: and "a day the opening-hours listing leaves out is closed".
LISTINGS_PACK = "business_listings"
#: Review summaries: the words reviews use to frame what they report.
REVIEWS_PACK = "reviews"

#: Key words of business listings too generic to tie a claim to one field
#: ("RestaurantsGoodForKids", "BusinessAcceptsCreditCards"), as stems.
LISTING_KEY_STEMS = frozenset(stem(w) for w in "restaurants business good for".split())
#: Values a business listing writes for a field it affirms ("WiFi": "free", "Alcohol":
#: "full_bar").
LISTING_AFFIRMING = frozenset({"free", "paid", "full_bar", "beer_and_wine"})
#: Stems of the words reviews frame a claim with ("reviewers praised", "customers love").
REVIEW_STEMS = frozenset(
    """review reviewer customer prais experienc locat enjoy lov recommend positiv negativ
    feedback rat star visit spot establishment place""".split()
)

#: Every pack that brings conventions of its own (a pack may also bring only rules).
CONVENTION_PACKS = frozenset({LISTINGS_PACK, REVIEWS_PACK})


@dataclass(frozen=True)
class Conventions:
    """What the signal code applies for a suite's packs (the core alone by default)."""

    listings: bool = False
    """Business-listing conventions: its key words and values name and affirm fields, a
    day its opening hours leave out is closed (signal ``listing_conflicts``), and hours of
    "0:0-0:0" read "closed" (the evidence index's ``closed_hours``)."""
    framing_stems: frozenset[str] = FRAMING_STEMS
    """Words that frame a claim rather than state its content (informative coverage)."""


#: The conventions of a suite that turns no pack on.
CORE_CONVENTIONS = Conventions()


@cache
def _conventions(packs: frozenset[str]) -> Conventions:
    framing = FRAMING_STEMS | (REVIEW_STEMS if REVIEWS_PACK in packs else frozenset())
    return Conventions(listings=LISTINGS_PACK in packs, framing_stems=framing)


def conventions_for(packs: Iterable[str]) -> Conventions:
    """The conventions the signal code applies for these packs (unknown names are the rule
    table's to reject)."""
    return _conventions(frozenset(packs))

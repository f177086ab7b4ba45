"""Small shipped word lists that lexical matching needs and stemming cannot give.

Kept as data in code because they are tiny and fixed: US state names and their postal codes
(a record says "CA", an answer "California"), used when checking that a name is known.
"""

from __future__ import annotations

US_STATES: dict[str, str] = dict(
    pair.split("=")
    for pair in """alabama=al alaska=ak arizona=az arkansas=ar california=ca colorado=co
    connecticut=ct delaware=de florida=fl georgia=ga hawaii=hi idaho=id illinois=il
    indiana=in iowa=ia kansas=ks kentucky=ky louisiana=la maine=me maryland=md
    massachusetts=ma michigan=mi minnesota=mn mississippi=ms missouri=mo montana=mt
    nebraska=ne nevada=nv ohio=oh oklahoma=ok oregon=or pennsylvania=pa tennessee=tn
    texas=tx utah=ut vermont=vt virginia=va washington=wa wisconsin=wi wyoming=wy
    """.split()
)
# Two-word states, matched on their first word: "New Jersey" -> "nj".
US_STATES |= {
    "jersey": "nj",
    "york": "ny",
    "hampshire": "nh",
    "mexico": "nm",
    "carolina": "nc",
    "dakota": "nd",
    "island": "ri",
}


def alternatives(token: str) -> tuple[str, ...]:
    """Other spellings a source may use for `token` (a state's postal code)."""
    code = US_STATES.get(token)
    return (code,) if code else ()


# Stems of words that frame a claim rather than state its content ("reviewers praised",
# "overall it appears", "offers"): summaries and record descriptions use them freely, so a
# missing one says little about whether the content is invented.
DISCOURSE_STEMS = frozenset(
    """review reviewer customer mention not prais describ overall appear seem offer experienc
    locat provid availabl option featur popular known highlight report say includ variety
    stat express shar not enjoy lov recommend positiv negativ feedback rat star visit spot
    establishment place make also note comment found find other several many some
    """.split()
)

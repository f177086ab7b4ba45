"""Split an answer into atomic, verifiable claims, each located by its character span.

A claim is a sentence, or a clause of one when a sentence joins several facts ("Refunds
take 5 days; exchanges take 10"). Abstentions ("The documents do not say…"), questions,
meta lines ("Here is a summary:") and advice without facts ("Ask your pharmacist.") are not
claims: counting them would make a careful system look like a hallucinating one.
"""

from __future__ import annotations

import re

from ..models import Claim
from ..models.claims import trusted_claim
from .gates import CaselessTest, Gated
from .negation import is_negation
from .quantities import extract_quantities
from .words import content_stems, entities_decoded, sentence_spans, tokenize

# Separators joining independent clauses; each side must be clause-like to split there.
_CLAUSE_SEP = Gated(
    re.compile(
        r"(?P<semi>;\s+)|,\s+(?:and|but|while|whereas|although|though|yet|and also)\s+"
        r"|,\s+(?=(?:so|which|whose|because)\s)|\s+(?:but|whereas)\s+",
        re.I,
    ),
    (";", ",", "but", "whereas"),  # every separator holds one
)
# A piece that opens with a restriction restricts the clause before it ("…, but only if
# it is safe", "his first, and only, goal"): cut off, that clause would read unrestricted.
# ("…, and only Gold allows it" is a clause of its own: 'only' there picks its subject.)
_RESTRICTS = re.compile(
    r"\s*(?:only(?:\s*,|\s+(?:if|when|where|while|once|for|after|before|until|within|with"
    r"|in|on|at|by|to|as|because)\b)|(?:unless|except|excluding|provided|as long as"
    r"|so long as)\b)",
    re.I,
)
# A piece that opens with 'not' names what the clause before excludes ("only Anna's
# speech; not Tom's"): cut off, it reads as a bare denial of words the source states.
# ("…; not all items qualify" is a clause of its own: 'not all' is its subject.)
_EXCLUDES = re.compile(r"\s*not\b(?!\s+(?:all|every|each|many|much|enough|one|a\s+single)\b)", re.I)
_AUX = frozenset(
    """is are was were be been being has have had do does did can could will would should
    must may might shall won't can't isn't aren't wasn't weren't doesn't don't didn't""".split()
)
#: Words that acknowledge a request ("Sure!", "Certainly, here is ...").
_ACKNOWLEDGING = r"sure|okay|ok|certainly|absolutely"
_LEAD_INTERJECTION = re.compile(rf"^(?:yes|no|{_ACKNOWLEDGING})[,.!]\s+", re.I)
# A reply that opens with an acknowledgement alone ("Sure!", "Certainly."): not "Yes." or
# "No.", which answer a question and may be wrong.
_ACKNOWLEDGEMENT = re.compile(rf"(?:{_ACKNOWLEDGING}|of course)\s*[.!]*$", re.I)
_SOURCE = (
    r"(?:documents?|passages?|sources?|context|excerpts?|materials?|articles?|provided text"
    r"|(?:provided|given|available) information|information (?:provided|given|available))"
)
_SAY = (
    r"(?:say|mention|specify|state|address|indicate|provide|include|contain|discuss|give|list"
    r"|describe|cover|tell|clarify|detail|reference|explain|forbid|prohibit|warn)"
)
# Verbs that only describe what a text says: "X does not mention Y" is an abstention
# whatever X is; "X does not cover Y" is one only when X is clearly a document.
_SAY_ONLY = r"(?:say|mention|specify|state|tell|discuss|address|clarify|detail|list)"
# A word that links an abstention to what came before ("Therefore, I cannot say ...").
_CONNECTIVE = r"(?:(?:therefore|thus|so|however|unfortunately|in conclusion|in summary),?\s+)?"
_ABSTENTION = re.compile(
    "|".join(
        f"(?:{p})"
        for p in (
            rf"\b{_SOURCE}\b[^.]*?\b(?:do|does|did)(?: not|n't) (?:\w+ )?{_SAY}",
            rf"\b(?:do|does|did)(?: not|n't) (?:explicitly |specifically |directly )?{_SAY_ONLY}\b",
            rf"\b(?:leaflets?|terms|reference|guide|wording|faq|page|letter|manual|handbook)\b"
            rf"[^.]*?\b(?:do|does|did)(?: not|n't) (?:\w+ )?{_SAY}",
            rf"^neither\b[^.]*\b{_SAY}s?\b",
            r"\b(?:say|says|said) (?:anything|nothing) about\b",
            r"^it (?:depends|varies)\b",
            rf"\b{_SOURCE}\b[^.]*?\b(?:is|are) silent\b|\bmakes? no mention\b",
            r"\bnot (?:explicitly |specifically |directly |clearly )?(?:mentioned|specified|stated|"
            rf"provided|addressed|covered|included|found|given|described|indicated)\b[^.]*\b{_SOURCE}",
            rf"^{_CONNECTIVE}(?:I|we)(?: am| are)? (?:cannot|can ?not|can't|could not|couldn't|"
            r"unable|do not|don't|did not|didn't|was unable|were unable|am unable|are unable)\b"
            r"[^.]*\b(?:find|"
            r"answer|determine|say|tell|confirm|locate|see|know|provide|verify|based)\b",
            r"^(?:(?:I am|I'm|we are|we're) )?(?:unable|impossible|not possible|not able) to\b",
            r"\b(?:unable|not able) to answer\b",
            r"\bthere (?:is|was|are) no (?:information|mention|data|indication|details?|record)\b",
            r"\b(?:insufficient|not enough|no relevant) (?:information|context|data|details?)\b",
            r"\bno information (?:is|was) (?:available|provided|given)\b",
        )
    ),
    re.I,
)
# Every abstention pattern needs one of these words; testing them first is much cheaper.
_ABSTENTION_CUE = CaselessTest(
    r"\b(?:not|no|n't|cannot|can't|unable|impossible|neither|nothing|anything|silent|"
    r"insufficient|enough|depends|varies)\b|n't\b"
)
_ADVICE_VERBS = (
    r"ask|consult|contact|call|reach out|talk|speak|visit|check with|see your|refer to|discuss|"
    r"feel free|let (?:us|me) know|seek|email|write to|get in touch|follow up|double-check"
)
_ADVICE = re.compile(
    rf"^(?:(?:please|always|also|just|kindly|then)\s+)*(?:(?:you (?:should|may want to|might "
    rf"want to|can|could|must)|it is (?:best|advisable|recommended|a good idea) to|we "
    rf"(?:recommend|suggest)(?: that you)?|i (?:recommend|suggest)(?: that you)?)\s+)?"
    rf"(?:please\s+)?(?:{_ADVICE_VERBS})\b",
    re.I,
)
_META = re.compile(
    rf"^(?:(?:{_ACKNOWLEDGING})[,!.]?\s+)?"
    r"(?:here(?:'s| is| are)|below (?:is|are)|the following|in summary|to summari[sz]e|"
    r"overall|i hope|hope this|let me know|based on the (?:provided|given|above))\b[^.]*[:!]?$",
    re.I,
)


def extract_claims(answer: str, case_id: str, system: str) -> list[Claim]:
    """The claims of one answer, in order; `answer[c.start:c.end] == c.text` for each."""
    claims: list[Claim] = []
    plain = entities_decoded(answer)  # the same length: its spans are the answer's
    for s_start, s_end in sentence_spans(plain):
        sentence = plain[s_start:s_end]
        if sentence.rstrip().endswith("?") or _is_meta(sentence):
            continue
        for c_start, c_end in _clause_spans(sentence):
            start, end = s_start + c_start, s_start + c_end
            if not _is_claim(plain[start:end]):
                continue
            claims.append(
                trusted_claim(case_id, system, len(claims), answer[start:end], start, end)
            )
    return claims


def _is_meta(sentence: str) -> bool:
    s = sentence.strip()
    if _ACKNOWLEDGEMENT.match(s):
        return True  # "Sure!": a reply's opening, no fact
    if _META.match(s) and (s.endswith(":") or len(tokenize(s)) <= 12):
        return True
    return s.endswith(":") and len(tokenize(s)) <= 8 and not extract_quantities(s)


def _clause_spans(sentence: str) -> list[tuple[int, int]]:
    """Spans of the independent clauses of a sentence (the whole sentence if only one)."""
    lead = _LEAD_INTERJECTION.match(sentence)
    offset = lead.end() if lead else 0
    pieces: list[tuple[int, int, str]] = []
    cursor, sep = offset, ""
    for m in _CLAUSE_SEP.finditer(sentence, offset):
        pieces.append((cursor, m.start(), sep))
        cursor, sep = m.end(), m.group()
    pieces.append((cursor, len(sentence), sep))
    merged: list[tuple[int, int]] = []
    for start, end, sep in pieces:
        left = sentence[merged[-1][0] : merged[-1][1]] if merged else ""
        right, after_semi = sentence[start:end], sep.startswith(";")
        keep = (
            _RESTRICTS.match(right)
            or _EXCLUDES.match(right)
            or _in_list(left, sep, right)
            or _other_days(left, right)
            or not (_clause_like(left, after_semi) and _clause_like(right, after_semi))
        )
        if merged and keep:
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return [_trim(sentence, s, e) for s, e in merged if sentence[s:e].strip()]


#: A list item ("Wednesdays", "New York City") has at most this many words.
_ITEM_WORDS = 3


def _in_list(left: str, sep: str, right: str) -> bool:
    """The ", and" closes a list of short items that the sentence goes on after
    ("open 4-8 PM on Tuesdays, Wednesdays, and Thursdays, 4-9 PM on Fridays"): cut there,
    the last item would be read with the words after it, as a clause of its own."""
    if sep.strip(" ,").lower() != "and" or "," not in left or "," not in right:
        return False
    last, first = left.rsplit(",", 1)[1], right.split(",", 1)[0]
    return all(
        0 < len(t) <= _ITEM_WORDS and not any(w in _AUX for w in t)
        for t in (tokenize(last), tokenize(first))
    )


_DAYS = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekdays?|weekends?|daily|every ?day"
_OPENS_WITH_DAYS = re.compile(rf"\s*(?:on\s+)?(?:{_DAYS})\b", re.I)
_NAMES_DAYS = re.compile(rf"\b(?:{_DAYS})\b", re.I)


def _other_days(left: str, right: str) -> bool:
    """A clause that opens with days after one that names days gives their exception
    ("5-7 PM on weekdays, while on Wednesdays it opens at 11 AM"): cut there, the clause
    before would read as true of every day it names."""
    return bool(_OPENS_WITH_DAYS.match(right)) and bool(_NAMES_DAYS.search(left))


#: A line of at most this many words that ends with a colon introduces what follows.
_HEADING_WORDS = 4


def _clause_like(text: str, lenient: bool = False) -> bool:
    """Has its own verb (or number) and enough words to stand as a fact on its own.

    After a semicolon (`lenient`) two content words suffice: semicolons join clauses.
    """
    tokens = tokenize(text)
    if len(tokens) < 3 or len(content_stems(tokens)) < 2:
        return False
    if lenient:
        return True
    has_verb = any(t in _AUX or is_negation(t) or (len(t) > 4 and t.endswith("ed")) for t in tokens)
    return has_verb or bool(extract_quantities(text))


def _trim(sentence: str, start: int, end: int) -> tuple[int, int]:
    while start < end and sentence[start].isspace():
        start += 1
    while end > start and (sentence[end - 1].isspace() or sentence[end - 1] in ",;:"):
        end -= 1
    return start, end


def _is_claim(text: str) -> bool:
    """A clause states a checkable fact: not an abstention, not fact-free advice, not a
    heading ("**Returns:**", "Key points:")."""
    tokens = tokenize(text)
    if not content_stems(tokens):
        return False
    if len(tokens) <= _HEADING_WORDS and text.strip(" *_#").endswith(":"):
        return False
    if _ABSTENTION_CUE(text) and _ABSTENTION.search(text):
        return False
    return not (_ADVICE.match(text.strip()) and not extract_quantities(text))

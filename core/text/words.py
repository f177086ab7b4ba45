"""Shared text utilities: sentence spans, tokens, content words, cue words.

Claim extraction, retrieval and the offline judge must agree on what a word, a sentence and
a negation are; keeping those definitions here means a fix lands everywhere at once.
Quantities (numbers, units, dates) live in ``quantities.py``.
"""

from __future__ import annotations

import html
import re
from functools import lru_cache

from .letters import plain_letters
from .quantities import UNIT_WORDS

# --------------------------------------------------------------------------- sentences

_ABBREVIATIONS = frozenset(
    "e.g i.e dr mr mrs ms prof st vs approx no nos fig inc ltd co corp jr sr dept est "
    "jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun "
    "a.m p.m u.s u.k u.n ph.d min max cf al vol ch sec".split()
)
_BOUNDARY = re.compile(r"[.!?]+[\"'”’)\]]*(?=\s)|\n\s*")
_BULLET = re.compile(r"^\s*(?:[-*•·–]|\d{1,2}[.)]|[a-z][.)])\s+")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the sentences of `text`, whitespace and list bullets excluded;
    line breaks end a sentence too (bullets, headings, table rows), and a period after an
    abbreviation, an initial or before a lowercase word does not."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        if m.group(0)[0] == "." and not _is_real_period(text, m.start(), m.end()):
            continue
        _add_span(text, start, m.end() if m.group(0)[0] != "\n" else m.start(), spans)
        start = m.end()
    _add_span(text, start, len(text), spans)
    return spans


_LAST_WORD = re.compile(r"([A-Za-z][A-Za-z.]*)$")
_NEXT_CHAR = re.compile(r"\s*(\S)")


def _is_real_period(text: str, dot: int, after: int) -> bool:
    word = _LAST_WORD.search(text[max(0, dot - 12) : dot])
    if word:
        w = word.group(1)
        if w.lower() in _ABBREVIATIONS or (len(w) == 1 and w.isupper()):
            return False
    nxt = _NEXT_CHAR.match(text[after : after + 20])
    return not (nxt and nxt.group(1).islower())


def _add_span(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> None:
    piece = text[start:end]
    # A bullet opens with no capital (most sentences do): the match is not tried for them.
    bullet = None if piece.lstrip()[:1].isupper() else _BULLET.match(piece)
    if bullet:
        start += bullet.end()
        piece = text[start:end]
    stripped = piece.strip()
    if not stripped:
        return
    lead = len(piece) - len(piece.lstrip())
    spans.append((start + lead, start + lead + len(stripped)))


# --------------------------------------------------------------------------- words

_TOKEN = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")

STOPWORDS = frozenset(
    """a an the and or but if then else so as at by for from in into of off on onto out over
    to up upon with within without via per than that this these those there here where when
    which who whom whose what why how is are was were be been being am do does did done
    doing have has had having it its it's itself they them their theirs he him his she her
    hers we us our ours you your yours i me my mine also just only very too more most less
    least much many some any all each every both either neither other another such same own
    can could may might must shall should will would not no nor never none non yes about above
    below after before during between among through throughout under until while because
    although though however therefore thus hence whether again further once always often
    sometimes usually still yet already even ever now well one ones i'm you're we're they're
    let let's please like etc based according per
    answer question document documents passage passages provided given information""".split()
)

# Numbers are compared as quantities, not as words.
NUMBER_WORDS = frozenset(
    """zero two three four five six seven eight nine ten eleven twelve thirteen fourteen
    fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy
    eighty ninety hundred thousand million billion dozen twice once""".split()
)
_SPELLED_COUNTS = NUMBER_WORDS - {"twice", "once", "hundred", "thousand", "million", "billion"}
# Small canonicalisation of frequent paraphrase pairs (applied to stems).
_SYNONYMS = dict(
    pair.split("=")
    for pair in """
    buy=purchas bought=purchas purchas=purchas physician=doctor kid=child children=child
    permit=allow requir=need assist=help larg=big quick=fast rapid=fast begin=start
    commenc=start finish=end complet=end obtain=get receiv=get purchaser=customer
    client=customer cost=pric fee=charg phone=call telephon=call email=mail e-mail=mail
    tablet=pill capsul=pill went=go took=tak taken=tak made=mak gave=giv given=giv paid=pay
    sold=sell ran=run weigh=weight extra=additional enough=sufficient ask=request pick=choos
    chos=choos
    """.split()
)


def tokenize(text: str) -> list[str]:
    """Lowercase plain-letter word tokens ('don't' whole; 'Zürich' is 'zurich'), a new list
    each time from a memo: half the texts recur (a claim copies its passage)."""
    return list(_tokens(text))


@lru_cache(maxsize=8192)
def _tokens(text: str) -> tuple[str, ...]:
    low = plain_letters(text.lower()).replace("’", "'")
    if "non" in low:  # "nonflammable" is read as "non-flammable": the prefix is a negation
        low = _JOINED_NON.sub("non ", low)
    return tuple(_TOKEN.findall(low))


#: A joined 'non' prefix before a word of four letters or more ('none', 'nonetheless' aside).
_JOINED_NON = re.compile(r"\bnon(?!e)(?=[a-z]{4})")


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """A light, deterministic stemmer: enough to equate 'refunds', 'refunded', 'refunding'.

    Inflections are stripped, a doubled final consonant and a final 'e' dropped, then a few
    common paraphrase stems are mapped to one form.
    """
    w = word
    if w in _SYNONYMS:
        return _SYNONYMS[w]
    if len(w) > 4 and w.endswith("ies"):
        w = w[:-3] + "y"
    elif len(w) > 4 and w.endswith("ied"):
        w = w[:-3] + "y"
    elif len(w) > 5 and w.endswith("ing"):
        w = w[:-3]
    elif len(w) > 3 and w.endswith("ed") and not w.endswith("eed"):
        w = w[:-2]
    elif len(w) > 4 and w.endswith("ly"):
        w = w[:-2]
    elif len(w) > 3 and w.endswith("es") and w[-3] in "sxz":
        w = w[:-2]
    elif len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "lsz":
        w = w[:-1]
    if len(w) > 2 and w.endswith("e"):
        w = w[:-1]
    return _SYNONYMS.get(w, w)


def is_content(token: str) -> bool:
    """True for tokens that carry meaning: not a stopword, number, number word or unit, nor
    a clock time ("9am"). Units ("mg", "days") are compared with their numbers as quantities;
    as words they would let "100 mg" in a denial contradict "100 mg" in a claim. A clock
    time is a quantity too: as a word, "9am" would be missing from a source saying "09:00"."""
    return content_stem(token) is not None


# Tokens that quantities.extract_quantities reads as a time of day.
_CLOCK = re.compile(r"\d{1,2}(?:am|pm)")


@lru_cache(maxsize=200_000)
def content_stem(token: str) -> str | None:
    if len(token) < 2 or token in _NON_CONTENT or token.isdigit() or "'" in token:
        return None
    if token[0].isdigit() and _CLOCK.fullmatch(token):
        return None
    return stem(token)


def content_stems(tokens: list[str] | tuple[str, ...]) -> list[str]:
    """Stems of the content tokens, in order (duplicates kept)."""
    return [s for s in map(content_stem, tokens) if s is not None]


#: What `normalize` keeps (runs of word characters, % and currency signs); the other ASCII.
_WORDISH = re.compile(r"[\w%$€£]+")
_ASCII_GAPS = bytes(i if i < 128 and _WORDISH.match(chr(i)) else 32 for i in range(256))


def normalize(text: str) -> str:
    """Lowercase, punctuation to spaces, whitespace collapsed: for lenient comparisons (the
    runs of word characters joined by spaces; ASCII text is split as bytes, a tenth the time)."""
    low = text.lower()
    if low.isascii():
        return b" ".join(low.encode().translate(_ASCII_GAPS).split()).decode()
    return " ".join(_WORDISH.findall(low))


_NON_CONTENT = STOPWORDS | NUMBER_WORDS | UNIT_WORDS

# --------------------------------------------------------------------------- cue words

HEDGE_WORDS = frozenset(
    """may might possibly possible potentially likely unlikely probably perhaps suggest
    suggests suggested suggesting thought believed reportedly appears appear seems seem
    sometimes occasionally rarely often usually typically generally tend tends associated
    linked preliminary approximately roughly estimated""".split()
)
#: 'Appear' hedges as a seeming ("appears to", "it appears the jury"), not as a presence.
_APPEAR = frozenset({"appear", "appears"})
_PLACES = frozenset("in on at before anywhere nowhere onstage alongside".split())
#: Hedges only as a link ("associated with", "linked to"), not as an adjective.
_LINKING = frozenset({"associated", "linked"})
# Cues that hedge only in context: "can cause", "in some patients", "about 5".
_POSSIBILITY_VERBS = frozenset(
    "cause lead result increase reduce raise lower help trigger affect occur happen".split()
)
_SOME_WHO = frozenset("patients people users customers cases studies instances".split())
#: Cues that hedge a number when one follows ("about 5", "an estimated 435").
_APPROXIMATORS = frozenset("about around nearly almost approximately roughly estimated".split())
_HEDGE_TRIGGERS = HEDGE_WORDS | _APPROXIMATORS | {"can", "could", "some", "certain", "rare"}
_MULTIPLES = frozenset("twice half double triple once".split())
_HEDGE_CLAUSE = re.compile(
    r"[;:()]|(?-i:\.(?=[A-Z][a-z]))"  # a sentence glued to the next ("as well.Many cases")
    r"|,\s*(?:and|but|although|though|while|whereas|which)\b"
    r"|\b(?:and|but|although|though|whereas)\b",
    re.I,
)
CERTAINTY_WORDS = frozenset(
    """always all every definitely certainly guaranteed guarantee proven proves never
    completely entirely totally cure cures will""".split()
)


def hedge_cues(tokens: list[str]) -> list[tuple[int, str]]:
    """Hedging cues ('may', 'in some patients', 'can cause', 'about 5') with positions."""
    cues: list[tuple[int, str]] = []
    if _HEDGE_TRIGGERS.isdisjoint(tokens):
        return cues  # the common case, checked at C speed
    for i, tok in enumerate(tokens):
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
        prev = tokens[i - 1] if i else ""
        if tok in HEDGE_WORDS and not (
            (tok == "often" and prev == "how")
            or (tok == "may" and _is_month(prev, nxt))
            or (tok in _LINKING and nxt not in {"with", "to"})  # "the associated fees"
            or (tok in _APPEAR and nxt in _PLACES)  # "does not appear on the list"
        ):
            cues.append((i, tok))
        elif tok in {"can", "could"} and nxt in _POSSIBILITY_VERBS:
            cues.append((i, f"{tok} {nxt}"))
        elif tok in {"some", "certain", "rare"} and nxt in _SOME_WHO:
            cues.append((i, f"{tok} {nxt}"))
        elif _approximates(tokens, i):
            cues.append((i, f"{tok} {nxt}"))
    return cues


def _is_count(token: str) -> bool:
    return token[:1].isdigit() or token in _SPELLED_COUNTS or token in _MULTIPLES  # 'twice'


def _approximates(tokens: list[str], i: int) -> bool:
    """The cue at `i` hedges the number after it ("about 2 miles east of the airport",
    "an estimated 435 ships"): the number checks read that, and no word of the clause is
    in doubt."""
    return tokens[i] in _APPROXIMATORS and i + 1 < len(tokens) and _is_count(tokens[i + 1])


#: Words before 'may' that make it the month ("in late May", "until May"): no modal
#: follows them.
_BEFORE_MONTH = frozenset(
    "in late early mid of on by until till since from through during before".split()
)


def _is_month(prev: str, nxt: str) -> bool:
    """'may' between these words is the month, not the modal ("in late May", "May 5")."""
    return prev in _BEFORE_MONTH or nxt[:1].isdigit()


def hedge_scope(text: str, tokens: list[str] | None = None) -> tuple[list[str], set[str]]:
    """Hedge cues of a text and the content stems of the clauses they hedge (`tokens`: its
    tokens, when the caller has them). The scope is the clause, not the sentence: in
    "returned during a failover and usually clears within seconds" only clearing is hedged.
    A cue that only approximates a number hedges no clause."""
    cues: list[str] = []
    scoped: set[str] = set()
    if not hedge_cues(tokenize(text) if tokens is None else tokens):
        return cues, scoped
    for clause, found in _hedged_clauses(text):
        cues.extend(c for _, c in found)
        scoped.update(content_stems(clause))
    return cues, scoped


def hedged_predicates(text: str) -> list[tuple[frozenset[str], frozenset[str]]]:
    """Each hedged clause of a text: its content stems, and those after its first cue, what
    the cue puts in doubt. In "the presence of a pesticide at the villa may have caused the
    illnesses" the causing is in doubt, not the pesticide."""
    return [
        (frozenset(content_stems(clause)), frozenset(content_stems(clause[found[0][0] + 1 :])))
        for clause, found in _hedged_clauses(text)
    ]


def _hedged_clauses(text: str) -> list[tuple[list[str], list[tuple[int, str]]]]:
    """The clauses of a text that a cue hedges, as tokens, with their cues."""
    out = []
    for chunk in _HEDGE_CLAUSE.split(text):
        tokens = tokenize(chunk)
        found = [(i, c) for i, c in hedge_cues(tokens) if not _approximates(tokens, i)]
        if found:
            out.append((tokens, found))
    return out


def certainty_cues(tokens: list[str]) -> list[str]:
    """Words that assert universally or flatly ('always', 'guaranteed', 'every')."""
    return [t for t in tokens if t in CERTAINTY_WORDS]


# --------------------------------------------------------------------------- names

#: The days of the week in order, Monday first (its index is Python's weekday number).
WEEK = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
#: Weekday and month names ('may' aside: it is a modal far more often than a month).
WEEKDAYS = frozenset(WEEK)
MONTHS = frozenset(
    "january february march april june july august september october november december".split()
)


_NAME = re.compile(r"\b(?:[A-Z][a-zA-Z0-9&'\-]*[a-zA-Z0-9]|[A-Z]{2,})(?:\s+(?:[A-Z][\w&'\-]*))*")
_SENTENCE_START = re.compile(r"(?:[.!?:\n]|^\s*\d{1,2}[.)]?\s)\s*(?:\d{1,2}[.)]?\s+)?[\"'(]?$")
_NOT_NAMES = frozenset(
    """i the a an this that these those it its in on at for of to and or but if when
    what who whom whose which where why how while whilst despite although though after before
    during since because unless until whereas without among upon
    monday tuesday wednesday thursday friday saturday sunday january february march april
    may june july august september october november december yes no note please am pm mondays
    tuesdays wednesdays thursdays fridays saturdays sundays""".split()
)


_ENTITY = re.compile(r"&(?:[a-z][a-z0-9]{1,7}|#[0-9]{1,6}|#x[0-9a-f]{1,5});", re.I)


def entities_decoded(text: str) -> str:
    """`text` with its HTML character references read ('&rsquo;' as '’', '&amp;' as '&'),
    the character repeated to the reference's length so that offsets still hold and no
    space opens inside a clause: an answer copied from a web page says "&lsquo;Equal Pay
    Day&rsquo;", whose 'Day&rsquo' is no name and whose ';' ends no clause."""
    if "&" not in text:
        return text
    return _ENTITY.sub(_same_length, text)


def _same_length(m: re.Match[str]) -> str:
    ref = m.group()
    char = html.unescape(ref)
    return char * len(ref) if len(char) == 1 else char.ljust(len(ref))[: len(ref)]


def capitalised_first_word(text: str) -> str:
    """The text's first word, its punctuation aside, when it has a capital ('Keating,'
    gives 'Keating'; else ''): the name finder cannot tell a name there from a sentence's
    start, so the rules that look for the claim's names take it as one as well."""
    words = text.split(maxsplit=1)
    first = words[0].strip(",.;:'\"()[]") if words else ""
    return first if first[:1].isupper() else ""


def proper_names(text: str) -> list[str]:
    """Capitalised word runs that look like names ('Broken Arrow', 'CDC', 'Dr Smith').

    A single capitalised word at the start of a sentence or a numbered item ('1  Make a
    list') is skipped: there capitals say nothing about names. 'Sigurður' is a name.
    """
    names = []
    for m in _NAME.finditer(plain_letters(text)):
        words = [w for w in text[m.start() : m.end()].split() if w.lower() not in _NOT_NAMES]
        if not words:
            continue
        at_start = m.start() == 0 or _SENTENCE_START.search(text[: m.start()])
        if at_start and len(m.group(0).split()) == 1 and not m.group(0).isupper():
            continue
        names.append(" ".join(words))
    return names

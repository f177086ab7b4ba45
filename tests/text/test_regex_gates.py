"""The cheaper ways around costly patterns give what the patterns give, on real text: the
example suite's documents and answers and the frozen corpus of the pinned judgements (real
sources and answers of three benchmarks), plus text whose letters Unicode folds onto ASCII.
"""

from __future__ import annotations

import json
import random
import re
import string
from pathlib import Path

import pytest
from halgate.judges.offline import attribution, claim_model
from halgate.judges.offline.restating import restated
from halgate.text import claims, quantities, words
from halgate.text.gates import CaselessTest, Gated
from halgate.text.letters import plain_letters

REPO = Path(__file__).parents[2]
EXAMPLE = REPO / "data" / "examples" / "acme-helpdesk"
CORPUS = REPO / "tests" / "judgements" / "corpus.jsonl"
#: Words that re.IGNORECASE finds only by folding a letter onto an ASCII one (the long s,
#: the dotted capital I): lower-casing the text would not find them.
FOLDED = ["it is ſtated", "LİSTED here", "4.0 stars (ſource: Yelp)"]


def _real_texts() -> list[str]:
    """Every document, sentence and answer of the example suite and the pinned corpus."""
    texts = []
    for line in (EXAMPLE / "documents.jsonl").read_text(encoding="utf-8").splitlines():
        texts.append(json.loads(line)["text"])
    for path in (EXAMPLE / "answers").glob("*.jsonl"):
        texts += [json.loads(line)["answer"] for line in path.read_text().splitlines()]
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        texts += [d["text"] for d in row["documents"]] + [row["answer"], row["question"]]
    texts = [t for t in texts if t]
    sentences = [t[a:b] for t in texts for a, b in words.sentence_spans(t)]
    return texts + sentences + FOLDED


TEXTS = _real_texts()


def test_the_real_texts_are_many_and_hold_what_the_gates_look_for() -> None:
    assert len(TEXTS) > 1000
    for gate in (attribution._CUE, attribution._SOURCE_CUE, claims._ABSTENTION_CUE):
        assert any(gate.pattern.search(t) for t in TEXTS)
    assert any(claim_model._REFUSAL.pattern.search(t) for t in TEXTS)
    assert any(claims._CLAUSE_SEP.pattern.search(t) for t in TEXTS)
    assert any(not t.isascii() for t in TEXTS)


@pytest.mark.parametrize(
    "test",
    [attribution._CUE, attribution._SOURCE_CUE, claims._ABSTENTION_CUE, claim_model._REFUSAL],
    ids=["reference cue", "source cue", "abstention cue", "refusal"],
)
def test_a_caseless_test_answers_as_the_case_insensitive_search(test: CaselessTest) -> None:
    for text in TEXTS:
        assert test(text) == (test.pattern.search(text) is not None), text


def test_a_caseless_test_sends_folded_letters_to_the_pattern_itself() -> None:
    for cue, text in zip([attribution._CUE] * 2 + [attribution._SOURCE_CUE], FOLDED, strict=True):
        assert cue(text) and cue.pattern.search(text)
        # lower-cased, the folded letter is not seen: only ASCII text takes that path
        assert not re.search(cue.pattern.pattern, text.lower())


def test_a_gated_pattern_finds_the_same_matches() -> None:
    sep = claims._CLAUSE_SEP
    assert isinstance(sep, Gated)
    for text in TEXTS:
        for pos in (0, len(text) // 2):
            fast = [(m.span(), m.group(), m.lastgroup) for m in sep.finditer(text, pos)]
            slow = [(m.span(), m.group(), m.lastgroup) for m in sep.pattern.finditer(text, pos)]
            assert fast == slow, text


def test_normalize_splits_ascii_text_as_the_regex_does() -> None:
    rng = random.Random(7)
    noise = ["".join(rng.choices(string.printable, k=rng.randint(0, 40))) for _ in range(3000)]
    for text in TEXTS + noise:
        assert words.normalize(text) == " ".join(words._WORDISH.findall(text.lower())), text


def test_a_sentence_opening_with_a_capital_is_no_bullet() -> None:
    pieces = [t[a:b] for t in TEXTS for a, b in [(0, len(t))] + words.sentence_spans(t)]
    skipped = [p for p in pieces if p.lstrip()[:1].isupper()]
    assert len(skipped) > 500 and not any(words._BULLET.match(p) for p in skipped)
    assert words.sentence_spans("Notes:\n- Refunds take 5 days.\nb) Keep the receipt.") == [
        (0, 6),
        (9, 29),
        (33, 50),
    ]


#: The month gate the date patterns had: a word that starts like a month.
_MONTH_WORD = re.compile(r"\b(?:" + "|".join(sorted(quantities._MONTH_PREFIXES)) + ")")


def test_the_date_patterns_skipped_would_find_nothing() -> None:
    month_dates = [p for p in quantities._DATES if p not in quantities._ISO_DATES]
    ran_all = 0
    for text in TEXTS:
        folded = text.casefold()
        chosen = quantities._dates_for(folded, quantities._LETTERS.findall(folded))
        if _MONTH_WORD.search(folded):
            assert chosen is quantities._DATES, text  # never fewer than the regex gate ran
        if chosen is quantities._DATES:
            ran_all += 1
        else:
            assert not any(p.search(text) for p in month_dates), text
    assert ran_all > 20


def test_a_document_without_the_claims_longest_word_holds_no_copy_of_it() -> None:
    docs = [t for t in TEXTS if len(t) > 200]
    claims_ = [t for t in TEXTS if 40 < len(t) < 200]
    checked = found = 0
    for claim in claims_[:300]:
        padded = restated._padded(claim)
        longest = max(padded.split(), key=len, default="")
        for doc in docs[:60]:
            holds = padded in restated._padded(doc)
            found += holds
            checked += 1
            assert not holds or longest in doc.lower(), (claim, doc)
    assert checked > 10_000 and found > 0


def test_tokens_come_from_a_memo_as_lists_of_their_own() -> None:
    for text in TEXTS:
        plain = plain_letters(text.lower()).replace("’", "'")
        assert words.tokenize(text) == words._TOKEN.findall(words._JOINED_NON.sub("non ", plain))
    first = words.tokenize("Do not take more than 6 tablets")
    first.append("changed")
    assert (
        words.tokenize("Do not take more than 6 tablets")
        == "do not take more than 6 tablets".split()
    )

"""Text utilities: sentence spans, tokens, stems, quantities, cue words."""

from __future__ import annotations

import pytest
from halgate.models import Document
from halgate.text.negation import negated_stems
from halgate.text.quantities import comparable, extract_quantities, quantity_matches
from halgate.text.words import (
    capitalised_first_word,
    content_stems,
    entities_decoded,
    hedge_cues,
    hedge_scope,
    proper_names,
    sentence_spans,
    stem,
    tokenize,
)

from ..conftest import offline_claims


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Take one tablet. Drink water!", ["Take one tablet.", "Drink water!"]),
        ("Dr. Smith said 3.5 mg. It works.", ["Dr. Smith said 3.5 mg.", "It works."]),
        ("See e.g. the leaflet. Done.", ["See e.g. the leaflet.", "Done."]),
        ("- first item\n- second item", ["first item", "second item"]),
        ("## Dosage\nTake it daily.", ["## Dosage", "Take it daily."]),
        ('He said "stop." Then left.', ['He said "stop."', "Then left."]),
        ("  padded sentence.  ", ["padded sentence."]),
    ],
)
def test_sentence_spans_index_the_text(text: str, expected: list[str]) -> None:
    assert [text[s:e] for s, e in sentence_spans(text)] == expected


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("refunds", "refunded"),
        ("refund", "refunding"),
        ("policies", "policy"),
        ("taking", "take"),
        ("aged", "age"),
        ("buy", "purchase"),
    ],
)
def test_stem_conflates_inflections(a: str, b: str) -> None:
    assert stem(a) == stem(b)


def test_content_stems_drop_stopwords_numbers_and_units() -> None:
    assert content_stems(tokenize("Take the 50 mg tablets twice in five days")) == [
        "tak",
        "pill",
    ]


def test_content_stems_drop_clock_times_but_keep_words_with_digits() -> None:
    # Clock times are quantities (compared as times); "5g" and "mp3" are names of things.
    assert content_stems(tokenize("Open 9am to 5pm, 12pm for 5g and mp3 support")) == [
        "open",
        "5g",
        "mp3",
        "support",
    ]


@pytest.mark.parametrize(
    ("text", "kind", "value", "unit"),
    [
        ("50 mg", "number", 50.0, "mg"),
        ("0.05 g", "number", 50.0, "mg"),
        ("fifty", "number", 50.0, ""),
        ("twenty-four hours", "number", 86400.0, "s"),
        ("2,000", "number", 2000.0, ""),
        ("3.5%", "number", 3.5, "%"),
        ("3.5 percent", "number", 3.5, "%"),
        ("$1.5 million", "number", 1_500_000.0, "usd"),
        ("12 March 2024", "date", "2024-03-12", ""),
        ("March 12, 2024", "date", "2024-03-12", ""),
        ("2024-03-12", "date", "2024-03-12", ""),
        ("June 2021", "date", "2021-06", ""),
        ("9am", "time", 540.0, ""),
        ("v2.4", "version", "2.4", ""),
        ("24/7", "ratio", "24/7", ""),
    ],
)
def test_quantities_are_normalised(text: str, kind: str, value: object, unit: str) -> None:
    (q,) = extract_quantities(text)
    assert (q.kind, q.value, q.unit) == (kind, value, unit)
    assert text[q.start : q.end] == text


def test_one_as_pronoun_is_not_a_number() -> None:
    assert extract_quantities("one of the plants closed") == []
    assert extract_quantities("one hour")[0].value == 3600.0


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("2 weeks", "14 days", True),
        ("30 days", "14 days", False),
        ("2024", "12 March 2024", True),
        ("March 2024", "12 March 2024", True),
        ("March 2024", "12 June 2024", False),
        ("50", "50 mg", True),
        ("50 mg", "50 ml", False),
        ("v2", "v2.4", True),
        ("one year", "12 months", True),
        ("18 months", "1.5 years", True),
        ("2 years", "12 months", False),
        ("80", "80 years", True),
        ("2 days", "48 hours", True),
        ("2 days", "24 hours", False),
        ("30 pounds", "£30", True),
    ],
)
def test_quantity_matching(a: str, b: str, same: bool) -> None:
    qa, qb = extract_quantities(a)[0], extract_quantities(b)[0]
    assert quantity_matches(qa, qb) is same


def test_comparable_needs_same_unit() -> None:
    days, mg = extract_quantities("30 days and 5 mg")
    assert comparable(days, extract_quantities("14 days")[0])
    assert not comparable(days, mg)
    # Years and months match when equal, but are never rivals: "over five years" and
    # "64 months" are both true of one prison sentence.
    years, months = extract_quantities("five years and 64 months")
    assert not comparable(years, months)


@pytest.mark.parametrize(
    ("text", "negated"),
    [
        ("Ibuprofen is not recommended during pregnancy", {"recommend", "pregnancy"}),
        ("Take with food; do not exceed 4 doses", {"exceed", "dos"}),
        ("Take it with or without food", set()),
        ("no more than 100 mg", set()),
        ("Opened software cannot be returned", {"return"}),
        ("The CLI no longer requires an API key", {"longer", "need", "api", "key"}),
        # the scope ends with its clause
        ("A burger (super well done, no pink) and super crispy fries", {"pink"}),
        ("Crunch shrimp was not good either. Disappointed", {"good"}),
        ("I haven't tried them yet but I will go back", {"try"}),
        # a word the text also asserts is not denied
        ("Cut sprouted potatoes into chunks, careful to not break the sprouts", {"break"}),
        # a failure denies the act it fails to do, nothing said after it
        ("The launch failed to reach orbit", {"reach", "orbit"}),
        ('Their albums "The Plan Has Failed", and "Winter Roads"', set()),
    ],
)
def test_negation_scope(text: str, negated: set[str]) -> None:
    assert negated_stems(text, tokenize(text)) == negated


@pytest.mark.parametrize(
    ("text", "hedged"),
    [
        ("It may cause bleeding in some patients", True),
        ("Dizziness is thought to occur", True),
        ("It can cause nausea", True),
        ("Orders can be returned within 30 days", False),
        ("How often it happens is not known", False),
        ("Refunds are issued within 14 days", False),
        ("The gift was about twice the yearly budget", True),  # as 'approximately twice'
        ("They talked about the budget twice", False),
    ],
)
def test_hedge_cues(text: str, hedged: bool) -> None:
    assert bool(hedge_cues(tokenize(text))) is hedged


def test_hedge_scope_is_the_clause() -> None:
    _, scoped = hedge_scope("It is returned during a failover and usually clears in seconds.")
    assert "clear" in scoped and "failover" not in scoped


def test_proper_names() -> None:
    names = proper_names("Blue Bell shut its Broken Arrow plant. The CDC said so.")
    assert names == ["Blue Bell", "Broken Arrow", "CDC"]


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        ("if symptoms last more than a week", 7.0, "day"),
        ("claim within a month of your return", 1.0, "month"),
        ("valid for a year", 1.0, "year"),
    ],
)
def test_one_period_with_an_article_is_a_quantity(text: str, value: float, unit: str) -> None:
    (q,) = extract_quantities(text)
    assert (q.value, q.unit) == (value, unit)


@pytest.mark.parametrize("text", ["twice a week", "three times a day", "a day-long event"])
def test_a_rate_or_an_adjective_is_no_period(text: str) -> None:
    assert not any(q.unit in ("day", "month", "year", "s") for q in extract_quantities(text))


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("six months", "26 weeks", True),
        ("3 months", "12 weeks", True),
        ("1 month", "30 days", True),
        ("2 months", "30 days", False),
        ("1 year", "300 days", False),
    ],
)
def test_months_and_years_match_days_about_equal(a: str, b: str, same: bool) -> None:
    """A month has no fixed length in days: "26 weeks" is "six months" within 10 %, and
    they are never rivals (other units than these compare exactly)."""
    qa, qb = extract_quantities(a)[0], extract_quantities(b)[0]
    assert quantity_matches(qa, qb) is same
    assert quantity_matches(qb, qa) is same
    assert not comparable(qa, qb)


@pytest.mark.parametrize(
    ("text", "decoded"),
    [
        ("Day&rsquo;s", "Day’’’’’’’s"),
        ("Barnes &amp; Noble", "Barnes &&&&& Noble"),
        ("a&nbsp;b &#8217;", "a\xa0\xa0\xa0\xa0\xa0\xa0b ’’’’’’’"),
        ("Fish & chips; &bogus", "Fish & chips; &bogus"),  # no reference: as it was
    ],
)
def test_html_character_references_are_read_in_place(text: str, decoded: str) -> None:
    assert entities_decoded(text) == decoded
    assert proper_names(entities_decoded("On &lsquo;Equal Pay Day&rsquo;.")) == ["Equal Pay Day"]


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("He led the side from 1958/59 to 1963/1964.", [1958, 1959, 1963, 1964]),
        ("the 2023/24 season", [2023, 2024]),
        ("open 24/7", ["24/7"]),  # a ratio, not a season
        ("from 2001/2003", ["2001/2003"]),  # not one year after the other
    ],
)
def test_a_season_written_with_a_slash_is_its_two_years(text: str, values: list) -> None:
    assert [q.value for q in extract_quantities(text)] == values


def test_the_judge_finds_years_a_season_gives() -> None:
    docs = [Document(doc_id="a", text="He led the Australian side from 1958/59 to 1963/1964.")]
    (judged,) = offline_claims("He led the Australian side from 1958 to 1964.", docs)
    assert not judged.signals.get("numbers_unmatched"), judged.rationale


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("boxes 1,2,3, and 5", [1, 2, 3, 5]),  # a list without spaces: each its own number
        ("a fee of 1,250", [1250]),  # thousands stay one number
        ("version a,2", []),  # a comma after a letter joins nothing
    ],
)
def test_numbers_listed_with_commas_are_each_read(text: str, values: list) -> None:
    assert [q.value for q in extract_quantities(text)] == values


def test_the_judge_finds_each_number_of_a_list_without_spaces() -> None:
    docs = [Document(doc_id="irs", text="Distributions in boxes 1,2,3, and 5 are reported there.")]
    (judged,) = offline_claims("Distributions in boxes 1, 2, 3 and 5 are reported there.", docs)
    assert not judged.signals.get("numbers_unmatched"), judged.rationale


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("Keating, a 21-year-old striker", "Keating"),
        ('"Martin contributed to this report."', "Martin"),
        ("X-Nimbus-Key queues process messages", "X-Nimbus-Key"),
        ("the striker Keating", ""),
        ("", ""),
    ],
)
def test_the_capitalised_first_word_is_read_once_for_every_rule(text: str, first: str) -> None:
    assert capitalised_first_word(text) == first


@pytest.mark.parametrize(
    ("text", "hedged"),
    [
        ("He vowed to crush the rebels when he assumes office in late May", False),
        ("The new rules apply from May 5", False),
        ("The shop is closed until May", False),
        ("Children under 12 may need a smaller dose", True),
        ("This may take a while", True),
        # 'associated' and 'linked' hedge only as a link, not as an adjective
        ("Shoe stores try to sell me the associated accoutrements", False),
        ("Open the linked account first", False),
        ("Smoking is associated with lung cancer", True),
        ("Night shifts are linked to heart disease", True),
    ],
)
def test_a_hedge_word_hedges_only_in_its_sense(text: str, hedged: bool) -> None:
    """The month May is no hedge; 'associated' and 'linked' hedge only as a link."""
    assert bool(hedge_cues(tokenize(text))) is hedged


def test_a_reordered_sentence_with_an_associated_thing_is_no_hedge() -> None:
    review = Document(
        doc_id="review",
        text="I always get annoyed when shoe stores try to sell me the associated "
        "accoutrements with my shoes but in this case I'd say it's worth it.",
    )
    claim = (
        "When shoe stores try to sell me the associated accoutrements with my shoes but in "
        "this case I'd say it's worth it, I always get annoyed."
    )
    assert all(j.deciding_rule != "hedge" for j in offline_claims(claim, [review]))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("an additional 1,700", "an extra 1,700"),
        ("sufficient water", "enough water"),
        ("they requested help", "they asked for help"),
        ("she chose the red one", "she picked the red one"),
    ],
)
def test_curated_synonyms_share_a_stem(a: str, b: str) -> None:
    """The self-test's curated synonyms (selftest/preserving.SYNONYMS) read as one word."""
    assert content_stems(tokenize(a)) == content_stems(tokenize(b))

"""What one claim's restated source sentence says against it, found once per claim.

Nine rules and the stored signals read the same findings (the passage the claim
restates, and whether it flips its polarity, drops its restriction, changes one slot or
joins an invented clause to a copy).
Searching the retrieved passages for it, and aligning the claim with it word by word, is
the costly part; each reader did it again for `fires`, again for `reason` and again for the
signals. The judge now finds it once per claim (:func:`restatement_of`) and hands the
frozen result to every reader (the rules through ``RuleInput.restatement``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ....evidence.index import EvidenceIndex, Passage
from ..features import Alignment, ClaimFeatures
from .changed_values import strength_changed, swapped_number
from .conditions import dropped_condition, dropped_restriction
from .extended import invented_addition
from .restated import (
    copied_passage,
    polarity_flip,
    prose_candidates,
    restated_passage,
)
from .swapped import (
    name_restated,
    opening_word,
    party_restated,
    reversed_bound,
    slot_changed,
    swapped_actor,
    swapped_name,
)


@dataclass(frozen=True)
class Slot:
    """A finding against a restated passage: the passage and what the finding says."""

    passage: Passage
    says: str

    @property
    def doc_id(self) -> str:
        """The document of the restated passage, for a rationale."""
        return self.passage.doc_id


@dataclass(frozen=True)
class Restatement:
    """The findings of one claim against the source sentences it restates (None: none)."""

    copied: Passage | None = None
    """A retrieved passage the claim copies word for word."""
    copy_restricted: str | None = None
    """The copied passage's restriction the copy leaves out."""
    polarity: Slot | None = None
    """The restated sentence's words for the opposite polarity."""
    restriction: Slot | None = None
    """The restated sentence's restriction the claim drops."""
    name: Slot | None = None
    """'NAME for OTHER': a name put where the restated sentence names another."""
    actor: Slot | None = None
    """'ours' for 'theirs': the act moved to another party."""
    bound: Slot | None = None
    """A bound of the restated sentence turned round."""
    strength: Slot | None = None
    """A modal or quantifier stronger or weaker than the restated sentence's."""
    number: Slot | None = None
    """Another number in the slot of one of the restated sentence's."""
    addition: str | None = None
    """The words the claim joins to a run it copies from a retrieved passage, none of
    them in the evidence (``extended.invented_addition``)."""

    def signals(self) -> dict[str, bool]:
        """Which findings hold, by the name of the stored claim signal that carries each."""
        return {
            "polarity_flip": self.polarity is not None,
            "restriction_dropped": self.restriction is not None,
            "name_swapped": self.name is not None,
            "actor_swapped": self.actor is not None,
            "bound_reversed": self.bound is not None,
            "strength_changed": self.strength is not None,
            "number_swapped": self.number is not None,
        }


Finder = Callable[[ClaimFeatures, Passage], "str | None"]


def _slot(c: ClaimFeatures, p: Passage | None, find: Finder) -> Slot | None:
    """The finding of `find` against the restated passage `p`, if there is one."""
    says = find(c, p) if p is not None else None
    return Slot(p, says) if p is not None and says is not None else None


def restatement_of(
    c: ClaimFeatures, al: Alignment, index: EvidenceIndex | None = None
) -> Restatement:
    """Every finding of the claim against the passages it copies (any of `index`'s) or
    restates (a retrieved one)."""
    candidates = prose_candidates(al)
    copied = copied_passage(c, al, index, candidates)
    if copied is not None:
        # A copy restates the sentence it copies, whatever retrieval ranked first (in a
        # list of like sentences another holds the same words): it changes nothing there.
        return _copy(c, copied, invented_addition(c, al, candidates))
    p = restated_passage(c, al, candidates=candidates)
    # Without names to set aside, the sentence it restates is the same one (a capital
    # word that opens the claim may be a name too, when no sentence holds it).
    named = name_restated(c, al, candidates) if c.names or (p is None and opening_word(c)) else p
    # The slot finders read one alignment of claim and passage; most claims restate their
    # sentence unchanged, and then none of the five can fire: they are not asked.
    changed = _changed(c.tokens, p)
    return Restatement(
        polarity=_slot(c, p, polarity_flip),
        restriction=_slot(c, p, dropped_restriction),
        name=_slot(
            c,
            changed if named is p and c.reference is None else _changed(c.words, named),
            swapped_name,
        ),
        actor=_slot(
            c, changed if p is not None else _party_changed(c, al, candidates), swapped_actor
        ),
        bound=_slot(c, changed, reversed_bound),
        strength=_slot(c, changed, strength_changed),
        number=_slot(c, changed, swapped_number),
        addition=invented_addition(c, al, candidates),
    )


def _party_changed(c: ClaimFeatures, al: Alignment, candidates: list[Passage]) -> Passage | None:
    """The passage restated with the claim's parties aside, when the claim differs from it
    (asked only when no passage restates the claim with them)."""
    return _changed(c.tokens, party_restated(c, al, candidates))


def _changed(words: tuple[str, ...], p: Passage | None) -> Passage | None:
    """The passage when the claim's `words` differ from it in some slot of their alignment;
    None when there is no passage or the claim restates it unchanged. The name slot reads
    the claim's words whole (``ClaimFeatures.words``): the source a claim names ("according
    to figures from New York" for "... from Nielsen") is blanked from its tokens."""
    return p if p is not None and slot_changed(words, p.tokens) else None


def _copy(c: ClaimFeatures, copied: Passage, addition: str | None) -> Restatement:
    """The findings of a copy: what the copied passage restricts that the copy leaves out
    (a restricting word or clause near the copied words, or the condition that governs
    them), and nothing else: no slot of a copy differs from its sentence."""
    restricted = dropped_restriction(c, copied) or dropped_condition(c, copied)
    return Restatement(
        copied=copied,
        copy_restricted=restricted,
        restriction=Slot(copied, restricted) if restricted is not None else None,
        addition=addition,
    )

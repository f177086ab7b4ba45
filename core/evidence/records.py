"""Structured (JSON) source documents flattened into key/value leaves with exact spans.

Data-to-text cases give the system a record, not prose. Each leaf ("WiFi": "no") becomes a
passage that reads "WiFi: no" for matching but keeps its span in the raw JSON text, so a
citation still highlights the real source characters.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..text.words import sentence_spans, stem

_WS = re.compile(r"\s*")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|_+")
_DECODER = json.JSONDecoder()
# The decoder's own string scanner (C or pure Python); typeshed leaves it out of json.decoder.
_scanstring: Callable[[str, int], tuple[str, int]]
_scanstring = json.decoder.scanstring  # type: ignore[attr-defined]  # it exists at runtime
# Key words too generic to tie a claim to one field ("hasParking", "isOpen"), as stems;
# business listings' own ("RestaurantsGoodForKids") are the business_listings rule pack's.
GENERIC_KEY_STEMS = frozenset(stem(w) for w in "has is attribute".split())
_NEGATIVE = {"false", "no", "none", "0", "n/a", "not available"}
# "Monday": "0:0-0:0" in a business listing's hours: its writers mean closed, yet others
# read it as open all day, so it is shown as "closed" only under the business_listings
# rule pack (``closed_hours``).
_CLOSED = re.compile(r"^0?0:00?-0?0:00?$")
_POSITIVE = {"true": "yes"}
# Units a key may end with ("weight_g", "priceEur", "warranty_years"): unambiguous there.
_KEY_UNITS = frozenset(
    """g kg mg mm cm km ml sec secs seconds min mins minutes hours hrs days weeks months
    years yrs pct percent eur usd kb mb gb tb lb lbs oz miles ft""".split()
)
# Long string values (reviews) are split into sentences; short ones stay whole.
_SPLIT_LONGER_THAN = 160


@dataclass(frozen=True)
class Leaf:
    """One scalar value of a record with its key path and spans in the raw text."""

    path: tuple[str, ...]
    value: object
    key_start: int  # where the leaf's own key starts (or the value, in a list)
    value_start: int
    value_end: int
    exact: bool = True  # raw string equals the decoded value, so inner offsets are exact

    @property
    def section(self) -> str:
        """The top-level key: what a claim citing 'the hours section' would mean."""
        return self.path[0] if self.path else ""

    @property
    def negative(self) -> bool:
        """A no/false/none value: the record denies what its key names."""
        if self.unknown:
            return False
        return self.value is False or str(self.value).strip().lower() in _NEGATIVE

    @property
    def unknown(self) -> bool:
        """A null value: the record does not know, so any claim about it is unfounded
        (RAGTruth counts claims about null fields as hallucinations)."""
        return self.value is None or str(self.value).strip().lower() == "null"

    @property
    def keys(self) -> tuple[str, ...]:
        """The key path without list indices: ('attributes', 'BusinessParking', 'lot')."""
        return tuple(k for k in self.path if not k.isdigit())

    @property
    def list_path(self) -> tuple[str, ...] | None:
        """The path of the list this leaf is an item of (None for a keyed value)."""
        return self.path[:-1] if self.path[-1:] and self.path[-1].isdigit() else None

    def label(self) -> str:
        """The key path in words: ('attributes', 'RestaurantsTakeOut') -> 'Restaurants Take Out'."""
        return " ".join(_words(k) for k in self.keys[-2:])

    def key_words(self) -> str:
        """The leaf's own key in words: what a no/false value denies."""
        keys = self.keys
        return _words(keys[-1]) if keys else ""

    def pieces(self, closed_hours: bool = False) -> Iterator[tuple[int, int, str]]:
        """(start, end, text) units to index: the whole leaf, or sentences of a long string
        (`closed_hours`: show hours of "0:0-0:0" as "closed", the business_listings pack's
        reading)."""
        value = self.value
        shown = _POSITIVE.get(str(value).lower(), "no" if self.negative else str(value))
        if self.unknown:
            shown = "unknown"
        elif closed_hours and isinstance(value, str) and _CLOSED.match(value.strip()):
            shown = "closed"
        elif isinstance(value, int | float) and not isinstance(value, bool):
            shown = _with_key_unit(shown, self.keys)
        if isinstance(value, str) and len(value) > _SPLIT_LONGER_THAN and self.exact:
            inner = self.value_start + 1  # skip the opening quote
            for s, e in sentence_spans(value):
                yield inner + s, inner + e, value[s:e]
            return
        yield self.key_start, self.value_end, f"{self.label()}: {shown}"


def _with_key_unit(number: str, keys: tuple[str, ...]) -> str:
    """A number whose key ends with its unit, shown with it: "weight_g": 280 reads "280 g",
    so "280 grams" and "0.28 kg" match it; "price_gbp": 30 reads "£30"."""
    parts = key_parts(keys[-1]) if keys else []
    unit = parts[-1].lower() if parts else ""
    if unit == "gbp":
        return f"£{number}"
    return f"{number} {unit}" if unit in _KEY_UNITS else number


def key_parts(key: str) -> list[str]:
    """'RestaurantsTakeOut' -> ['Restaurants', 'Take', 'Out']."""
    return _CAMEL.sub(" ", key).split()


def _words(key: str) -> str:
    """'WiFi' -> 'Wi Fi WiFi': split for matching "wi-fi", whole for matching "wifi";
    adjacent parts joined too, so 'RestaurantsTakeOut' also reads 'takeout'."""
    split = _CAMEL.sub(" ", key).strip()
    if split == key:
        return split
    parts = split.split()
    pairs = [a + b for a, b in zip(parts, parts[1:], strict=False) if len(parts) > 2]
    return " ".join([split, *pairs, key])


def json_leaves(text: str) -> list[Leaf]:
    """The leaves of a JSON record in text order; [] when the text is not a JSON object/array.

    Offsets of split long strings are exact only when the raw string has no escapes; such
    strings are kept whole (one leaf) instead.
    """
    stripped = text.lstrip()
    if not stripped or stripped[0] not in "{[":
        return []
    leaves: list[Leaf] = []
    try:
        end = _walk(text, len(text) - len(stripped), (), leaves, None)
    except (ValueError, IndexError):
        return []
    if text[end:].strip():
        return []
    return [_unsplittable(text, leaf) for leaf in leaves]


def _unsplittable(text: str, leaf: Leaf) -> Leaf:
    raw = text[leaf.value_start + 1 : leaf.value_end - 1]
    if isinstance(leaf.value, str) and raw != leaf.value:
        return Leaf(leaf.path, leaf.value, leaf.key_start, leaf.value_start, leaf.value_end, False)
    return leaf


def _skip_ws(s: str, i: int) -> int:
    """The index after the whitespace at `i`."""
    m = _WS.match(s, i)
    if m is None:  # unreachable: r"\s*" matches the empty string at any position
        raise ValueError("whitespace pattern did not match")
    return m.end()


def _walk(s: str, i: int, path: tuple[str, ...], out: list[Leaf], key_start: int | None) -> int:
    """Parse the JSON value at `i`, appending its leaves; returns the index after it."""
    i = _skip_ws(s, i)
    ch = s[i]
    if ch == "{":
        return _walk_object(s, i + 1, path, out)
    if ch == "[":
        return _walk_array(s, i + 1, path, out)
    value, end = _DECODER.raw_decode(s, i)
    out.append(Leaf(path, value, i if key_start is None else key_start, i, end))
    return end


def _walk_object(s: str, i: int, path: tuple[str, ...], out: list[Leaf]) -> int:
    i = _skip_ws(s, i)
    if s[i] == "}":
        return i + 1
    while True:
        i = _skip_ws(s, i)
        key_start = i
        if s[i] != '"':
            raise ValueError("expected a key")
        key, i = _scanstring(s, i + 1)
        i = _skip_ws(s, i)
        if s[i] != ":":
            raise ValueError("expected ':'")
        i = _walk(s, i + 1, (*path, key), out, key_start)
        i = _skip_ws(s, i)
        if s[i] == "}":
            return i + 1
        if s[i] != ",":
            raise ValueError("expected ',' or '}'")
        i += 1


def _walk_array(s: str, i: int, path: tuple[str, ...], out: list[Leaf]) -> int:
    i = _skip_ws(s, i)
    if s[i] == "]":
        return i + 1
    n = 0
    while True:
        i = _walk(s, i, (*path, str(n)), out, None)
        n += 1
        i = _skip_ws(s, i)
        if s[i] == "]":
            return i + 1
        if s[i] != ",":
            raise ValueError("expected ',' or ']'")
        i += 1

"""Frozen dataclasses made without their ``__init__``, for records built in hot loops.

A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``: a call per
field, three times the cost of an ordinary one. The offline judge builds several such
records for every claim (the rule table's input, each finding, its decision), so there it
fills their ``__dict__`` at once instead. The result is the same object: equal, hashing,
printing and pickling alike, and as frozen (tests/offline/test_rule_table.py).
"""

from __future__ import annotations

from typing import Any, TypeVar

_T = TypeVar("_T")


def filled(cls: type[_T], **values: Any) -> _T:
    """An instance of the frozen dataclass `cls` holding `values`, which must name every
    field (defaults are not filled in), in the order of its fields."""
    obj = object.__new__(cls)
    obj.__dict__.update(values)
    return obj

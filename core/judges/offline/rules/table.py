"""The offline judge's rule table and the decision as a fold over it.

The table is every ``RULE`` of the modules in the family folders of
``judges/offline/rules/`` (found by listing them, so a new rule is one new module), in
the packs a suite turns on, ordered by precedence. Every rule is asked; the first finding
in table order decides, and all the findings are kept with the claim so a reviewer sees
which rule decided and which others fired.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from functools import cache
from types import ModuleType

from ....errors import UsageError
from ....evidence.index import Passage
from ....models.filled import filled
from ..conventions import CONVENTION_PACKS
from ..restating.context import Restatement
from .rule import CORE_PACK, Finding, Rule, RuleInput


class RuleTableError(UsageError):
    """The rule table is not well formed (a duplicate id or precedence, an unknown pack,
    a module of the rules package without a RULE)."""


@dataclass(frozen=True)
class RuleDecision:
    """The fold's result for one claim: the finding that decided and every one that fired
    (the deciding one first, then the others in table order)."""

    deciding: Finding
    fired: tuple[Finding, ...]
    cited: Passage | None = None
    """The passage the deciding finding rests on (``Rule.restates``), cited with the claim."""


@dataclass(frozen=True)
class RuleTable:
    """An ordered table of rules (by precedence); the decision is a fold over it."""

    rules: tuple[Rule, ...]
    _fires: tuple[Callable[[RuleInput], bool], ...] = field(init=False, repr=False, compare=False)
    """Each rule's `fires`, looked up once per table rather than once per rule and claim."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_fires", tuple(r.fires for r in self.rules))
        _check_unique("id", [r.id for r in self.rules])
        _check_unique("precedence", [r.precedence for r in self.rules])
        findings = {f.name for f in fields(Restatement)}
        for r in self.rules:
            if r.restates is not None and r.restates not in findings:
                raise RuleTableError(
                    f"rule {r.id} restates {r.restates!r}, no finding of a Restatement "
                    f"(known: {', '.join(sorted(findings))})"
                )

    def decide(self, e: RuleInput) -> RuleDecision:
        """Every rule's finding about the claim; the first by precedence decides."""
        firing = [r for r, fires in zip(self.rules, self._fires, strict=True) if fires(e)]
        if not firing:
            raise RuleTableError(
                "no rule of the table fired: the table needs a catch-all rule "
                f"(rules: {', '.join(r.id for r in self.rules)})"
            )
        fired = tuple([r.finding(e) for r in firing])  # a list is built faster than a generator
        return filled(RuleDecision, deciding=fired[0], fired=fired, cited=firing[0].cited(e))

    def rule(self, rule_id: str) -> Rule:
        """The rule with this id."""
        for r in self.rules:
            if r.id == rule_id:
                return r
        raise KeyError(rule_id)

    @property
    def packs(self) -> frozenset[str]:
        """The packs the table's rules come from."""
        return frozenset(r.pack for r in self.rules)


def _check_unique(what: str, values: Sequence[object]) -> None:
    seen: set[object] = set()
    for v in values:
        if v in seen:
            raise RuleTableError(f"two rules share the {what} {v!r}")
        seen.add(v)


#: The package whose family folders (subpackages) hold one rule per module.
RULES_PACKAGE = __name__.rpartition(".")[0]


@cache
def builtin_rules() -> tuple[Rule, ...]:
    """The RULE of every module in every family folder of the rules package, sorted by
    precedence."""
    found = []
    for family in _subpackages(RULES_PACKAGE):
        for info in pkgutil.iter_modules(family.__path__):
            module = importlib.import_module(f"{family.__name__}.{info.name}")
            rule = getattr(module, "RULE", None)
            if not isinstance(rule, Rule):
                raise RuleTableError(f"{module.__name__} defines no RULE (a Rule instance)")
            found.append(rule)
    return tuple(sorted(found, key=lambda r: r.precedence))


def _subpackages(name: str) -> list[ModuleType]:
    package = importlib.import_module(name)
    return [
        importlib.import_module(f"{name}.{info.name}")
        for info in pkgutil.iter_modules(package.__path__)
        if info.ispkg
    ]


def known_packs() -> frozenset[str]:
    """Every pack some built-in rule belongs to or whose conventions the signal code
    applies (conventions.py), ``core`` included."""
    return frozenset(r.pack for r in builtin_rules()) | CONVENTION_PACKS | {CORE_PACK}


def rule_table(packs: Iterable[str] = (), extra: Iterable[Rule] = ()) -> RuleTable:
    """The table of the core rules, the rules of the named `packs`, and any `extra` rules
    (a plug-in's), ordered by precedence; an unknown pack is an error naming it."""
    wanted = {CORE_PACK, *packs}
    extra = tuple(extra)
    unknown = wanted - known_packs() - {r.pack for r in extra}
    if unknown:
        raise RuleTableError(
            f"unknown rule pack(s) {', '.join(sorted(unknown))}; "
            f"known: {', '.join(sorted(known_packs()))}"
        )
    chosen = [r for r in (*builtin_rules(), *extra) if r.pack in wanted]
    return RuleTable(tuple(sorted(chosen, key=lambda r: r.precedence)))

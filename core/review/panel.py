"""Review panels: several reviewers label each queue item blind; disagreements are adjudicated.

A queue is a run's severe-claims triage (claim ids) or its random audit sample
(``audit:CASE:SYSTEM``). With ``reviews_per_item`` = n >= 2 (policy), each item takes the
labels of n different reviewers, none shown the others' before recording their own. When
the n labels agree, that label is put in force (the store writes it as the item's override);
when they differ the item is *disputed* until an adjudicator (a reviewer outside the panel,
or a release manager) decides, and that decision is put in force. Only labels in force reach
the corrected rates (``audit.audit_labels`` reads the overrides, as with one reviewer), and
an item in dispute holds the gate at NEEDS_REVIEW (``hold_for_disputes``).

Pure functions over records; the store keeps the labels and assignments.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import cycle

from ..errors import PermissionDeniedError, UsageError
from ..models import (
    EXIT_CODES,
    AuditLabel,
    GateDecision,
    GateReason,
    GateStatus,
    RunReport,
    Verdict,
)
from ..models.review import Override
from ..models.team import PanelItem, PanelLabel, Role
from ..scoring.corrected import AUDIT_PREFIX
from .roles import implied

DISPUTE_RULE = "review_panel_dispute"


def label_choices(item_id: str) -> list[str]:
    """What an item is labelled with: an audit answer HALLUCINATED / FAITHFUL, a claim a verdict."""
    if item_id.startswith(AUDIT_PREFIX):
        return [label.value for label in AuditLabel]
    return [verdict.value for verdict in Verdict]


def check_label(item_id: str, label: str) -> str:
    """The label in canonical spelling, or UsageError naming the choices."""
    value = label.strip().upper()
    choices = label_choices(item_id)
    if value not in choices:
        raise UsageError(f"label {label!r} of {item_id} is not one of: {', '.join(choices)}")
    return value


def label_in_force(override: Override | None) -> str | None:
    """What an override puts in force for a panel item: its answer label or its verdict."""
    if override is None:
        return None
    if override.label is not None:
        return override.label.value
    return override.verdict.value if override.verdict is not None else None


def first_labels(labels: Iterable[PanelLabel]) -> list[PanelLabel]:
    """Each reviewer's first label of an item, oldest first (later ones never count)."""
    seen: dict[str, PanelLabel] = {}
    for label in sorted(labels, key=lambda x: x.id):
        seen.setdefault(label.reviewer, label)
    return list(seen.values())


def panel_item(
    item_id: str,
    labels: Sequence[PanelLabel],
    assigned: Sequence[str],
    per_item: int,
    resolved: Override | None,
) -> PanelItem:
    """Where one item stands, from its labels, its assignees and the override in force."""
    firsts = first_labels(labels)
    forced = label_in_force(resolved)
    state = "open"
    if len(firsts) >= per_item:
        agree = len({x.label for x in firsts[:per_item]}) == 1
        state = "agreed" if agree else ("adjudicated" if forced else "disputed")
    adjudicator = resolved.reviewer if state == "adjudicated" and resolved else None
    return PanelItem(
        item_id=item_id,
        state=state,  # type: ignore[arg-type]
        assigned=list(dict.fromkeys(assigned)),
        labels=firsts,
        label_in_force=forced if state in ("agreed", "adjudicated") else None,
        adjudicator=adjudicator,
    )


def visible_labels(item: PanelItem, reviewer: str | None) -> list[PanelLabel]:
    """The labels ``reviewer`` may see: none until they labelled the item themselves, except
    for an adjudicator of a disputed item, and everyone once the item is settled."""
    if item.state in ("agreed", "adjudicated", "disputed"):
        return list(item.labels)
    if reviewer and any(x.reviewer == reviewer for x in item.labels):
        return list(item.labels)
    return []


def check_may_label(item: PanelItem, reviewer: str, per_item: int) -> None:
    """A reviewer labels an item once, and only while its panel has room for them."""
    if any(x.reviewer == reviewer for x in item.labels):
        raise UsageError(f"{reviewer} has already labelled {item.item_id} (one label each)")
    if len(item.labels) >= per_item:
        raise UsageError(
            f"{item.item_id} already has its {per_item} labels"
            + (" and awaits adjudication" if item.state == "disputed" else "")
        )
    others = [r for r in item.assigned if r != reviewer]
    if reviewer not in item.assigned and len(others) >= per_item:
        raise UsageError(f"{item.item_id} is assigned to {', '.join(others)}, not {reviewer}")


def check_adjudicator(item: PanelItem, adjudicator: str, roles: set[Role]) -> None:
    """Only a disputed item is adjudicated, by a reviewer outside its panel or a release
    manager (who may also have labelled it)."""
    if item.state != "disputed":
        raise UsageError(f"{item.item_id} is not in dispute (it is {item.state})")
    on_panel = any(x.reviewer == adjudicator for x in item.labels)
    if on_panel and Role.RELEASE_MANAGER not in implied(roles):
        raise PermissionDeniedError(
            f"adjudication refused: {adjudicator} labelled {item.item_id}; a third reviewer "
            "or a release manager decides"
        )


def round_robin(
    items: Sequence[str],
    reviewers: Sequence[str],
    per_item: int,
    assigned: Mapping[str, Sequence[str]],
) -> list[tuple[str, str]]:
    """(item, reviewer) pairs dealing each item to ``per_item`` distinct reviewers in turn,
    keeping assignments already made; refuses a panel larger than the team."""
    team = list(dict.fromkeys(r.strip() for r in reviewers if r.strip()))
    if len(team) < per_item:
        raise UsageError(
            f"reviews_per_item is {per_item}: round-robin needs at least {per_item} reviewers "
            f"(got {len(team)})"
        )
    turn = cycle(team)
    out = []
    for item in items:
        have = list(assigned.get(item, []))
        while len(have) < per_item:
            who = next(turn)
            if who not in have:
                have.append(who)
                out.append((item, who))
    return out


def hold_for_disputes(report: RunReport, disputed: Sequence[str]) -> RunReport:
    """A run with items in dispute is not PASSED: its gate waits at NEEDS_REVIEW."""
    if not disputed:
        return report
    d = report.decision
    reason = GateReason(
        rule=DISPUTE_RULE,
        status=GateStatus.NEEDS_REVIEW,
        message=f"{len(disputed)} item(s) in dispute between reviewers await adjudication",
        claim_ids=list(disputed),
        why="reviewers disagree: adjudicate the disputed items",
    )
    update: dict[str, object] = {"reasons": [*d.reasons, reason]}
    if d.status == GateStatus.PASSED:
        update |= {
            "status": GateStatus.NEEDS_REVIEW,
            "exit_code": EXIT_CODES[GateStatus.NEEDS_REVIEW],
            "headline": f"NEEDS_REVIEW: {reason.message}",
        }
    decision: GateDecision = d.model_copy(update=update)
    return report.model_copy(update={"decision": decision})

"""Review panels in the store: assignments, blind labels, agreement and adjudication.

The rules are ``review.panel``'s; this module keeps the rows (``panel_labels``,
``assignments``, both append-only) and puts a settled label in force as the item's override
(``add_override``), so the corrected rates, exports and sign-off staleness read it exactly
as they read one reviewer's label. Plain SQL through the Store's connection.
"""

from __future__ import annotations

import json
from collections.abc import Sequence, Set
from contextlib import AbstractContextManager
from typing import Literal, Protocol

from sqlite_utils import Database

from ..errors import NotFoundError, UsageError
from ..inputs.policy import Policy
from ..models import RunReport
from ..models.review import Override
from ..models.team import Assignment, PanelItem, PanelLabel, Role, TeamAgreement
from ..review import panel as rules
from ..review.effective import latest_by_claim
from ..review.reviewed import ReviewedRun, review_run
from ..review.team_agreement import team_agreement
from ..scoring.corrected import AUDIT_PREFIX
from .rows import now, rowid

Queue = Literal["audit", "triage"]
AssignHow = Literal["claimed", "round_robin"]


class _Host(Protocol):
    db: Database
    _settling_panel: bool

    def resolve(self, run_id: str) -> str: ...
    def load_report(self, run_id: str) -> RunReport: ...
    def override_history(self, run_id: str, claim_id: str | None = None) -> list[Override]: ...
    def _write(self) -> AbstractContextManager[None]: ...
    def _audit(self, actor: str, action: str, run_id: str | None, detail: dict) -> None: ...

    def add_override(
        self,
        run_id: str,
        claim_id: str,
        *,
        verdict: str | None = None,
        label: str | None = None,
        comment: str,
        reviewer: str,
    ) -> Override: ...

    def _assign(
        self, run_id: str, item_id: str, who: str, how: AssignHow, by: str
    ) -> Assignment: ...
    def panel_labels(self, run_id: str) -> list[PanelLabel]: ...
    def assignments(self, run_id: str) -> list[Assignment]: ...
    def queue_item_ids(self, run_id: str, queue: Queue | None = None) -> list[str]: ...
    def panel(self, run_id: str) -> list[PanelItem]: ...
    def disputed_items(self, run_id: str) -> list[str]: ...
    def panel_item(self, run_id: str, item_id: str) -> PanelItem: ...
    def _insert_label(
        self, run_id: str, item_id: str, value: str, comment: str, who: str, per_item: int
    ) -> None: ...


def _per_item(report: RunReport) -> int:
    return Policy.model_validate(report.policy).reviews_per_item


class PanelMixin:
    """Multi-reviewer queue methods of the Store (one idea per module)."""

    _settling_panel = False
    """True while a settled panel label is written as its override (``check_single_review``)."""

    def _reviewed(self: _Host, run_id: str, judged: RunReport | None = None) -> ReviewedRun:
        """``review_run`` on the stored run (``judged`` if the caller has it), disputes held."""
        judged = judged or self.load_report(run_id)
        history = self.override_history(run_id)
        return review_run(run_id, judged, history, self.disputed_items(run_id))

    def panel_labels(self: _Host, run_id: str) -> list[PanelLabel]:
        """Every panel label of a run, oldest first."""
        rows = self.db.query(
            "SELECT * FROM panel_labels WHERE run_id = ? ORDER BY id", [self.resolve(run_id)]
        )
        return [PanelLabel.model_validate(r) for r in rows]

    def assignments(self: _Host, run_id: str) -> list[Assignment]:
        """Every assignment of a run's queue items, oldest first."""
        rows = self.db.query(
            "SELECT * FROM assignments WHERE run_id = ? ORDER BY id", [self.resolve(run_id)]
        )
        return [Assignment.model_validate(r) for r in rows]

    def queue_item_ids(self: _Host, run_id: str, queue: Queue | None = None) -> list[str]:
        """The items of a run's queue: the audit sample's answers, the triage claims, or both."""
        run_id = self.resolve(run_id)  # the queue as judged and reviewed, disputes aside
        run = review_run(run_id, self.load_report(run_id), self.override_history(run_id))
        audit = [i.review_id for i in run.queue.audit]
        triage = [i.claim.claim_id for i in run.queue.items]
        return {"audit": audit, "triage": triage, None: triage + audit}[queue]

    def panel(self: _Host, run_id: str) -> list[PanelItem]:
        """Where every labelled or assigned item of the run stands (queue order first)."""
        run_id = self.resolve(run_id)
        per_item = _per_item(self.load_report(run_id))
        labels, assigned = self.panel_labels(run_id), self.assignments(run_id)
        latest = latest_by_claim(self.override_history(run_id))
        ids = [
            *self.queue_item_ids(run_id),
            *(x.item_id for x in labels),
            *(a.item_id for a in assigned),
        ]
        return [
            rules.panel_item(
                i,
                [x for x in labels if x.item_id == i],
                [a.reviewer for a in assigned if a.item_id == i],
                per_item,
                latest.get(i),
            )
            for i in dict.fromkeys(ids)
        ]

    def panel_item(self: _Host, run_id: str, item_id: str) -> PanelItem:
        """One item of the panel (NotFoundError if it is in no queue of the run)."""
        for item in self.panel(run_id):
            if item.item_id == item_id:
                return item
        raise NotFoundError(f"{item_id!r} is not in a review queue of run {run_id}")

    def disputed_items(self: _Host, run_id: str) -> list[str]:
        """Items the panel disagrees on that nobody adjudicated (they hold the gate)."""
        run_id = self.resolve(run_id)
        if not self.db.execute(
            "SELECT 1 FROM panel_labels WHERE run_id = ? LIMIT 1", [run_id]
        ).fetchone():
            return []
        return [i.item_id for i in self.panel(run_id) if i.state == "disputed"]

    def assign_items(
        self: _Host, run_id: str, queue: Queue, reviewers: Sequence[str], actor: str
    ) -> list[Assignment]:
        """Deal a queue's items round-robin so each has ``reviews_per_item`` reviewers."""
        run_id = self.resolve(run_id)
        per_item = _per_item(self.load_report(run_id))
        items = self.queue_item_ids(run_id, queue)
        have: dict[str, list[str]] = {}
        for a in self.assignments(run_id):
            have.setdefault(a.item_id, []).append(a.reviewer)
        pairs = rules.round_robin(items, reviewers, per_item, have)
        return [self._assign(run_id, i, who, "round_robin", actor) for i, who in pairs]

    def claim_item(self: _Host, run_id: str, item_id: str, reviewer: str) -> Assignment:
        """A reviewer takes an item whose panel still has room."""
        run_id = self.resolve(run_id)
        item = self.panel_item(run_id, item_id)
        per_item = _per_item(self.load_report(run_id))
        if reviewer in item.assigned:
            raise UsageError(f"{item_id} is already assigned to {reviewer}")
        if len(item.assigned) >= per_item:
            raise UsageError(f"{item_id} already has {per_item} reviewers")
        return self._assign(run_id, item_id, reviewer, "claimed", reviewer)

    def _assign(
        self: _Host, run_id: str, item_id: str, who: str, how: AssignHow, by: str
    ) -> Assignment:
        at = now()
        with self._write():
            cur = self.db.execute(
                "INSERT INTO assignments (run_id, item_id, reviewer, how, assigned_by, at) "
                "VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                [run_id, item_id, who, how, by, at],
            )
            aid = rowid(cur)
            self._audit(by, "assign", run_id, {"item_id": item_id, "reviewer": who, "how": how})
        return Assignment(
            id=aid,
            run_id=run_id,
            item_id=item_id,
            reviewer=who,
            how=how,
            assigned_by=by,
            at=at,
        )

    def add_panel_label(
        self: _Host, run_id: str, item_id: str, label: str, comment: str, reviewer: str
    ) -> PanelItem:
        """Record one reviewer's blind label; the panel's last label settles the item (the
        agreed label is put in force) or opens a dispute. With ``reviews_per_item`` = 1 the
        label is the item's override directly."""
        run_id = self.resolve(run_id)
        value = rules.check_label(item_id, label)
        who = reviewer.strip()
        if not who or not comment.strip():
            raise UsageError("a label needs a reviewer name and a comment saying why")
        per_item = _per_item(self.load_report(run_id))
        if per_item == 1:
            _put_in_force(self, run_id, item_id, value, comment, who)
            return self.panel_item(run_id, item_id)
        self._insert_label(run_id, item_id, value, comment, who, per_item)
        item = self.panel_item(run_id, item_id)
        if item.state == "disputed":
            with self._write():
                detail = {"item_id": item_id, "labels": {x.reviewer: x.label for x in item.labels}}
                self._audit(who, "panel_dispute", run_id, detail)
                # The cached run-list summary follows overrides; a dispute changes none but
                # holds the gate, so drop the cache and let the next listing recompute it.
                self.db.execute("DELETE FROM run_summaries WHERE run_id = ?", [run_id])
        elif len(item.labels) >= per_item and item.label_in_force is None:
            names = ", ".join(x.reviewer for x in item.labels)
            note = f"panel of {per_item} agreed ({names}): {comment}"
            _put_in_force(self, run_id, item_id, value, note, who)
            item = self.panel_item(run_id, item_id)
        return item

    def _insert_label(
        self: _Host, run_id: str, item_id: str, value: str, comment: str, who: str, per_item: int
    ) -> None:
        assigned = self.panel_item(run_id, item_id).assigned  # NotFoundError: in no queue
        at = now()
        with self._write():  # re-read under the write lock: two last labels cannot race
            rows = self.db.query(
                "SELECT * FROM panel_labels WHERE run_id = ? AND item_id = ? ORDER BY id",
                [run_id, item_id],
            )
            labels = [PanelLabel.model_validate(r) for r in rows]
            item = rules.panel_item(item_id, labels, assigned, per_item, None)
            rules.check_may_label(item, who, per_item)
            cur = self.db.execute(
                "INSERT INTO panel_labels (run_id, item_id, reviewer, label, comment, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                [run_id, item_id, who, value, comment, at],
            )
            detail = {"item_id": item_id, "panel_label_id": rowid(cur)}
            self._audit(who, "panel_label", run_id, detail)  # the label itself stays blind
            if who not in assigned:  # labelling an unassigned item claims it
                self.db.execute(
                    "INSERT INTO assignments (run_id, item_id, reviewer, how, assigned_by, at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    [run_id, item_id, who, "claimed", who, at],
                )

    def adjudicate(
        self: _Host,
        run_id: str,
        item_id: str,
        label: str,
        comment: str,
        adjudicator: str,
        roles: Set[Role] = frozenset(),
    ) -> PanelItem:
        """Decide a disputed item (a reviewer outside its panel, or a release manager)."""
        run_id = self.resolve(run_id)
        value = rules.check_label(item_id, label)
        if not adjudicator.strip() or not comment.strip():
            raise UsageError("an adjudication needs the adjudicator's name and a comment")
        item = self.panel_item(run_id, item_id)
        rules.check_adjudicator(item, adjudicator, set(roles))
        _put_in_force(self, run_id, item_id, value, f"adjudicated: {comment}", adjudicator)
        return self.panel_item(run_id, item_id)

    def team_agreement(self: _Host, run_id: str) -> TeamAgreement:
        """Inter-reviewer and judge–human agreement of a run, with its disputed items."""
        run_id = self.resolve(run_id)
        return team_agreement(
            self.load_report(run_id), self.override_history(run_id), self.panel(run_id)
        )


def _put_in_force(host: _Host, run_id: str, item_id: str, value: str, note: str, who: str) -> None:
    """The settled label as the item's override (answer label, or claim verdict)."""
    audit = item_id.startswith(AUDIT_PREFIX)
    host._settling_panel = True
    try:
        host.add_override(
            run_id,
            item_id,
            label=value if audit else None,
            verdict=None if audit else value,
            comment=note,
            reviewer=who,
        )
    finally:
        host._settling_panel = False


def check_single_review(db: Database, run_id: str, item_id: str, settles_panel: bool) -> None:
    """A run whose policy asks several reviews per item takes its labels through the panel
    (``halgate queue label``), never one reviewer's override put straight in force; only a
    settled panel label (``settles_panel``) is written as its override."""
    if settles_panel or item_id.startswith("pairwise:"):
        return  # a pairwise decision is no queue item of a panel
    row = db.execute("SELECT policy FROM runs WHERE run_id = ?", [run_id]).fetchone()
    per_item = json.loads(row[0] or "{}").get("reviews_per_item", 1) if row else 1
    if per_item > 1:
        raise UsageError(
            f"run {run_id} takes {per_item} blind reviews per item: label {item_id} with "
            "`halgate queue label` (or the dashboard's Review queue page), not an override"
        )

"""Team review commands: `halgate roles grant|revoke|list` and `halgate queue
assign|claim|label|adjudicate|status` (docs/team-review.md).

Thin faces over the Store's role and panel methods; who holds which role is
``halgate.review.roles``' rule, the panel's rules are ``halgate.review.panel``'s.
"""

from __future__ import annotations

import getpass
from enum import StrEnum
from typing import Annotated

import typer

from ...review import rights, roles
from ..app import app, out
from ..store_commands import DEFAULT_DB, _db, _run_arg, store_at

roles_app = typer.Typer(
    no_args_is_help=True,
    rich_markup_mode=None,
    help="Reviewer, release manager and admin roles of the store (an audited history).",
)
queue_app = typer.Typer(
    no_args_is_help=True,
    rich_markup_mode=None,
    help="Review queues for several reviewers: assign, label blind, adjudicate.",
)
app.add_typer(roles_app, name="roles", short_help="Grant, revoke and list reviewer roles.")
app.add_typer(queue_app, name="queue", short_help="Multi-reviewer queues of a run.")


def _me() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no login name in some containers
        return "halgate"


Identity = Annotated[
    str, typer.Argument(help="The identity as the login gives it: verified email or subject.")
]
RoleArg = Annotated[str, typer.Argument(help="reviewer, release_manager or admin.")]
By = Annotated[
    str | None,
    typer.Option("--by", help="Who makes the change (default: your login name on this host)."),
]


@roles_app.command("grant")
def grant(
    identity: Identity,
    role: RoleArg,
    by: By = None,
    db: Annotated[str, _db("holding the roles table")] = DEFAULT_DB,
) -> None:  # noqa: E501
    """Grant a role (recorded in the roles history and the audit log)."""
    with store_at(db, create=True) as store:
        c = store.change_role("grant", identity, role, by or _me())
    out.print(
        f"#{c.id}: {c.principal} now holds {c.role.value} (granted by {c.actor})", markup=False
    )


@roles_app.command("revoke")
def revoke(
    identity: Identity,
    role: RoleArg,
    by: By = None,
    db: Annotated[str, _db("holding the roles table")] = DEFAULT_DB,
) -> None:  # noqa: E501
    """Revoke a role (the grant stays in the history)."""
    with store_at(db) as store:
        c = store.change_role("revoke", identity, role, by or _me())
    out.print(
        f"#{c.id}: {c.principal} no longer holds {c.role.value} (revoked by {c.actor})",
        markup=False,
    )


@roles_app.command("list")
def list_roles(
    history: Annotated[bool, typer.Option("--history", help="Every grant and revoke.")] = False,
    db: Annotated[str, _db("holding the roles table")] = DEFAULT_DB,
) -> None:
    """Roles in force: the roles table, then the configured release managers."""
    with store_at(db) as store:
        granted, changes = store.granted_roles(), store.role_history()
    for who in sorted(granted):
        out.print(f"{who}: {', '.join(sorted(r.value for r in granted[who]))}", markup=False)
    for who in rights.release_managers():
        out.print(f"{who}: release_manager (server configuration)", markup=False)
    claim = roles.roles_claim()
    if claim:
        out.print(f"(and the login's {claim!r} claim, per [review.role_groups])", markup=False)
    if history:
        for c in changes:
            out.print(
                f"#{c.id} {c.at} {c.actor} {c.action} {c.principal} {c.role.value}", markup=False
            )


class QueueName(StrEnum):
    """The two queues of a run."""

    audit = "audit"
    triage = "triage"


Reviewer = Annotated[
    str,
    typer.Option(
        "--reviewer",
        "-r",
        envvar="HALGATE_REVIEWER",
        help="Your name (default: $HALGATE_REVIEWER).",
    ),
]
Item = Annotated[
    str, typer.Argument(help="audit:CASE:SYSTEM or a claim id (halgate queue status).")
]
Label = Annotated[
    str,
    typer.Option(
        "--label", "-l", help="HALLUCINATED or FAITHFUL (audit answer), a verdict (claim)."
    ),
]
Comment = Annotated[str, typer.Option("--comment", "-m", help="Why (kept with the label).")]


@queue_app.command("assign")
def assign(
    run_id: Annotated[str, _run_arg("whose queue to deal")],
    reviewers: Annotated[
        str, typer.Option("--reviewers", help="Comma-separated reviewers, dealt in turn.")
    ],
    queue: Annotated[
        QueueName, typer.Option("--queue", help="audit (the random sample) or triage.")
    ] = QueueName.audit,
    by: By = None,
    db: Annotated[str, _db("holding the run")] = DEFAULT_DB,
) -> None:
    """Deal a queue round-robin: each item to reviews_per_item (policy) reviewers."""
    with store_at(db) as store:
        made = store.assign_items(run_id, queue.value, reviewers.split(","), by or _me())
    for a in made:
        out.print(f"{a.item_id} -> {a.reviewer}", markup=False)
    out.print(f"{len(made)} assignment(s)", markup=False)


@queue_app.command("claim")
def claim(
    run_id: Annotated[str, _run_arg("of the item")],
    item: Item,
    reviewer: Reviewer,
    db: Annotated[str, _db("holding the run")] = DEFAULT_DB,
) -> None:  # noqa: E501
    """Take an item whose panel still has room."""
    with store_at(db) as store:
        a = store.claim_item(run_id, item, reviewer)
    out.print(f"{a.item_id} claimed by {a.reviewer}", markup=False)


@queue_app.command("label")
def label(
    run_id: Annotated[str, _run_arg("of the item")],
    item: Item,
    label: Label,
    comment: Comment,
    reviewer: Reviewer,
    db: Annotated[str, _db("holding the run")] = DEFAULT_DB,
) -> None:  # noqa: E501
    """Label an item blind; the panel's last label settles it or opens a dispute."""
    with store_at(db) as store:
        p = store.add_panel_label(run_id, item, label, comment, reviewer)
    shown = f" ({p.label_in_force} in force)" if p.label_in_force else ""
    out.print(f"{p.item_id}: {len(p.labels)} label(s), {p.state}{shown}", markup=False)


@queue_app.command("adjudicate")
def adjudicate(
    run_id: Annotated[str, _run_arg("of the item")],
    item: Item,
    label: Label,
    comment: Comment,
    reviewer: Reviewer,
    db: Annotated[str, _db("holding the run")] = DEFAULT_DB,
) -> None:  # noqa: E501
    """Decide a disputed item: a reviewer outside its panel, or a release manager."""
    with store_at(db) as store:
        held = roles.roles_of(reviewer, store.granted_roles(), store.release_managers())
        p = store.adjudicate(run_id, item, label, comment, reviewer, held)
    out.print(
        f"{p.item_id}: adjudicated by {p.adjudicator}, {p.label_in_force} in force", markup=False
    )


@queue_app.command("status")
def status(
    run_id: Annotated[str, _run_arg("whose queues to show")],
    db: Annotated[str, _db("holding the run")] = DEFAULT_DB,
) -> None:  # noqa: E501
    """Every queue item with its assignees and state; labels only once settled or disputed."""
    from ...reports.team_text import team_lines
    from ...review.panel import visible_labels

    with store_at(db) as store:
        items, team = store.panel(run_id), store.team_agreement(run_id)
    for p in items:
        labels = ", ".join(f"{x.reviewer}={x.label}" for x in visible_labels(p, None))
        hidden = "" if labels or not p.labels else f"{len(p.labels)} blind label(s)"
        assigned = ",".join(p.assigned) or "-"
        out.print(
            f"{p.item_id} [{p.state}] assigned {assigned} {labels or hidden}".rstrip(), markup=False
        )
    out.print(team_lines(team), markup=False, end="")

"""Review-store commands of `halgate`: runs, show, review, override, reviews, gate, signoff,
export, audit.

Registered on the main Typer app when ``cli`` is imported. Each command opens the store,
calls one store method and renders text; store errors become one line and exit code 4.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from ..database import mask_text, parse_target, target_exists
from ..errors import HalgateError, StoreError
from ..store import Store
from .app import app, fail, out

DEFAULT_DB = "halgate.db"


def _db(purpose: str) -> Any:
    """The --db option, its help saying what this command reads or writes there."""
    return typer.Option(
        "--db",
        envvar="HALGATE_DB",
        help=f"Review database {purpose}: a SQLite file (a path or sqlite:///PATH) or a "
        "PostgreSQL store (postgresql://USER@HOST/DB). Default: $HALGATE_DB, else ./halgate.db.",
    )


def _run_arg(purpose: str) -> Any:
    return typer.Argument(
        help=f"Run {purpose}: its id, a unique prefix (see `halgate runs`), or latest."
    )


_MANAGERS = (
    "one of $HALGATE_RELEASE_MANAGERS (comma-separated) when that is set, else of "
    "[review] release_managers in halgate.toml, or a release_manager or admin of the store's "
    "roles table (halgate roles grant); a run's policy never grants it"
)


class Format(StrEnum):
    """Export formats."""

    json = "json"
    markdown = "markdown"
    junit = "junit"
    csv = "csv"
    html = "html"


class SignOffChoice(StrEnum):
    """Sign-off decisions."""

    approve = "approve"
    reject = "reject"


@contextmanager
def store_at(db: str | Path, create: bool = False) -> Iterator[Store]:
    """A store for one command; a missing file is an error unless the command creates runs."""
    try:
        target = parse_target(db)
        if not create and not target_exists(target):
            raise StoreError(f"{target}: no review database here (run `halgate run SUITE` or --db)")
        with Store(target) as store:
            yield store
    except HalgateError as exc:
        raise fail(exc) from None
    except sqlite3.Error as exc:  # disk full, locked past the busy timeout, read-only file
        raise fail(StoreError(f"{mask_text(str(db))}: database error: {exc}")) from None


@app.command("runs", short_help="List stored runs with status and review progress.")
def list_runs(
    db: Annotated[str, _db("whose runs to list")] = DEFAULT_DB,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object per run instead of a table.")
    ] = False,
) -> None:
    """List stored runs, newest first, with effective status and review progress."""
    from ..reports.review_text import runs_table

    with store_at(db) as store:
        rows = store.list_runs()
    if as_json:
        out.print_json(json.dumps([r.model_dump(mode="json") for r in rows]))
    else:
        out.print(runs_table(rows), markup=False, end="")


@app.command(short_help="Summary of a run from effective verdicts.")
def show(
    run_id: Annotated[str, _run_arg("to summarise")],
    db: Annotated[str, _db("holding the run")] = DEFAULT_DB,
) -> None:
    """Summary of a run from effective verdicts, its overrides, judge agreement and sign-offs."""
    from ..reports.review_text import agreement_lines, override_line, signoff_lines
    from ..reports.summary import summary_text
    from ..reports.team_text import team_lines

    with store_at(db) as store:
        run = store.reviewed_run(run_id)
        signed = store.signoffs(run.run_id)
        team = store.team_agreement(run.run_id)
    judged, report = run.judged, run.report
    out.print(summary_text(report), markup=False, end="")
    if judged.decision.status != report.decision.status:
        out.print(f"  (as judged, before overrides: {judged.decision.status.value})", markup=False)
    out.print(f"Review queue: {run.queue.counts.text()}", markup=False)
    if run.queue.counts.audit:
        out.print(run.queue.counts.audit_text().capitalize(), markup=False)
    out.print(f"\nOverrides ({len(run.overrides)}):", markup=False)
    for o in run.overrides:
        out.print(f"  {override_line(o)}", markup=False)
    out.print("\n" + agreement_lines(run.agreement) + signoff_lines(signed), markup=False, end="")
    out.print(team_lines(team), markup=False, end="")


@app.command(short_help="The review queue of a run: severe claims, pairs, audit sample.")
def review(
    run_id: Annotated[str, _run_arg("whose review queue to list")],
    db: Annotated[str, _db("holding the run and its overrides")] = DEFAULT_DB,
    pending: Annotated[
        bool,
        typer.Option(
            "--pending",
            help="List only the claims, pairs and audited answers no reviewer has decided.",
        ),
    ] = False,
) -> None:
    """The review queue: severe claims of the gated system with evidence and review state,
    then the pairwise cases that need a person (A and B, both orders' results), then the
    random audit sample's answers to label as whole answers (audit:CASE:SYSTEM)."""
    from ..reports.audit_text import audit_lines
    from ..reports.review_text import review_lines

    with store_at(db) as store:
        run = store.reviewed_run(run_id)
    text = review_lines(
        run.queue.items, pending_only=pending, pairs=run.queue.pairs, answers=run.judged.answers
    )
    out.print(text, markup=False, end="")
    out.print(
        audit_lines(run.queue.audit, run.judged.answers, pending, run.judged.audit_seed),
        markup=False,
        end="",
    )


@app.command(short_help="Correct or confirm a claim, decide a pair, label an audited answer.")
def override(
    run_id: Annotated[str, _run_arg("the claim belongs to")],
    claim_id: Annotated[
        str,
        typer.Argument(
            help="Claim to correct or confirm, e.g. q1/candidate/0, a pairwise case to "
            "decide, e.g. pairwise:q1, or an answer of the audit sample to label, e.g. "
            "audit:q1:candidate (see `halgate review`)."
        ),
    ],
    comment: Annotated[
        str,
        typer.Option("--comment", "-m", help="Why you correct or confirm it (kept with it)."),
    ],
    reviewer: Annotated[
        str,
        typer.Option(
            "--reviewer",
            "-r",
            envvar="HALGATE_REVIEWER",
            help="Your name, recorded with the override (default: $HALGATE_REVIEWER).",
        ),
    ],
    verdict: Annotated[
        str | None,
        typer.Option(
            help="New verdict: SUPPORTED, PARTIALLY_SUPPORTED, UNSUPPORTED, "
            "CONTRADICTED or OUT_OF_SCOPE."
        ),
    ] = None,
    htype: Annotated[
        str | None,
        typer.Option(
            "--type",
            help="New hallucination type: FABRICATION, DISTORTION, "
            "OMISSION_AS_FACT or CITATION_ERROR.",
        ),
    ] = None,
    severity: Annotated[
        str | None, typer.Option(help="New severity: LOW, MEDIUM, HIGH or CRITICAL.")
    ] = None,
    preference: Annotated[
        str | None,
        typer.Option(
            help="Decide a pairwise case (pairwise:CASE): A, B or TIE, which output is more "
            "factual (A and B as `halgate review` lists them)."
        ),
    ] = None,
    label: Annotated[
        str | None,
        typer.Option(
            help="Label an answer of the audit sample (audit:CASE:SYSTEM) as a whole: "
            "hallucinated (some claim is not backed by the sources) or faithful."
        ),
    ] = None,
    db: Annotated[str, _db("the override is appended to")] = DEFAULT_DB,
) -> None:
    """Correct or confirm one claim (no --verdict/--type/--severity = confirm), decide a
    pairwise case with --preference A|B|TIE, or label an audited answer with --label
    hallucinated|faithful; newest wins, nothing is edited in place."""
    from ..reports.review_text import override_line

    with store_at(db) as store:
        o = store.add_override(
            run_id,
            claim_id,
            verdict=verdict,
            hallucination_type=htype,
            severity=severity,
            preference=preference,
            label=label,
            comment=comment,
            reviewer=reviewer,
        )
        d = store.effective_report(o.run_id).decision
    out.print(f"recorded override {override_line(o)}", markup=False)
    out.print(f"gate now: {d.status.value} (exit code {d.exit_code})", markup=False)


@app.command(short_help="A reviewer's own reviews across every run, newest first.")
def reviews(
    reviewer: Annotated[
        str,
        typer.Option(
            "--reviewer",
            "-r",
            envvar="HALGATE_REVIEWER",
            help="Whose reviews to list, the name as recorded with them (default: "
            "$HALGATE_REVIEWER).",
        ),
    ],
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="List only this many, the newest.")
    ] = None,
    db: Annotated[str, _db("whose overrides to list")] = DEFAULT_DB,
) -> None:
    """Every override recorded under a reviewer's name, in every run, newest first: run,
    suite, item, what it did, whether it is still in force, comment and time."""
    from ..reports.review_text import own_review_lines

    with store_at(db) as store:
        found = store.reviews_by(reviewer, limit=limit)
    out.print(own_review_lines(found, reviewer), markup=False, end="")


@app.command(short_help="Decide a stored run; exit with the gate's code.")
def gate(
    run_id: Annotated[str, _run_arg("to decide")],
    db: Annotated[str, _db("holding the run and its overrides")] = DEFAULT_DB,
) -> None:
    """Decide from effective verdicts; exit 0 pass, 1 fail, 2 harness, 3 review, 4 input."""
    from ..reports.review_text import decision_lines

    with store_at(db) as store:
        reviewed = store.reviewed_run(run_id)
    d, counts = reviewed.report.decision, reviewed.queue.counts
    out.print(decision_lines(d), markup=False, end="")
    if counts.pending:
        claims = counts.pending - counts.pairs_pending
        waiting = [f"{claims} claim(s)"] if claims else []
        waiting += [f"{counts.pairs_pending} pair(s)"] if counts.pairs_pending else []
        out.print(
            f"{' and '.join(waiting)} await review ({counts.reviewed} of {counts.total} "
            "in the review queue reviewed)",
            markup=False,
        )
    if counts.audit:
        out.print(counts.audit_text().capitalize(), markup=False)
    raise typer.Exit(d.exit_code)


@app.command(short_help="Approve or reject a run as a release manager.")
def signoff(
    run_id: Annotated[str, _run_arg("to approve or reject")],
    decision: Annotated[
        SignOffChoice, typer.Option(help="approve or reject the release on this run.")
    ],
    reviewer: Annotated[
        str,
        typer.Option(
            "--reviewer",
            "-r",
            envvar="HALGATE_REVIEWER",
            help=f"Your name (default: $HALGATE_REVIEWER); it must be a release manager: "
            f"{_MANAGERS}.",
        ),
    ],
    comment: Annotated[
        str, typer.Option("--comment", "-m", help="Why you approve or reject (kept with it).")
    ],
    override_gate: Annotated[
        bool,
        typer.Option(
            "--override-gate",
            help="Approve although the gate's decision is not PASSED (FAILED, NEEDS_REVIEW or "
            "HARNESS_ERROR); recorded with the sign-off. Without it such an approval is refused.",
        ),
    ] = False,
    db: Annotated[str, _db("the sign-off is appended to")] = DEFAULT_DB,
) -> None:
    """Approve or reject a run as a release manager.

    Release managers come from this server's configuration only: the names in
    $HALGATE_RELEASE_MANAGERS (comma-separated) when it is set, else release_managers in the
    [review] section of halgate.toml, and the release_manager and admin roles of the store's
    roles table (halgate roles). A run's policy (suite or uploaded report) grants nothing.
    Approving a decision other than PASSED needs --override-gate and a comment (exit 4 without).
    """
    with store_at(db) as store:
        s = store.sign_off(run_id, decision.value, reviewer, comment, override_gate=override_gate)
    out.print(
        f"sign-off #{s.id}: {s.decision.value} by {s.reviewer} on decision "
        f"{s.decision_status.value} of run {s.run_id}"
        + (" (overriding the gate)" if s.override_gate else ""),
        markup=False,
    )


@app.command(short_help="Export a run: json, markdown, junit, csv or html.")
def export(
    run_id: Annotated[str, _run_arg("to export")],
    fmt: Annotated[
        Format,
        typer.Option(
            "--format",
            "-f",
            help="json: report; markdown: PR comment / CI summary; junit: severe claims as "
            "failing tests; csv: one row per claim; html: self-contained page.",
        ),
    ] = Format.json,
    out_path: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Write the export to this file (default: stdout)."),
    ] = None,
    db: Annotated[str, _db("holding the run and its overrides")] = DEFAULT_DB,
) -> None:
    """Export a run with overrides applied (json, markdown, junit, csv or html), each showing
    the judge's verdict beside the reviewed one, who reviewed and when, and the sign-off."""
    from ..reports.render import render

    with store_at(db) as store:
        text = render(store.reviewed_export(run_id), fmt.value)
    if out_path is None:
        typer.echo(text, nl=False)
        return
    from ..reports.atomic import write_atomically

    try:  # a temporary file, then a rename: never half a file, never through a link
        write_atomically(out_path, text.encode("utf-8"))
    except OSError as exc:
        raise fail(StoreError(f"{out_path}: cannot write: {exc.strerror}")) from None
    out.print(f"wrote {fmt.value} to {out_path}", markup=False)


@app.command(short_help="The append-only audit log.")
def audit(
    run_id: Annotated[
        str | None, typer.Argument(help="Show only this run's entries (default: every run).")
    ] = None,
    db: Annotated[str, _db("whose audit log to print")] = DEFAULT_DB,
) -> None:
    """The append-only audit log: every saved run, override and sign-off with who and when."""
    with store_at(db) as store:
        entries = store.audit(run_id)
    for e in entries:
        detail = json.dumps(e.detail, ensure_ascii=False)
        out.print(f"#{e.id} {e.at} {e.actor} {e.action} {e.run_id or '-'} {detail}", markup=False)

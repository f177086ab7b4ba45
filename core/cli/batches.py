"""`halgate batches`: the Batch API batches of `halgate run --batch-api`; collect one.

``halgate batches`` lists the batches no run has finished yet, each polled for its status
(``GET /v1/batches/{id}``); ``halgate batches collect ID`` finishes the run that submitted
the batch, from the inputs recorded with it, exactly as re-running that command would.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ..errors import HalgateError, UsageError
from .app import app, fail, out
from .llm_options import ApiKeyFileOpt, ApiKeyOpt, BaseUrlOpt, key_option

batches_app = typer.Typer(
    no_args_is_help=False,
    rich_markup_mode=None,
    help="List the Batch API batches of `halgate run --batch-api` that no run has finished "
    "yet, each polled for its status (GET /v1/batches/ID); `halgate batches collect ID` "
    "downloads a completed batch and finishes its run and report.",
)
app.add_typer(
    batches_app,
    name="batches",
    short_help="List Batch API batches; collect one to finish its run.",
)

DbOpt = Annotated[
    str,
    typer.Option(
        "--db",
        envvar="HALGATE_DB",
        help="Review database the batches are recorded in (where `halgate run --batch-api` "
        "kept them). Default: $HALGATE_DB, else ./halgate.db.",
    ),
]


# The local state in words: "pending completed" read as a contradiction, when it means the
# provider finished and no run has collected the replies yet.
LOCAL_STATE = {
    "submitting": "being submitted",
    "pending": "not collected yet",
    "collected": "collected, run not finished",
    "failed": "failed",
    "done": "run finished",
}


@batches_app.callback(invoke_without_command=True)
def batches(
    ctx: typer.Context,
    db: DbOpt = "halgate.db",
    every: Annotated[
        bool, typer.Option("--all", help="Also list batches already finished or failed.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
    no_poll: Annotated[
        bool,
        typer.Option("--no-poll", help="Show the status last recorded; ask the provider nothing."),
    ] = False,
    base_url: BaseUrlOpt = None,
    api_key: ApiKeyOpt = None,
    api_key_file: ApiKeyFileOpt = None,
) -> None:
    """List the Batch API batches no run has finished yet (pending, collected, failed), each
    polled for its status at the endpoint it was sent to (or --base-url)."""
    if ctx.invoked_subcommand is not None:
        return
    from ..judges.llm_batch import list_batches

    try:
        key = key_option(api_key, api_key_file)
        rows = list_batches(db, every=every, poll=not no_poll, base_url=base_url, api_key=key)
    except HalgateError as exc:
        raise fail(exc) from None
    if as_json:
        data = [
            {
                "batch_id": r.job.batch_id,
                "state": r.job.state,
                "status": r.job.status,
                "counts": r.job.counts,
                "model": r.job.model,
                "base_url": r.job.base_url,
                "requests": r.job.n_requests,
                "created_at": r.job.created_at,
                "suite": (r.job.run or {}).get("suite"),
                "error": r.job.error,
                "note": r.note,
            }
            for r in rows
        ]
        out.print(json.dumps(data, indent=2), markup=False)
        return
    if not rows:
        out.print(f"no open Batch API batches in {db}", markup=False)
        return
    for r in rows:
        run = r.job.run or {}
        suite = f" suite {run['suite']}" if run.get("suite") else ""
        out.print(
            f"{r.job.batch_id}  here: {LOCAL_STATE.get(r.job.state, r.job.state)}  "
            f"provider: {r.progress}  {r.job.n_requests} request(s)  "
            f"model {r.job.model}  created {r.job.created_at}{suite}",
            markup=False,
        )
        ready = r.job.state == "pending" and r.job.status == "completed"
        hint = f"ready: halgate batches collect {r.job.batch_id}" if ready else None
        for extra in (r.job.error, r.note, hint):
            if extra:
                out.print(f"  {extra}", markup=False)


def check_configured_endpoint(batch_id: str, recorded: str | None) -> None:
    """Refuse to send the configured key (environment or halgate.toml) to the endpoint a
    batch's run named on its command line, when that is not the key's own endpoint."""
    from ..judges.llm.config import public_url, resolve_settings

    here = public_url(resolve_settings({}).base_url)
    if recorded is not None and public_url(recorded) != here:
        raise UsageError(
            f"batch {batch_id} was sent to {public_url(recorded)}, but the key configured here "
            f"is for {here or 'https://api.openai.com/v1'}: give that endpoint's key with "
            "--api-key-file (or --api-key), or --base-url"
        )


@batches_app.command("collect", short_help="Finish the run of a completed batch.")
def collect_batch(
    batch_id: Annotated[str, typer.Argument(help="The batch id, as `halgate batches` lists it.")],
    db: DbOpt = "halgate.db",
    base_url: BaseUrlOpt = None,
    api_key: ApiKeyOpt = None,
    api_key_file: ApiKeyFileOpt = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Do not show the judging progress bar.")
    ] = False,
) -> None:
    """Download a completed batch and finish the run that submitted it (its suite, options,
    report file and database, as recorded), exiting with the gate's code as `halgate run`
    does; 5 while the batch is still pending, 4 if it failed or expired."""
    import dataclasses

    from ..judges.llm_batch import batch_run_inputs
    from .run import RunInputs, perform_run

    try:
        key = key_option(api_key, api_key_file)
        inputs = RunInputs.from_record(batch_run_inputs(db, batch_id))
        if key is None and base_url is None:
            check_configured_endpoint(batch_id, inputs.base_url)
    except HalgateError as exc:
        raise fail(exc) from None
    inputs = dataclasses.replace(
        inputs,
        quiet=quiet or inputs.quiet,
        batch_api=True,
        base_url=base_url or inputs.base_url,
        db=db,  # where the batch was read from (a record never keeps a server's password)
    )
    perform_run(inputs, key)

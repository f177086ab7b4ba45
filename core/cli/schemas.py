"""`halgate schemas`: show, check or regenerate the published JSON Schemas."""

from __future__ import annotations

from typing import Annotated

import typer

from .app import app, out


@app.command()
def schemas(
    write: Annotated[
        bool, typer.Option("--write", help="Regenerate data/schemas/ from the models.")
    ] = False,
    check: Annotated[
        bool,
        typer.Option("--check", help="Exit 1 when a committed schema differs from the models."),
    ] = False,
) -> None:
    """Show, check or regenerate the published JSON Schemas."""
    from ..reports.schemas import PUBLISHED, schema_path, schema_text, write_schemas

    if write:
        for p in write_schemas():
            out.print(f"wrote {p}", markup=False)
        return
    drift = [
        n
        for n in PUBLISHED
        if not schema_path(n).exists()
        or schema_path(n).read_text(encoding="utf-8") != schema_text(n)
    ]
    for n in PUBLISHED:
        state = "DRIFT" if n in drift else "ok"
        out.print(f"{state:6} {schema_path(n)}", markup=False)
    if check and drift:
        raise typer.Exit(1)

"""`halgate import`: turn tables, datasets and trace exports into a suite folder.

Column flags override a ``--mapping`` TOML file, which overrides the defaults; `halgate run
--import FORMAT --source FILE` imports the same way (with ``--mapping``) before it runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from ..errors import HalgateError, UsageError
from .app import app, fail, out

FORMAT_HELP = (
    "csv, tsv, jsonl, json, parquet, hf (a dataset saved by save_to_disk), table (by file "
    "name), ragas, deepeval, otlp (OpenTelemetry JSON with OpenInference attributes), "
    "phoenix, langfuse, langsmith."
)
ImportOpt = Annotated[
    str | None,
    typer.Option(
        "--import",
        help="Import --source files of this format into SUITE first (replacing a former "
        "import there), then run it: " + FORMAT_HELP,
    ),
]
SourceOpt = Annotated[
    list[Path] | None,
    typer.Option(help="A file to import with --import (twice: baseline, then candidate)."),
]
MappingOpt = Annotated[
    Path | None, typer.Option(help="TOML file mapping columns to parts of a case (imports).")
]


def _column(part: str) -> Any:
    return typer.Option(help=f"Column holding the {part} (default: a common name, docs/import.md).")


def _answers(pairs: list[str]) -> dict[str, str]:
    found = {}
    for pair in pairs:
        system, sep, column = pair.partition("=")
        if not sep or not system or not column:
            raise UsageError(f"--answer {pair!r}: write SYSTEM=COLUMN")
        found[system] = column
    return found


def build_options(
    mapping_file: Path | None,
    columns: dict[str, Any],
    systems: str | None,
    split: str | None,
    system_attr: str | None,
) -> Any:
    """The import options: defaults, then the mapping file, then the flags."""
    from ..ingest import ImportOptions, Mapping, load_mapping

    mapping = load_mapping(mapping_file) if mapping_file is not None else Mapping()
    given = {k: v for k, v in columns.items() if v}
    mapping = mapping.model_copy(update=given)
    names = [s.strip() for s in systems.split(",")] if systems else None
    return ImportOptions(mapping=mapping, systems=names, split=split, system_attr=system_attr)


def run_import(fmt: str, sources: list[Path], suite: Path, options: Any) -> None:
    """Import, then print what was written and every case only some systems answered."""
    from ..ingest import import_sources

    summary = import_sources(fmt, sources, suite, options)
    out.print(
        f"imported {summary['cases']} case(s), {summary['documents']} document(s), "
        f"systems {', '.join(summary['systems'])} into {suite}",
        markup=False,
    )
    one_sided = summary["one_sided"]
    if one_sided:
        out.print(
            f"{len(one_sided)} case(s) not imported: not every system answered them "
            f"(listed in {suite / 'import.json'}):",
            markup=False,
        )
        for o in one_sided:
            out.print(
                f"  {o['key']!r}: answered by {', '.join(o['systems'])}, missing "
                f"{', '.join(o['missing'])} ({'; '.join(o['where'])})",
                markup=False,
            )


def import_for_run(fmt: str | None, sources: list[Path], suite: Path, mapping: Path | None) -> None:
    """`halgate run --import`: import the sources into the suite folder the run then reads."""
    if fmt is None or not sources:
        raise UsageError("--import FORMAT and --source FILE go together")
    run_import(fmt, sources, suite, build_options(mapping, {}, None, None, None))


@app.command("import", short_help="Import tables, datasets or traces as a suite folder.")
def import_command(
    fmt: Annotated[str, typer.Argument(metavar="FORMAT", help=FORMAT_HELP)],
    sources: Annotated[
        list[Path],
        typer.Argument(help="One file per system (two: baseline then candidate)."),
    ],
    suite: Annotated[Path, typer.Option("--out", "-o", help="Suite folder to write.")],
    mapping: MappingOpt = None,
    case_id: Annotated[str | None, _column("case id")] = None,
    question: Annotated[str | None, _column("question")] = None,
    contexts: Annotated[str | None, _column("retrieved contexts")] = None,
    answer: Annotated[
        list[str] | None,
        typer.Option(help="SYSTEM=COLUMN: a system's answer column (repeatable)."),
    ] = None,
    reference: Annotated[str | None, _column("reference answer")] = None,
    tags: Annotated[str | None, _column("tags")] = None,
    risk_level: Annotated[str | None, _column("risk level")] = None,
    domain: Annotated[str | None, _column("domain")] = None,
    join_on: Annotated[
        str | None,
        typer.Option(
            help="What pairs two sources' cases: case_id, question, trace_id, or a column or "
            "span attribute (e.g. metadata.case_id). Default: case_id if present, else question."
        ),
    ] = None,
    list_separator: Annotated[
        str | None, typer.Option(help="Splits a text cell of contexts, e.g. '|'.")
    ] = None,
    systems: Annotated[
        str | None,
        typer.Option(help="System names, one per source, comma-separated."),
    ] = None,
    split: Annotated[
        str | None, typer.Option(help="Split of a saved Hugging Face DatasetDict.")
    ] = None,
    system_attr: Annotated[
        str | None,
        typer.Option(
            help="Span attribute whose value names the system (two prompt versions "
            "in one export), e.g. llm.prompt_template.version."
        ),
    ] = None,
) -> None:
    """Import SOURCES of FORMAT as a suite folder (nothing is written on bad input, exit 4)."""
    columns: dict[str, Any] = {
        "case_id": case_id,
        "question": question,
        "contexts": contexts,
        "reference": reference,
        "tags": tags,
        "risk_level": risk_level,
        "domain": domain,
        "join_on": join_on,
        "list_separator": list_separator,
    }
    try:
        columns["answers"] = _answers(answer or [])
        options = build_options(mapping, columns, systems, split, system_attr)
        run_import(fmt, sources, suite, options)
    except HalgateError as exc:
        raise fail(exc) from None

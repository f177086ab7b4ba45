"""What the Runs page does to the store: evaluate a suite, or import a report file.

Both are thin sequences of halgate calls (the same ones ``halgate run`` makes: the policy by
``resolve_policy``, the judge by ``build_judge``); they raise ActionError with a message fit
for the page, and nothing is stored unless every step worked.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from halgate import HalgateError, Policy, Store, SuiteError
from halgate.inputs import (
    allowed_suite_folder,
    extract_suite_archive,
    load_suite,
    resolve_policy,
)
from halgate.judges import JudgeResult, build_judge
from halgate.models import Mode
from halgate.reports import parse_report
from halgate.run import check_two_systems, run_suite

Progress = Callable[[int, int], object]

POLICY_OF_SUITE = "The suite's policy.toml, else defaults"
POLICY_DEFAULTS = "Built-in defaults"
POLICY_UPLOAD = "Upload TOML"
POLICY_CHOICES = [POLICY_OF_SUITE, POLICY_DEFAULTS, POLICY_UPLOAD]
MODES = [m.value for m in Mode]
"""The run form's modes, as ``halgate run --mode`` takes them."""


ANONYMOUS = "dashboard (no reviewer name)"
"""The audit log's actor for a page action taken before the reviewer gave a name: never the
server's login (every action of every reviewer would read as the account the server runs as)."""


class ActionError(Exception):
    """A user-facing failure of a page action (bad upload, bad suite, judge error)."""


def _message(exc: HalgateError, work: Path | None = None) -> str:
    """The error for the page; paths inside the upload's scratch folder are shown relative
    to it ("upload/cases.jsonl:3"), never as the server's temporary folder."""
    text = "\n".join(exc.problems) if isinstance(exc, SuiteError) else str(exc)
    if work is not None:
        for scratch in {str(work.resolve()), str(work)}:
            text = text.replace(scratch + "/suite", "upload").replace(scratch, "upload")
    return text


def import_report(db: str, data: bytes, name: str = "upload", actor: str | None = None) -> str:
    """Validate an uploaded report against the schema and save it; return its run id."""
    return load_report_upload(db, data, name, actor)[0]


def load_report_upload(
    db: str, data: bytes, name: str = "upload", actor: str | None = None
) -> tuple[str, bool]:
    """Validate and save an uploaded report as ``actor`` (the reviewer, for the audit log);
    return its run id and whether that very report was stored already (then nothing is
    written, and the page says so rather than "loaded" a second time)."""
    try:
        report = parse_report(data, source=name)
    except HalgateError as exc:
        raise ActionError(f"Not loaded: {_message(exc)}") from None
    try:
        with Store(db) as store:
            known = _stored(store, report.run_id)
            return store.save_run(report, actor=actor or ANONYMOUS), known
    except HalgateError as exc:  # a run with this id is stored already; a newer database
        raise ActionError(f"Not loaded: {_message(exc)}") from None


def _stored(store: Store, run_id: str) -> bool:
    """Whether a run with exactly this id is in the store (a prefix match is another run)."""
    try:
        return store.resolve(run_id) == run_id
    except HalgateError:
        return False


def _policy(suite_dir: Path, choice: str, toml: bytes | None, work: Path) -> Policy:
    """The run form's policy: an uploaded TOML is the explicit file of ``resolve_policy``."""
    if choice == POLICY_UPLOAD:
        if not toml:
            raise ActionError("Choose a policy TOML file to upload, or another policy option.")
        path = work / "policy.toml"
        path.write_bytes(toml)
        return resolve_policy(path, suite_dir)
    if choice == POLICY_DEFAULTS:
        return resolve_policy(None, None)
    return resolve_policy(None, suite_dir)


def start_run(
    db: str,
    *,
    folder: str | None,
    archive: bytes | BinaryIO | None,
    judge: str,
    mode: str,
    policy_choice: str,
    policy_toml: bytes | None = None,
    baseline: str = "baseline",
    candidate: str = "candidate",
    progress: Progress | None = None,
    actor: str | None = None,
) -> str:
    """Load a suite (folder or zip), judge it, decide, save the run in ``db``; return its id.

    ``mode`` is any of ``halgate run --mode``; ``baseline`` and ``candidate`` are its
    ``--baseline`` / ``--candidate`` (compare and pairwise set one against the other; gate and
    consistency judge the candidate). Pairwise goes through the same ``run_suite``: a judge
    with its own pairwise method (llm) asks in both orders, any other (offline, cascade)
    derives the preference from its claims.

    The judge is built as ``halgate run --db DB`` builds it: same judge id, and the LLM
    judge's response cache lives in this database. A folder must lie under the server's
    suite roots (``halgate.inputs.suite_roots``); any other is "not an allowed suite folder".
    """
    with tempfile.TemporaryDirectory(prefix="halgate-upload-") as tmp:
        work = Path(tmp)
        try:
            if archive is not None:
                suite_dir = extract_suite_archive(archive, work / "suite")
            elif folder and folder.strip():
                suite_dir = allowed_suite_folder(folder)  # under the suite roots only
            else:
                raise ActionError("Give a suite folder path or upload a zipped suite.")
            suite = load_suite(suite_dir)
            policy = _policy(suite_dir, policy_choice, policy_toml, work)
            run_mode = Mode(mode)
            baseline, candidate = baseline.strip(), candidate.strip()
            try:
                check_two_systems(run_mode, baseline, candidate)
            except HalgateError as exc:
                raise ActionError(f"Run not started: {exc}.") from None
            j = build_judge(judge, policy, run_mode, db)
            total, done = len(suite.cases), 0

            def tick(_: JudgeResult) -> None:
                nonlocal done
                done += 1
                if progress is not None:
                    progress(done, total)

            report = run_suite(
                suite, j, policy, run_mode, baseline or None, candidate or None, progress=tick
            )
        except HalgateError as exc:
            raise ActionError(f"Run not started: {_message(exc, work)}") from None
    with Store(db) as store:
        return store.save_run(report, actor=actor or ANONYMOUS)

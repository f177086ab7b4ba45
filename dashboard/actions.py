"""What the Runs page does to the store: evaluate a suite, or import a report file.

Both are thin sequences of halgate calls (the same ones ``halgate run`` makes); they raise
ActionError with a message fit for the page, and nothing is stored unless every step worked.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from halgate.errors import HalgateError, SuiteError
from halgate.inputs.archive import extract_suite_archive
from halgate.inputs.policy import Policy, load_policy
from halgate.inputs.suite import load_suite
from halgate.judges.protocol import JudgeResult
from halgate.judges.registry import create_judge
from halgate.models import Mode
from halgate.reports.json_report import parse_report
from halgate.run.engine import run_suite
from halgate.store import Store

Progress = Callable[[int, int], None]


class ActionError(Exception):
    """A user-facing failure of a page action (bad upload, bad suite, judge error)."""


def _message(exc: HalgateError) -> str:
    if isinstance(exc, SuiteError):
        return "\n".join(exc.problems)
    return str(exc)


def import_report(db: str, data: bytes, name: str = "upload") -> str:
    """Validate an uploaded report against the schema and save it; return its run id."""
    try:
        report = parse_report(data, source=name)
    except HalgateError as exc:
        raise ActionError(f"Not loaded: {_message(exc)}") from None
    with Store(db) as store:
        return store.save_run(report)


def _policy(suite_dir: Path, choice: str, toml: bytes | None, work: Path) -> Policy:
    if choice.startswith("Upload"):
        if not toml:
            raise ActionError("Choose a policy TOML file to upload, or another policy option.")
        path = work / "policy.toml"
        path.write_bytes(toml)
        return load_policy(path)
    if choice.startswith("Built-in"):
        return load_policy(None)
    own = suite_dir / "policy.toml"
    return load_policy(own if own.exists() else None)


def start_run(
    db: str,
    *,
    folder: str | None,
    archive: bytes | None,
    judge: str,
    mode: str,
    policy_choice: str,
    policy_toml: bytes | None = None,
    progress: Progress | None = None,
) -> str:
    """Load a suite (folder or zip), judge it, decide, save the run; return its run id."""
    with tempfile.TemporaryDirectory(prefix="halgate-upload-") as tmp:
        work = Path(tmp)
        try:
            if archive:
                suite_dir = extract_suite_archive(archive, work / "suite")
            elif folder and folder.strip():
                suite_dir = Path(folder.strip()).expanduser()
            else:
                raise ActionError("Give a suite folder path or upload a zipped suite.")
            suite = load_suite(suite_dir)
            policy = _policy(suite_dir, policy_choice, policy_toml, work)
            j = create_judge(judge, severity_rules=policy.severity_rules)
            total, done = len(suite.cases), 0

            def tick(_: JudgeResult) -> None:
                nonlocal done
                done += 1
                if progress is not None:
                    progress(done, total)

            report = run_suite(suite, j, policy, Mode(mode), progress=tick)
        except HalgateError as exc:
            raise ActionError(f"Run not started: {_message(exc)}") from None
    with Store(db) as store:
        return store.save_run(report)

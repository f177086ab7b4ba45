"""Which suite folders the dashboard may read: only those under the configured roots.

Anyone who can reach the dashboard can type a path into its "folder on this machine" box, so
that box serves folders under the suite roots only, and says the same thing, "not an allowed
suite folder", whether a path is missing, is a file, lies outside every root or gets there
through a symbolic link: the answer never tells which paths exist on the server. The roots
are the server's configuration: ``HALGATE_SUITE_ROOTS`` (folders separated by ``os.pathsep``)
when set, else ``suite_roots`` in the ``[dashboard]`` section of ``halgate.toml``, else the
working directory the dashboard was started from::

    [dashboard]
    suite_roots = ["/srv/halgate/suites", "data/examples"]

Relative roots, and relative paths typed into the box, are taken from the working directory
(a typed relative path is looked for under each root in turn). ``halgate run`` on the command
line is not limited: whoever has the shell has the files already.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..errors import UsageError
from .server_config import config_section

ROOTS_ENV_VAR = "HALGATE_SUITE_ROOTS"
ROOTS_KEY = "[dashboard] suite_roots"
NOT_ALLOWED = "not an allowed suite folder"
HOW_TO_ADD = (
    "give a suite folder under the dashboard's suite roots; to serve another folder, add it "
    f"to {ROOTS_ENV_VAR} (folders separated by '{os.pathsep}') or to {ROOTS_KEY} in "
    "halgate.toml and restart the dashboard (or upload the suite as a zip)"
)


def suite_roots(
    env: Mapping[str, str] | None = None,
    paths: Sequence[Path] | None = None,
    cwd: Path | None = None,
) -> list[Path]:
    """The folders (resolved) under which the dashboard serves suites, from the server's
    configuration only: ``HALGATE_SUITE_ROOTS``, else ``[dashboard] suite_roots`` of the
    first config file in ``paths``, else ``cwd`` (default: the working directory)."""
    env = os.environ if env is None else env
    base = cwd or Path.cwd()
    names = [n.strip() for n in env.get(ROOTS_ENV_VAR, "").split(os.pathsep) if n.strip()]
    if not names:
        path, section = config_section("dashboard", paths)
        configured = section.get("suite_roots")
        if configured is not None and (
            not isinstance(configured, list) or not all(isinstance(n, str) for n in configured)
        ):
            raise UsageError(f"{path}: {ROOTS_KEY} must be a list of folder paths")
        names = [n.strip() for n in configured or [] if n.strip()]
    if not names:
        return [base.resolve()]
    return [(base / Path(n).expanduser()).resolve() for n in dict.fromkeys(names)]


def _real_folder(path: Path) -> Path | None:
    """The path with every link resolved, if it exists and is a folder, else None."""
    try:
        real = path.resolve(strict=True)
        return real if real.is_dir() else None
    except (OSError, RuntimeError, ValueError):  # missing, unreadable, a link loop, a NUL
        return None


def allowed_suite_folder(folder: str | Path, roots: Sequence[Path] | None = None) -> Path:
    """The real path of ``folder`` when it is a folder under one of ``roots`` (default:
    ``suite_roots()``), after resolving every symbolic link; else UsageError with the same
    words for every refusal (missing, not a folder, outside, a link that leads out)."""
    text = str(folder).strip()
    allowed = [r.resolve() for r in (suite_roots() if roots is None else roots)]
    if text:
        try:
            path = Path(text).expanduser()
        except RuntimeError:  # "~" with no home directory to expand to
            path = Path(text)
        tries = [path] if path.is_absolute() else [root / path for root in allowed]
        for candidate in tries:
            real = _real_folder(candidate)
            if real is not None and any(real.is_relative_to(root) for root in allowed):
                return real
    raise UsageError(f"{NOT_ALLOWED}: {HOW_TO_ADD}")

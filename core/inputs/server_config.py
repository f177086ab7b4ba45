"""The server's own configuration file, which every part of halgate reads from one place.

``halgate.toml`` in the working directory, else ``~/.config/halgate/config.toml``; the first
file that exists is the configuration, whole (sections are not merged across files). Its
sections belong to the parts that read them: ``[llm]`` (the LLM judge), ``[review]`` (who may
sign off), ``[dashboard]`` (which suite folders the dashboard serves). It is the server's,
never a suite's or an uploaded report's, so rights and limits may come from it.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import UsageError


def config_paths(cwd: Path | None = None) -> list[Path]:
    """Config files in the order they are looked for (first existing one wins)."""
    return [(cwd or Path.cwd()) / "halgate.toml", Path.home() / ".config/halgate/config.toml"]


def config_section(name: str, paths: Sequence[Path] | None = None) -> tuple[Path | None, dict]:
    """(file, ``[name]`` table) of the first config file found; (None, {}) when there is none.

    A file that is not valid TOML, or a ``name`` entry that is not a table, is a UsageError
    naming the file, so a typo never silently drops a setting.
    """
    for path in config_paths() if paths is None else paths:
        if not path.is_file():
            continue
        try:
            data: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise UsageError(f"{path}: not valid TOML: {exc}") from None
        section = data.get(name, {})
        if not isinstance(section, dict):
            raise UsageError(f"{path}: [{name}] must be a table of settings")
        return path, section
    return None, {}

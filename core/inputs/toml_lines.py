"""Where a key of a TOML file is written: the line a validation error points the user to.

``tomllib`` returns plain values without positions, so a bad value would be reported as
``policy.toml: max_rate_increase: ...`` and the reader hunts for it. This scans the text
for the table headers (``[a.b]``) and ``key =`` lines and answers the line of the longest
written prefix of a key path (``severity_rules.critical_domains.0`` is the line of
``critical_domains``). Keys in inline tables or written dotted (``a.b = 1``) fall back to
their first written part; a key not written at all has no line (a missing required value).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_HEADER = re.compile(r"^\[\[?\s*([^\[\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"""^(?:"([^"]+)"|'([^']+)'|([A-Za-z0-9_-]+))\s*[=.]""")


def _parts(dotted: str) -> tuple[str, ...]:
    return tuple(p.strip().strip("\"'") for p in dotted.split("."))


def key_lines(text: str) -> dict[tuple[str, ...], int]:
    """Every table and key path written in ``text``, with the 1-based line it starts on."""
    found: dict[tuple[str, ...], int] = {}
    table: tuple[str, ...] = ()
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        header = _HEADER.match(stripped)
        if header:
            table = _parts(header.group(1))
            found.setdefault(table, number)
            continue
        key = _KEY.match(stripped)
        if key:
            name = next(g for g in key.groups() if g is not None)
            found.setdefault((*table, name), number)
    return found


def key_line(text: str, path: Sequence[object], prefix: Sequence[str] = ()) -> int | None:
    """The line where the longest written prefix of ``prefix + path`` is, or None."""
    lines = key_lines(text)
    full = (*prefix, *map(str, path))
    for end in range(len(full), len(prefix), -1):
        if full[:end] in lines:
            return lines[full[:end]]
    return None

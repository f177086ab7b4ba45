"""Blank a secret in this process's own command line, as ``ps`` and ``/proc/PID/cmdline``
show it to every user of the machine.

``--api-key`` is convenient but lands in the kernel's copy of argv, readable by anyone for
the whole run. Once the CLI has read it, the bytes of that argument are overwritten in place
(Linux: the argv area named by ``/proc/self/stat``, written through ``/proc/self/mem``),
so only asterisks remain there. Best effort: elsewhere, or where the kernel refuses, nothing
changes and the key stays visible; ``--api-key-file`` or ``OPENAI_API_KEY`` never show.
"""

from __future__ import annotations

from pathlib import Path

_STAT = Path("/proc/self/stat")
_MEM = Path("/proc/self/mem")
ARG_START_FIELD = 48  # proc(5): arg_start and arg_end, fields 48 and 49 (Linux >= 3.5)


def _argv_area() -> tuple[int, int] | None:
    """(start, end) addresses of this process's argv strings, or None."""
    try:
        stat = _STAT.read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2 :].split()  # fields from the third on
    try:
        start, end = (int(fields[ARG_START_FIELD - 3 + i]) for i in (0, 1))
    except (IndexError, ValueError):
        return None
    return (start, end) if 0 < start < end else None


def hide_in_argv(secret: str) -> bool:
    """Overwrite every copy of ``secret`` in the command line; whether it was done."""
    area = _argv_area()
    needle = secret.encode()
    if area is None or not needle:
        return False
    start, end = area
    try:
        with open(_MEM, "r+b", buffering=0) as mem:
            mem.seek(start)
            data = mem.read(end - start)
            if needle not in data:
                return False
            mem.seek(start)
            mem.write(data.replace(needle, b"*" * len(needle)))
    except OSError:
        return False
    return True

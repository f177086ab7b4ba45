"""Write an output file atomically: a temporary file in the same folder, then a rename.

A report or an export that a crash, a full disk or a kill interrupts must not leave half a
file, nor destroy the good file it was replacing; and a planted symbolic link at the output
path must not redirect the write into its target (``os.replace`` replaces the link itself).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(path: Path | str, data: bytes) -> Path:
    """Write ``data`` to ``path`` all or nothing; OSError (no temporary file left) if not."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path

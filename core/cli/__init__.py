"""The `halgate` command: a thin face over the library, one module per command group.

``app`` holds the Typer application and the options several commands share; importing this
package registers every command on it, in the order ``halgate --help`` lists them.
"""

# Registration order is the order `halgate --help` lists the commands (ruff: I001 off here).
from .app import app, main
from . import run, ingest, batches, evaluate, schemas, calibrate  # noqa: F401
from . import selftest, dashboard, store_commands, ci, team  # noqa: F401

__all__ = ["app", "main"]

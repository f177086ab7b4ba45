"""Commands for a team's store: `halgate db` (upgrade, copy between engines) and the team
review commands `halgate roles` and `halgate queue` (several reviewers per item)."""

# Registration order is the order `halgate --help` lists the commands (ruff: I001 off here).
from . import db, review  # noqa: F401

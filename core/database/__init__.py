"""Where the review database lives and how to talk to it: a SQLite file or PostgreSQL.

The bottom layer under the store and the judges: parsing ``--db`` (``targets``), credentials
masked in every message, the SQL dialect adapter (``dialect``), the PostgreSQL connection
(``postgres``) and migrated connections for the judges' tables (``connection``).
"""

from .connection import Connection, open_connection, own_schema
from .postgres import PgDatabase
from .targets import DbTarget, is_server_url, mask_text, mask_url, parse_target, target_exists

__all__ = [
    "Connection",
    "DbTarget",
    "PgDatabase",
    "is_server_url",
    "mask_text",
    "mask_url",
    "open_connection",
    "own_schema",
    "parse_target",
    "target_exists",
]

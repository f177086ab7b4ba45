"""The review store (SQLite): runs, claims, overrides, sign-offs, judge cache, audit log.

Typical use (CLI and dashboard alike)::

    from . import Store
    with Store("halgate.db") as store:
        run_id = store.save_run(report)
        store.add_override(run_id, claim_id, verdict="SUPPORTED", comment="...", reviewer="ana")
        decision = store.effective_report(run_id).decision
"""

from ..database import own_schema
from ..models.review import (
    AgreementCell,
    AuditEntry,
    JudgeAgreement,
    Override,
    ReviewItem,
    RunRow,
    SignOff,
    SignOffDecision,
)
from ..review.effective import apply_override, effective_report, judge_agreement
from .connect import migrate_target
from .preflight import check_db_folder, check_db_target, writable_target
from .schema import SCHEMA_VERSION
from .store import Store

own_schema(migrate_target)  # the judges' tables are the store's: migrated before use

__all__ = [
    "SCHEMA_VERSION",
    "AgreementCell",
    "AuditEntry",
    "JudgeAgreement",
    "Override",
    "ReviewItem",
    "RunRow",
    "SignOff",
    "SignOffDecision",
    "Store",
    "apply_override",
    "check_db_folder",
    "check_db_target",
    "effective_report",
    "judge_agreement",
    "writable_target",
]

"""What the faces draw, as pure functions: tables (DataFrames), charts (plotly), highlighted
evidence (escaped HTML). Unit-tested without Streamlit; the dashboard only places them."""

from .charts import (
    TREND_COLUMN_TITLES,
    TREND_COLUMNS,
    empty_message,
    judge_health_chart,
    rate_trend_chart,
    severity_shift_chart,
    tag_shift_chart,
    transitions_chart,
    trend_column,
    type_shift_chart,
)
from .flips import flip_sentence, flipped_list
from .focus import deciding_citation, deciding_first, focus_script
from .highlight import (
    css,
    decision_banner,
    highlight_answer,
    highlight_source,
    legend,
    safe_id,
    scroll_script,
)
from .markdown_doc import is_markdown, render_markdown
from .provenance import claim_sources
from .review_tables import (
    OWN_REVIEW_COLUMNS,
    own_review_rows,
    queue_audit_rows,
    queue_claim_rows,
    queue_pair_rows,
)
from .tables import (
    ClaimFilter,
    changes_frame,
    claims_frame,
    filter_claims,
    judge_health_row,
    rates_frame,
    transitions_frame,
    trend_rows,
    verdict_transitions,
)

__all__ = [
    "claim_sources",
    "is_markdown",
    "render_markdown",
    "OWN_REVIEW_COLUMNS",
    "TREND_COLUMNS",
    "TREND_COLUMN_TITLES",
    "ClaimFilter",
    "changes_frame",
    "claims_frame",
    "css",
    "deciding_citation",
    "deciding_first",
    "decision_banner",
    "empty_message",
    "filter_claims",
    "flip_sentence",
    "flipped_list",
    "focus_script",
    "highlight_answer",
    "highlight_source",
    "judge_health_chart",
    "judge_health_row",
    "legend",
    "own_review_rows",
    "queue_audit_rows",
    "queue_claim_rows",
    "queue_pair_rows",
    "rates_frame",
    "rate_trend_chart",
    "safe_id",
    "scroll_script",
    "severity_shift_chart",
    "tag_shift_chart",
    "transitions_chart",
    "trend_column",
    "trend_rows",
    "type_shift_chart",
    "transitions_frame",
    "verdict_transitions",
]

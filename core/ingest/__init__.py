"""Import what teams already hold (tables, datasets, traces) as an ordinary suite folder.

One module per kind of source: ``rows`` and ``tables`` (CSV, TSV, JSONL, JSON, Parquet,
saved Hugging Face datasets; RAGAS and DeepEval column names), ``otlp`` (OpenTelemetry
spans with OpenInference attributes, Phoenix exports) and ``exports`` (Langfuse,
LangSmith); ``spans`` makes cases of traces, ``join`` pairs systems, ``writer`` writes.
"""

from .mapping import Mapping, load_mapping
from .sources import FORMATS, ImportOptions, import_sources

__all__ = ["FORMATS", "ImportOptions", "Mapping", "import_sources", "load_mapping"]

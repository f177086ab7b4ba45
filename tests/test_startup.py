"""The package imports its parts on first use: a run, the offline judge and a report load
neither the store (sqlite-utils pulls in pandas) nor the review and self-test code, which
was a third of a second of every command's start. Each check runs in a fresh interpreter,
where nothing else has imported them."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import halgate


def _fresh(code: str) -> dict[str, object]:
    """What `code` prints as JSON, run in a new interpreter."""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_every_public_name_resolves_and_is_listed_once() -> None:
    assert set(halgate._WHERE) == set(halgate.__all__)
    for name in halgate.__all__:
        value = getattr(halgate, name)
        assert getattr(value, "__name__", name) == name
    assert "run_suite" in dir(halgate)


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        halgate.no_such_name  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("an unknown name resolved")


def test_a_run_loads_neither_the_store_nor_pandas() -> None:
    loaded = _fresh(
        "import json, sys\n"
        "from halgate import load_suite, create_judge, run_suite, load_policy, write_report\n"
        "create_judge('offline')\n"
        "print(json.dumps({m: m in sys.modules for m in "
        "['sqlite_utils', 'pandas', 'halgate.store', 'halgate.review', 'halgate.selftest', "
        "'halgate.judges.offline.judge']}))"
    )
    assert loaded == {
        "sqlite_utils": False,
        "pandas": False,
        "halgate.store": False,
        "halgate.review": False,
        "halgate.selftest": False,
        "halgate.judges.offline.judge": True,
    }


def test_a_judge_cache_opened_first_still_gets_the_stores_tables(tmp_path: Path) -> None:
    """The LLM judge's cache is the store's table: opened before anything loaded the store,
    the connection loads it and migrates the database."""
    db = tmp_path / "cache.db"
    loaded = _fresh(
        "import json, sys\n"
        "from halgate.judges.llm.cache import JudgeCache\n"
        "before = 'halgate.store' in sys.modules\n"
        f"JudgeCache({str(db)!r})\n"
        "print(json.dumps({'before': before, 'after': 'halgate.store' in sys.modules}))"
    )
    assert loaded == {"before": False, "after": True}
    with sqlite3.connect(db) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "judge_cache" in tables and "runs" in tables

"""Every policy value is validated (DESIGN.md §4): rates finite in [0, 1], sane bootstrap."""

from __future__ import annotations

import resource
import subprocess
import sys

import pytest
from halgate.errors import PolicyError
from halgate.inputs.policy import Policy, load_policy
from halgate.scoring.rescore import rescore

from ..conftest import EXAMPLE_SUITE, build_report


@pytest.mark.parametrize(
    "line, key",
    [
        ("max_contradiction_rate = nan", "max_contradiction_rate"),
        ("max_rate_increase = nan", "max_rate_increase"),
        ("max_hallucination_rate = -0.1", "max_hallucination_rate"),
        ("max_fabrication_rate = 1.5", "max_fabrication_rate"),
        ("max_abstention_increase = inf", "max_abstention_increase"),
        ("partial_weight = nan", "partial_weight"),
        ("bootstrap_resamples = 1000000000", "bootstrap_resamples"),
        ("bootstrap_resamples = 10", "bootstrap_resamples"),
        ("seed = -1", "seed"),
        ('gate_on = "cases"', "gate_on"),
        ("max_rate_increse = 0.1", "max_rate_increse"),
    ],
)
def test_bad_values_name_the_file_and_key(tmp_path, line, key):
    path = tmp_path / "bad.toml"
    path.write_text(line + "\n")
    with pytest.raises(PolicyError) as exc:
        load_policy(path)
    assert str(path) in str(exc.value) and key in str(exc.value)


def test_unknown_key_beside_the_policy_table_is_refused(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text("[policy]\nmax_rate_increase = 0.1\n[polcy]\nseed = 1\n")
    with pytest.raises(PolicyError, match="polcy"):
        load_policy(path)


def test_valid_policy_with_new_knobs_loads(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(
        'gate_on = "claims"\nmax_abstention_increase = 0.1\nmax_abstention_rate = 0.2\n'
    )
    p = load_policy(path)
    assert p.gate_on == "claims" and p.max_abstention_increase == 0.1
    assert Policy().gate_on == "answers" and Policy().max_abstention_increase == 0.05


def test_stored_old_report_policy_still_loads_and_rescores():
    report = build_report()
    old = dict(report.policy)
    for key in ("gate_on", "max_abstention_increase", "max_abstention_rate"):
        old.pop(key)
    again = rescore(report.model_copy(update={"policy": old}))
    assert again.comparison.gated_measure == "answers"
    assert again.comparison.answer_rate_change is not None
    with pytest.raises(ValueError):
        Policy.model_validate({**old, "max_rate_increase": float("nan")})


@pytest.mark.parametrize(
    "line", ["max_contradiction_rate = nan", "bootstrap_resamples = 1000000000"]
)
def test_cli_exits_4_quickly_on_a_bad_policy(tmp_path, line):
    path = tmp_path / "bad.toml"
    path.write_text(line + "\n")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "halgate.cli",
            "run",
            str(EXAMPLE_SUITE),
            "--policy",
            str(path),
            "--no-save",
            "-q",
            "--judge",
            "offline",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert res.returncode == 4, res.stdout + res.stderr
    assert str(path) in res.stderr
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    # CPU seconds, not wall (a busy host stretches the wall): a billion resamples drawn
    # before the check would take minutes of CPU; the check itself is instant
    assert cpu < 10, f"{cpu:.1f} CPU s"


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("# gate\nseed = 1\n\nmax_rate_increase = 2\n", ":4: max_rate_increase:"),
        ("[policy]\nseed = 1\nmax_fabrication_rate = -1\n", ":3: max_fabrication_rate:"),
        ("seed = 1\n[severity_rules]\ncritical_domains = 'x'\n", ":3: severity_rules."),
    ],
)
def test_a_bad_value_names_the_line_it_is_written_on(tmp_path, text, where):
    path = tmp_path / "p.toml"
    path.write_text(text)
    with pytest.raises(PolicyError) as exc:
        load_policy(path)
    assert f"{path}{where}" in str(exc.value)

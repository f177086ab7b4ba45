"""Repeated judging (policy ``judge_samples``) against the real local OpenAI-compatible server.

The fake runs in ``flaky`` mode: on a request's repeats (the note halgate appends to samples
2..k) it flips the claims at some positions, the way a model at a non-zero temperature
changes its mind. Sample 1 is the plain request, so a cache filled by a one-sample run
answers it.
"""

from __future__ import annotations

import json

import pytest
from halgate.cli.app import app
from typer.testing import CliRunner

from ..conftest import TINY_POLICY
from .llm_helpers import cli, run_args

pytestmark = pytest.mark.usefixtures("isolated_llm_env")


def _policy(tmp_path, samples: int):
    path = tmp_path / f"policy-{samples}.toml"
    path.write_text(TINY_POLICY + f"judge_samples = {samples}\n", encoding="utf-8")
    return path


def test_three_samples_cache_apart_and_report_the_flips(tiny_suite, fake_openai, tmp_path):
    fake_openai.mode = "flaky"
    one, one_out = cli(tiny_suite, fake_openai, tmp_path)  # today's run fills the cache
    assert one.exit_code in (0, 1, 3), one.output
    plain = one_out.read_text()
    one_id = json.loads(plain)["run_id"]
    one_csv = CliRunner().invoke(
        app, ["export", one_id, "-f", "csv", "--db", str(tmp_path / "h.db")]
    )
    assert "sample_verdicts" not in one_csv.output and "judge flips" not in one.output
    assert "sample_verdicts" not in plain and "judge_samples" not in plain
    assert "judge_flips" not in plain and "sample_counts" not in plain
    assert len(fake_openai.completions()) == 3

    result, out = cli(tiny_suite, fake_openai, tmp_path, "--policy", str(_policy(tmp_path, 3)))
    assert result.exit_code in (0, 1, 3), result.output
    asked = fake_openai.completions()[3:]
    # Sample 1 came from the cache; samples 2 and 3 of each of the 3 cases were asked.
    assert len(asked) == 6
    assert sorted(r.user.count("Judgement sample 2 of 3") for r in asked) == [0, 0, 0, 1, 1, 1]
    data = json.loads(out.read_text())
    assert data["policy"]["judge_samples"] == 3 and data["judge"]["options"]["samples"] == 3
    flips = data["rates"]["candidate"]["judge_flips"]
    claims = [c for a in data["analyses"] if a["system"] == "candidate" for c in a["claims"]]
    # Sample 3 flips every answer's first claim ((0 + 3) % 3 == 0); sample 2 the second.
    flipped = [c["claim_id"] for c in claims if set(c["sample_verdicts"]) != {c["verdict"]}]
    assert flips["samples"] == 3 and flips["compared"] == len(claims)
    assert flips["flipped_claims"] == flipped and flips["flipped"] == len(flipped) > 0
    assert flips["share"] == pytest.approx(len(flipped) / len(claims))
    assert all(len(a["sample_counts"]) == 2 for a in data["analyses"])
    shown = CliRunner().invoke(app, ["show", data["run_id"], "--db", str(tmp_path / "h.db")])
    for summary in (result.output, shown.output):  # the run's summary and the stored run's
        assert f"judge flips: {len(flipped)} of {len(claims)} claims" in summary
        assert flipped[0] in summary

    sentence = f"judge flips: {len(flipped)} of {len(claims)} claims"
    db = str(tmp_path / "h.db")
    for fmt in ("markdown", "html", "csv", "json"):
        exported = CliRunner().invoke(app, ["export", data["run_id"], "-f", fmt, "--db", db])
        assert exported.exit_code == 0, exported.output
        assert sentence in exported.output or f'"flipped": {len(flipped)}' in exported.output
        assert flipped[0] in exported.output
    csv_rows = CliRunner().invoke(app, ["export", data["run_id"], "-f", "csv", "--db", db])
    assert "sample_verdicts,judge_flips" in csv_rows.output.splitlines()[0]

    again, _ = cli(tiny_suite, fake_openai, tmp_path, "--policy", str(_policy(tmp_path, 3)))
    assert again.exit_code == result.exit_code
    assert len(fake_openai.completions()) == 9  # every sample is cached on its own


def test_repeated_judging_is_refused_for_the_offline_judge(tiny_suite, tmp_path):
    policy = _policy(tmp_path, 2)
    out = tmp_path / "r.json"
    args = ["run", str(tiny_suite), "--db", str(tmp_path / "h.db"), "--out", str(out), "-q"]
    result = CliRunner().invoke(app, [*args, "--judge", "offline", "--policy", str(policy)])
    assert result.exit_code == 4, result.output
    assert f"{policy}:2: judge_samples:" in result.output
    assert "offline judge gives the same verdicts every time" in result.output
    assert not out.exists()


def test_the_sample_note_keeps_the_first_sample_request_unchanged(
    tiny_suite, fake_openai, tmp_path
):
    args = run_args(tiny_suite, fake_openai, tmp_path / "h.db", tmp_path / "o.json")
    policy = _policy(tmp_path, 2)
    result = CliRunner().invoke(app, [*args, "--max-batch", "1", "--policy", str(policy)])
    assert result.exit_code in (0, 1, 3), result.output
    asked = fake_openai.completions()
    firsts = [r for r in asked if "Judgement sample" not in r.user]
    repeats = [r for r in asked if "Judgement sample 2 of 2" in r.user]
    assert len(firsts) == len(repeats) == 3
    assert sorted(r.user for r in firsts) == sorted(
        r.user.split("\n\n(Judgement sample")[0] for r in repeats
    )

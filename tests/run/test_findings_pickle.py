"""Rule findings travel from the judge workers to the run pickled as their five values (the
verdict and type as their enum members): they come back equal, with the same dump, and in
fewer bytes than pydantic's own pickled state."""

from __future__ import annotations

import pickle

import pytest
from halgate.models import HallucinationType, RuleFinding, Verdict
from pydantic import BaseModel

FINDINGS = [
    RuleFinding(
        rule="number_conflict",
        verdict=Verdict.CONTRADICTED,
        hallucination_type=HallucinationType.DISTORTION,
        reason="Contradicted: the source gives 14 days.",
        about=["30 days"],
    ),
    RuleFinding(rule="supported", verdict=Verdict.SUPPORTED, reason="Supported: 100%."),
]


@pytest.mark.parametrize("finding", FINDINGS, ids=lambda f: f.rule)
def test_a_finding_comes_back_from_a_pickle_as_it_went(finding: RuleFinding) -> None:
    back = pickle.loads(pickle.dumps(finding, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == finding and type(back) is RuleFinding
    assert back.model_dump(mode="json") == finding.model_dump(mode="json")
    assert back.verdict is finding.verdict
    with pytest.raises(Exception, match="frozen"):
        back.rule = "other"  # type: ignore[misc]


def test_findings_pickle_smaller_than_pydantic_state() -> None:
    many = [
        f.model_copy(update={"reason": f"{f.reason} {i}"}) for i in range(200) for f in FINDINGS
    ]
    ours = len(pickle.dumps(many, protocol=pickle.HIGHEST_PROTOCOL))
    state = [(type(f), BaseModel.__getstate__(f)) for f in many]
    assert ours < 0.8 * len(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))

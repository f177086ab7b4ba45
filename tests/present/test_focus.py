"""The Triage page scripts and the citation the evidence box opens on."""

from __future__ import annotations

from halgate.models import Citation
from halgate.present import deciding_citation, deciding_first, focus_script


def _cite(doc_id: str, quote: str, verified: bool = True) -> Citation:
    return Citation(doc_id=doc_id, quote=quote, verified=verified, match="exact")


def test_the_evidence_opens_on_the_passage_the_claim_restates_not_the_first_listed(make_claim):
    claim = make_claim("CONTRADICTED").model_copy(
        update={
            "text": "You must give three months' written notice after the fixed term.",
            "citations": [
                _cite("deposits", "Deposits are protected within 30 days."),
                _cite(
                    "tenancy", "After the fixed term the tenant gives one month's written notice."
                ),
            ],
        }
    )
    assert deciding_citation(claim).doc_id == "tenancy"
    assert [c.doc_id for c in deciding_first(claim, claim.citations)] == ["tenancy", "deposits"]


def test_an_invented_quote_never_decides_over_a_verified_one(make_claim):
    claim = make_claim("CONTRADICTED").model_copy(
        update={
            "text": "The dose is 200 mg daily.",
            "citations": [
                _cite("a", "The dose is 200 mg daily.", False),
                _cite("b", "dose 100 mg"),
            ],
        }
    )
    assert deciding_citation(claim).doc_id == "b"
    assert deciding_citation(make_claim("UNSUPPORTED")) is None


def test_the_focus_script_holds_no_markup_and_only_safe_ids():
    script = focus_script("hg-card", nonce="q1/candidate/0-3")
    body = script.removeprefix("<script>").removesuffix("</script>")
    assert "<" not in body and "&" not in body  # DOMPurify drops a script that looks like markup
    assert "q1-candidate-0-3" in body and "focus(" in body
    assert focus_script("x", nonce="a") != focus_script("x", nonce="b")  # remounted per step

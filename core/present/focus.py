"""Where the reviewer's eyes and keyboard go after a Triage step: fixed page scripts.

Streamlit moves the focus to the page body after a form button, so the next keystroke would
go nowhere and a second shortcut would act on a claim never read. These scripts put the
focus back in the next item's comment box and its card at the top of the view, and pick the
citation whose passage the evidence box should show first.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..models import Citation, ClaimJudgement
from .highlight import safe_id

_WORD = re.compile(r"[a-z0-9]+")


def focus_script(card: str, label: str = "Comment (why)", nonce: str = "") -> str:
    """A fixed script: bring the element ``card`` to the top of the view (unless it is in
    the upper part already) and focus the first textarea labelled ``label`` there.

    ``card`` and ``nonce`` are reduced to [A-Za-z0-9_-] and ``label`` is one of our own
    fixed labels; the nonce makes the script text differ per item, so Streamlit mounts (and
    runs) it again. No ``<`` or ``&`` (DOMPurify drops a script whose text looks like markup).
    """
    ident, tag = safe_id(card), safe_id(nonce)
    quoted = label.replace("'", "")
    # Streamlit may swap the textarea for a fresh one after the script ran (a focus on the
    # old box is then lost to the page body), so it keeps watching for about 3 s after the
    # box first holds the focus and puts the focus back while nothing else has taken it.
    return (
        f"<script>(function(){{var n=0,held=0,moved=0,k='{tag}';function go(){{"
        f"var box=document.querySelector('textarea[aria-label=\"{quoted}\"]');"
        f"var el=document.getElementById('{ident}');"
        "if(n++ === 300){return;}"
        "if(!box || !el){setTimeout(go,50);return;}"
        "if(!moved){moved=1;var top=el.getBoundingClientRect().top;"
        "if(0 > top || top > window.innerHeight*0.4){el.scrollIntoView({block:'start'});}}"
        "var a=document.activeElement;"
        "var lost=!a || a === document.body || !a.isConnected || a.tagName === 'BUTTON'"
        f" || (a === box ? false : a.getAttribute('aria-label') === '{quoted}');"
        "if(a === box){if(held++ === 60){return;}}"
        "else if(lost){held=0;box.focus({preventScroll:true});}"
        "else{return;}"
        "setTimeout(go,50);"
        "}go();})();</script>"
    )


def deciding_citation(claim: ClaimJudgement) -> Citation | None:
    """The citation the reviewer should see first: a verified one whose passage shares most
    of the claim's words (the sentence the claim restates), not merely the first listed."""
    verified = [c for c in claim.citations if c.verified] or list(claim.citations)
    if not verified:
        return None
    words = set(_WORD.findall(claim.text.lower()))
    return max(verified, key=lambda c: len(words & set(_WORD.findall(c.quote.lower()))))


def deciding_first(claim: ClaimJudgement, citations: Sequence[Citation]) -> list[Citation]:
    """``citations`` with the deciding one first (it carries the anchor the view scrolls to)."""
    best = deciding_citation(claim)
    return sorted(citations, key=lambda c: c is not best)

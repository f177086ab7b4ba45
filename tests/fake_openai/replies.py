"""How the fake answers when no script says otherwise: split answers into sentences and
judge each by word overlap with the documents (or as the chosen mode says).
"""

from __future__ import annotations

import html
import re
import time
from functools import lru_cache
from typing import Any

CASE = re.compile(r"<case\b([^>]*)>\n?(.*?)\n?</case>", re.DOTALL)


BLOCK = re.compile(r"<(document|answer|question)\b([^>]*)>\n?(.*?)\n?</\1>", re.DOTALL)


ATTR_ID = re.compile(r'id="([^"]*)"')


SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


WORD = re.compile(r"[a-z0-9]+(?:\.[0-9]+)?")


NUMBER = re.compile(r"\d+(?:\.\d+)?")


NEGATION = {"not", "no", "never", "cannot", "nor"}


INJECTION = re.compile(r"ignore (all |the |previous )*instructions", re.IGNORECASE)


def completion(body: dict[str, Any], content: str, finish_reason: str = "stop") -> dict[str, Any]:
    """A chat.completion object with token usage estimated from characters."""
    prompt_chars = sum(len(m.get("content") or "") for m in body.get("messages", []))
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "fake-judge"),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": finish_reason,
            }
        ],
        "usage": {
            "prompt_tokens": prompt_chars // 4,
            "completion_tokens": len(content) // 4,
            "total_tokens": prompt_chars // 4 + len(content) // 4,
        },
    }


def parse_blocks(user: str) -> tuple[dict[str, str], dict[str, str], str]:
    """(documents by id, answers by label, text outside every data block) of a request."""
    docs: dict[str, str] = {}
    answers: dict[str, str] = {}
    for m in BLOCK.finditer(user):
        ident = ATTR_ID.search(m.group(2))
        key = html.unescape(ident.group(1)) if ident else ""
        text = m.group(3).replace("&lt;", "<")
        if m.group(1) == "document":
            docs[key] = text
        elif m.group(1) == "answer":
            answers[key] = text
    return docs, answers, BLOCK.sub("", user)


def sentences(text: str) -> list[str]:
    """Sentences, split naively (the fake need not be clever, only plausible)."""
    parts = [p.strip() for p in SENTENCE.split(text) if p and p.strip()]
    return [p for p in parts if p != "[...]"]


def _words(text: str) -> set[str]:
    return {w for w in WORD.findall(text.lower()) if len(w) > 2 or w.isdigit()}


@lru_cache(maxsize=4096)
def _indexed(text: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """A document's sentences with their word sets, computed once per document text."""
    return tuple((s, frozenset(_words(s))) for s in sentences(text))


def _negations(text: str) -> set[str]:
    return NEGATION & set(re.findall(r"[a-z]+", text.lower()))


def judge_sentence(sentence: str, docs: dict[str, str], mode: str) -> dict[str, Any]:
    """A claim judged by word overlap with the best-matching document sentence."""
    words = _words(sentence)
    best = (0.0, "", "")
    for doc_id, text in docs.items():
        for s, doc_words in _indexed(text):
            score = len(words & doc_words) / max(len(words), 1)
            if score > best[0]:
                best = (score, doc_id, s)
    score, doc_id, quote = best
    new_numbers = set(NUMBER.findall(sentence)) - set(NUMBER.findall(quote))
    verdict, htype = "UNSUPPORTED", "FABRICATION"
    if mode == "echo-supported":
        verdict, htype = "SUPPORTED", None
    elif score >= 0.5 and (new_numbers or _negations(sentence) != _negations(quote)):
        verdict, htype = "CONTRADICTED", "DISTORTION"
    elif score >= 0.85:
        verdict, htype = "SUPPORTED", None
    elif score >= 0.6:
        verdict, htype = "PARTIALLY_SUPPORTED", "DISTORTION"
    cite = [{"doc_id": doc_id, "quote": quote}] if quote and verdict != "UNSUPPORTED" else []
    return {
        "text": sentence,
        "verdict": verdict,
        "hallucination_type": htype,
        "severity": None,
        "confidence": 0.9,
        "rationale": f"Best source sentence shares {score:.0%} of the claim's words.",
        "citations": cite,
    }


def case_blocks(user: str) -> list[tuple[str, str]]:
    """(case id, block text) of each ``<case>`` block of a batched request, in order."""
    out = []
    for m in CASE.finditer(user):
        ident = ATTR_ID.search(m.group(1))
        out.append((html.unescape(ident.group(1)) if ident else "", m.group(2)))
    return out


def default_reply(messages: list[dict[str, Any]], mode: str = "overlap") -> dict[str, Any]:
    """What the fake judge answers to a request it has no script for.

    The reply speaks the v2 format: ``{"answers": {"A": {...}, "B": {...}}}``; a batched
    request (``<case>`` blocks) gets ``{"cases": {"C1": {"answers": ...}, ...}}``, each case
    judged from its own block only; text outside every block is read as instructions
    (``gullible``).
    """
    system = next((m["content"] for m in messages if m["role"] == "system"), "")
    user = next((m["content"] for m in messages if m["role"] == "user"), "")
    cases = case_blocks(user)
    if cases:
        if mode == "gullible" and INJECTION.search(CASE.sub("", user)):
            mode = "echo-supported"
        return {"cases": {ident: _claims(body, system, mode) for ident, body in cases}}
    return _claims(user, system, mode)


def _claims(user: str, system: str, mode: str) -> dict[str, Any]:
    docs, answers, outside = parse_blocks(user)
    if mode == "gullible" and INJECTION.search(outside):
        mode = "echo-supported"  # an instruction escaped its block: the model obeys it
    if '"preference"' in system:
        return _pairwise(docs, answers, mode)
    sample = _sample_number(outside) if mode == "flaky" else 1
    return {
        "answers": {
            label: {
                "claim_count": len(sentences(text)),
                "claims": [
                    _flaky(judge_sentence(s, docs, mode), i, sample)
                    for i, s in enumerate(sentences(text))
                ],
            }
            for label, text in answers.items()
        }
    }


SAMPLE = re.compile(r"Judgement sample (\d+) of \d+")


def _sample_number(outside: str) -> int:
    """Which repeat of a request this is (halgate's ``judge_samples`` note), 1 without one."""
    found = SAMPLE.search(outside)
    return int(found.group(1)) if found else 1


def _flaky(claim: dict[str, Any], index: int, sample: int) -> dict[str, Any]:
    """``flaky`` mode: a judge that changes its mind on repeats. Sample 1 is the overlap
    verdict; in sample s > 1 every claim whose position i has (i + s) % 3 == 0 flips
    (SUPPORTED to UNSUPPORTED, anything else to SUPPORTED)."""
    if sample == 1 or (index + sample) % 3:
        return claim
    if claim["verdict"] == "SUPPORTED":
        return claim | {"verdict": "UNSUPPORTED", "hallucination_type": "FABRICATION"}
    return claim | {"verdict": "SUPPORTED", "hallucination_type": None}


def _pairwise(docs: dict[str, str], answers: dict[str, str], mode: str) -> dict[str, Any]:
    if mode == "prefer-a":
        return {
            "preference": "A",
            "justification": "A reads better.",
            "confidence": 0.9,
            "tie_breaker": None,
        }
    bad = {}
    for label, text in answers.items():
        claims = [judge_sentence(s, docs, mode) for s in sentences(text)]
        bad[label] = sum(c["verdict"] in ("UNSUPPORTED", "CONTRADICTED") for c in claims)
    a, b = bad.get("A", 0), bad.get("B", 0)
    pref = "TIE" if a == b else ("A" if a < b else "B")
    return {
        "preference": pref,
        "justification": f"Unsupported or contradicted claims: A {a}, B {b}.",
        "confidence": 0.8,
        "tie_breaker": None,
    }

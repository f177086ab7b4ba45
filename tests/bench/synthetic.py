"""A synthetic suite of any size, for throughput benchmarks (deterministic by seed)."""

from __future__ import annotations

import json
import random
from pathlib import Path

PRODUCTS = ["Zelparin", "Orvane", "Kestrel API", "Nimbus Router", "Halcyon Plan", "Tidewater Card"]
UNITS = ["mg", "days", "requests per minute", "euros", "hours", "percent"]
VERBS = ["allows", "requires", "limits", "covers", "supports", "charges"]


def _doc(rng: random.Random, i: int) -> tuple[dict, list[str]]:
    name = rng.choice(PRODUCTS)
    facts = []
    for _ in range(rng.randint(8, 16)):
        n, unit, verb = rng.randint(2, 900), rng.choice(UNITS), rng.choice(VERBS)
        facts.append(
            f"The {name} plan {verb} up to {n} {unit} for customers in region {rng.randint(1, 40)}."
        )
    if rng.random() < 0.3:
        facts.append(f"{name} may cause delays in some regions.")
    return {"doc_id": f"d{i}", "title": f"{name} terms {i}", "text": " ".join(facts)}, facts


def _perturb(rng: random.Random, fact: str) -> str:
    roll = rng.random()
    if roll < 0.4:
        return fact.replace(" up to ", f" up to {rng.randint(1000, 5000)} or ", 1)
    if roll < 0.7:
        return fact.replace(" allows ", " never allows ").replace(
            " requires ", " does not require "
        )
    return f"The Meridian Group audited this in {rng.randint(1990, 2020)}."


def write_suite(root: Path, n_cases: int, seed: int = 0) -> Path:
    """Write a suite folder with one document per case; ~20 % of candidate claims perturbed."""
    rng = random.Random(seed)
    root.mkdir(parents=True, exist_ok=True)
    (root / "answers").mkdir(exist_ok=True)
    with (
        (root / "documents.jsonl").open("w") as docs,
        (root / "cases.jsonl").open("w") as cases,
        (root / "answers" / "baseline.jsonl").open("w") as base,
        (root / "answers" / "candidate.jsonl").open("w") as cand,
    ):
        for i in range(n_cases):
            doc, facts = _doc(rng, i)
            docs.write(json.dumps(doc) + "\n")
            cases.write(
                json.dumps(
                    {
                        "case_id": f"c{i}",
                        "question": f"What does plan {i} allow?",
                        "doc_ids": [doc["doc_id"]],
                        "tags": ["lookup"],
                    }
                )
                + "\n"
            )
            chosen = rng.sample(facts, k=min(3, len(facts)))
            base.write(json.dumps({"case_id": f"c{i}", "answer": " ".join(chosen)}) + "\n")
            cand_facts = [_perturb(rng, f) if rng.random() < 0.2 else f for f in chosen]
            cand.write(json.dumps({"case_id": f"c{i}", "answer": " ".join(cand_facts)}) + "\n")
    return root

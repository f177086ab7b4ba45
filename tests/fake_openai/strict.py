"""The ``strict-schema`` mode: answer exactly by the JSON Schema sent in ``response_format``.

This is what a schema-following decoder does (vLLM's guided decoding, llama.cpp's grammars,
OpenAI's strict mode): it reads nothing of the prompt and writes any value the schema
admits. The walk picks enum values, fills strings with arbitrary words (so claim texts are
not in the answer and quotes are not in the sources), draws numbers within their bounds and
array lengths within minItems/maxItems, and writes every required property and no other. The
choices are seeded by the request's messages, so one request always gets the same reply.

As OpenAI does, a schema that strict mode cannot take is refused up front (an object that
allows extra keys or leaves a property optional, ``prefixItems``, a non-object root):
``strict_schema_problem`` says why, and the server answers 400.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

_WORDS = (  # nonsense, so that no claim is found in an answer and no quote in a source
    "zorblat quixil 4217 vexmor plandrith 7.5 urvex fennick trazzle umbrost wicketer 1889 "
    "plinthor saffrex gustoid nimbrel ratchex 0 kelvoss obelunk"
).split()
_DEFAULT_MAX_ITEMS = 3  # beyond minItems, when the schema gives no maxItems
_DEFAULT_MAX_STRING = 60  # characters beyond minLength, when the schema gives no maxLength


def strict_schema_problem(schema: Any, path: str = "(root)") -> str | None:
    """Why strict mode would refuse this schema, or None when it takes it."""
    if path == "(root)" and (not isinstance(schema, dict) or schema.get("type") != "object"):
        return "the root of the schema must be an object"
    if isinstance(schema, dict):
        if "prefixItems" in schema:
            return f"{path}: prefixItems is not supported"
        if schema.get("type") == "object":
            props = schema.get("properties", {})
            if schema.get("additionalProperties") is not False:
                return f"{path}: additionalProperties must be false"
            if sorted(schema.get("required", [])) != sorted(props):
                return f"{path}: every property must be required"
        for key, value in schema.items():
            problem = strict_schema_problem(value, f"{path}/{key}")
            if problem:
                return problem
    elif isinstance(schema, list):
        for i, value in enumerate(schema):
            problem = strict_schema_problem(value, f"{path}/{i}")
            if problem:
                return problem
    return None


def schema_instance(schema: dict[str, Any], rng: random.Random, root: dict | None = None) -> Any:
    """One value the schema admits, chosen at random (resolving ``#/$defs/...`` refs)."""
    root = schema if root is None else root
    if "$ref" in schema:
        node: Any = root
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        return schema_instance(node, rng, root)
    if "anyOf" in schema:
        return schema_instance(rng.choice(schema["anyOf"]), rng, root)
    if "enum" in schema:
        return rng.choice(schema["enum"])
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = rng.choice(kind)
    if kind == "object":
        props = schema.get("properties", {})
        required = set(schema.get("required", []))
        return {
            k: schema_instance(v, rng, root)
            for k, v in props.items()
            if k in required or rng.random() < 0.5
        }
    if kind == "array":
        low = schema.get("minItems", 0)
        high = schema.get("maxItems", low + _DEFAULT_MAX_ITEMS)
        return [
            schema_instance(schema.get("items", {}), rng, root)
            for _ in range(rng.randint(low, high))
        ]
    if kind == "string":
        return _text(rng, schema.get("minLength", 0), schema.get("maxLength"))
    if kind == "integer":
        low = int(schema.get("minimum", 0))
        return rng.randint(low, int(schema.get("maximum", low + 20)))
    if kind == "number":
        low = float(schema.get("minimum", 0.0))
        return round(rng.uniform(low, float(schema.get("maximum", low + 100.0))), 3)
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "null":
        return None
    return None


def _text(rng: random.Random, min_length: int, max_length: int | None) -> str:
    """Arbitrary words, between the given lengths."""
    limit = max_length if max_length is not None else min_length + _DEFAULT_MAX_STRING
    target = rng.randint(min_length, max(min_length, limit))
    words: list[str] = []
    while len(" ".join(words)) < target:
        words.append(rng.choice(_WORDS))
    text = " ".join(words)[:limit]
    return text if len(text) >= min_length else text.ljust(min_length, "x")


def strict_reply(body: dict[str, Any]) -> str:
    """The reply text to a chat request: an instance of its response format's schema."""
    schema = body["response_format"]["json_schema"]["schema"]
    seed = hashlib.sha256(json.dumps(body.get("messages"), sort_keys=True).encode()).digest()
    return json.dumps(schema_instance(schema, random.Random(seed)))

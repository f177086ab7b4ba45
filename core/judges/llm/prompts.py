"""Versioned prompt files for the LLM judge, and the rendering of untrusted text into them.

A prompt lives in ``data/prompts/<mode>-<version>.md``: a system part and a user template
(``string.Template`` placeholders, so JSON braces in the text need no escaping). The file
stem (``compare-v2``) is the prompt version: it goes into the judge id and the cache key,
so editing a prompt means adding a new file, and old results stay traceable.

Documents, answers and the question are untrusted: each sits in its own tagged block, and
any text inside that looks like one of our tags is escaped, so an answer cannot close its
block and smuggle instructions outside it. A batched request (``<mode>-batch-<version>.md``)
wraps each case's blocks in a ``<case id="C1">`` block; ``case`` is escaped the same way, so
one case's text cannot end its case and speak inside the next.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from string import Template

from ...errors import UsageError
from ...resources import data_path

_SYSTEM_MARK = "<!-- system -->"
_USER_MARK = "<!-- user -->"
_TAG = re.compile(r"<(\s*/?\s*)(document|answer|question|case)\b", re.IGNORECASE)
WINDOWED_NOTE = (
    "Note: the documents are too long to send whole. The passages most relevant to the "
    "answers are shown, in document order, separated by [...]; quote only from them."
)


@dataclass(frozen=True)
class Prompt:
    """One versioned prompt: its version (the file stem), system text and user template."""

    version: str
    mode: str
    system: str
    user: Template

    def render(self, **fields: str) -> list[dict[str, str]]:
        """Chat messages for one request; every field must be given (no silent blanks)."""
        return [
            {"role": "system", "content": self.system},
            {"role": "user", "content": self.user.substitute(**fields).strip() + "\n"},
        ]


@lru_cache(maxsize=32)
def load_prompt(mode: str, version: str = "v2") -> Prompt:
    """Read ``data/prompts/<mode>-<version>.md``; a missing file is a usage error."""
    stem = f"{mode}-{version}"
    path = data_path("prompts", f"{stem}.md")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(f"no prompt file {path} (mode {mode!r}, version {version!r})") from None
    if _SYSTEM_MARK not in text or _USER_MARK not in text:
        raise UsageError(f"{path}: needs '{_SYSTEM_MARK}' and '{_USER_MARK}' sections")
    system = text.split(_SYSTEM_MARK, 1)[1].split(_USER_MARK, 1)[0].strip()
    user = text.split(_USER_MARK, 1)[1].strip()
    return Prompt(version=stem, mode=mode, system=system, user=Template(user))


def escape_untrusted(text: str) -> str:
    """Neutralise anything that looks like one of our block tags (``<answer>``, ``</document``)."""
    return _TAG.sub(lambda m: "&lt;" + m.group(1) + m.group(2), text)


def _attr(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def document_block(doc_id: str, text: str, title: str | None = None) -> str:
    """One source document (or its excerpts) as a delimited data block."""
    title_attr = f' title="{_attr(title)}"' if title else ""
    return f'<document id="{_attr(doc_id)}"{title_attr}>\n{escape_untrusted(text)}\n</document>'


def answer_block(label: str, text: str) -> str:
    """One answer under judgement as a delimited data block, labelled by position (A, B)."""
    return f'<answer id="{_attr(label)}">\n{escape_untrusted(text)}\n</answer>'


def case_block(label: str, fields: dict[str, str]) -> str:
    """One case of a batched request: its question, documents and answers, already escaped."""
    note = f"{fields['evidence_note']}\n" if fields.get("evidence_note") else ""
    return (
        f'<case id="{_attr(label)}">\n'
        f"Answers to judge in this case: {fields['answer_ids']}.\n{note}"
        f"<question>\n{fields['question']}\n</question>\n\n"
        f"{fields['documents']}\n\n{fields['answers']}\n</case>"
    )


def question_text(question: str) -> str:
    """The case's question, escaped (it is suite data, written by whoever built the suite)."""
    return escape_untrusted(question)

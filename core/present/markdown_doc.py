"""Source documents written in Markdown, shown as Markdown, safely.

A suite's ``documents/*.md`` files are untrusted text. They are rendered with markdown-it-py
in its CommonMark preset with raw HTML off (a ``<script>`` or ``<img onerror>`` in a document
is shown as text, never as markup), links limited to the schemes markdown-it validates (no
``javascript:`` or ``data:``) and opened without a referrer, and images not fetched: an
image is shown as its alt text, so opening a claim never makes the browser call a server
the document names. The raw text view stays the one with cited passages marked, since
citation spans index into the raw text.
"""

from __future__ import annotations

from markdown_it import MarkdownIt

from ..models import Document

MARKDOWN_SUFFIXES = (".md", ".markdown")


def is_markdown(doc: Document) -> bool:
    """Whether the document was read from a Markdown file (``documents/NAME.md``)."""
    return any(p.source.lower().endswith(MARKDOWN_SUFFIXES) for p in doc.provenance)


def _renderer() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])  # as documents are written on GitHub
    md.disable("image")  # no remote fetch: ![alt](url) stays literal text

    def link_open(self, tokens, idx, options, env):  # markdown-it's render-rule signature
        tokens[idx].attrSet("rel", "noopener noreferrer nofollow")
        tokens[idx].attrSet("target", "_blank")
        return self.renderToken(tokens, idx, options, env)

    md.add_render_rule("link_open", link_open)
    return md


_MD = _renderer()


def render_markdown(text: str) -> str:
    """The document as HTML from Markdown, raw HTML escaped, in a box like the evidence's."""
    body = _MD.render(text)
    return f'<div class="hg-doc hg-markdown">{body}</div>'

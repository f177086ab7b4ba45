"""#31: a suite's documents/*.md are shown as Markdown, never as raw HTML."""

from __future__ import annotations

from html.parser import HTMLParser

from halgate.inputs.suite import load_suite
from halgate.present import is_markdown, render_markdown

DOC = (
    "# Dosing guide\n\nTake **5 mg** daily.\n\n| age | dose |\n|---|---|\n| 12+ | 5 mg |\n\n"
    "- with food\n\n<script>alert(1)</script> <img src=x onerror=alert(2)>\n\n"
    "<div onclick=steal()>block</div>\n\n[bad](javascript:alert(3)) [site](https://example.org)"
    " ![pixel](https://tracker.example/p.png)\n"
)


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def _tags(html: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Tags()
    parser.feed(html)
    return parser.tags


def test_markdown_is_rendered_headings_emphasis_tables_lists():
    names = [t for t, _ in _tags(render_markdown(DOC))]
    for tag in ("h1", "strong", "table", "td", "ul", "li", "a"):
        assert tag in names, tag


def test_raw_html_scripts_handlers_and_image_fetches_never_become_markup():
    out = render_markdown(DOC)
    tags = _tags(out)
    assert not [t for t, _ in tags if t in {"script", "img", "iframe"}]
    assert not [a for _, attrs in tags for a in attrs if a.startswith("on")]
    hrefs = [attrs.get("href") for t, attrs in tags if t == "a"]
    assert "javascript:alert(3)" not in hrefs and "https://example.org" in hrefs
    assert all(attrs.get("rel") == "noopener noreferrer nofollow" for t, attrs in tags if t == "a")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in out  # shown as text


def test_documents_read_from_md_files_are_markdown_and_txt_ones_are_not(tmp_path, tiny_suite):
    (tiny_suite / "documents").mkdir(exist_ok=True)
    (tiny_suite / "documents" / "guide.md").write_text(DOC, encoding="utf-8")
    (tiny_suite / "documents" / "notes.txt").write_text("# not markdown\n", encoding="utf-8")
    suite = load_suite(tiny_suite)
    assert is_markdown(suite.documents["guide"])
    assert not is_markdown(suite.documents["notes"])
    assert suite.documents["guide"].provenance[0].source == "documents/guide.md"

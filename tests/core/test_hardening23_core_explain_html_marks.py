"""`spec-debug explain --format html` marks a bidi control (LRM/RLM, an RLO, an isolate) or a C1
control in a command, title or why as <U+XXXX>, as the Markdown walkthrough and step-through
do. In HTML that mark went out raw: a browser reads `<U+200E>` as a start tag (WHATWG HTML
13.2.5.8, the tag name runs to the >), an element that shows nothing, so the walkthrough hid
the very character it marked. Checked with the HTML parser of Python's standard library."""

from __future__ import annotations

import os
import subprocess
import sys
from html.parser import HTMLParser

PLAYBOOK = '''name: bidi
steps:
  - id: a
    title: "t\\u200e x \\u202e y"
    why: "w\\u200f x"
    run: "echo \\u2066 hi \\u0090 ok"
'''


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        self.tags.append(tag)

    def handle_data(self, data) -> None:
        self.text.append(data)


def test_marks_in_the_html_walkthrough_are_text_not_tags(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "explain", "p.yaml", "-o", "walk.html"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120, env={**os.environ, "COLUMNS": "200"})
    assert proc.returncode == 0, proc.stderr
    parser = _Text()
    parser.feed((tmp_path / "walk.html").read_text())
    text = "".join(parser.text)
    assert not [tag for tag in parser.tags if tag.startswith("u+")]
    assert "echo <U+2066> hi <U+0090> ok" in text
    assert "t<U+200E> x <U+202E> y" in text and "w<U+200F> x" in text
    for raw in ("\u200e", "\u200f", "\u202e", "\u2066", "\u0090"):
        assert raw not in text


def test_the_markdown_walkthrough_keeps_the_plain_mark(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "explain", "p.yaml"], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120, env={**os.environ, "COLUMNS": "200"})
    assert proc.returncode == 0, proc.stderr
    assert "echo <U+2066> hi <U+0090> ok" in proc.stdout and "&lt;" not in proc.stdout

"""The Markdown walkthrough of a team's own playbook, rendered as GitHub or an editor's preview
renders it (CommonMark, markdown-it).

An expectation's `description:` and a finding's title are the author's words, and authors write
placeholders as `<port>` or `<draft_dir>` (as the README writes `runs/<run-id>`). The "Healthy"
and "Failing" lines put them into the Markdown as they were: CommonMark reads `<port>` as an
HTML tag (section 6.6), so the placeholder vanished from the rendered page, and a description
holding `<script>` became markup. The step's `why:` and the finding's own heading were escaped
already; these two lines were not."""

from __future__ import annotations

from html.parser import HTMLParser

from markdown_it import MarkdownIt
from typer.testing import CliRunner

from spec_debug.cli import app

PLAYBOOK = """\
name: server_up
description: Is the SGLang server answering?
vars:
  port: "30000"
steps:
  - id: health
    why: A server still loading answers 503.
    run: curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:{{ port }}/health
    expect:
      - contains: "200"
        description: the server answers 200 on <port>/health
        finding:
          code: SD900
          severity: error
          title: Nothing answers on <port> <script>alert(1)</script>
"""


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.text.append(data)


def test_placeholders_in_descriptions_and_finding_titles_survive_rendering(tmp_path):
    (tmp_path / "server_up.yaml").write_text(PLAYBOOK)
    out = tmp_path / "walkthrough.md"
    result = CliRunner().invoke(app, ["explain", str(tmp_path / "server_up.yaml"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    page = _Text()
    page.feed(MarkdownIt("commonmark").render(out.read_text()))
    text = " ".join("".join(page.text).split())
    assert "Healthy: the server answers 200 on <port>/health." in text
    assert "Nothing answers on <port> <script>alert(1)</script>" in text.split("Failing:")[1]
    assert "script" not in page.tags and "port" not in page.tags

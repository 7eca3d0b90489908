"""The Markdown report of a failed run, rendered as GitHub renders it (CommonMark + tables, here
markdown-it).

Authors write placeholders as `<port>` in an expectation's description, which the step's
message repeats; in the Steps table CommonMark read it as an HTML tag and it vanished from the
cell (as would a message quoting a Python repr, `<urlopen error ...>`). A
playbook finding's `remediation:` went in raw: `<dir>` vanished, and a line "# then restart"
became a heading in the middle of the report."""

from __future__ import annotations

import os
import subprocess
import sys
from html.parser import HTMLParser

from markdown_it import MarkdownIt

PLAYBOOK = """\
name: health
steps:
  - id: health
    run: |
      python3 -c "import urllib.request
      try:
          urllib.request.urlopen('http://127.0.0.1:9/health', timeout=2)
      except Exception as exc:
          raise SystemExit(repr(exc))"
    expect:
      - exit_code: 0
        description: the server answers on <port>
    findings:
      - code: SD900
        severity: error
        title: Server down
        remediation: |
          Start it again from <draft_dir>:
          # then restart the router
          ---
"""


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.text.append(data)


def test_reprs_placeholders_and_fix_lines_render_as_text(tmp_path):
    (tmp_path / "health.yaml").write_text(PLAYBOOK)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "health.yaml", "--host", "local", "--out", "runs"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})
    assert proc.returncode == 1, proc.stdout + proc.stderr
    report = next(tmp_path.glob("runs/*/report.md")).read_text()
    page = _Page()
    page.feed(MarkdownIt("commonmark").enable("table").render(report))
    text = "".join(page.text)
    assert "expected the server answers on <port>" in text
    assert "Start it again from <draft_dir>:" in text and "# then restart the router" in text
    assert not {"port", "draft_dir"} & set(page.tags)
    assert page.tags.count("h1") == 1 and "hr" not in page.tags[:page.tags.index("table")]

"""A finding's fix, or a step's why, that shows the command to run in a fenced code block is
copied from the rendered report as written.

The Markdown escaping added today (report/markdown_prose.py) escaped a `# comment` line and a
`<model>` placeholder inside a ``` or ~~~ block too: GitHub showed `\\# on the GPU host` and
`\\<model>` in the command the on-call engineer copies. Outside the block the escaping still
keeps a "# ..." line from becoming a heading and `<dir>` from vanishing."""

from __future__ import annotations

import os
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

from markdown_it import MarkdownIt

FIX_WITH_A_COMMAND = """\
name: relaunch
description: |
  Is the server up? Start it with:
  ~~~
  # on the GPU host
  spec-debug run relaunch --var port=<port>
  ~~~
  # of hosts checked: one
steps:
  - id: health
    why: |
      The router sends nothing to a server that is down:
      ```bash
      # the health endpoint
      curl -sf http://127.0.0.1:<port>/health
      ```
    run: exit 3
    findings:
      - code: SD900
        severity: error
        title: Server down
        remediation: |
          Relaunch it from <draft_dir>:
          ```bash
          # on the GPU host
          python -m sglang.launch_server --model <target> \\
            --speculative-algorithm EAGLE3
          ---
          ```
          # then restart the router

          Check it answers:

              curl -sf http://127.0.0.1:<port>/health
"""


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []
        self.code: list[str] = []
        self._in_code = False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self._in_code = self._in_code or tag == "pre"

    def handle_endtag(self, tag):
        self._in_code = self._in_code and tag != "pre"

    def handle_data(self, data):
        (self.code if self._in_code else self.text).append(data)


def _rendered(markdown: str) -> _Page:
    page = _Page()
    page.feed(MarkdownIt("commonmark").enable("table").render(markdown))
    return page


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})


def test_the_command_in_a_fix_is_shown_as_written_and_the_prose_around_it_as_text(tmp_path):
    (tmp_path / "relaunch.yaml").write_text(FIX_WITH_A_COMMAND)
    ran = _cli("run", "relaunch.yaml", "--host", "local", cwd=tmp_path)
    assert ran.returncode == 1, ran.stdout + ran.stderr
    page = _rendered(next(tmp_path.glob("runs/*/report.md")).read_text())
    code = "".join(page.code)
    assert ("# on the GPU host\npython -m sglang.launch_server --model <target> \\\n"
            "  --speculative-algorithm EAGLE3\n---\n") in code, code
    text = "".join(page.text)
    assert "curl -sf http://127.0.0.1:<port>/health\n" in code, code
    assert "Relaunch it from <draft_dir>:" in text and "# then restart the router" in text
    assert page.tags.count("h1") == 1 and "draft_dir" not in page.tags


def test_the_walkthrough_keeps_fenced_commands_in_the_description_and_why(tmp_path):
    (tmp_path / "relaunch.yaml").write_text(FIX_WITH_A_COMMAND)
    explained = _cli("explain", "relaunch.yaml", cwd=tmp_path)
    assert explained.returncode == 0, explained.stderr
    page = _rendered(explained.stdout)
    code = "".join(page.code)
    assert "# on the GPU host\nspec-debug run relaunch --var port=<port>\n" in code, code
    assert "# the health endpoint\ncurl -sf http://127.0.0.1:<port>/health\n" in code, code
    assert "# of hosts checked: one" in "".join(page.text)
    assert page.tags.count("h1") == 1


def test_a_fix_whose_code_block_is_left_open_does_not_swallow_the_rest_of_the_report(tmp_path):
    (tmp_path / "relaunch.yaml").write_text(FIX_WITH_A_COMMAND.replace("  ---\n          ```\n", "  ---\n"))
    ran = _cli("run", "relaunch.yaml", "--host", "local", cwd=tmp_path)
    assert ran.returncode == 1, ran.stdout + ran.stderr
    page = _rendered(next(tmp_path.glob("runs/*/report.md")).read_text())
    assert "table" in page.tags and "## Steps" not in "".join(page.code), "".join(page.code)

"""The Markdown report of a run whose host names and finding titles carry HTML, read as a
CommonMark renderer reads it (markdown-it, as VS Code's preview and many wikis render
report.md).

An Ansible inventory names hosts as its author likes, and a finding's title is rendered from a
fact the host printed. The verdict line quoted the titles raw, so `<svg onload=...>` printed by
a step became a tag in the report; a host name went raw into the `<details><summary>` HTML
blocks (CommonMark 0.31 section 4.6 passes them through untouched), and one holding a backtick
closed the code span it was shown in early."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from markdown_it import MarkdownIt

PLAYBOOK = """\
name: banner
description: What the server prints first
steps:
  - id: banner
    title: Server banner
    run: |
      printf 'banner: <svg onload=alert(4)>\\n'
    capture:
      - regex: 'banner: (?P<banner>.*)'
        type: str
    expect:
      - contains: ready
    findings:
      - code: SD900
        severity: error
        title: "Not ready: {{ facts.banner }}"
        remediation: Restart the server.
"""

# One host runs the step locally; one cannot be reached (port 1 on loopback refuses at once).
INVENTORY = """\
all:
  hosts:
    "gpu<img src=x onerror=alert(1)>":
      ansible_connection: local
    "gpu`02`":
      ansible_host: 127.0.0.1
      ansible_port: 1
"""


def _run(tmp_path: Path, *hosts: str) -> str:
    (tmp_path / "banner.yaml").write_text(PLAYBOOK)
    (tmp_path / "hosts.yaml").write_text(INVENTORY)
    proc = subprocess.run(
        [sys.executable, "-m", "spec_debug", "run", "banner.yaml", *hosts, "--out", "runs", "--batch"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
        env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"},
    )
    assert proc.returncode in (1, 3), proc.stdout + proc.stderr
    (run_dir,) = (tmp_path / "runs").iterdir()
    return (run_dir / "report.md").read_text()


def _html(markdown: str) -> tuple[list[str], list[str]]:
    """The inline HTML and the HTML block lines a CommonMark renderer would pass through."""
    inline, blocks = [], []
    for token in MarkdownIt("commonmark").parse(markdown):
        if token.type == "html_block":
            blocks.append(token.content)
        inline += [child.content for child in token.children or [] if child.type == "html_inline"]
    return inline, blocks


def test_step_output_in_a_finding_title_is_text_in_the_verdict(tmp_path):
    markdown = _run(tmp_path, "--host", "local")
    inline, _ = _html(markdown)
    assert inline == []
    verdict = next(line for line in markdown.splitlines() if line.startswith("> **Verdict:**"))
    assert "Not ready: \\<svg onload=alert(4)>" in verdict


def test_host_names_are_text_in_details_and_tables(tmp_path):
    markdown = _run(tmp_path, "-i", "hosts.yaml")
    inline, blocks = _html(markdown)
    assert inline == []
    # Each <details> block holds only the details and summary tags spec-debug writes.
    for block in blocks:
        assert "<img" not in block, block
    assert any("gpu&lt;img src=x onerror=alert(1)&gt;" in block for block in blocks)
    # The host with backticks is one code span in the Steps table, shown whole.
    assert "| ``gpu`02``` |" not in markdown
    html = MarkdownIt("commonmark").enable("table").render(markdown)
    assert "<code>gpu`02`</code>" in html

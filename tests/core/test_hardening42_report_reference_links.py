"""A playbook finding's `references:` are links in both reports. report.md wrote each as an
autolink, `<URL>`, which CommonMark ends at the first space or `<`: a reference
"https://host/?q=<script>alert(1)</script>" put a raw <script> tag into report.md (run by a
Markdown viewer that renders HTML), and "https://.../pull/1 (the fix)" showed as broken text
(and as an href with spaces in report.html). A reference that is not one bare address is now
shown as code in both reports; a bare one stays a link (trimmed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from markdown_it import MarkdownIt

PLAYBOOK = """\
name: refs
steps:
  - id: check
    run: "false"
    findings:
      - code: SD001
        title: with references
        references:
          - "https://127.0.0.1/?q=<script>alert(1)</script>"
          - "https://127.0.0.1/pull/1 (the fix)"
          - " https://127.0.0.1/padded "
          - "https://127.0.0.1/a_b*c*"
"""


def _run(tmp_path: Path) -> Path:
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})
    assert proc.returncode == 1, proc.stderr
    return next((tmp_path / "runs").iterdir())


def test_references_in_the_markdown_report_hold_no_raw_html(tmp_path):
    run_dir = _run(tmp_path)
    line = next(l for l in (run_dir / "report.md").read_text().splitlines() if l.startswith("References:"))
    html = MarkdownIt("commonmark").render(line)
    assert "<script" not in html, html
    assert "<code>https://127.0.0.1/?q=&lt;script&gt;alert(1)&lt;/script&gt;</code>" in html
    assert "<code>https://127.0.0.1/pull/1 (the fix)</code>" in html
    assert '<a href="https://127.0.0.1/padded">https://127.0.0.1/padded</a>' in html
    assert '<a href="https://127.0.0.1/a_b*c*">https://127.0.0.1/a_b*c*</a>' in html
    # run.json keeps every reference as written
    record = json.loads((run_dir / "run.json").read_text())
    assert record["findings"][0]["references"][1] == "https://127.0.0.1/pull/1 (the fix)"


def test_references_in_the_html_report_link_only_bare_addresses(tmp_path):
    run_dir = _run(tmp_path)
    html = (run_dir / "report.html").read_text()
    assert 'href="https://127.0.0.1/pull/1 (the fix)"' not in html
    assert "<code>https://127.0.0.1/pull/1 (the fix)</code>" in html
    assert '<a href="https://127.0.0.1/padded">' in html

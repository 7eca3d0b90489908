"""A finding's title and fix rendered from a captured fact carry what the step printed. Evidence
and raw outputs were shown as the terminal showed them (bidi overrides marked <U+202E>, control
characters as control pictures), but the finding's title, its fix, the verdict sentence, the
HTML step note and the GitHub step summary kept a raw RLO (the "Trojan Source" reordering,
CVE-2021-42574) and a raw U+0001 (not allowed in HTML, dropped or shown as garbage). Through the
real CLI, a real local step."""

from __future__ import annotations

import os
import subprocess
import sys
from html.parser import HTMLParser

# printf writes an RLO (\342\200\256) and a U+0001 (\001) into what the step prints.
PLAYBOOK = r'''name: screened
steps:
  - id: cap
    run: "printf 'name: \\342\\200\\256txt.hsab\\001\\n'"
    capture:
      - regex: 'name: (?P<nm>.*)'
    expect:
      - exit_code: 1
        finding:
          code: SD901
          severity: error
          title: "Model {{ facts.nm }} failed"
          remediation: "Remove {{ facts.nm }}"
'''


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data) -> None:
        self.parts.append(data)


def test_title_fix_and_verdict_from_output_are_screened(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    summary = tmp_path / "summary.md"
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "GITHUB_STEP_SUMMARY": str(summary)}
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120, env=env)
    assert proc.returncode == 1, proc.stderr
    (run_dir,) = (tmp_path / "runs").iterdir()
    parser = _Text()
    parser.feed((run_dir / "report.html").read_text())
    html_text = "".join(parser.parts)
    markdown = (run_dir / "report.md").read_text()
    github = summary.read_text()
    for shown in (html_text, markdown, github):
        assert "\u202e" not in shown and "\x01" not in shown
    assert "Model <U+202E>txt.hsab\u2401 failed" in html_text             # title and verdict
    assert "Fix: Remove <U+202E>txt.hsab\u2401" in html_text
    assert "Model \\<U+202E\\>txt.hsab\u2401 failed" in markdown          # the heading
    assert "**Fix:** Remove \\<U+202E>txt.hsab\u2401" in markdown
    assert "Model \\<U+202E>txt.hsab\u2401 failed" in github

"""`spec-debug explain` shows each command to be read before it runs. A control character in a
playbook's command, title or why (`"\\e[8m"` in a double-quoted YAML string) went out as is:
on a terminal ESC[8m concealed the text after it and an OSC set the window title; piped or
redirected (`explain p.yaml > walkthrough.md`), click's echo stripped what it took for colour
codes, so the walkthrough showed `echo "" ; true` for `echo "<ESC>[8m" ; true`. Now every
control is shown as its control picture, on a terminal and in a file alike."""

from __future__ import annotations

import os
import subprocess
import sys

PLAYBOOK = r'''name: esc
steps:
  - id: a
    title: "T\e[8mhidden"
    why: "W\e]0;pwn\a x"
    run: "echo \"\e[8m\" ; true"
'''


def _explain(tmp_path, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    return subprocess.run([sys.executable, "-m", "spec_debug", "explain", "p.yaml", *args], capture_output=True,
                          text=True, cwd=tmp_path, timeout=120, env={**os.environ, "COLUMNS": "200"})


def test_controls_in_the_walkthrough_are_shown(tmp_path):
    proc = _explain(tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "\x1b" not in proc.stdout and "\x07" not in proc.stdout
    assert 'echo "\u241b[8m" ; true' in proc.stdout
    assert "## 1. T\u241b[8mhidden" in proc.stdout and "W\u241b]0;pwn\u2407 x" in proc.stdout


def test_the_same_in_a_file_and_in_html(tmp_path):
    assert _explain(tmp_path, "-o", "walk.md").returncode == 0
    assert 'echo "\u241b[8m" ; true' in (tmp_path / "walk.md").read_text()
    assert _explain(tmp_path, "-o", "walk.html").returncode == 0
    html = (tmp_path / "walk.html").read_text()
    assert "\x1b" not in html and "\u241b[8m" in html

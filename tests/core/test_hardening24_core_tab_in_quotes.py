"""A tab inside a command's own quotes: `run: grep -P "a<TAB>b" x`, `run: printf 'x<TAB>y'`.
The author means the tab (a TSV field separator, a grep pattern); PyYAML refuses a tab in a
plain value (yaml/pyyaml#306), and the hint said to replace it with a space, which changes
what the command matches. Now the hint says to quote the whole value (a `run: |` block or
YAML double quotes with \\t), both of which keep the tab. Through the real CLI."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import yaml


def _validate(tmp_path, text: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "p.yaml").write_text(text)
    return subprocess.run([sys.executable, "-m", "spec_debug", "playbooks", "validate", "p.yaml"], capture_output=True,
                          text=True, cwd=tmp_path, timeout=120, env={**os.environ, "COLUMNS": "400"})


@pytest.mark.parametrize(("line", "where"), [
    ("    run: grep -P \"a\tb\" /var/log/x\n", "p.yaml:4:20"),
    ("    run: printf 'step\tms\\n'\n", "p.yaml:4:22"),
    ("    run: cut -d '\t' -f2 x.tsv\n", "p.yaml:4:18"),
])
def test_a_tab_in_shell_quotes_is_kept_by_quoting_the_value(tmp_path, line, where):
    proc = _validate(tmp_path, "name: tab\nsteps:\n  - id: a\n" + line)
    said = " ".join(proc.stderr.split())
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert f"error: {where}: YAML syntax error" in said
    assert "a tab inside the command's quotes" in said
    assert "write it as a block ('run: |' and the command on the next line, indented)" in said
    assert "replace it with a space" not in said


def test_the_block_the_hint_names_loads_with_the_tab(tmp_path):
    """What the hint says to write is a valid playbook that keeps the tab in the command."""
    proc = _validate(tmp_path, "name: tab\nsteps:\n  - id: a\n    run: |\n      cut -d '\t' -f2 x.tsv\n")
    assert proc.returncode == 0, proc.stderr
    assert "\t" in yaml.safe_load((tmp_path / "p.yaml").read_text())["steps"][0]["run"]


def test_a_tab_after_a_closing_quote_still_says_replace_it(tmp_path):
    proc = _validate(tmp_path, "name: tab\nsteps:\n  - id: a\n    run: echo 'hi'\tthere\n")
    said = " ".join(proc.stderr.split())
    assert "a tab after ''hi''" in said and "replace it with a space" in said

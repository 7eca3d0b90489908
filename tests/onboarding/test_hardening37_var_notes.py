"""`explain`'s vars table: "what it is" is the comment the author wrote beside each var."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PLAYBOOK = """\
name: gpu_check
vars:   # inputs
  check: "nvidia-smi | grep -c ' # '"
  cmd: 'echo a # b'   # the probe command
  url: "http://x/#frag"  # the docs page
  engine:  # the engine settings
    name: sglang   # nested: not a var of its own
  banner: >-  # folded text shown at the start
    hello # not a comment
  port: "30000" # the server port
steps:
  - id: probe   # not a var
    run: "{{ check }}; {{ cmd }}; echo {{ url }} {{ port }} {{ banner }}"
"""


def _explain(tmp_path: Path, fmt: str) -> str:
    path = tmp_path / "gpu_check.yaml"
    path.write_text(PLAYBOOK)
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1"}
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "explain", str(path), "--format", fmt],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_a_hash_inside_a_quoted_default_is_no_comment(tmp_path):
    # Before: the first " #" on the line was taken for the comment: `check` (no comment at
    # all) was noted `'"` and `cmd` "b'   # the probe command".
    notes = json.loads(_explain(tmp_path, "json"))["var_notes"]
    assert notes == {
        "cmd": "the probe command",
        "url": "the docs page",
        "engine": "the engine settings",
        "banner": "folded text shown at the start",
        "port": "the server port",
    }


def test_the_markdown_table_shows_the_authors_words(tmp_path):
    text = _explain(tmp_path, "md")
    rows = {line.split("|")[1].strip(): line for line in text.splitlines() if line.startswith("| `")}
    assert rows["`cmd`"].rstrip().endswith("| the probe command |"), rows["`cmd`"]
    assert rows["`check`"].rstrip().endswith("|  |"), rows["`check`"]

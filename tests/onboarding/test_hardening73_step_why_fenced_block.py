"""`run --step` shows a step's `why` in its panel with the YAML's hard line ends joined, as
Markdown joins them. A fenced block in the why (the commands to look further with, as `explain`
shows them, one a line) was joined too: "```sh nvidia-smi --query-compute-apps=... ps -o
pid,cmd -p PID ```", one line that runs nothing sensible when pasted. Each line of a fenced
block (``` or ~~~) now keeps its own line; prose and list items are joined as before."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

PLAYBOOK = """\
name: fence
steps:
  - id: gpus
    title: GPU check
    why: |
      The server needs every GPU idle. If this fails, look
      at what holds them:

      ```sh
      nvidia-smi --query-compute-apps=pid,used_memory --format=csv
      ps -o pid,cmd -p PID
      ```
      then stop it, and
      check again.

      Checks:
      - the GPUs
      - the
        processes
    run: echo ok
"""


def test_a_fenced_block_keeps_its_lines_in_the_step_panel(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "--step", "-o", "runs"],
                          capture_output=True, text=True, cwd=tmp_path, input="r\n", timeout=120,
                          env={**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"})
    assert proc.returncode == 0, proc.stderr
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", proc.stderr)
    panel = [line.strip("│ ").rstrip() for line in text.splitlines() if line.startswith("│")]
    assert panel[:12] == [
        "Why: The server needs every GPU idle. If this fails, look at what holds them:",
        "",
        "```sh",
        "nvidia-smi --query-compute-apps=pid,used_memory --format=csv",
        "ps -o pid,cmd -p PID",
        "```",
        "then stop it, and check again.",
        "",
        "Checks:",
        "- the GPUs",
        "- the processes",
        "",
    ], panel

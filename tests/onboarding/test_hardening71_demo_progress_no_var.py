"""`spec-debug demo` (no --step): the progress line of the reference_forward step's note read
"demo-gpu01         SD004 Not checked: --var python=the server's interpreter (the one sglang is
installed in)", though the demo takes no --var (its closing lines and `demo --step` already say
why the step could not look instead). The progress line now says it as they do."""

from __future__ import annotations

import os
import re
import subprocess
import sys


def test_the_demo_progress_lines_never_ask_for_a_var(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "demo", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"})
    said = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", proc.stdout + proc.stderr)
    assert proc.returncode == 1, said
    assert "--var" not in said, said
    notes = [line for line in said.splitlines() if " SD004 " in line]
    assert notes == ["demo-gpu01         SD004 Not checked on the simulated host: engine forward not read: "
                     "sglang is not installed in this Python"], said

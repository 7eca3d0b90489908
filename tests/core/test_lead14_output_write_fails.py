"""Standard output that cannot be written (`> /dev/full`, a full disk under a redirect) gives
one line and exit code 3, not an OSError traceback from deep in click or rich."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SESSION = Path(__file__).resolve().parents[1] / "data" / "transcripts" / "claude-code" / "representative_messages.jsonl"

pytestmark = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")


@pytest.mark.parametrize("args", [
    ["analyze", str(SESSION)],
    ["findings"],
    ["explain", "perf_regression"],
    ["playbooks", "show", "perf_regression"],
])
def test_full_stdout_is_one_message(args):
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "spec_debug", *args], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=120, env={**os.environ, "COLUMNS": "200"})
    assert proc.returncode == 3, proc.stderr
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr
    assert proc.stderr.strip() == "error: writing the output: No space left on device"

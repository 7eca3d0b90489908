"""`spec-debug analyze -` (or `distill -`) started with standard input closed (`<&-`, a cron line,
a service with no stdin): Python sets sys.stdin to None and the command died in an
AttributeError traceback. It now says in one line that there is no transcript there, exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import spec_debug

ROOT = Path(spec_debug.__file__).resolve().parent.parent


@pytest.mark.parametrize("args", [("analyze", "-"), ("distill", "-", "-o", "playbook.yaml"), ("analyze", "/dev/stdin")])
def test_a_closed_stdin_is_one_line(tmp_path: Path, args: tuple[str, ...]) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-m", "spec_debug", *args], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=120, preexec_fn=lambda: os.close(0))
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "error: no transcript on standard input (it is closed)",
        "  hint: pipe one in: cat session.jsonl | spec-debug analyze -, or pass the transcript's path"]
    assert list(tmp_path.iterdir()) == []

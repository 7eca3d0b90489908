"""The SSH transport and the run engine type-check: mypy finds no error in them.

mypy reported, among others, a loop variable of ssh_connect that named a jump hop and then the
connections to close (`"JumpHop" has no attribute "close"`), a lambda whose type it could not infer
for a later hop's channel, `lost` bound by one `except` clause and assigned in the next, and a
possibly-None marker searched for in ssh.py's _PidHeader. None failed at run time, but each hid the
real errors mypy would find around them. paramiko ships no types: its imports are not checked.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FILES = ["spec_debug/runner/ssh.py", "spec_debug/runner/ssh_connect.py", "spec_debug/runner/transport.py",
         "spec_debug/runner/engine.py"]


def test_the_ssh_transport_and_the_engine_type_check(tmp_path: Path) -> None:
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("needs mypy")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--follow-imports=silent", "--ignore-missing-imports", "--no-error-summary",
         f"--cache-dir={tmp_path / 'mypy'}", *FILES],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    errors = [line for line in result.stdout.splitlines() if ": error: " in line]
    assert errors == [], result.stdout + result.stderr
    assert result.returncode == 0, result.stdout + result.stderr

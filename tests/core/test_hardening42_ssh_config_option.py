"""`spec-debug run ... -F PATH` with a mistyped PATH (or a folder) was found only when each host
connected: a host error per host, exit 3 ("a host unreachable"), a run folder written for each
try, and "ssh config file not found: PATH" for a folder that is plainly there. The file is now
read before the run starts: exit 2 (a usage error), one line, no run folder. `-F none` still
reads no file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PLAYBOOK = """
name: configured
steps:
  - id: hello
    run: echo hello
"""


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    return subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "127.0.0.1:9", "--batch",
                           "--connect-timeout", "30", *args],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={**os.environ, "COLUMNS": "300", "NO_COLOR": "1"})


def _run_folders(tmp_path: Path) -> list[Path]:
    runs = tmp_path / "runs"
    return list(runs.iterdir()) if runs.is_dir() else []


def test_a_missing_ssh_config_is_a_usage_error_before_the_run(tmp_path):
    proc = _run(tmp_path, "-F", "no_such_config")
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "error: ssh config file not found: no_such_config" in proc.stderr
    assert "running configured" not in proc.stderr
    assert _run_folders(tmp_path) == []


def test_a_folder_given_as_ssh_config_is_named_as_a_folder(tmp_path):
    (tmp_path / "sshdir").mkdir()
    proc = _run(tmp_path, "-F", "sshdir")
    assert proc.returncode == 2, proc.stderr
    assert "error: ssh config file sshdir is a folder" in proc.stderr
    assert "not found" not in proc.stderr
    assert _run_folders(tmp_path) == []

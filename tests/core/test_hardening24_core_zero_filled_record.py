"""run.json after a power loss: the rename reached the disk, the data did not, so the file has
its size and NUL bytes in place of the record (XFS, ext4 without fsync; store.py writes none).
`spec-debug report` said 'run.json is not valid JSON: Expecting value' at 1:1, with no hint,
as if the file were text someone had edited. Now one line says what happened and what is
left. A real run record, written by a real run, then zero-filled as the disk leaves it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def _cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=180, env={**os.environ, "COLUMNS": "400"})


@pytest.fixture(scope="module")
def run_json(tmp_path_factory) -> bytes:
    home = tmp_path_factory.mktemp("run")
    (home / "p.yaml").write_text("name: power\nsteps:\n  - id: hello\n    run: echo hello\n")
    assert _cli(home, "run", "p.yaml", "--host", "local").returncode == 0
    [record] = (home / "runs").glob("*/run.json")
    return record.read_bytes()


@pytest.mark.parametrize(("kept", "said"), [
    (0, "run.json is all NUL bytes: the machine stopped (power loss or crash) before the record reached the disk"),
    (300, "run.json holds NUL bytes from byte 300 on: the machine stopped"),
])
def test_a_zero_filled_record_is_named_as_lost_to_the_disk(tmp_path, run_json, kept, said):
    folder = tmp_path / "runs" / "20261201T000000000Z-power-0123abcd"
    folder.mkdir(parents=True)
    (folder / "run.json").write_bytes(run_json[:kept] + b"\0" * (len(run_json) - kept))
    proc = _cli(tmp_path, "report", str(folder))
    text = " ".join(proc.stderr.split())
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert said in text
    assert "hint: the record is lost; the steps' output may remain under" in text and "Expecting value" not in text

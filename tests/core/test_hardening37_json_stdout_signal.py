"""SIGTERM while `spec-debug run --json` writes the record to a stdout nobody reads yet.

A record bigger than the pipe's buffer blocks the write; a CI job cancelled then sent SIGTERM,
which reached Typer as a KeyboardInterrupt: exit 130 and nothing on stderr, while the reader
had part of a JSON document. It now says what stopped the write, that run.json is complete,
and exits 3 (aborted).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_sigterm_while_json_is_written_says_so(tmp_path: Path) -> None:
    playbook = tmp_path / "pb.yaml"
    playbook.write_text("name: big\nsteps:\n  - id: s\n    run: seq 1 60000\n")
    out = tmp_path / "runs"
    read_end, write_end = os.pipe()  # never read: the --json write blocks once the buffer fills
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "spec_debug.cli", "run", str(playbook), "--host", "local", "--out", str(out), "--json"],
        stdout=write_end, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path,
    )
    os.close(write_end)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            done = [d for d in out.glob("*") if (d / "report.html").is_file()] if out.is_dir() else []
            if done and "pipe_write" in Path(f"/proc/{proc.pid}/wchan").read_text():
                break
            time.sleep(0.1)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        os.close(read_end)
    assert proc.returncode == 3, err  # was 130
    assert "terminated (SIGTERM) while --json wrote the record to stdout" in err
    assert "run.json is complete" in " ".join(err.split())
    assert "Traceback" not in err

"""`--retry-failed RUN_DIR` of a run made on an inventory, given without `-i` again: the failed
hosts are inventory names (lab08), which only the inventory resolves. Before, the retry tried
`lab08` as a host name ("cannot resolve host name"); now it takes the recorded inventory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.ssh.test_hardening14_fleet_unreachable import fleet, run_cli  # noqa: F401  (fixture)


def test_a_retry_without_the_inventory_uses_the_recorded_one(tmp_path: Path, fleet: Path) -> None:  # noqa: F811
    done, run_dir, _ = run_cli(tmp_path, tmp_path / "first", "-i", str(fleet))
    assert done.returncode == 3, done.stderr
    retry = subprocess.run(
        [sys.executable, "-m", "spec_debug", "run", str(tmp_path / "fleet.yaml"), "--retry-failed", str(run_dir),
         "--batch", "--out", str(tmp_path / "first")],
        capture_output=True, text=True, timeout=180, env={**os.environ, "COLUMNS": "300"})
    assert retry.returncode == 3, retry.stderr
    (retried_dir,) = [p for p in run_dir.parent.iterdir() if p.is_dir() and p != run_dir]
    retried = json.loads((retried_dir / "run.json").read_text())
    assert [h["name"] for h in retried["hosts"]] == ["lab08"]
    assert retried["hosts"][0]["error"].startswith("lab08 at 127.0.0.1: connection refused")


def test_a_recorded_inventory_missing_from_here_is_one_clear_error(tmp_path: Path, fleet: Path) -> None:  # noqa: F811
    done, run_dir, _ = run_cli(tmp_path, tmp_path / "first", "-i", str(fleet))
    assert done.returncode == 3, done.stderr
    fleet.rename(tmp_path / "moved.ini")
    retry = subprocess.run(
        [sys.executable, "-m", "spec_debug", "run", str(tmp_path / "fleet.yaml"), "--retry-failed", str(run_dir),
         "--batch", "--out", str(tmp_path / "second")],
        capture_output=True, text=True, timeout=180, env={**os.environ, "COLUMNS": "300"})
    assert retry.returncode == 2
    assert "which is not found from here" in retry.stderr and "-i PATH/TO/hosts.ini" in retry.stderr
    assert "Traceback" not in retry.stderr

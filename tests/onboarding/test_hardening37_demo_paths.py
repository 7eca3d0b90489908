"""`spec-debug demo` in a log: the report paths it ends with are pasted from there."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_demo_report_paths_are_never_folded_off_a_terminal(tmp_path):
    # Before: the closing "ABORTED: 0 error(s) · report: PATH · PATH" line was folded by rich at
    # 80 columns (stderr redirected to a file, a CI log): a newline sat inside each path
    # ("...december/20\n261204T045937850Z-perf_regression-cb3df2c9/report.md"), which `run`
    # never does (cli_run._say). Quitting at the first prompt (stdin at end) keeps it fast.
    out = tmp_path / "a_rather_long_folder_name_for_the_demo_runs" / "of_the_team" / "2026" / "december"
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1", "NO_COLOR": "1"}
    env.pop("COLUMNS", None)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "demo", "--step", "--out", str(out)],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert proc.returncode == 3, proc.stderr
    [run_dir] = list(out.iterdir())
    lines = proc.stderr.splitlines()
    for name in ("report.md", "report.html"):
        path = str(run_dir / name)
        assert len(path) > 80  # longer than the fold
        assert any(path in line for line in lines), proc.stderr
        assert (run_dir / name).is_file()

"""`--option=~/path` reaches the CLI with its ~ (the shell expands a tilde only at the start of
a word), so the CLI expands it itself, as ssh and ansible do for their options."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def _cli(*args: str, home: Path, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=120)


def test_var_file_and_report_output_with_tilde_after_equals(tmp_path):
    home, cwd = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    cwd.mkdir()
    (home / "vars.yaml").write_text("who: from-the-var-file\n")
    (cwd / "echo.yaml").write_text("name: echo\nvars:\n  who: nobody\nsteps:\n  - id: say\n    run: echo {{ who }}\n")
    ran = _cli("run", "echo.yaml", "--host", "local", "--var-file=~/vars.yaml", "--out", "runs", "--json",
               home=home, cwd=cwd)
    assert ran.returncode == 0, ran.stderr
    record = json.loads(ran.stdout)
    run_dir = cwd / "runs" / record["run_id"]
    assert "from-the-var-file" in (run_dir / "run.json").read_text()

    rendered = _cli("report", str(run_dir), "--format", "md", "--output=~/report.md", home=home, cwd=cwd)
    assert rendered.returncode == 0, rendered.stderr
    assert (home / "report.md").is_file()
    assert not (cwd / "~").exists()

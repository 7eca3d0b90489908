"""A playbook var an inventory reads from a secret environment variable under a plain name
(`gpu1 hub="{{ lookup('env', 'HUB_API_KEY') }}"`, a playbook's `hub` var passed to a
model hub's upload script) was masked nowhere: the records mask a var's value
by the var's name, and `hub` is not a secret's. A key with no well-known shape (an HF token's `hf_...` is masked by its shape) went into run.json (the step's
command and output) and both reports. Now the value of an environment variable named like a
secret (`HF_TOKEN`, `WANDB_API_KEY`) is masked wherever it appears, as a --var named so is.
Real `spec-debug run -i` runs (local hosts)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TOKEN = "Qm9ZxK2vLp7TnR4w-lab"  # no token shape the masking knows: masked only by its name


def test_a_value_read_from_a_secret_environment_variable_is_masked(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text('name: q\nvars:\n  hub: ""\nsteps:\n  - id: login\n    run: printf %s {{ hub }} | sha256sum\n')
    (tmp_path / "hosts.ini").write_text("[gpus]\ngpu1 ansible_connection=local hub=\"{{ lookup('env', 'HUB_API_KEY') }}\"\n")
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1", "NO_COLOR": "1", "HUB_API_KEY": TOKEN}
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "-i", "hosts.ini", "-o", "runs"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    [run_dir] = (tmp_path / "runs").iterdir()
    record = (run_dir / "run.json").read_text()
    assert "printf %s ***REDACTED*** | sha256sum" in record
    assert TOKEN not in proc.stdout + proc.stderr
    assert [p.name for p in run_dir.rglob("*") if p.is_file() and TOKEN in p.read_text(errors="replace")] == []

"""`--var min_accept=60%` where the playbook's default is 0.5 (a fraction) was refused with
"write the number alone, in the unit the playbook uses for min_accept: --var min_accept=60":
followed, it set a bar of 60 that no acceptance rate (0..1) reaches, and every check failed.
A percent given for a var whose default is a fraction is now told as the fraction:
"--var min_accept=0.6". A var whose default is not a fraction keeps the number alone.
Real `spec-debug run --host local` runs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _said(tmp_path: Path, default: str, var: str) -> list[str]:
    (tmp_path / "p.yaml").write_text(f"name: n\nvars:\n  min_accept: {default}\nsteps:\n  - id: s\n    run: echo 0.7\n"
                                     "    capture:\n      - name: acc\n        regex: '([0-9.]+)'\n        type: float\n"
                                     "    expect:\n      - that: facts.acc >= min_accept\n")
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1", "NO_COLOR": "1", "COLUMNS": "250"}
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "-o", "runs", "--var", var],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120, env=env)
    assert proc.returncode == 2, proc.stderr
    return proc.stderr.strip().splitlines()


@pytest.mark.parametrize(("var", "fraction"), [("min_accept=60%", "0.6"), ("min_accept=7.5 %", "0.075")])
def test_a_percent_for_a_fraction_is_told_as_the_fraction(tmp_path: Path, var: str, fraction: str) -> None:
    assert _said(tmp_path, "0.5", var) == [
        f"error: --var {var}: min_accept is a number in the playbook (default 0.5, a fraction), and '%' after it "
        "makes the value text its checks cannot compare",
        f"  hint: write it as a fraction, as the default is: --var min_accept={fraction}",
    ]


def test_a_percent_for_a_var_in_percent_keeps_the_number(tmp_path: Path) -> None:
    assert _said(tmp_path, "50", "min_accept=60%")[-1] == (
        "  hint: write the number alone, in the unit the playbook uses for min_accept: --var min_accept=60")

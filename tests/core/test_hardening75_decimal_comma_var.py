"""`--var min_accept=0,6` (a decimal comma, the number format of most of Europe) for a var whose
default is 0.5 was refused with "hint: write a number: --var min_accept=0.5": the default, not
the 0.6 meant, so the user who pasted the hint ran with the wrong bar. The hint now says to use
a decimal point and gives the number: "--var min_accept=0.6". `1,000` (maybe a thousands
separator) keeps the old hint. Real `spec-debug run --host local` runs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _said(tmp_path: Path, var: str) -> list[str]:
    (tmp_path / "p.yaml").write_text("name: n\nvars:\n  min_accept: 0.5\nsteps:\n  - id: s\n    run: echo {{ min_accept }}\n")
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1", "NO_COLOR": "1", "COLUMNS": "250"}
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "-o", "runs", "--var", var],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120, env=env)
    assert proc.returncode == 2, proc.stderr
    return proc.stderr.strip().splitlines()


@pytest.mark.parametrize(("given", "meant"), [("0,6", "0.6"), ("0,125", "0.125"), ("2,5", "2.5")])
def test_a_decimal_comma_is_told_with_the_number_meant(tmp_path: Path, given: str, meant: str) -> None:
    assert _said(tmp_path, f"min_accept={given}") == [
        f"error: --var min_accept={given}: min_accept is a number in the playbook (default 0.5), and '{given}' is not a number",
        f"  hint: a decimal point, not a comma: --var min_accept={meant}",
    ]


def test_a_thousands_separator_keeps_the_default_hint(tmp_path: Path) -> None:
    assert _said(tmp_path, "min_accept=1,000")[-1] == "  hint: write a number: --var min_accept=0.5"

"""`run --step` on several hosts (an inventory): each step is asked about host by host, and the
lines after each answer said "→ two failed: expected output contains 'three' ..." and "→ two
skipped (your choice)" without the host; the panel above names it, a screen up after a long
command, and in a log of the walk the two hosts' lines read the same. On a fleet they now say
"→ two on b failed: ..."; on one host they are as before. The hosts are this machine twice."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PLAYBOOK = ("name: p\nsteps:\n  - id: one\n    run: echo one\n  - id: two\n    run: echo two\n"
            "    expect:\n      - contains: three\n")


def _walk(tmp_path: Path, hosts: str, answers: str) -> list[str]:
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    (tmp_path / "hosts.ini").write_text("[gpus]\n" + "".join(f"{h} ansible_connection=local\n" for h in hosts.split()))
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1", "NO_COLOR": "1", "COLUMNS": "200"}
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "-i", "hosts.ini", "--step", "--out", "runs"],
                          input=answers, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert proc.returncode == 1, proc.stderr
    return [line for line in proc.stderr.splitlines() if line.startswith("→ ")]


def test_a_fleet_walk_names_the_host_of_each_step(tmp_path: Path):
    assert _walk(tmp_path, "a b", "r\ns\nr\nr\n") == [
        "→ one on a passed: its command exited 0 (a step with no expect: checks nothing more).",
        "→ two on a skipped (your choice); it is recorded as skipped.",
        "→ one on b passed: its command exited 0 (a step with no expect: checks nothing more).",
        "→ two on b failed: expected output contains 'three', observed not found",
    ]


def test_one_host_is_not_named(tmp_path: Path):
    assert _walk(tmp_path, "a", "s\nr\n") == [
        "→ one skipped (your choice); it is recorded as skipped.",
        "→ two failed: expected output contains 'three', observed not found",
    ]

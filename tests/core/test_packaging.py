"""Shipped playbooks, templates and the demo fixture work from a non-editable install (package data)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_wheel_install_finds_playbooks_templates_and_demo_data(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(wheels), str(REPO)],
                   check=True, capture_output=True, timeout=300)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    # Without PYTHONPATH: a checkout on it (a developer's PYTHONPATH=repo) holds spec_debug.egg-info,
    # and pip then took the wheel's project as installed there and installed nothing.
    clean = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", *map(str, wheels.glob("*.whl"))], check=True, capture_output=True,
                   timeout=300, env=clean)
    # A clean cwd and no repo on sys.path: only the installed copy can answer.
    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path)}
    where = subprocess.run([str(python), "-c", "import spec_debug; print(spec_debug.__file__)"], cwd=tmp_path, env=env,
                           capture_output=True, text=True, check=True).stdout
    assert str(venv) in where
    cli = str(venv / "bin" / "spec-debug")
    listed = json.loads(subprocess.run([cli, "playbooks", "list", "--json"], cwd=tmp_path, env=env, capture_output=True, text=True, check=True).stdout)
    assert {"perf_regression", "drafter_accuracy", "hidden_state_format"} <= {row["name"] for row in listed}
    explained = subprocess.run([cli, "explain", "perf_regression.yaml"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert explained.returncode == 0 and "(`launch_flags`)" in explained.stdout
    run = subprocess.run([cli, "run", "host_smoke", "--host", "local", "--out", str(tmp_path / "runs")], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode in (0, 1), run.stderr
    [run_dir] = list((tmp_path / "runs").iterdir())
    assert (run_dir / "report.html").read_text().startswith("<!DOCTYPE html>")
    demo_data = subprocess.run([str(python), "-c", "from spec_debug.demo import PLAYBOOK; import importlib.resources as r; "
                                "print((r.files('spec_debug') / 'data' / 'demo' / 'demo.json').is_file())"],
                               cwd=tmp_path, env=env, capture_output=True, text=True)
    assert demo_data.stdout.strip() == "True", demo_data.stderr

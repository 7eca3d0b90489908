"""`explain`'s vars table and the runner agree on which vars are empty."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PLAYBOOK = """\
name: layers_check
vars:
  layers: []
  flags: {}
  tp: 0
steps:
  - id: compare
    requires: [layers, flags, tp]
    run: "echo {{ layers }} {{ flags }} {{ tp }}"
"""


def _spec_debug(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1", "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=120)


def test_an_empty_list_default_is_shown_as_empty_as_the_runner_skips_on_it(tmp_path):
    (tmp_path / "layers_check.yaml").write_text(PLAYBOOK)
    # The runner skips a step whose required var is [] or {} (runner/engine.py) ...
    run = _spec_debug(tmp_path, "run", "layers_check.yaml", "--host", "local", "--out", "runs")
    [record] = [json.loads(p.read_text()) for p in (tmp_path / "runs").glob("*/run.json")]
    assert [s["status"] for s in record["steps"]] == ["skipped"], run.stderr
    # ... but before, the walkthrough's table gave `[]` and `{}` as defaults, as if set, while
    # the step's own text said it needs --var layers=...
    md = _spec_debug(tmp_path, "explain", "layers_check.yaml")
    assert md.returncode == 0, md.stderr
    rows = {line.split("|")[1].strip(): line for line in md.stdout.splitlines() if line.startswith("| `")}
    assert "(empty: `compare` skipped)" in rows["`layers`"], rows
    assert "(empty: `compare` skipped)" in rows["`flags`"], rows
    assert "`0`" in rows["`tp`"] and "empty" not in rows["`tp`"], rows  # 0 is a value, as for the runner
    html = _spec_debug(tmp_path, "explain", "layers_check.yaml", "--format", "html")
    assert "<td><code>layers</code></td><td>(empty: <code>compare</code> skipped)" in html.stdout, html.stdout

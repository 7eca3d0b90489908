"""`spec-debug explain SD201` / `findings SD201` gained a "Checked by" section that loaded every
shipped playbook and the probe registry to compute it, doubling the command's CPU time (0.52 ->
1.0 s user on this machine). The table now ships as package data (spec_debug/data/checked_by.json,
written by `python3 -m spec_debug.diagnose.catalog`), kept equal to the live computation here,
and a code's entry is rendered without importing the playbook loader or the probes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from spec_debug.diagnose import catalog

ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_table_is_the_live_computation() -> None:
    shipped = json.loads(catalog.CHECKED_BY_FILE.read_text(encoding="utf-8"))
    assert shipped == catalog.live_checked_by(), (
        "rewrite it: python3 -m spec_debug.diagnose.catalog")


def test_the_table_names_the_main_jobs_step_first() -> None:
    assert catalog.checked_by("SD201")[0] == {"playbook": "perf_regression", "step": "launch_flags",
                                              "topic": "launch_flags"}
    assert catalog.checked_by("SD001") == []


def test_a_codes_entry_loads_no_playbook_nor_probe(tmp_path: Path) -> None:
    script = tmp_path / "entry.py"
    script.write_text(
        "import runpy, sys\n"
        "sys.argv = ['spec-debug', 'findings', 'SD201']\n"
        "try:\n"
        "    runpy.run_module('spec_debug', run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in ('spec_debug.probes.registry', 'spec_debug.playbook.loader')"
        " if m in sys.modules), file=sys.stderr)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env,
                            cwd=tmp_path, timeout=120)
    assert "### Checked by" in result.stdout or "Checked by" in result.stdout
    assert "launch_flags" in result.stdout
    assert result.stderr.strip().splitlines()[-1] == "[]"

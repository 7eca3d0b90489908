"""`spec-debug run`'s line for a skipped step said "skipped" twice.

The status column says "skipped" and the note after the step id was the record's message, which
begins with "skipped: " (runner/engine.py: "skipped: when ... is false", "skipped: provide
--var ..."), so a real run printed `skipped gpu_busy skipped: when 'false' is false`, on one host
and on each host of a fleet. The console now drops the repeated word; run.json and the reports
keep the message as it is (there it stands alone, with no status column before it).
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

PLAYBOOK = """name: sk
steps:
  - id: a
    run: echo hi
  - id: gpu_busy
    when: "false"
    run: echo never
  - id: d
    run: echo after
"""


@pytest.mark.parametrize("hosts", [["--host", "local"], ["-i", "inv.ini"]])
def test_a_skipped_steps_line_says_skipped_once(tmp_path, hosts):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    (tmp_path / "inv.ini").write_text("[gpus]\ng1 ansible_connection=local\ng2 ansible_connection=local\n")
    hosts = [str(tmp_path / h) if h.endswith(".ini") else h for h in hosts]
    result = run_cli("run", str(tmp_path / "p.yaml"), *hosts, "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 0, result.stderr
    lines = [" ".join(line.split()) for line in result.stderr.splitlines() if "gpu_busy" in line]
    names = ["g1", "g2"] if "-i" in hosts else [""]
    assert sorted(lines) == sorted(f"{name} skipped gpu_busy when 'false' is false".strip() for name in names)
    steps = [s for s in json.loads(result.stdout)["steps"] if s["id"] == "gpu_busy"]
    assert [s["message"] for s in steps] == ["skipped: when 'false' is false"] * len(names)

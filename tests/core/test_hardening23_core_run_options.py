"""`spec-debug run` options as documented in `run --help`, through the real CLI.

- `--connect-timeout nan` / `inf` reached the socket after the run started: every SSH host
  failed with "internal error: ValueError: Invalid value NaN" or "OverflowError: timestamp out
  of range"; a negative one was taken silently as the default. Refused before the run.
- `--limit` ("Limit inventory hosts: names, groups, globs, !exclusions") was ignored for
  `--host local`: `--host local --limit gpu01` ran on this machine, where `--host gpu02
  --limit gpu01` says "no hosts to run on".
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

PLAYBOOK = """\
name: p
steps:
  - id: a
    run: echo hi
"""


def _cli(cwd, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120, env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1"})


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1"])
def test_a_connect_timeout_that_is_no_number_of_seconds_is_refused_before_the_run(tmp_path, value):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = _cli(tmp_path, "run", "p.yaml", "--host", "root@127.0.0.1:1", f"--connect-timeout={value}")
    said = " ".join(proc.stderr.split())
    assert proc.returncode == 2, said
    assert "must be a number of seconds, e.g. 15" in said and "internal error" not in said
    assert not (tmp_path / "runs").exists()


def test_a_limit_applies_to_the_local_host_too(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = _cli(tmp_path, "run", "p.yaml", "--host", "local", "--limit", "gpu01")
    assert proc.returncode == 2 and "no hosts to run on (limit 'gpu01')" in proc.stderr, proc.stderr
    assert not (tmp_path / "runs").exists()
    proc = _cli(tmp_path, "run", "p.yaml", "--host", "local", "--limit", "local", "--json")
    assert proc.returncode == 0, proc.stderr
    record = json.loads(proc.stdout)
    assert [(h["name"], h["transport"], h["status"]) for h in record["hosts"]] == [("local", "local", "passed")]

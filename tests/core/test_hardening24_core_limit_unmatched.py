"""`--limit` with a name that matches nothing, through the real CLI with a real Ansible YAML
inventory (a group of SSH hosts, the controller as `ansible_connection: local`):
- `--limit localhost,gpu9` (a typo beside a good name) ran localhost alone and said nothing;
  Ansible warns "Could not match supplied host pattern, ignoring: gpu9"
  (ansible/ansible: lib/ansible/inventory/manager.py). Now a warning names it.
- `--limit Localhost` said "no hosts to run on" with "check --host/--hosts/--inventory and
  --limit"; now the hint lists the hosts to pick among and the one it is spelt like.
- `--limit ""` (`--limit "$HOSTS"` with HOSTS unset) ran on every host, where `--limit "  "`
  is refused; now both are refused, with what to do."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

INVENTORY = """\
all:
  children:
    gpus:
      hosts:
        gpu[01:03]:
          ansible_host: 127.0.0.1
    ctl:
      hosts:
        localhost:
          ansible_connection: local
"""


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "inv.yaml").write_text(INVENTORY)
    (tmp_path / "p.yaml").write_text("name: l\nsteps:\n  - id: s\n    run: echo {{ host }}\n")
    return tmp_path


def _run(folder, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "-i", "inv.yaml", *args],
                          capture_output=True, text=True, cwd=folder, timeout=180, env={**os.environ, "COLUMNS": "400"})


def test_a_limit_item_that_matches_nothing_is_warned_about(folder):
    proc = _run(folder, "--limit", "localhost,gpu9")
    assert proc.returncode == 0, proc.stderr
    assert "warning: --limit 'gpu9' matches no host or group: ignored" in proc.stderr
    assert "running l on 1 host →" in proc.stderr + proc.stdout


def test_a_limit_matching_no_host_lists_the_hosts_and_the_close_one(folder):
    proc = _run(folder, "--limit", "Localhost")
    said = " ".join(proc.stderr.split())
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert "error: no hosts to run on (limit 'Localhost')" in said
    assert "hint: --limit picks among: gpu01, gpu02, gpu03, localhost (did you mean localhost?)" in said


@pytest.mark.parametrize("extra", [[], ["--host", "local"]])
def test_an_empty_limit_is_refused_not_taken_for_every_host(folder, extra):
    args = ["--limit", ""] + extra if extra else ["--limit", ""]
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", *(["-i", "inv.yaml"] if not extra else []),
                           *args], capture_output=True, text=True, cwd=folder, timeout=180,
                          env={**os.environ, "COLUMNS": "400"})
    said = " ".join(proc.stderr.split())
    assert proc.returncode == 2, proc.stderr
    assert "error: empty --limit pattern ''" in said and "drop --limit to run on every host" in said
    assert not (folder / "runs").exists()

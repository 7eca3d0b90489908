"""A run on `--host local` does not import paramiko (round 25).

The engine imported the SSH connect module at start only to call abandon_connects() on Ctrl-C,
which pulled in paramiko (and cryptography) for every run: ~0.25 s of the ~0.45 s a local run's
command took to start. A run with no SSH host has no connection to give up; the engine now
asks the SSH module only when some host loaded it. The Ctrl-C path of SSH runs is tested in
tests/ssh/test_abandon_connects.py and test_hardening7_ssh.py."""

from __future__ import annotations

import subprocess
import sys
import threading
from types import SimpleNamespace

from spec_debug.runner.engine import Run

PROGRAM = """
import sys
from spec_debug.cli import main
sys.argv = ["spec-debug", "run", sys.argv[1], "--host", "local", "--out", sys.argv[2], "--batch"]
try:
    main()
except SystemExit as exc:
    print("exit", exc.code)
print("paramiko loaded:", "paramiko" in sys.modules)
"""


def test_a_local_run_never_imports_paramiko(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text("name: local\nsteps:\n  - id: hi\n    run: echo hi\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-c", PROGRAM, str(playbook), str(tmp_path / "runs")],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert "exit 0" in proc.stdout, proc.stdout + proc.stderr
    assert "paramiko loaded: False" in proc.stdout


def test_interrupting_a_run_without_ssh_hosts_needs_no_ssh_module(monkeypatch):
    monkeypatch.delitem(sys.modules, "spec_debug.runner.ssh_abandon", raising=False)
    run = Run.__new__(Run)  # only interrupt()'s own state: the lock, the record, the abort flag, the gate
    run._lock, run.abort, run._transports = threading.Lock(), threading.Event(), {}
    run.options = SimpleNamespace(gate=None)
    run.record = SimpleNamespace(abort_reason=None)
    run.interrupt("Ctrl-C")
    assert run.abort.is_set() and run.record.abort_reason == "Ctrl-C"
    assert "spec_debug.runner.ssh_abandon" not in sys.modules

"""`spec-debug demo` beside a real SGLang server process on the same machine.

Before: the simulated host's probes scanned this machine's /proc for SGLang/vLLM servers, so
a server running here (a user trying the demo on a GPU box, or another test's fake server)
was taken for the demo's: the reference_forward note read "sglang is not installed in this
Python nor in the server's interpreter /usr/bin/python3" (tests/onboarding/
test_hardening71_demo_progress_no_var.py failed now and then under `pytest -n 2`). Now the
simulated host has no server process: its server is the recorded command line, whatever runs
beside it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

from spec_debug.probes.launch_flags import server_processes


def _fake_server(tmp_path: Path) -> subprocess.Popen:
    # argv as `python3 -m sglang.launch_server --model-path ...` shows it in /proc/PID/cmdline
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", "-m", "sglang.launch_server",
                             "--model-path", str(tmp_path / "target")], stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while proc.pid not in {p["pid"] for p in server_processes()}:
        assert time.monotonic() < deadline, "the fake server was not seen in /proc"
        time.sleep(0.05)
    return proc


def test_server_processes_sees_none_on_the_simulated_host(tmp_path, monkeypatch):
    server = _fake_server(tmp_path)
    try:
        monkeypatch.setenv("SPEC_DEBUG_SIMULATED_HOST", "1")
        assert server_processes() == []
        monkeypatch.delenv("SPEC_DEBUG_SIMULATED_HOST")
        assert server.pid in {p["pid"] for p in server_processes()}
    finally:
        server.kill()
        server.wait()


def test_demo_notes_do_not_change_with_a_server_running_here(tmp_path):
    server = _fake_server(tmp_path)
    try:
        proc = subprocess.run([sys.executable, "-m", "spec_debug", "demo", "--out", str(tmp_path / "out")],
                              capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL,
                              env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"})
    finally:
        server.kill()
        server.wait()
    said = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", proc.stdout + proc.stderr)
    assert proc.returncode == 1, said
    notes = [line for line in said.splitlines() if " SD004 " in line]
    assert notes == ["demo-gpu01         SD004 Not checked on the simulated host: engine forward not read: "
                     "sglang is not installed in this Python"], said
    assert "server's interpreter" not in said, said

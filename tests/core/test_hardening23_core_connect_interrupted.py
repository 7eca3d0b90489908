"""Ctrl-C while `spec-debug run` waits on hosts that accept TCP but never answer (a stalled
sshd). The hosts were recorded aborted, but no console line named them: the run ended on a
bare "ABORTED: 0 error(s), 0 warning(s)". Now each host stopped before its first step is
named (a few, then a count). Through the real CLI, against a real listening socket."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time


def _silent_listener() -> tuple[socket.socket, int, list[socket.socket]]:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                held.append(server.accept()[0])  # held open, never a banner
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    return server, server.getsockname()[1], held


def test_hosts_stopped_while_connecting_are_named(tmp_path):
    server, port, held = _silent_listener()
    try:
        (tmp_path / "p.yaml").write_text("name: p\nsteps:\n  - id: a\n    run: echo hi\n")
        hosts = [f"h{i:02d}" for i in range(12)]
        (tmp_path / "inv.ini").write_text("".join(f"{h} ansible_host=127.0.0.1 ansible_port={port} ansible_user=root\n"
                                                  for h in hosts))
        proc = subprocess.Popen([sys.executable, "-m", "spec_debug", "run", "p.yaml", "-i", "inv.ini", "--forks", "2",
                                 "--batch", "--connect-timeout", "60", "--json"], cwd=tmp_path,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1"})
        try:
            # Both forks now wait for a banner (a fixed 2 s wait was a guess a loaded machine beats).
            deadline = time.monotonic() + 60
            while len(held) < 2:
                assert time.monotonic() < deadline and proc.poll() is None, "the forks never connected"
                time.sleep(0.05)
            proc.send_signal(signal.SIGINT)
            stdout, stderr = proc.communicate(timeout=60)
        finally:
            proc.kill()
    finally:
        server.close()
    said = " ".join(stderr.split())
    assert proc.returncode == 3, said
    record = json.loads(stdout)
    aborted = [h["name"] for h in record["hosts"] if h["status"] == "aborted"]
    assert len(aborted) == 12, record["hosts"]
    # the hosts that were connecting say so; those still queued behind --forks say they never
    # began, once (the line read "aborted before its first step: interrupted (Ctrl-C); not
    # started: the run was stopped before this host's turn" until hardening 69)
    assert (said.count("aborted before its first step: interrupted (Ctrl-C)")
            + said.count("not started: interrupted (Ctrl-C) before its turn")) == 8
    assert "before this host's turn" not in said
    assert "and 4 more host(s) aborted before their first step" in said
    # the two hosts that were connecting are among those named (which finishes first varies)
    assert "host h00 aborted before its first step" in said or "host h01 aborted before its first step" in said

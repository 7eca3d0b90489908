"""A step whose command is killed by a signal OpenSSH's sshd has no name for.

sshd reports a command killed by a signal with `exit-signal` and the signal's name, but names
only ABRT, ALRM, FPE, HUP, ILL, INT, KILL, PIPE, QUIT, SEGV, TERM, USR1 and USR2; any other is
"SIG@openssh.com" (openssh-portable: session.c, sig2name). A step that ends in its command
(`exec python3 -m …`, the launch scripts' idiom) killed by SIGBUS (a checkpoint read through
mmap while it was being rewritten), SIGXCPU or SIGXFSZ (a cluster's ulimit -t, -f) passed, with
no exit code: the name mapped to no number, and no exit code reads as success. ssh(1) exits 255
for the same command (OpenSSH 9.2p1 on this machine: "Exit status -1"). The step now fails
with exit code 255 and what the signal may have been.

The host is real: the command kills itself with the signal, the top process of its session.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, load_run
from tests.sshd_fixture import ClientSetup, SshServer


def _run(cli: Callable[..., Any], client: ClientSetup, tmp_path: Path, command: str) -> tuple[Any, dict[str, Any]]:
    playbook = tmp_path / "load.yaml"
    playbook.write_text("name: load\nsteps:\n  - id: load\n    run: " + json.dumps(command) + "\n  - id: after\n    run: echo after\n")
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "target", "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    return result, load_run(out)[1]


@pytest.mark.parametrize("name", ["SIGBUS", "SIGXCPU", "SIGSYS"])
def test_a_command_killed_by_a_signal_sshd_does_not_name_fails(
    cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path, name: str
) -> None:
    result, record = _run(cli, client, tmp_path, f"exec python3 -c 'import os, signal; os.kill(os.getpid(), signal.{name})'")
    steps = by_id(record, "target")
    load = steps["load"]
    assert load["status"] == "failed", load
    assert load["exit_code"] == 255, load
    assert load["message"].startswith("exit code 255 (killed by a signal sshd reports only as SIG@openssh.com, one it does not "
                                      "name: SIGBUS (a bad memory access"), load["message"]
    assert result.code == 1, result.stdout + result.stderr
    assert any(f["code"] == "SD001" and f["step"] == "load" for f in record["findings"]), record["findings"]
    assert steps["after"]["status"] == "passed"  # the connection serves the next step


def test_a_signal_sshd_names_keeps_its_number(cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    _, record = _run(cli, client, tmp_path, "exec python3 -c 'import os, signal; os.kill(os.getpid(), signal.SIGSEGV)'")
    load = by_id(record, "target")["load"]
    assert load["status"] == "failed" and load["exit_code"] == 139, load
    assert load["message"] == "exit code 139 (signal 11, SIGSEGV: a crash)", load["message"]

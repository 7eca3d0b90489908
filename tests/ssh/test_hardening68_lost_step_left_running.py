"""A step whose SSH session dies under it names the command it may have left running.

sshd's session process killed while a step runs (the OOM killer picks sshd, a network cut
ends the session) does not end the step's command: with no terminal there is no SIGHUP, and
the command runs on under init, holding its GPUs and port, until it writes to the closed pipe
(a server that logs to a file never does). The record said only "hint: ... a remote process may
still be running", with no word of which, where a step timed out or interrupted with its kill
unsent names the command and how to find it (`left_running`: a `ps | grep` line to paste).

The host is real: the step kills its own sshd session process (`kill -9 $PPID`) and its command
runs on; the test runs the record's check line on the host (this machine), which must list it.
The step kills sshd's listener too: a host that still takes connections has the command stopped
over a new one (test_hardening68_lost_step_stopped).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Callable

from tests.ssh.test_fleet_faults import by_id, load_run
from tests.sshd_fixture import ClientSetup, SshServer

COMMAND = "(sleep 1; kill -9 {listener} $PPID) & sleep 68.4; echo served"


def _listed(check: str) -> list[int]:
    said = subprocess.run(["sh", "-c", check], capture_output=True, text=True, timeout=10).stdout
    return [int(line.split()[0]) for line in said.splitlines() if line.strip()]


def test_a_step_cut_by_its_session_dying_names_what_may_still_run(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    playbook = f"name: serve\nsteps:\n  - id: launch\n    run: {json.dumps(COMMAND)}\n  - id: after\n    run: echo after\n"
    out = tmp_path / "runs"
    try:
        said, code = _run_cut("gpu34", playbook, client, sshd_factory, tmp_path, out)
        assert code == 3, said
        assert "Traceback" not in said, said
        _, record = load_run(out)
        launch = by_id(record, "gpu34")["launch"]
        assert (launch["status"], launch["message"]) == ("error", "gpu34: SSH connection lost during command"), json.dumps(launch)
        running = launch["left_running"]
        assert running is not None and running["host"] == "gpu34", json.dumps(launch)
        left = _listed(running["check"])
        assert len(left) == 1, running["check"]  # the step's shell, still there under init
        assert _parent(left[0]) == 1
        hint = (
            "the host rebooted, sshd restarted or the network dropped; the step's command may still be running on gpu34: "
            f"check with `{running['check']}` and kill it before running the step again"
        )
        assert record["hosts"][0]["hint"] == hint, record["hosts"][0]
        assert f"  hint: {hint}\n" in said, said
        assert [f["code"] for f in record["findings"]] == ["SD005"], record["findings"]
    finally:
        _end_the_left_behind()


def _parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def test_a_secret_in_the_command_left_behind_is_masked_in_the_hint(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    command = ": --tag {{ hf_token }}; (sleep 1; kill -9 {listener} $PPID) & sleep 68.4; echo served"
    playbook = f"name: serve\nvars:\n  hf_token: ''\nsteps:\n  - id: launch\n    run: {json.dumps(command)}\n"
    out = tmp_path / "runs"
    try:
        said, code = _run_cut("gpu35", playbook, client, sshd_factory, tmp_path, out, "--var", "hf_token=hf.Abc.Secret9")
    finally:
        _end_the_left_behind()
    assert code == 3, said
    run_dir, record = load_run(out)
    assert "check with `ps -ww -eo pid,etime,args | grep" in record["hosts"][0]["hint"], record["hosts"][0]
    assert "--tag " in record["hosts"][0]["hint"], record["hosts"][0]
    assert "Secret9" not in said, said
    for name in ("run.json", "report.md", "report.html"):
        saved = (run_dir / name).read_text()
        assert "Secret9" not in saved, (name, [line for line in saved.splitlines() if "Secret9" in line])


def _run_cut(host: str, playbook_text: str, client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path,
             out: Path, *options: str) -> tuple[str, int]:
    server = sshd_factory(f"h68{host}")
    client.trust(server)
    client.alias(host, server)
    playbook = tmp_path / "serve.yaml"
    assert server.process is not None
    playbook.write_text(playbook_text.replace("{listener}", str(server.process.pid)))
    result = subprocess.run(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", host, "-F", str(client.config),
         "--batch", "--out", str(out), *options], capture_output=True, text=True, timeout=60,
        env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1"},
    )
    return result.stdout + result.stderr, result.returncode


def _end_the_left_behind() -> None:
    for pid in _listed("ps -ww -eo pid,args | grep -e '[s]leep 68[.]4'"):  # the step's shell and its sleep
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

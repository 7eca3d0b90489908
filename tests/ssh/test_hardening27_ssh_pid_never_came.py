"""A step that times out and whose wrapper's pid line never comes is not "process tree killed".

The kill needs the pid the wrapper prints first. _await_pid reads on for ConnectTimeout after
the step's timeout; where the line has still not come (a site rc file that loads modules from a
hung NFS, a host swapping), there is no pid, nothing is killed, and the command may start or run
on. The record said "timed out after 0.2 s; process tree killed": the reader reran the step
beside the first one. It must say the command may still run, on which host, and how to find it.

The host is real: the step's shell waits in a BASH_ENV file until the test releases it (no
timing margin: the pid line cannot come before), ignoring SIGPIPE and SIGHUP, so that the
closed channel does not end it: the command then runs, as it does where the shell was late.
Without the fix, a step with retries was also started again at once, beside the first."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any, Callable

from tests.ssh.faults import rc_holding_shell
from tests.sshd_fixture import ClientSetup, SshServer


def test_a_step_whose_pid_line_never_comes_says_it_may_still_run(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    set_env, release, _ = rc_holding_shell(tmp_path, "sglang.launch_server")
    server = sshd_factory("pidnever", set_env=set_env)
    client.trust(server)
    client.alias("gpu11", server, ConnectTimeout=3)  # it bounds the login too: a loaded machine's ran past 2 s
    playbook = tmp_path / "never.yaml"
    playbook.write_text(
        "name: never\nsteps:\n"
        "  - id: slow\n    run: |\n      python3 -m sglang.launch_server --port 30000 --served-model-name 'llama 8b'\n      echo next\n"
        "    timeout: 0.2\n    retries: 1\n"
        "  - id: after\n    run: echo still here\n"
    )
    out = tmp_path / "runs"
    try:
        result = cli("run", str(playbook), "--host", "gpu11", "-F", str(client.config), "--batch", "--out", str(out))
        # The host is this machine: its check, pasted there while the shell still waits, lists
        # that shell, and only it. `grep -F -e 'python3 ... 'llama 8b''` found nothing (the
        # exec request holds the line shlex-quoted) and listed the grep itself.
        check = _check_in(_message_of(out))
        listed = subprocess.run(["bash", "-c", check], capture_output=True, text=True, timeout=10).stdout.splitlines()
    finally:
        release.touch()
    assert listed and all("spec-debug-pid" in line and "grep" not in line.split()[2] for line in listed), (check, listed)
    assert "Traceback" not in result.stderr, result.stderr
    [run_dir] = [p for p in out.iterdir() if p.is_dir()]
    record = json.loads((run_dir / "run.json").read_text())
    steps = {s["id"]: s for s in record["steps"]}
    slow = steps["slow"]
    assert slow["status"] == "timeout", slow
    message = slow["message"]
    assert "process tree killed" not in message, message  # was "timed out after 0.2 s; process tree killed"
    assert message.startswith("timed out after 0.2 s; not killed"), message
    assert "may still be running on gpu11" in message, message
    assert "check there with `ps -ww -eo pid,etime,args | grep -e " in message, message
    assert "not retried: another attempt would run beside it" in message, message
    [finding] = [f for f in record["findings"] if f.get("step") == "slow"]
    assert finding["code"] == "SD002" and message.startswith(finding["evidence"][0]), finding
    assert "may still be running on gpu11" in finding["evidence"][0], finding
    assert steps["after"]["status"] == "passed" and steps["after"]["stdout"] == "still here\n", steps["after"]


def _message_of(out: Path) -> str:
    [run_dir] = [p for p in out.iterdir() if p.is_dir()]
    [slow] = [s for s in json.loads((run_dir / "run.json").read_text())["steps"] if s["id"] == "slow"]
    return slow["message"]


def _check_in(message: str) -> str:
    """The command between the backquotes after "check there with"."""
    return message.split("check there with `", 1)[1].split("`", 1)[0]

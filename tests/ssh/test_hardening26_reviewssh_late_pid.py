"""A step that times out before its wrapper's pid line reached us is still killed.

A step's time counts from its channel's open, and its kill needs the pid the wrapper prints
first. On a loaded host or a link that stalls a moment, the shell has started the step but its
pid line is still on the way at the deadline: the kill had no pid, killed nothing, and the step
was recorded "timed out after 1 s; process tree killed" while it ran on. That is how
test_hardening18_runtime's slow-link test failed on a loaded machine (a 1 s step over a
20 kB/s tunnel): its check step then found the step's sleep still running.

The host is real. Its step shell is slow to start once (a BASH_ENV file, as a site's rc file
that loads modules or conda: here 0.7 s, past the step's 0.5 s), and that shell ignores SIGPIPE,
so that its pid line, written after our deadline, does not end it: the step runs on as it does
when the line was written in time and is still in flight."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from tests.sshd_fixture import ClientSetup, SshServer


def test_a_step_whose_pid_line_comes_after_its_timeout_is_killed(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    once = tmp_path / "slow-once"
    rc = tmp_path / "rc.sh"
    rc.write_text(f"if [ -e {once} ]; then rm -f {once}; trap '' PIPE; sleep 0.7; fi\n")
    server = sshd_factory("latepid", set_env=f"BASH_ENV={rc}")
    client.trust(server)
    client.alias("gpu07", server, ConnectTimeout=5)
    marker = f"6.{tmp_path.stat().st_ino % 1000:03d}7"  # a sleep only this test runs
    playbook = tmp_path / "late.yaml"
    playbook.write_text(
        "name: late\nsteps:\n"
        f"  - id: arm\n    run: touch {once}\n"
        f"  - id: slow\n    run: sleep {marker}\n    timeout: 0.5\n"
        f"  - id: check\n    run: ps -eo args= | grep -c '^sleep {marker}$' || true\n"
    )
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "gpu07", "-F", str(client.config), "--batch", "--out", str(out))
    assert "Traceback" not in result.stderr, result.stderr
    [run_dir] = [p for p in out.iterdir() if p.is_dir()]
    steps = {s["id"]: s for s in json.loads((run_dir / "run.json").read_text())["steps"]}
    assert steps["slow"]["status"] == "timeout", steps["slow"]
    assert steps["check"]["stdout"] == "0\n", "the timed-out step's sleep ran on"  # was "1\n"

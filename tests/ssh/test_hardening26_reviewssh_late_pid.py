"""A step that times out before its wrapper's pid line reached us is still killed.

A step's time counts from its channel's open, and its kill needs the pid the wrapper prints
first. On a loaded host or a link that stalls a moment, the shell has started the step but its
pid line is still on the way at the deadline: the kill had no pid, killed nothing, and the step
was recorded "timed out after 1 s; process tree killed" while it ran on. That is how
test_hardening18_runtime's slow-link test failed on a loaded machine (a 1 s step over a
20 kB/s tunnel): its check step then found the step's sleep still running.

The host is real. Its slow step's shell is slow to start (a BASH_ENV file, as a site's rc file
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
    rc = tmp_path / "rc.sh"
    # Only the slow step's shell is slow, told by its command line (bash's BASH_EXECUTION_STRING,
    # its ": slow-step"): a file armed by an earlier step was taken by whichever shell came next,
    # the end-of-step check's on a loaded machine, and the step then ran without the late line.
    rc.write_text("case \"$BASH_EXECUTION_STRING\" in *': slow-step'*) trap '' PIPE; sleep 0.7;; esac\n")
    server = sshd_factory("latepid", set_env=f"BASH_ENV={rc}")
    client.trust(server)
    client.alias("gpu07", server, ConnectTimeout=5)
    marker = f"6.{tmp_path.stat().st_ino % 1000:03d}7"  # a sleep only this test runs
    playbook = tmp_path / "late.yaml"
    playbook.write_text(
        "name: late\nsteps:\n"
        f"  - id: slow\n    run: ': slow-step; sleep {marker}'\n    timeout: 0.5\n"
        f"  - id: check\n    run: ps -eo args= | grep -c '^sleep {marker}$' || true\n"
    )
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "gpu07", "-F", str(client.config), "--batch", "--out", str(out))
    assert "Traceback" not in result.stderr, result.stderr
    [run_dir] = [p for p in out.iterdir() if p.is_dir()]
    steps = {s["id"]: s for s in json.loads((run_dir / "run.json").read_text())["steps"]}
    assert steps["slow"]["status"] == "timeout", steps["slow"]
    # Killed by its pid, once it came: not "not killed ... may still be running" (d37a342's words
    # where the line never came), with which the check below could run before the late shell's sleep.
    assert steps["slow"]["message"] == "timed out after 0.5 s; process tree killed", steps["slow"]
    assert steps["check"]["stdout"] == "0\n", "the timed-out step's sleep ran on"  # was "1\n"

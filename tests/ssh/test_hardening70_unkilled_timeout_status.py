"""A step that timed out and whose kill could not reach the host is recorded "timeout", not "error".

The step ran for its whole timeout; its kill then went over a second connection (the step held
the host's only session, MaxSessions 1) that sshd's dead listener refused. It was recorded
status "error", which the report and the verdict show as "could not run", while a step that timed
out before its pid came (nothing to kill either, left_running too) is "timeout", and the host's
finding (SD002) says "a step timed out". The status now says the timeout; the kill that did not
reach the host stays the host's error (exit code 3) and the step's left_running. In step-through
mode such a step said "timed out and was stopped": it says it may still be running.

The host is real (tests/ssh/test_hardening64_kill_second_connection_refused.py's helper kills
sshd's listener while the step's `sleep` runs).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Callable

from rich.console import Console

from spec_debug.playbook.models import Step
from spec_debug.record import StepLeftRunning, StepRecord
from spec_debug.stepthrough import TerminalGate
from tests.ssh.test_fleet_faults import by_id
from tests.ssh.test_hardening64_kill_second_connection_refused import _run_while_the_listener_dies
from tests.sshd_fixture import ClientSetup, SshServer


def test_a_timed_out_step_whose_kill_did_not_reach_the_host_is_recorded_timeout(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    marker, said, record = _run_while_the_listener_dies(client, sshd_factory, tmp_path, timeout="    timeout: 4\n", ctrl_c=False)
    step = by_id(record, "gpu64")["hang"]
    assert step["status"] == "timeout", step
    assert step["message"].startswith("gpu64: the step timed out (4 s) and its processes could not be killed: "), step["message"]
    assert step["left_running"] is not None and marker.replace(".", "[.]") in step["left_running"]["check"], step
    host = record["hosts"][0]
    assert (host["status"], host["error"]) == ("error", step["message"]), host  # the run exits 3 (the helper checks)
    assert [f["code"] for f in record["findings"]] == ["SD002"], record["findings"]
    assert "after" not in by_id(record, "gpu64"), record["steps"]


def _after_step(result: StepRecord) -> str:
    out = io.StringIO()
    gate = TerminalGate(Console(file=out, width=400, color_system=None))
    gate.after_step("gpu64", Step(id="hang", run="sleep 600"), result, [])
    return out.getvalue()


def test_step_through_says_an_unkilled_timed_out_step_may_still_be_running() -> None:
    message = "gpu64: the step timed out (4 s) and its processes could not be killed: a second connection failed"
    left = StepLeftRunning(host="gpu64", check="ps -ww -eo pid,etime,args | grep -e '[s]leep 600'", waited_s=4.0)
    said = _after_step(StepRecord(id="hang", host="gpu64", status="timeout", message=message, left_running=left))
    assert said == f"→ hang timed out and may still be running. {message}\n", said
    killed = _after_step(StepRecord(id="hang", host="gpu64", status="timeout", message="timed out after 4 s; process tree killed"))
    assert killed == "→ hang timed out and was stopped. timed out after 4 s; process tree killed\n", killed

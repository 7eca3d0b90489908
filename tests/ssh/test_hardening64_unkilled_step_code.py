"""A step that timed out and could not be killed ends its host, which was reached: its finding is
SD002 (a step timed out; says what may still run and how to check), not SD005 ("the host could
not be reached or the connection dropped"). Real sshd whose listener dies mid-step."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from tests.ssh.test_fleet_faults import by_id
from tests.ssh.test_hardening64_kill_second_connection_refused import _run_while_the_listener_dies
from tests.sshd_fixture import ClientSetup, SshServer


def test_an_unkilled_timed_out_step_is_sd002_not_unreachable(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    marker, _said, record = _run_while_the_listener_dies(client, sshd_factory, tmp_path, timeout="    timeout: 4\n", ctrl_c=False)
    step = by_id(record, "gpu64")["hang"]
    assert step["left_running"] is not None, step
    findings = [f for f in record["findings"] if f["host"] == "gpu64"]
    assert [f["code"] for f in findings] == ["SD002"], findings
    assert findings[0]["evidence"] == [step["message"]], findings
    assert record["hosts"][0]["status"] == "error"

"""Over SSH, a step killed at its timeout keeps what it printed while it died (see
tests/core/test_hardening19_runner_dying_words.py for the story). The kill goes over a second
channel; what the dying tree printed then arrived on the step's channel, and nobody read it."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from tests.core.test_hardening19_runner_dying_words import assert_dying_words_kept, hang_playbook
from tests.ssh.test_fleet_faults import assert_clean_cli, load_run
from tests.sshd_fixture import ClientSetup


def test_an_ssh_step_killed_at_its_timeout_keeps_its_stack_dump(cli: Callable[..., Any], client: ClientSetup, tmp_path: Path) -> None:
    out = tmp_path / "runs"
    # The interpreter must have registered faulthandler by the timeout, or SIGTERM ends it without
    # a dump: 5 s, not 2, for its start on a loaded machine (as the local test has it).
    result = cli("run", str(hang_playbook(tmp_path, 5)), "--host", "target", "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    _, record = load_run(out)
    (step,) = record["steps"]
    assert_dying_words_kept(step)
    assert step["duration_s"] < 30  # the 5 s timeout and its kill, not the 60 s sleep

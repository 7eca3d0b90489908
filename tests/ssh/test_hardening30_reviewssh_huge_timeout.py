"""Round 30 review of the wrapper's $SECONDS check (17b1c06a): a step whose timeout is past
bash's integers (`timeout: 1e20`, a playbook's "never", finite so the model takes it) never
ran: `[ "$SECONDS" -le 100000000000000000000 ]` said "integer expression expected" and the
wrapper exited 124 before the step. Such a timeout is none to the check."""

from __future__ import annotations

import pytest

from spec_debug.runner.ssh import SSHTransport, wrap_command
from tests.ssh.test_transport import run, transport  # noqa: F401  (the fixture)


@pytest.mark.parametrize("timeout_s", [1e20, 1e300])
def test_a_step_with_a_huge_timeout_runs(transport: SSHTransport, timeout_s: float) -> None:  # noqa: F811
    outcome, out, err = run(transport, "echo ran", timeout_s=timeout_s)
    assert (outcome.exit_code, out.text(), err.text()) == (0, "ran\n", "")


def test_the_check_is_kept_for_a_timeout_bash_can_count() -> None:
    assert '[ "$SECONDS" -gt 600 ] 2>/dev/null && exit 124; ' in wrap_command("true", timeout_s=599.5)
    assert "$SECONDS" not in wrap_command("true", timeout_s=float("inf"))


def test_an_rc_file_that_unsets_seconds_does_not_stop_the_step() -> None:
    """`unset SECONDS` in a user's rc file made `[ "$SECONDS" -le N ]` an error, and `|| exit 124`
    then stopped every step with a timeout before it ran."""
    import subprocess

    done = subprocess.run(["bash", "-c", "unset SECONDS; " + wrap_command("echo ran", timeout_s=5)],
                          capture_output=True, timeout=30)
    assert (done.returncode, done.stdout.endswith(b"\nran\n"), b"integer" in done.stderr) == (0, True, False)

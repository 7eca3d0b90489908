"""A `run:` script too long for one exec request: sshd hands the command to the login shell as
one argument, and Linux refuses an argument over 128 KiB (MAX_ARG_STRLEN), so a long pasted
script failed with "Argument list too long" on the host. It now travels on the channel's stdin."""

from __future__ import annotations

from typing import Iterator

import pytest

from spec_debug.runner.ssh import SSHTransport
from tests.ssh.test_transport import run
from tests.sshd_fixture import ClientSetup


@pytest.fixture
def transport(client: ClientSetup) -> Iterator[SSHTransport]:
    with SSHTransport.connect("target", client.options()) as connected:
        assert isinstance(connected, SSHTransport)
        yield connected


def test_a_300_kib_script_runs_whole(transport: SSHTransport) -> None:
    # 300 KiB of comments, then the real work; quotes, $ and a heredoc survive the trip
    filler = "".join(f"# filler line {i:06d} {'x' * 80}\n" for i in range(3300))
    script = filler + "cat <<'EOF'\n$HOME stays 'literal' \"here\"\nEOF\necho \"$GREETING\"\nprintf 'no newline at end'"
    assert len(script) > 300 * 1024
    outcome, out, err = run(transport, script, env={"GREETING": "hi there"})
    assert outcome.exit_code == 0, err.text()
    assert out.text() == "$HOME stays 'literal' \"here\"\nhi there\nno newline at end"


def test_a_long_script_does_not_read_the_steps_stdin(transport: SSHTransport) -> None:
    # The step's own stdin is still /dev/null: a reader ends instead of eating the script.
    script = "# " + "y" * 70_000 + "\nif read -r line; then echo \"read: $line\"; else echo eof; fi; exit 4"
    outcome, out, _ = run(transport, script)
    assert (outcome.exit_code, out.text()) == (4, "eof\n")


def test_a_long_script_runs_where_the_login_shell_is_not_bash() -> None:
    """A dash or sh login shell does not eval: the script goes to a new bash through a pipe, read
    whole and evaled (as an argument it would hit the same 128 KiB limit; a temp file failed on a
    full /tmp). The exec request as sshd would run it."""
    import shutil
    import subprocess

    from spec_debug.runner.ssh import wrap_command

    dash = shutil.which("dash")
    if dash is None:
        pytest.skip("no dash here")
    script = "# " + "z" * 200_000 + '\necho "ran by $0"; exit 5'
    done = subprocess.run([dash, "-c", wrap_command(None)], input=script.encode(), capture_output=True, timeout=30)
    assert done.returncode == 5, done.stderr
    assert done.stdout.split(b"\n", 1)[1].decode() == "ran by bash\n"

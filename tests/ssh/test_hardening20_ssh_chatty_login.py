"""A login whose startup files print more than 64 KiB: the wrapper's marker lines stay out of the
step's output, and a timed-out step is still killed on the host.

On HPC clusters ~/.bashrc runs `module load` and `module list` (Lmod writes to stderr), conda's
hook, a site banner with the queue status: a login can print a lot before the command runs
(bash reads ~/.bashrc for the commands sshd runs: SSH_SOURCE_BASHRC). spec-debug holds back up
to 64 KiB of each stream looking for the wrapper's marker line, to drop what the login printed;
past that it passed everything on, and the marker line itself then came in the step's output
("\\x1fspec-debug-pid=4242" at the head of a JSON probe's stdout, "\\x1fspec-debug-stderr=" in
its stderr), and the step's pid was never read: a timeout could not kill its processes, which
ran on. Now the marker is looked for in what follows too, and only its line is dropped.

The host is real: sshd whose sessions read an rc file (BASH_ENV, as test_hardening9_login_rc)
that prints 100 KB on stdout and on stderr.
"""

from __future__ import annotations

import time
from pathlib import Path

from spec_debug.runner.ssh import SSHTransport
from tests.ssh.test_hardening9_login_rc import rc_host  # noqa: F401 - a fixture
from tests.ssh.test_transport import run
from tests.sshd_fixture import ClientSetup

_CHATTY_RC = (
    "i=0; while [ $i -lt 1250 ]; do echo \"Lmod: module $i loaded (cuda/12.4 nccl/2.21 gcc/12)\"; i=$((i+1)); done\n"
    "i=0; while [ $i -lt 1250 ]; do echo \"Lmod: module $i loaded (cuda/12.4 nccl/2.21 gcc/12)\" >&2; i=$((i+1)); done\n"
)


def sleepers(tag: str) -> list[int]:
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if cmdline.read_bytes().startswith(tag.encode()):
                found.append(int(cmdline.parent.name))
        except OSError:
            continue
    return found


def test_a_chatty_login_leaves_no_marker_in_the_output_and_timeouts_still_kill(
    client: ClientSetup, rc_host: Path, tmp_path: Path
) -> None:
    rc_host.write_text(_CHATTY_RC)
    tag = f"spec-debug-chatty-{tmp_path.name[-10:]}"
    with SSHTransport.connect("rc", client.options()) as transport:
        outcome, out, err = run(transport, "echo '{\"gpus\": 8}'; echo 'nvidia-smi: ok' >&2")
        assert outcome.exit_code == 0
        assert out.text().endswith('{"gpus": 8}\n') and "spec-debug-pid" not in out.text()
        assert err.text().endswith("nvidia-smi: ok\n") and "spec-debug-stderr" not in err.text()
        outcome, _, _ = run(transport, f"exec -a {tag} sleep 30", timeout_s=1.0)
        assert outcome.timed_out
    deadline = time.monotonic() + 30.0  # the kill waits for the tree's end: at once unless it ran on
    while sleepers(tag) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert sleepers(tag) == [], "the timed-out step's sleep ran on"

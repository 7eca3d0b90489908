"""A login whose PATH has no /bin: the classic `export PATH=/opt/miniconda3/bin` (instead of
`...:$PATH`) in the file $BASH_ENV names, or in ~/.bashrc, ~/.zshenv, ~/.ssh/environment.
The step's own commands with full paths still run; the kill of a timed-out step ran its
script as `sh -c ...` through that login shell, which could not find `sh` (exit 127, nothing
printed): the run said "process tree killed" and the step's processes lived on. The kill
now names /bin/sh, as the shell fallback of the exec request already does (VIA_SH)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Callable

import pytest

from spec_debug.runner.ssh import SSHTransport
from tests.ssh.h6_helpers import sshd_with_accounts
from tests.ssh.test_transport import run, sentinel
from tests.sshd_fixture import ClientSetup, SshServer


def sleeping(marker: str) -> list[int]:
    """pids of this machine's `sleep MARKER` processes (the sshd is on this machine)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(") ", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if argv[:2] == [b"/bin/sleep", marker.encode()] and state != "Z":
            found.append(int(entry))
    return found


def test_a_timed_out_step_is_killed_where_the_login_path_lacks_bin(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    rc = tmp_path / "bash_env"
    rc.write_text("export PATH=/opt/miniconda3/bin\n")
    server = sshd_factory("clobbered", set_env=f"BASH_ENV={rc}")
    client.trust(server)
    client.alias("gpu", server)
    marker = sentinel()
    try:
        with SSHTransport.connect("gpu", client.options()) as transport:
            outcome, _, _ = run(transport, f"/bin/sleep {marker} & /bin/sleep {marker}; wait", timeout_s=1)
            assert outcome.timed_out
            assert sleeping(marker) == [], "the timed-out step's processes outlived its kill"
    finally:
        for pid in sleeping(marker):
            os.kill(pid, 9)


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh not installed")
def test_a_zsh_login_whose_zshenv_clobbered_path_runs_steps(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """zsh reads ~/.zshenv for every ssh command. The wrapper, in a shell that is not bash,
    starts `bash`, else `sh`, by name: with no /bin in PATH neither was found and the host was
    refused as one whose "login shell did not run the command" (it printed 'command not
    found: sh'), though `ssh HOST /bin/echo hi` works there."""
    zdotdir = tmp_path / "zdotdir"  # zsh reads $ZDOTDIR/.zshenv: root's own ~/.zshenv stays untouched
    zdotdir.mkdir()
    (zdotdir / ".zshenv").write_text("export PATH=/opt/miniconda3/bin\n")

    def start(name: str, **kwargs: object) -> SshServer:
        return sshd_factory(name, set_env=f"ZDOTDIR={zdotdir}", **kwargs)

    server = sshd_with_accounts("h32zsh", start, tmp_path, monkeypatch, shell=shutil.which("zsh"))
    client.trust(server)
    client.alias("gpu", server)
    marker = sentinel()
    try:
        with SSHTransport.connect("gpu", client.options()) as transport:
            outcome, stdout, _ = run(transport, 'echo "$PATH"; /bin/echo ran')
            # The step sees the PATH the login gave it, as `ssh HOST CMD` does.
            assert outcome.exit_code == 0 and stdout.text() == "/opt/miniconda3/bin\nran\n"
            outcome, _, _ = run(transport, f"/bin/sleep {marker} & /bin/sleep {marker}; wait", timeout_s=1)
            assert outcome.timed_out
            assert sleeping(marker) == [], "the timed-out step's processes outlived its kill"
    finally:
        for pid in sleeping(marker):
            os.kill(pid, 9)

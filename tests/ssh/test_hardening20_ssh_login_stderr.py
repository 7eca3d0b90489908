"""What the login prints on stderr before the step runs is not the step's stderr.

sshd and the login shell write to the session's stderr before the command starts: where the
home in /etc/passwd is gone (an NFS automount that failed, `useradd` without -m, a home disk not
mounted yet after a reboot) sshd prints "Could not chdir to home directory /home/gone: No such
file or directory" and starts in / (openssh-portable: session.c, do_child); where a forwarded
LC_ALL names a locale the host lacks, bash warns "setlocale: LC_ALL: cannot change locale".
Those lines came first in every step's stderr: a `stderr` check or an expectation of an empty
stderr saw them, and they showed as the evidence of findings that had nothing to do with them.

The hosts are real: sshd in a private mount namespace where this user's home in /etc/passwd is
/home/gone, and sshd accepting LC_* from a client that sends LC_ALL=en_US.UTF-8.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, load_run
from tests.ssh.test_hardening19_runtime_full_tmp import namespaced_sshd
from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = """
name: gpu_state
steps:
  - id: quiet
    run: echo 'GPU 0 ok'
  - id: loud
    run: echo 'Xid 79' >&2; exit 0
"""


def gone_home_passwd(tmp_path: Path) -> Path:
    uid = str(os.getuid())
    lines = Path("/etc/passwd").read_text().splitlines()
    passwd = tmp_path / "passwd"
    passwd.write_text("".join(
        ":".join([*fields[:5], "/home/gone", fields[6]]) + "\n" if fields[2] == uid else ":".join(fields) + "\n"
        for fields in (line.split(":") for line in lines)
    ))
    return passwd


def test_the_missing_home_notice_is_not_in_the_steps_stderr(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    passwd = gone_home_passwd(tmp_path)
    server = namespaced_sshd("nohome", sshd_factory, tmp_path, monkeypatch, f"mount --bind {passwd} /etc/passwd")
    client.trust(server)
    client.alias("gpu04", server)
    playbook = tmp_path / "gpu_state.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "gpu04", "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    _, record = load_run(out)
    steps = by_id(record, "gpu04")
    assert steps["quiet"]["stderr"] == ""
    assert steps["loud"]["stderr"] == "Xid 79\n"


def test_a_forwarded_locale_the_host_lacks_is_not_in_the_steps_stderr(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path,
) -> None:
    # `export LC_ALL=en_US.UTF-8` is the common cure for Python's and Perl's locale complaints
    # on a laptop; ssh_config's `SendEnv LANG LC_*` (Debian's and macOS's default) and
    # sshd_config's `AcceptEnv LANG LC_*` (Debian's) pass it on, and a host built from a minimal
    # image has only C and C.utf8: the login bash warns "bash: warning: setlocale: LC_ALL:
    # cannot change locale (en_US.UTF-8)" before every command.
    installed = subprocess.run(["locale", "-a"], capture_output=True, text=True, check=False).stdout.split()
    if any(name.lower().replace("-", "") == "en_us.utf8" for name in installed):
        pytest.skip("this host has en_US.UTF-8")
    server = sshd_factory("locale", extra_config="AcceptEnv LANG LC_*\n")
    client.trust(server)
    client.alias("gpu05", server, SendEnv="LANG LC_*")
    playbook = tmp_path / "gpu_state.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "gpu05", "-F", str(client.config), "--batch", "--out", str(out), timeout=60,
                 env={"LC_ALL": "en_US.UTF-8"})
    assert_clean_cli(result)
    _, record = load_run(out)
    steps = by_id(record, "gpu05")
    assert (steps["quiet"]["stdout"], steps["quiet"]["stderr"]) == ("GPU 0 ok\n", "")
    assert steps["loud"]["stderr"] == "Xid 79\n"

"""Host keys filed the way ssh(1) files them, found where ssh(1) finds them.

Each case is checked against the real OpenSSH client first (`ssh -F config alias true` on the
same sshd and known_hosts), so the test says what ssh does, not what we think it does.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from spec_debug.errors import HostKeyError
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup, SshServer

SSH = shutil.which("ssh")


def ssh_says(client: ClientSetup, alias: str) -> subprocess.CompletedProcess[str]:
    """What OpenSSH's client does with the same config (key checks strict, no prompt)."""
    if SSH is None:
        pytest.skip("OpenSSH client not installed")
    return subprocess.run(
        [SSH, "-F", str(client.config), "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes", alias, "true"],
        capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL, check=False,
    )


def host_key(server: SshServer) -> str:
    """`ssh-ed25519 AAAA...` of the server."""
    return " ".join(Path(str(server.host_key_path) + ".pub").read_text().split()[:2])


def test_a_tunnelled_host_known_by_its_host_key_alias_connects(client: ClientSetup, sshd: SshServer) -> None:
    """`HostKeyAlias gpu01` on a host reached at localhost:PORT (a tunnel, a forwarded port):
    ssh(1) files and finds its key under `gpu01`, without the port. We looked it up as
    `[gpu01]:PORT`, found nothing and refused the host as unknown."""
    client.known_hosts.write_text(f"gpu01 {host_key(sshd)}\n")
    client.alias("tunnelled", sshd, HostKeyAlias="gpu01")
    assert ssh_says(client, "tunnelled").returncode == 0
    with SSHTransport.connect("tunnelled", client.options()) as transport:
        assert transport.connection.target.known_hosts_name == "gpu01"


def test_accept_new_under_a_host_key_alias_files_the_alias_as_ssh_does(client: ClientSetup, sshd: SshServer) -> None:
    client.known_hosts.write_text("")
    client.alias("tunnelled", sshd, HostKeyAlias="gpu01", StrictHostKeyChecking="accept-new")
    with SSHTransport.connect("tunnelled", client.options()):
        pass
    assert client.known_hosts.read_text() == f"gpu01 {host_key(sshd)}\n"
    assert ssh_says(client, "tunnelled").returncode == 0  # ssh(1) finds what we filed


def test_a_host_known_without_its_port_is_trusted_with_the_same_key_only(client: ClientSetup, sshd: SshServer, sshd_factory) -> None:
    """ssh(1) checks `[host]:port` first and, when nothing is filed there, the bare host name
    (sshconnect.c, check_host_key: "checking without port identifier"): a second sshd on
    port 2222 of a machine known on 22 with the same key. We refused it as unknown."""
    client.known_hosts.write_text(f"{sshd.address} {host_key(sshd)}\n")
    assert ssh_says(client, "target").returncode == 0
    with SSHTransport.connect("target", client.options()) as transport:
        assert transport.connection.target.known_hosts_portless_name == sshd.address
    assert client.known_hosts.read_text() == f"{sshd.address} {host_key(sshd)}\n"  # nothing added

    # Another key under the bare name proves nothing: that host is unknown, for both.
    other = sshd_factory("other-key")
    client.alias("other", other)
    said = ssh_says(client, "other")
    assert said.returncode != 0 and "Host key verification failed" in said.stderr
    with pytest.raises(HostKeyError, match=r"is not in known_hosts"):
        SSHTransport.connect("other", client.options())


def test_an_unknown_host_is_put_to_the_person_at_the_terminal_as_ssh_does(client: ClientSetup, sshd: SshServer) -> None:
    """StrictHostKeyChecking ask (ssh's default): on a terminal ssh(1) asks "Are you sure you want
    to continue connecting (yes/no/[fingerprint])?"; we refused every new host and said to rerun
    with --accept-new. `no` still refuses; under --batch nobody is asked."""
    client.known_hosts.write_text("")
    asked: list[str] = []

    def person(*answers: str) -> Callable[[str], str]:
        """A prompt that gives these answers in turn."""
        replies = list(answers)

        def prompt(question: str) -> str:
            asked.append(question)
            return replies.pop(0)

        return prompt

    with pytest.raises(HostKeyError, match="not in known_hosts"):
        SSHTransport.connect("target", client.options(batch=False, prompt=person("no")))
    assert client.known_hosts.read_text() == "" and len(asked) == 1
    assert asked[0].startswith("(target) The authenticity of host") and sshd.host_key_fingerprint in asked[0]

    with pytest.raises(HostKeyError):  # --batch: nobody is asked, as ssh -o BatchMode=yes
        SSHTransport.connect("target", client.options(batch=True, prompt=person("yes")))
    assert len(asked) == 1

    # Something else than yes/no/fingerprint: asked again, as ssh(1) does; then the fingerprint accepts.
    with SSHTransport.connect("target", client.options(batch=False, prompt=person("maybe", sshd.host_key_fingerprint))):
        pass
    assert asked[-1].startswith("(target) Please type 'yes', 'no' or the fingerprint")
    assert client.known_hosts.read_text() == f"{sshd.known_hosts_name} {host_key(sshd)}\n"
    assert ssh_says(client, "target").returncode == 0  # what we filed is what ssh(1) reads

    # StrictHostKeyChecking yes: never asked.
    client.known_hosts.write_text("")
    client.alias("strict", sshd, StrictHostKeyChecking="yes")
    before = len(asked)
    with pytest.raises(HostKeyError):
        SSHTransport.connect("strict", client.options(batch=False, prompt=person("yes")))
    assert len(asked) == before


TINY = "name: p\ndescription: d\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n    run: echo hi\n"


def test_on_a_terminal_the_question_is_answered_and_without_one_the_host_is_refused_at_once(
    client: ClientSetup, sshd: SshServer, tmp_path: Path
) -> None:
    """`spec-debug run --host NEWHOST` as a person types it, then from cron or CI (no terminal,
    no --batch): nobody can answer there, so the run does not wait for an answer."""
    from tests.ssh.h6_helpers import Terminal, load_run

    client.known_hosts.write_text("")
    playbook = tmp_path / "p.yaml"
    playbook.write_text(TINY)
    argv = [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "target", "-F", str(client.config)]
    unattended = subprocess.run([*argv, "--out", str(tmp_path / "cron")], capture_output=True, text=True, timeout=60,
                                stdin=subprocess.DEVNULL, start_new_session=True, check=False)  # no controlling terminal
    assert unattended.returncode == 3 and "not in known_hosts" in unattended.stdout + unattended.stderr
    assert client.known_hosts.read_text() == ""
    terminal = Terminal([*argv, "--out", str(tmp_path / "typed")])
    try:
        terminal.wait_for(b"Are you sure you want to continue connecting (yes/no/[fingerprint])?")
        terminal.type(b"yes\n")
        code = terminal.process.wait(timeout=30)
        shown = terminal.seen + _rest_of(terminal.master)
        assert code == 0, shown.decode(errors="replace")
        assert shown.split(b"(yes/no/[fingerprint])? ")[-1].startswith(b"yes")  # the answer is shown as typed
    finally:
        terminal.close()
    assert load_run(tmp_path / "typed")["status"] == "passed"
    assert client.known_hosts.read_text() == f"{sshd.known_hosts_name} {host_key(sshd)}\n"


def _rest_of(master: int) -> bytes:
    """What the terminal still holds after its process ended."""
    import select

    rest = b""
    while select.select([master], [], [], 0.2)[0]:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the other end is closed and drained
            break
        if not chunk:
            break
        rest += chunk
    return rest

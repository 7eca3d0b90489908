"""A host reinstalled since its key was filed: the refusal says where the old key is, as ssh(1)'s
"Offending ED25519 key in FILE:LINE" does, and how to remove it from that file.

Before, the hint always said `ssh-keygen -R HOST -f ~/.ssh/known_hosts`: where the old key sat
in the fleet's system-wide known_hosts (GlobalKnownHostsFile) or a second UserKnownHostsFile,
running it removed nothing and the next run failed the same way.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from spec_debug.errors import HostKeyError
from spec_debug.runner.ssh_connect import connect
from tests.sshd_fixture import ClientSetup, SshServer, keygen


def _old_key_line(tmp_path: Path, server: SshServer) -> str:
    """A known_hosts line for `server` with the key it had before the reinstall."""
    old = keygen(tmp_path / "old_host_key")
    kind, blob = Path(str(old) + ".pub").read_text().split()[:2]
    return f"{server.known_hosts_name} {kind} {blob}\n"


def test_the_refusal_names_the_file_and_line_of_the_old_key(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    client.known_hosts.write_text("# fleet\nother.example ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n"
                                  + _old_key_line(tmp_path, sshd))
    with pytest.raises(HostKeyError) as info:
        connect("target", client.options(accept_new=True))
    assert "HOST KEY CHANGED" in info.value.message and "man-in-the-middle" in info.value.message
    assert f"offending key in {client.known_hosts}:3" in info.value.message
    hint = info.value.hint or ""
    assert f"ssh-keygen -R '{sshd.known_hosts_name}' -f {client.known_hosts}" in hint
    # The fix the hint names really lets the next run in (with --accept-new for the new key).
    subprocess.run(["ssh-keygen", "-R", sshd.known_hosts_name, "-f", str(client.known_hosts)], check=True, capture_output=True)
    connect("target", client.options(accept_new=True)).close()


def test_an_old_key_in_the_system_wide_file_is_named_there(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    system_wide = tmp_path / "ssh_known_hosts"
    system_wide.write_text(_old_key_line(tmp_path, sshd))
    client.known_hosts.write_text("")
    client.alias("target", sshd, GlobalKnownHostsFile=str(system_wide))
    with pytest.raises(HostKeyError) as info:
        connect("target", client.options(accept_new=True))
    assert f"offending key in {system_wide}:1" in info.value.message
    hint = info.value.hint or ""
    assert f"system-wide {system_wide}" in hint and f"-f {system_wide}" in hint
    assert str(client.known_hosts) not in hint  # removing it there would change nothing
    assert client.known_hosts.read_text() == ""  # and nothing was filed for the new key


def test_an_old_key_in_a_second_user_file_is_removed_from_that_file(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    team_file = tmp_path / "team_known_hosts"
    team_file.write_text(_old_key_line(tmp_path, sshd))
    client.known_hosts.write_text("")
    client.alias("target", sshd, UserKnownHostsFile=f"{client.known_hosts} {team_file}")
    with pytest.raises(HostKeyError) as info:
        connect("target", client.options(accept_new=True))
    assert f"ssh-keygen -R '{sshd.known_hosts_name}' -f {team_file}" in (info.value.hint or "")


def test_a_key_filed_under_the_alias_only_is_named_not_just_unknown(client: ClientSetup, sshd: SshServer) -> None:
    # `ssh gpu01` once filed the key as [gpu01]:PORT (a name DNS knew); the ssh config now says
    # HostName 127.0.0.1, which ssh(1) looks the key up under: unknown to both, but the key is there.
    kind, blob = sshd.known_hosts_line.split()[1:3]
    client.known_hosts.write_text(f"[gpu01]:{sshd.port} {kind} {blob}\n")
    client.alias("gpu01", sshd)
    with pytest.raises(HostKeyError) as info:
        connect("gpu01", client.options())
    assert f"filed under '[gpu01]:{sshd.port}' ({client.known_hosts}:1)" in info.value.message
    assert "--accept-new" in (info.value.hint or "")
    connect("gpu01", client.options(accept_new=True)).close()  # the fix the hint names works


def test_a_key_filed_under_the_address_only_is_named(client: ClientSetup, sshd: SshServer) -> None:
    kind, blob = sshd.known_hosts_line.split()[1:3]
    client.known_hosts.write_text(f"[127.0.0.1]:{sshd.port} {kind} {blob}\n")
    client.alias("box", sshd, HostName="localhost", AddressFamily="inet")
    with pytest.raises(HostKeyError) as info:
        connect("box", client.options())
    assert f"filed under '[127.0.0.1]:{sshd.port}'" in info.value.message

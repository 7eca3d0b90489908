"""A host whose admin disabled SFTP with `Subsystem sftp /bin/false` (or /bin/true) still gets
the probe bundle and gives back files, over `cat`, as a host with no Subsystem line does.

Hardening guides disable SFTP so, leaving commands allowed; sshd runs the named program for the
sftp request (openssh-portable session.c, session_subsystem_req -> do_exec), which ends at once
without a word of SFTP. Every copy failed: /bin/false as "the program that answered the SFTP
request ended with exit code 1 before speaking SFTP" with a hint blaming a ForceCommand, and
/bin/true as "the host offers no working SFTP (EOF during negotiation)". Copies now go over
exec channels (as `scp -O` does there), unless a forced command answered the sftp request:
sshd sets SSH_ORIGINAL_COMMAND only under one (session.c, do_setup_env), and a site's wrapper
that refuses SFTP stays the host's policy (test_hardening8_no_sftp, test_hardening22_ssh_forced_sftp).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

import pytest

from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import RemoteFileError
from tests.ssh.test_fleet_faults import PROBE_PLAYBOOK, assert_clean_cli, by_id, load_run
from tests.ssh.test_hardening8_no_sftp import sftp_refused_by_openssh, start_sftpless  # noqa: F401 (a fixture)
from tests.sshd_fixture import ClientSetup, SshServer


@pytest.mark.parametrize("program", ["/bin/false", "/bin/true"])
def test_copies_go_over_cat_where_the_sftp_subsystem_is_disabled(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path, program: str
) -> None:
    server = sshd_factory("nosftp", extra_config=f"Subsystem sftp {program}\n")
    client.trust(server)
    client.alias("nosftp", server)
    sent = tmp_path / "bundle.bin"
    sent.write_bytes(os.urandom(200_000) + b"\nend\n")
    with SSHTransport.connect("nosftp", client.options()) as transport:
        transport.put(sent, str(tmp_path / "remote" / "bundle.bin"))
        assert (tmp_path / "remote" / "bundle.bin").read_bytes() == sent.read_bytes()
        transport.get(str(sent), tmp_path / "back.bin")
        assert (tmp_path / "back.bin").read_bytes() == sent.read_bytes()
        assert transport.exists(str(sent)) and not transport.exists(str(tmp_path / "absent"))
        with pytest.raises(FileNotFoundError):
            transport.get(str(tmp_path / "absent"), tmp_path / "nothing.bin")


def test_a_forced_command_that_refuses_sftp_still_fails_the_copy(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    """The same ending under a ForceCommand that runs every other command: the host's policy."""
    server = sshd_factory("policy", extra_config=(
        "Subsystem sftp /bin/false\nMatch all\n  ForceCommand case \"$SSH_ORIGINAL_COMMAND\" in /bin/false*|internal-sftp*) exit 1;; "
        "*) eval \"$SSH_ORIGINAL_COMMAND\";; esac\n"))
    client.trust(server)
    client.alias("policy", server)
    with SSHTransport.connect("policy", client.options()) as transport, pytest.raises(RemoteFileError) as info:
        transport.exists(str(tmp_path))
    assert "ended with exit code 1 before speaking SFTP" in info.value.message, info.value.message


def test_a_probe_and_a_fetch_run_where_sftp_is_disabled(
    cli: Callable[..., Any], client: ClientSetup, start_sftpless: Any, tmp_path: Path
) -> None:
    """The whole run (probe bundle upload, fetch step), as test_hardening8_no_sftp runs it on a
    host with no Subsystem line; OpenSSH's sftp is refused by the same host."""
    home = tmp_path / "host-home"
    home.mkdir()
    (tmp_path / "rc").write_text(f"cd {home} && export HOME={home}\n")
    start_sftpless("offsftp", "/bin/false", rc_file=str(tmp_path / "rc"))
    assert "Connection closed" in sftp_refused_by_openssh(client, "offsftp", tmp_path)
    playbook = tmp_path / "first_look.yaml"
    playbook.write_text(PROBE_PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "offsftp", "-F", str(client.config), "--batch", "--out", str(out))
    assert_clean_cli(result)
    assert result.code == 0, result.stdout + result.stderr
    run_dir, record = load_run(out)
    steps = by_id(record, "offsftp")
    assert [steps[s]["status"] for s in ("host_info", "shell", "fetch_note", "after")] == ["passed"] * 4, steps
    assert steps["host_info"]["facts"], steps["host_info"]
    [bundle] = (home / ".cache" / "spec-debug").glob("bundle-*.pyz")
    assert not list(bundle.parent.glob("*.part-*"))
    assert not [f for f in record["findings"] if f["code"] == "SD003"]
    [fetched] = steps["fetch_note"]["artifacts"]
    assert (run_dir / fetched).read_text() == "hello\n"

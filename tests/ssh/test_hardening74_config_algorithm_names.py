"""A `Ciphers` or `MACs` line in an ssh config with a name ssh(1) does not know: ssh(1) refuses the
whole file as it reads it, whichever block holds the line ("config line 4: Bad SSH2 cipher spec
'aes128-ctr,aes128-gcm'.", "terminating"; openssh-portable: readconf.c, oCiphers, oMacs),
recorded with OpenSSH_9.2p1 `ssh -G`.

Before: the file was read; under the host looked up the line failed the host at connect time as
"gpu01: ssh config: Ciphers 'aes128-gcm' leaves no algorithm spec-debug can use (...)", naming
no file or line, a list with one unknown name was used without it, and under another block the
line passed where `ssh gpu01` refuses the file. Now the file is refused with ssh(1)'s words and
its file and line; lists ssh(1) takes (`+`, `^`, `-` with patterns) still read. Real sshd for
the run that still connects.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_connect import connect
from spec_debug.runner.ssh_config import load_ssh_config, resolve_target
from tests.sshd_fixture import ClientSetup, SshServer


def _ssh_g(config: Path) -> subprocess.CompletedProcess[str] | None:
    if not shutil.which("ssh"):
        return None
    return subprocess.run(["ssh", "-G", "-F", str(config), "gpu01"], capture_output=True, text=True)


@pytest.mark.parametrize("line, said", [
    ("Ciphers aes128-gcm", "Bad SSH2 cipher spec 'aes128-gcm'"),
    ("Ciphers aes128-ctr,aes128-gcm", "Bad SSH2 cipher spec 'aes128-ctr,aes128-gcm'"),
    ("Ciphers +arcfour", "Bad SSH2 cipher spec '+arcfour'"),
    ("MACs hmac-sha256", "Bad SSH2 MAC spec 'hmac-sha256'"),
    ("MACs ^hmac-sha2-*", "Bad SSH2 MAC spec '^hmac-sha2-*'"),
])
@pytest.mark.parametrize("block", ["gpu01", "old-switch"])
def test_an_unknown_name_refuses_the_file_at_its_line(tmp_path: Path, line: str, said: str, block: str) -> None:
    config = tmp_path / "config"
    config.write_text(f"Host gpu01\n  Port 2200\nHost {block}\n  {line}\n")
    with pytest.raises(UsageError) as refused:
        resolve_target("gpu01", load_ssh_config(config))  # was read; failed at connect time, or not at all
    assert refused.value.message == f"ssh config {config} line 4: {said}"
    seen = _ssh_g(config)
    assert seen is None or (seen.returncode != 0 and f"line 4: {said}." in seen.stderr)


def test_lists_ssh_takes_still_read(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.write_text("Host gpu01\n  Ciphers -*cbc,no-such-name\n  MACs +hmac-sha1\nHost other\n  Ciphers ^aes128-cbc\n")
    target = resolve_target("gpu01", load_ssh_config(config))
    assert (target.ciphers, target.macs) == ("-*cbc,no-such-name", "+hmac-sha1")
    seen = _ssh_g(config)
    assert seen is None or seen.returncode == 0


def test_a_known_name_still_connects(client: ClientSetup, sshd: SshServer) -> None:
    client.alias("ctr", sshd, Ciphers="aes256-ctr,aes128-gcm@openssh.com", MACs="hmac-sha2-256-etm@openssh.com")
    connection = connect("ctr", client.options())
    try:
        assert (connection.transport.local_cipher, connection.transport.local_mac) == ("aes256-ctr", "hmac-sha2-256-etm@openssh.com")
    finally:
        connection.close()

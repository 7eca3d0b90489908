"""The sshd fixture's extra_config overrides a default written `Keyword=value` (or `Keyword = value`).

sshd takes the keyword up to whitespace or one `=` (openssh-portable misc.c, strdelim, used by
servconf.c process_server_config_line_depth), and keeps the FIRST value of most keywords. The
fixture split extra_config lines at whitespace only: `PasswordAuthentication=yes` overrode no
default (sshd kept the fixture's "no", so a test of password logins tested key logins), and
`Subsystem=sftp /bin/false` left the default `Subsystem sftp` beside it: sshd refused to start
("Subsystem 'sftp' already defined"). Real sshd; `sshd -T` says what it took.
"""

from __future__ import annotations

import subprocess
from typing import Callable

import pytest

from tests.sshd_fixture import SSHD, SshServer


def _effective(server: SshServer) -> list[str]:
    done = subprocess.run([SSHD, "-T", "-f", str(server.config_path)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.mark.parametrize("line", ["PasswordAuthentication=yes", "PasswordAuthentication = yes", "passwordauthentication =yes"])
def test_an_equals_sign_line_overrides_the_default(sshd_factory: Callable[..., SshServer], line: str) -> None:
    server = sshd_factory("eq", extra_config=line + "\n")
    effective = _effective(server)
    assert "passwordauthentication yes" in effective, [e for e in effective if e.startswith("passwordauth")]
    assert server.config_path.read_text().lower().count("passwordauthentication") == 1


@pytest.mark.parametrize("line", ["Subsystem=sftp /bin/false", "Subsystem = sftp /bin/false"])
def test_an_equals_sign_subsystem_replaces_the_default_sftp(sshd_factory: Callable[..., SshServer], line: str) -> None:
    server = sshd_factory("sub", extra_config=line + "\n")  # started: a second `Subsystem sftp` is refused
    assert "subsystem sftp /bin/false" in _effective(server)
    assert "internal-sftp" not in server.config_path.read_text()

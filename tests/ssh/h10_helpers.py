"""A real sshd whose account has a known password, for the password login tests.

The password lives only in the server's own mount namespace: a copy of /etc/shadow with the
user's hash replaced is bind-mounted over the real one for that sshd alone (as the PAM bastion
of test_hardening7_ssh does), so the machine's accounts are never touched.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
from pathlib import Path

import pytest

import tests.sshd_fixture as fixture
from tests.sshd_fixture import ClientKey, SshServer

_REAL_SSHD = fixture.SSHD


class PasswordServer(SshServer):
    """sshd as a fresh Ubuntu box has it: `PasswordAuthentication yes`, keyboard-interactive off
    (Debian's shipped sshd_config), plus whatever `extra_config` says."""

    permit_root_login: str = "yes"

    def _sshd_config(self) -> str:
        return (super()._sshd_config()
                .replace("PasswordAuthentication no\n", "PasswordAuthentication yes\n")
                .replace("PermitRootLogin prohibit-password\n", f"PermitRootLogin {self.permit_root_login}\n"))


def start_password_server(
    workdir: Path, password: str, *, keys: list[ClientKey] | None = None,
    extra_config: str = "", permit_root_login: str = "yes",
) -> SshServer:
    if os.getuid() != 0 or shutil.which("openssl") is None or shutil.which("unshare") is None:
        pytest.skip("needs root, openssl and unshare")
    if subprocess.run(["unshare", "--mount", "true"], capture_output=True, check=False).returncode != 0:
        pytest.skip("cannot make a mount namespace here")
    workdir.mkdir(parents=True, exist_ok=True)
    user = pwd.getpwuid(os.getuid()).pw_name
    hashed = subprocess.run(["openssl", "passwd", "-6", password], capture_output=True, text=True, check=True).stdout.strip()
    shadow = workdir / "shadow"
    shadow.write_text("".join(
        ":".join([user, hashed, "19000", *line.split(":")[3:]]) + "\n" if line.split(":")[0] == user else line + "\n"
        for line in Path("/etc/shadow").read_text().splitlines()
    ))
    shadow.chmod(0o640)
    wrapper = workdir / "sshd-with-password"
    wrapper.write_text(
        "#!/bin/sh\n"
        f"exec unshare --mount --propagation private /bin/sh -c 'mount --bind {shadow} /etc/shadow && exec {_REAL_SSHD} \"$@\"' sshd \"$@\"\n"
    )
    wrapper.chmod(0o755)
    server = PasswordServer(workdir, keys or [], extra_config=extra_config)
    server.permit_root_login = permit_root_login
    fixture.SSHD = str(wrapper)  # read by SshServer.start; the next server starts the real one
    try:
        return server.start()
    finally:
        fixture.SSHD = _REAL_SSHD

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


class OldSshd:
    """A stand-in for an sshd older than 7.2 (OpenSSH 6.6 on Ubuntu 14.04) at the two points
    that matter to RSA user keys: it sends no server-sig-algs (RFC 8308 came with 7.2) and it
    takes RSA signatures only as `ssh-rsa` (SHA-1). Built on paramiko's server mode, as no
    such sshd can be installed here; it only authenticates (no channels).

    That a real OpenSSH verifies our SHA-1 signatures is shown with the real sshd
    (test_hardening10_ssh_rsa.py); this server shows that we choose them when we must.
    """

    banner = "SSH-2.0-OpenSSH_6.6.1p1 Ubuntu-2ubuntu2.13"

    def __init__(self, workdir: Path, user_key: Path) -> None:
        import socket
        import threading

        import paramiko

        from spec_debug.runner.ssh_hostkeys import allow_sha1_rsa_host_keys
        from tests.sshd_fixture import keygen

        workdir.mkdir(parents=True, exist_ok=True)
        self.host_key_path = keygen(workdir / "host_ed25519")
        self.host_key = paramiko.Ed25519Key.from_private_key_file(str(self.host_key_path))
        self.user_public = paramiko.RSAKey.from_private_key_file(str(user_key)).asbytes()
        self.address = "127.0.0.1"
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.bind((self.address, 0))
        self._listener.listen(8)
        self.port = int(self._listener.getsockname()[1])
        self.transports: list[paramiko.Transport] = []
        outer = self

        class Sha2Signed(paramiko.RSAKey):
            """An RSA key offered for a SHA-2 signature, an algorithm name sshd 6.6 does not know."""

        class Accounts(paramiko.ServerInterface):
            def get_allowed_auths(self, username: str) -> str:
                return "publickey"

            def check_auth_publickey(self, username: str, key: paramiko.PKey) -> int:
                # sshd 6.6 answers an unknown algorithm with a failure, as for a wrong key
                # (openssh-portable 6.6: auth2-pubkey.c, userauth_pubkey: "unknown public key algorithm").
                if isinstance(key, Sha2Signed):
                    return paramiko.AUTH_FAILED
                return paramiko.AUTH_SUCCESSFUL if key.asbytes() == outer.user_public else paramiko.AUTH_FAILED

        def serve() -> None:
            while True:
                try:
                    sock, _ = self._listener.accept()
                except OSError:
                    return
                transport = paramiko.Transport(sock, server_sig_algs=False)
                transport.local_version = self.banner
                allow_sha1_rsa_host_keys(transport)  # to verify the ssh-rsa signatures it takes
                transport._key_info.update({"rsa-sha2-512": Sha2Signed, "rsa-sha2-256": Sha2Signed})  # type: ignore[attr-defined]
                transport._preferred_pubkeys = ("ssh-ed25519", "ssh-rsa", "rsa-sha2-512", "rsa-sha2-256")  # type: ignore[attr-defined]
                transport.add_server_key(self.host_key)
                self.transports.append(transport)
                try:
                    transport.start_server(server=Accounts())
                except (paramiko.SSHException, EOFError, OSError):
                    continue

        threading.Thread(target=serve, daemon=True).start()

    @property
    def known_hosts_line(self) -> str:
        return f"[{self.address}]:{self.port} {self.host_key.get_name()} {self.host_key.get_base64()}\n"

    def stop(self) -> None:
        self._listener.close()
        for transport in self.transports:
            transport.close()

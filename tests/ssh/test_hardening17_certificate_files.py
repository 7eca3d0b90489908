"""Every CertificateFile line is offered, as ssh(1) offers them (openssh-portable: readconf.c,
oCertificateFile adds each one; sshconnect2.c, pubkey_prepare).

A CA rotation: the config names last year's certificate and this year's, `CertificateFile
~/.ssh/old-cert.pub` then `CertificateFile ~/.ssh/new-cert.pub`, and the hosts trust only the
new CA. paramiko's parser keeps a keyword's first value, so only the old certificate (and the
bare key) was offered and the host "failed authentication" where `ssh` logs in.
"""

from __future__ import annotations

import getpass
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_config import load_ssh_config, resolve_target
from tests.sshd_fixture import ClientSetup, keygen


def _certificate(ca: Path, key: Path, name: str) -> Path:
    subprocess.run(["ssh-keygen", "-q", "-s", str(ca), "-I", name, "-n", getpass.getuser(), f"{key}.pub"], check=True)
    issued = key.parent / f"{name}-cert.pub"
    (key.parent / f"{key.name}-cert.pub").rename(issued)  # not beside the key: only CertificateFile names it
    return issued


def test_the_second_certificate_file_logs_in_as_with_ssh(client: ClientSetup, sshd_factory: Any, tmp_path: Path) -> None:
    old_ca, new_ca = keygen(tmp_path / "old_ca"), keygen(tmp_path / "new_ca")
    server = sshd_factory("new-ca-only", extra_config=f"TrustedUserCAKeys {new_ca}.pub\n")
    server.authorized_keys_path.write_text("")  # no key is authorized: only certificates of the new CA
    client.trust(server)
    key = keygen(tmp_path / "id_gpu")
    old, new = _certificate(old_ca, key, "old"), _certificate(new_ca, key, "new")
    client.alias("gpu01", server, IdentityFile=str(key), CertificateFile=[str(old), str(new)])
    if shutil.which("ssh"):
        said = subprocess.run(["ssh", "-F", str(client.config), "-o", "BatchMode=yes", "gpu01", "true"],
                              capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL, check=False)
        assert said.returncode == 0, said.stderr
    with SSHTransport.connect("gpu01", client.options()) as transport:
        assert transport.connection.transport.is_authenticated()
    assert resolve_target("gpu01", load_ssh_config(client.config)).certificate_files == (str(old), str(new))


@pytest.mark.skipif(shutil.which("ssh") is None, reason="needs ssh(1) to compare with")
def test_certificate_files_are_the_ones_ssh_lists_in_its_order(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.write_text('Host gpu01\n  CertificateFile /c/one\n  CertificateFile "/c/two words"\nHost *\n  CertificateFile /c/three\n')
    shown = subprocess.run(["ssh", "-F", str(config), "-o", "CertificateFile=/c/cmd", "-G", "gpu01"], capture_output=True,
                           text=True, check=True, stdin=subprocess.DEVNULL).stdout
    listed = tuple(line.split(" ", 1)[1] for line in shown.splitlines() if line.startswith("certificatefile "))
    target = resolve_target("gpu01", load_ssh_config(config), ssh_options={"certificatefile": "/c/cmd"})
    assert target.certificate_files == listed

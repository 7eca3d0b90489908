"""Every `-i` (and `-o IdentityFile=`, `-o CertificateFile=`) in an inventory's ssh arguments is
tried, as ssh(1) tries them.

A fleet half-way through a key rotation: `ansible_ssh_common_args: -i ~/.ssh/id_new -i
~/.ssh/id_old`, or the new key in ansible_ssh_common_args and the old one in
ansible_ssh_extra_args. ssh(1) adds each file (openssh-portable: ssh.c, main, case 'i';
readconf.c, oIdentityFile: add_identity_file), so every host logs in with whichever key it
has. spec-debug kept the first file only: the hosts that had only the second key failed
authentication, while `ssh` with the same arguments logged in.

The host is real: an sshd that accepts the client key only; the other key is a real key it
does not know.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.runner.hosts import open_transport, resolve_hosts
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_args import parse_ssh_args
from spec_debug.runner.ssh_config import load_ssh_config, resolve_target
from tests.ssh.test_transport import run
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer


def inventory_with(tmp_path: Path, server: SshServer, client: ClientSetup, **args: str) -> Path:
    inventory = tmp_path / "hosts.yml"
    lines = "".join(f"      {key}: '{value} -o UserKnownHostsFile={client.known_hosts}'\n" for key, value in args.items())
    inventory.write_text(
        "all:\n  hosts:\n    gpu01:\n"
        f"      ansible_host: {server.address}\n      ansible_port: {server.port}\n{lines}"
    )
    return inventory


@pytest.mark.parametrize(
    "args",
    [
        {"ansible_ssh_common_args": "-i {old} -i {new}"},
        {"ansible_ssh_common_args": "-o IdentityFile={old} -o IdentityFile={new}"},
        {"ansible_ssh_common_args": "-i {old}", "ansible_ssh_extra_args": "-i {new}"},
    ],
    ids=["two -i", "two -o IdentityFile", "common and extra args"],
)
def test_the_second_key_of_an_inventorys_ssh_args_logs_in(
    args: dict[str, str], client: ClientSetup, sshd: SshServer, tmp_path: Path
) -> None:
    old = ClientKey.create(tmp_path / "old", "id_old")  # a real key the host does not accept
    words = {key: value.format(old=old.path, new=client.key.path) for key, value in args.items()}
    inventory = inventory_with(tmp_path, sshd, client, **words)
    [spec] = resolve_hosts(["gpu01"], [], inventory, None)
    with open_transport(spec, client.options(ssh_config_path=Path("none"))) as transport:
        assert isinstance(transport, SSHTransport)
        outcome, stdout, _ = run(transport, "echo logged-in")
        assert (outcome.exit_code, stdout.text()) == (0, "logged-in\n")


SSH = shutil.which("ssh")


@pytest.mark.skipif(SSH is None, reason="needs OpenSSH's ssh(1) to compare with")
def test_identity_and_certificate_files_from_ssh_args_are_ssh_gs(tmp_path: Path) -> None:
    """The files and their order as `ssh -G` prints them: the command line's first, in the order
    given, each once, then the config's."""
    keys = tmp_path / "keys"
    keys.mkdir()
    for name in ("a", "b", "c"):
        (keys / name).touch()  # ssh(1) drops a `-i` file that does not exist
    config = tmp_path / "config"
    config.write_text(f"Host gpu01\n  IdentityFile {keys}/fromconfig\n  CertificateFile {keys}/z-cert.pub\n")
    args = f"-i {keys}/a -o IdentityFile={keys}/c -i {keys}/b -i {keys}/a -o CertificateFile={keys}/x-cert.pub -o CertificateFile={keys}/y-cert.pub"
    shown = subprocess.run([SSH, "-G", "-F", str(config), *args.split(), "gpu01"], capture_output=True, text=True, check=True,
                           stdin=subprocess.DEVNULL).stdout.splitlines()
    target = resolve_target("gpu01", load_ssh_config(config), ssh_options=parse_ssh_args(args))
    assert list(target.identity_files) == [line.split(" ", 1)[1] for line in shown if line.startswith("identityfile ")]
    assert list(target.certificate_files) == [line.split(" ", 1)[1] for line in shown if line.startswith("certificatefile ")]

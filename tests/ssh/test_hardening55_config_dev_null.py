"""`-F /dev/null`: ssh(1) reads the null device as an empty config file.

It is the usual way to have `ssh` read no config at all (scripts, and Ansible inventories'
`ansible_ssh_common_args='-F /dev/null'` that keep a developer's ~/.ssh/config out of a fleet
run). /dev/null is not a regular file, and spec-debug stopped with "ssh config file not found:
/dev/null". `ssh -G -F /dev/null HOST` resolves HOST with ssh(1)'s defaults: ~/.ssh/id_* keys,
~/.ssh/known_hosts. Real sshd, the CLI in a child process.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.conftest import run_cli
from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = """name: null-config
description: t
steps:
  - id: who
    title: who
    why: who
    run: echo "reached $USER"
"""


def _home_with_default_key(client: ClientSetup, sshd: SshServer) -> None:
    """The client key where ssh(1) looks by default, the host trusted under [127.0.0.1]:PORT;
    the config file says `target` goes nowhere (a -F /dev/null run must not read it)."""
    shutil.copy(client.key.path, client.home / ".ssh" / "id_ed25519")
    (client.home / ".ssh" / "id_ed25519").chmod(0o600)
    client.config.write_text("Host *\n  Port 1\n")


def test_minus_f_dev_null_reads_no_config(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    _home_with_default_key(client, sshd)
    (tmp_path / "pb.yaml").write_text(PLAYBOOK)
    done = run_cli(*["run", str(tmp_path / "pb.yaml"), "--host", f"ssh://root@127.0.0.1:{sshd.port}", "--batch",
                    "-F", "/dev/null", "--out", str(tmp_path / "runs")], env={"HOME": str(client.home)})
    assert done.code == 0, (done.stdout, done.stderr)
    assert "not found" not in done.stderr


def test_an_inventory_passing_minus_f_dev_null_reads_no_config(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    _home_with_default_key(client, sshd)
    (tmp_path / "pb.yaml").write_text(PLAYBOOK)
    (tmp_path / "hosts.ini").write_text(
        f"gpu01 ansible_host=127.0.0.1 ansible_port={sshd.port} ansible_user=root ansible_ssh_common_args='-F /dev/null'\n")
    done = run_cli(*["run", str(tmp_path / "pb.yaml"), "--inventory", str(tmp_path / "hosts.ini"), "--batch",
                    "--out", str(tmp_path / "runs")], env={"HOME": str(client.home)})
    assert done.code == 0, (done.stdout, done.stderr)

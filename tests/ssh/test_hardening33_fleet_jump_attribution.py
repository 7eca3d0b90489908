"""A fleet behind a bastion named in the inventory (`ansible_ssh_common_args='-J ops@bastion'`),
the bastion down for one group: each host's record said `bastion: connection refused ...`,
the jump host's own message, so run.json, the SD005 finding and the report's "could not be
checked" gave no hint that the host itself was never tried, nor which bastion was its."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = """
name: fleet_jump
description: one shell step per host
steps:
  - id: hello
    title: Say hello
    why: proves the host runs commands
    run: echo "hello from {{ host }}"
"""


def test_a_host_behind_a_jump_host_that_is_down_says_it_was_the_jump_host(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path,
        closed_port: Callable[[], int]) -> None:
    down = closed_port()  # bound on 127.0.0.1 and never listened on: nothing can listen on 127.0.0.2 at it either
    reach = f"ansible_host={sshd.address} ansible_port={sshd.port} ansible_ssh_private_key_file={client.key.path}"
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(
        "[direct]\n"
        f"gpu01 {reach}\n"
        "[behind]\n"
        f"gpu02 {reach}\n"
        "[behind:vars]\n"
        f"ansible_ssh_common_args='-J root@127.0.0.2:{down}'\n")
    (tmp_path / "fleet.yaml").write_text(PLAYBOOK)
    out = tmp_path / "runs"
    done = cli("run", str(tmp_path / "fleet.yaml"), "-i", str(inventory), "--batch", "--out", str(out))
    assert done.code == 3, done.stdout + done.stderr
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    record = json.loads((run_dir / "run.json").read_text())
    hosts = {h["name"]: h for h in record["hosts"]}
    assert hosts["gpu01"]["status"] == "passed"
    error = hosts["gpu02"]["error"]
    assert error.startswith(f"gpu02 at {sshd.address}: jump host 127.0.0.2: connection refused by 127.0.0.2:{down}"), error
    (finding,) = [f for f in record["findings"] if f["code"] == "SD005"]
    assert finding["host"] == "gpu02" and finding["evidence"] == [error]
    assert f"- `gpu02`: gpu02 at {sshd.address}: jump host 127.0.0.2: connection refused" in (run_dir / "report.md").read_text()

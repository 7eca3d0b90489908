"""An inventory whose groups are each other's children is refused, as Ansible refuses it.

`[lab:children] gpus` and `[gpus:children] lab` (one line meant for another section): Ansible
stops with "Adding group ... creates a recursive dependency loop" (lib/ansible/inventory/group.py,
add_child_group). spec-debug ran, with each group of the loop the other's parent: which one's
vars a host got (here the login user) came from the order the groups were read in. The host is
a real sshd on 127.0.0.1.
"""

from __future__ import annotations

import getpass
import json
from pathlib import Path
from typing import Any, Callable

from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = """
name: group_loop
description: one shell step per host
steps:
  - id: hello
    title: Say hello
    why: proves the host runs commands
    run: echo "hello from {{ host }}"
"""


def _run(cli: Callable[..., Any], tmp_path: Path, inventory_text: str) -> tuple[Any, list[Path]]:
    playbook = tmp_path / "loop.yaml"
    playbook.write_text(PLAYBOOK)
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(inventory_text)
    out = tmp_path / "runs"
    done = cli("run", str(playbook), "-i", str(inventory), "--batch", "--out", str(out))
    return done, sorted(out.glob("*/run.json")) if out.exists() else []


def test_groups_that_are_each_others_children_are_refused(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    host = f"gpu01 ansible_host={sshd.address} ansible_port={sshd.port} ansible_ssh_private_key_file={client.key.path}"
    done, runs = _run(cli, tmp_path, (
        f"[gpus]\n{host}\n\n"
        "[gpus:vars]\nansible_user=nobody\n\n"
        f"[lab]\n\n[lab:vars]\nansible_user={getpass.getuser()}\n\n"
        "[lab:children]\ngpus\n\n"
        "[gpus:children]\nlab\n"
    ))
    said = " ".join((done.stdout + done.stderr).split())
    assert done.code == 2 and not runs, said
    assert "Traceback" not in said
    assert f"{tmp_path / 'hosts.ini'}: the groups gpus -> lab -> gpus are each other's children, a loop" in said, said
    assert "hint: remove gpus from the children of lab" in said, said


def test_a_group_under_two_parents_is_no_loop(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    """A diamond (gpus under both lab and infer) is a fine inventory: gpu01 runs once."""
    host = f"gpu01 ansible_host={sshd.address} ansible_port={sshd.port} ansible_ssh_private_key_file={client.key.path}"
    done, runs = _run(cli, tmp_path, (
        f"[gpus]\n{host}\n\n[lab:children]\ngpus\n\n[infer:children]\ngpus\n\n[site:children]\nlab\ninfer\n"
        f"\n[site:vars]\nansible_user={getpass.getuser()}\n"
    ))
    assert done.code == 0 and len(runs) == 1, done.stdout + done.stderr
    record = json.loads(runs[0].read_text())
    assert [(h["name"], h["status"]) for h in record["hosts"]] == [("gpu01", "passed")]


def test_a_yaml_group_nested_in_itself_by_an_alias_is_refused_in_one_line(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    """`lab: *gpus` under gpus' own children: the group holds itself without end, and reading
    it recursed until Python gave up with a RecursionError traceback."""
    playbook = tmp_path / "loop.yaml"
    playbook.write_text(PLAYBOOK)
    inventory = tmp_path / "hosts.yml"
    inventory.write_text(
        "all:\n  children:\n    gpus: &gpus\n      hosts:\n        gpu01:\n"
        f"          ansible_host: {sshd.address}\n          ansible_port: {sshd.port}\n"
        "      children:\n        lab: *gpus\n")
    done = cli("run", str(playbook), "-i", str(inventory), "--batch", "--out", str(tmp_path / "runs"))
    said = " ".join((done.stdout + done.stderr).split())
    assert done.code == 2 and not (tmp_path / "runs").exists(), said
    assert "Traceback" not in said and "RecursionError" not in said, said
    assert f"{inventory}: the groups lab -> lab are each other's children, a loop" in said, said

"""Vars an inventory builds from other vars, as Ansible inventories do:
`model_dir: "{{ models_root }}/llama"` over group_vars/all.yml's `models_root`, and
`ib_name: "{{ inventory_hostname }}.ib"`. They reached the host as the literal text
`{{ models_root }}/llama` (a probe then looked for a folder of that name, and a capture on the
output missed, raising a finding about the wrong thing). A value tagged `!unsafe` stays text,
as Ansible keeps it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = """
name: fleet_templates
description: echo the host's vars
vars:
  model_dir: /models/default
  ib_name: none
  banner: none
steps:
  - id: show
    title: Show the vars
    why: the host gets its vars
    run: echo "model_dir={{ model_dir }} ib_name={{ ib_name }} banner={{ banner }}"
"""


def test_inventory_vars_built_from_other_vars_reach_the_host_rendered(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    (tmp_path / "group_vars").mkdir()
    (tmp_path / "group_vars" / "all.yml").write_text("models_root: /data/models\n")
    inventory = tmp_path / "hosts.yml"
    inventory.write_text(
        "gpus:\n"
        "  vars:\n"
        "    model_dir: \"{{ models_root }}/llama\"\n"
        "    ib_name: \"{{ inventory_hostname }}.ib\"\n"
        "    banner: !unsafe '{{ not a template }}'\n"
        "  hosts:\n"
        "    gpu01:\n"
        f"      ansible_host: {sshd.address}\n"
        f"      ansible_port: {sshd.port}\n"
        f"      ansible_ssh_private_key_file: {client.key.path}\n")
    (tmp_path / "fleet.yaml").write_text(PLAYBOOK)
    out = tmp_path / "runs"
    done = cli("run", str(tmp_path / "fleet.yaml"), "-i", str(inventory), "--batch", "--out", str(out))
    assert done.code == 0, done.stdout + done.stderr
    (run,) = out.glob("*/run.json")
    (step,) = json.loads(run.read_text())["steps"]
    assert "model_dir=/data/models/llama ib_name=gpu01.ib banner={{ not a template }}" in step["stdout"], step


def test_an_inventory_template_naming_an_unknown_var_is_refused_with_its_host(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(
        "[gpus]\n"
        f"gpu01 ansible_host={sshd.address} ansible_port={sshd.port} ansible_ssh_private_key_file={client.key.path}\n"
        "[gpus:vars]\n"
        "model_dir={{ models_rot }}/llama\n"
        "models_root=/data/models\n")
    (tmp_path / "fleet.yaml").write_text(PLAYBOOK)
    out = tmp_path / "runs"
    done = cli("run", str(tmp_path / "fleet.yaml"), "-i", str(inventory), "--batch", "--out", str(out))
    said = " ".join((done.stdout + done.stderr).split())
    assert done.code == 2, said
    assert "host gpu01: inventory var model_dir: undefined variable: 'models_rot' is undefined" in said, said

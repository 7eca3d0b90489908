"""`vllm_version: 0.10` in a YAML inventory or a group_vars/host_vars file.

YAML 1.1 reads 0.10 as the float 0.1, and Ansible reads inventories with the same resolver
(ansible/ansible: lib/ansible/_internal/_yaml/_loader.py), so `pip install vllm=={{ vllm_version }}`
installs 0.1 there too. spec-debug passed the 0.1 on to the host's commands without a word; the
playbook and --var-file refuse such a value with a "quote it" hint, and now so does the
inventory, with file:line:column, for the hosts of the run. A quoted "0.10" reaches the host's
command as written (checked over a real sshd).
"""

from __future__ import annotations

import os
import pwd
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.hosts import open_transport, resolve_hosts
from spec_debug.runner.output import StreamCapture
from tests.sshd_fixture import ClientSetup, SshServer

USER = pwd.getpwuid(os.getuid()).pw_name


def test_an_unquoted_version_in_the_inventory_is_refused_with_its_place(tmp_path: Path) -> None:
    inventory = tmp_path / "hosts.yml"
    inventory.write_text("all:\n  hosts:\n    gpu01:\n      vllm_version: 0.10\n      ansible_port: 2222\n")
    with pytest.raises(UsageError) as refused:
        resolve_hosts([], [], inventory, None)
    assert refused.value.message.startswith(f"{inventory}:4:21: vllm_version is written 0.10, which YAML reads as the number 0.1"), \
        refused.value.message
    assert 'quote it ("0.10")' in (refused.value.hint or "") and "write 0.1 if it is a number" in (refused.value.hint or "")


def test_group_vars_files_are_checked_too_for_the_hosts_that_get_them(tmp_path: Path) -> None:
    (tmp_path / "hosts.yml").write_text("gpus:\n  hosts:\n    gpu01:\ncpus:\n  hosts:\n    cpu01:\n")
    (tmp_path / "group_vars").mkdir()
    (tmp_path / "group_vars" / "gpus.yml").write_text("serving:\n  python_version: 3.10\n")
    with pytest.raises(UsageError) as refused:
        resolve_hosts(["gpu01"], [], tmp_path / "hosts.yml", None)
    assert refused.value.message.startswith(f"{tmp_path / 'group_vars' / 'gpus.yml'}:2:19: serving.python_version is written 3.10"), \
        refused.value.message
    # A host outside that group does not get the var: nothing to refuse.
    [spec] = resolve_hosts(["cpu01"], [], tmp_path / "hosts.yml", None)
    assert spec.vars == {}


def test_numbers_yaml_keeps_stay_numbers(tmp_path: Path) -> None:
    inventory = tmp_path / "hosts.yml"
    inventory.write_text("all:\n  hosts:\n    gpu01:\n      min_accept: 0.5\n      tp: 2\n      ansible_port: 2222\n")
    [spec] = resolve_hosts([], [], inventory, None)
    assert spec.vars == {"min_accept": 0.5, "tp": 2} and spec.port == 2222


def test_a_quoted_version_reaches_the_command_as_written(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    client.config.write_text(f"Host *\n  IdentityFile {client.key.path}\n  IdentitiesOnly yes\n")
    inventory = tmp_path / "hosts.yml"
    inventory.write_text(
        "all:\n  hosts:\n    lab01:\n"
        f"      ansible_host: {sshd.address}\n      ansible_port: {sshd.port}\n      ansible_user: {USER}\n"
        '      vllm_version: "0.10"\n'
    )
    [spec] = resolve_hosts([], [], inventory, None)
    with open_transport(spec, client.options()) as transport:
        stdout, stderr = StreamCapture("stdout"), StreamCapture("stderr")
        transport.run("printf %s \"$V\"", stdout=stdout, stderr=stderr, timeout_s=30, env={"V": str(spec.vars["vllm_version"])})
        stdout.close()
        stderr.close()
    assert stdout.text() == "0.10"

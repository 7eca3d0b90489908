"""INI inventories as people really write them, run against a real sshd, read as Ansible reads
them (ansible/ansible: lib/ansible/plugins/inventory/ini.py):

- saved by a Windows editor as "UTF-8 with BOM": the invisible mark made the first `[gpus]` a
  host named '\\ufeffgpus', and [gpus:vars] reached no host;
- `[gpus:vars]` lines with a comment after the value (`ansible_port=2222  # sshd`), a quoted
  value (`"~/.ssh/lab.pem"  # the lab key`) or an apostrophe (`team=Bob's GPUs`): Ansible reads
  the value with ast.literal_eval, which skips the comment and the quotes; spec-debug took the
  text whole (port "not a number", key file not found) or refused "No closing quotation";
- a group named under [parent:children] or [g:vars] that no section declares (a typo): Ansible
  refuses the inventory; spec-debug ran without those hosts or those vars, with nothing said.
"""

from __future__ import annotations

import getpass
import json
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.sshd_fixture import ClientKey, ClientSetup, SshServer

PLAYBOOK = """
name: fleet_ini
description: one shell step per host
vars:
  team: nobody
steps:
  - id: hello
    title: Say hello
    why: proves the host runs commands with its vars
    run: echo "team={{ team }} on {{ host }}"
"""


def _run(cli: Callable[..., Any], tmp_path: Path, inventory: Path, *args: str) -> tuple[Any, dict[str, Any] | None]:
    playbook = tmp_path / "fleet.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    done = cli("run", str(playbook), "-i", str(inventory), "--batch", "--out", str(out), *args)
    runs = sorted(out.glob("*/run.json")) if out.exists() else []
    return done, json.loads(runs[0].read_text()) if runs else None


def test_an_inventory_saved_with_a_byte_order_mark_keeps_its_groups_and_their_vars(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(f"[gpus]\r\ngpu01 ansible_host={sshd.address} ansible_port={sshd.port}\r\n\r\n"
                         f"[gpus:vars]\r\nansible_ssh_private_key_file={client.key.path}\r\n", encoding="utf-8-sig")
    assert inventory.read_bytes().startswith(b"\xef\xbb\xbf")
    done, record = _run(cli, tmp_path, inventory)
    assert done.code == 0, done.stdout + done.stderr
    assert record is not None
    assert [(h["name"], h["status"]) for h in record["hosts"]] == [("gpu01", "passed")]


def test_group_vars_with_a_comment_after_them_read_as_ansible_reads_them(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(
        "[gpus]\n"
        f"gpu01 ansible_host={sshd.address}\n"
        "\n"
        "[gpus:vars]\n"
        f"ansible_port={sshd.port}    # sshd listens on a second port here\n"
        f'ansible_ssh_private_key_file="{client.key.path}"   # the lab key\n'
    )
    done, record = _run(cli, tmp_path, inventory)
    assert done.code == 0, done.stdout + done.stderr
    assert record is not None
    assert [(h["name"], h["status"]) for h in record["hosts"]] == [("gpu01", "passed")]


def test_a_group_var_with_an_apostrophe_is_its_text(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(
        "[gpus]\n"
        f"gpu01 ansible_host={sshd.address} ansible_port={sshd.port} ansible_ssh_private_key_file={client.key.path}\n"
        "\n"
        "[gpus:vars]\n"
        "team=Bob's GPUs\n"
    )
    done, record = _run(cli, tmp_path, inventory)
    assert done.code == 0, done.stdout + done.stderr
    assert record is not None
    (step,) = record["steps"]
    assert "team=Bob's GPUs on gpu01" in step["stdout"], step


def test_a_misspelt_child_group_is_refused_with_its_line_instead_of_leaving_its_hosts_out(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(
        "[gpus:children]\n"
        "h100\n"
        "h20O\n"
        "\n"
        "[h100]\n"
        f"gpu01 ansible_host={sshd.address} ansible_port={sshd.port} ansible_ssh_private_key_file={client.key.path}\n"
        "\n"
        "[h200]\n"
        f"gpu02 ansible_host={sshd.address} ansible_port={sshd.port} ansible_ssh_private_key_file={client.key.path}\n"
    )
    done, record = _run(cli, tmp_path, inventory, "--limit", "gpus")
    said = " ".join((done.stdout + done.stderr).split())
    assert done.code == 2 and record is None, said
    assert f"{inventory}:3: [gpus:children] names the group 'h20O', which no [h20O] section declares" in said
    assert "did you mean h200?" in said


def test_vars_for_a_misspelt_group_are_refused_instead_of_reaching_no_host(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(
        "[gpus]\n"
        f"gpu01 ansible_host={sshd.address} ansible_port={sshd.port}\n"
        "\n"
        "[gpu:vars]\n"
        f"ansible_ssh_private_key_file={client.key.path}\n"
    )
    done, record = _run(cli, tmp_path, inventory)
    said = " ".join((done.stdout + done.stderr).split())
    assert done.code == 2 and record is None, said
    assert f"{inventory}:4: [gpu:vars] names the group 'gpu', which no [gpu] section declares" in said
    assert "did you mean gpus?" in said


def test_a_child_group_declared_in_another_file_of_the_inventory_folder_is_found(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    folder = tmp_path / "inventory"
    folder.mkdir()
    (folder / "01-hosts.ini").write_text(
        "[h100]\n"
        f"gpu01 ansible_host={sshd.address} ansible_port={sshd.port} ansible_ssh_private_key_file={client.key.path}\n")
    (folder / "02-groups.ini").write_text("[gpus:children]\nh100\n")
    done, record = _run(cli, tmp_path, folder, "--limit", "gpus")
    assert done.code == 0, done.stdout + done.stderr
    assert record is not None and [h["name"] for h in record["hosts"]] == ["gpu01"]


def test_a_limit_of_names_one_a_line_runs_those_hosts(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    """`--limit "$(cat failed_hosts)"` and `--limit "gpu01 gpu03"`: Ansible splits a pattern
    without commas at white space too (lib/ansible/inventory/manager.py, split_host_pattern);
    here it was one pattern that matched no host, and the run stopped with "no hosts"."""
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[gpus]\n" + "".join(
        f"gpu0{n} ansible_host={sshd.address} ansible_port={sshd.port} ansible_ssh_private_key_file={client.key.path}\n"
        for n in (1, 2, 3)))
    failed_hosts = tmp_path / "failed_hosts"
    failed_hosts.write_text("gpu01\ngpu03\n")
    done, record = _run(cli, tmp_path, inventory, "--limit", failed_hosts.read_text())
    assert done.code == 0, done.stdout + done.stderr
    assert record is not None and [h["name"] for h in record["hosts"]] == ["gpu01", "gpu03"]


def test_a_group_given_as_host_is_refused_with_the_limit_to_write(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    """`ansible gpus -i hosts.ini` habits: `--host gpus` was a host named gpus (a DNS failure,
    or, as here, whatever an ssh alias of that name reaches), not the group's two hosts."""
    client.alias("gpus", sshd)
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[gpus]\n" + "".join(
        f"gpu0{n} ansible_host={sshd.address} ansible_port={sshd.port} ansible_ssh_private_key_file={client.key.path}\n"
        for n in (1, 2)))
    done, record = _run(cli, tmp_path, inventory, "--host", "gpus")
    said = " ".join((done.stdout + done.stderr).split())
    assert done.code == 2 and record is None, said
    assert f"--host 'gpus' is a group of {inventory} (2 host(s)), not a host" in said
    assert "hint: pick a group's hosts with --limit gpus" in said


def test_a_host_spelt_close_to_an_inventory_host_is_warned_about(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    """`-i hosts.ini --host gpu1` for gpu01 ran gpu1 as named (DNS, or an ssh alias of that
    name, as here), without the inventory's address, user and vars, and nothing said so."""
    client.alias("gpu1", sshd)
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[gpus]\n" + "".join(
        f"gpu0{n} ansible_host={sshd.address} ansible_port={sshd.port} ansible_ssh_private_key_file={client.key.path}\n"
        for n in (1, 2)))
    done, record = _run(cli, tmp_path, inventory, "--host", "gpu1")
    assert done.code == 0, done.stdout + done.stderr
    assert record is not None and [h["name"] for h in record["hosts"]] == ["gpu1"]
    warning = " ".join(done.stderr.split())
    assert f"warning: --host 'gpu1' is not a host of {inventory} (did you mean gpu01?)" in warning, warning
    # a host of the inventory, or one far from every inventory name (an ssh alias), is not warned about
    client.alias("login-node", sshd)
    done, _ = _run(cli, tmp_path, inventory, "--host", "gpu02,login-node")
    # (both reach the one test sshd, which the same-machine warning rightly says since round 37)
    assert done.code == 0 and "is not a host of" not in done.stderr, done.stderr


def test_a_host_listed_above_the_sections_and_in_a_group_is_not_ungrouped(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    """Ansible clears such a host from `ungrouped` (lib/ansible/inventory/data.py,
    reconcile_inventory); it stayed there, so `--limit ungrouped` (the hosts nobody filed yet)
    also ran gpu01."""
    reach = f"ansible_host={sshd.address} ansible_port={sshd.port} ansible_ssh_private_key_file={client.key.path}"
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(f"gpu01 {reach}\nnew01 {reach}\n\n[gpus]\ngpu01\n")
    done, record = _run(cli, tmp_path, inventory, "--limit", "ungrouped")
    assert done.code == 0, done.stdout + done.stderr
    assert record is not None and [h["name"] for h in record["hosts"]] == ["new01"]


def test_the_login_set_once_in_ansible_cfg_is_the_inventory_hosts_login(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A team's ansible.cfg beside its inventory sets `remote_user` and `private_key_file` once
    (`ansible -i hosts.ini all -m ping` logs in with them); spec-debug logged in as the local
    user with the default keys, and every host failed authentication. The inventory's own
    variables still win (gpu02 names a key the host does not take)."""
    for name in ("ANSIBLE_CONFIG", "ANSIBLE_REMOTE_USER", "ANSIBLE_PRIVATE_KEY_FILE"):
        monkeypatch.delenv(name, raising=False)
    project = tmp_path / "ansible"
    project.mkdir()
    wrong_key = ClientKey.create(tmp_path / "wrong", name="id_wrong")
    (project / "hosts.ini").write_text(
        "[gpus]\n"
        f"gpu01 ansible_host={sshd.address} ansible_port={sshd.port}\n"
        f"gpu02 ansible_host={sshd.address} ansible_port={sshd.port} ansible_ssh_private_key_file={wrong_key.path}\n")
    (project / "ansible.cfg").write_text(
        "[defaults]\n"
        "inventory = hosts.ini\n"
        f"remote_user = {getpass.getuser()}   ; the image's login\n"
        f"private_key_file = {client.key.path}\n")
    (project / "fleet.yaml").write_text(PLAYBOOK)
    done = cli("run", "fleet.yaml", "-i", "hosts.ini", "--batch", "--out", "runs", cwd=project)
    (run,) = (project / "runs").glob("*/run.json")
    hosts = {h["name"]: h for h in json.loads(run.read_text())["hosts"]}
    assert hosts["gpu01"]["status"] == "passed", done.stdout + done.stderr
    assert hosts["gpu02"]["status"] == "error" and str(wrong_key.path) in hosts["gpu02"]["error"]


def test_env_lookups_in_the_login_variables_are_read_as_ansible_reads_them(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`ansible_user: "{{ lookup('env', 'USER') }}"` and a key file under
    `{{ lookup('env','HOME') }}`, as Ansible's docs write them, were refused as "a Jinja
    template, which spec-debug does not evaluate", and the whole inventory with them."""
    monkeypatch.setenv("USER", getpass.getuser())
    lab_key = client.home / ".ssh" / "lab.pem"
    lab_key.write_bytes(client.key.path.read_bytes())
    lab_key.chmod(0o600)
    inventory = tmp_path / "hosts.yml"
    inventory.write_text(
        "all:\n"
        "  vars:\n"
        "    ansible_user: \"{{ lookup('env', 'USER') }}\"\n"
        "    ansible_ssh_private_key_file: \"{{ lookup('env','HOME') }}/.ssh/lab.pem\"\n"
        "  hosts:\n"
        "    gpu01:\n"
        f"      ansible_host: {sshd.address}\n"
        f"      ansible_port: {sshd.port}\n")
    done, record = _run(cli, tmp_path, inventory)
    assert done.code == 0, done.stdout + done.stderr
    assert record is not None and [(h["name"], h["status"]) for h in record["hosts"]] == [("gpu01", "passed")]
    # an unset variable is named, not sent as an empty user
    monkeypatch.delenv("USER")
    done, _ = _run(cli, tmp_path, inventory)
    said = " ".join((done.stdout + done.stderr).split())
    assert done.code == 2 and "host gpu01: ansible_user reads $USER" in said and "which is not set" in said, said


def test_the_bastion_set_in_ansible_cfg_ssh_args_is_the_way_to_the_hosts(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, closed_port: Callable[[], int]) -> None:
    """`[ssh_connection] ssh_args = ... -o ProxyJump=bastion` in ansible.cfg: Ansible reaches
    every host through the bastion; spec-debug went to each host directly (here the bastion is
    down, so its record names the bastion; an inventory's ansible_ssh_args still wins)."""
    for name in ("ANSIBLE_CONFIG", "ANSIBLE_SSH_ARGS", "ANSIBLE_SSH_COMMON_ARGS", "ANSIBLE_SSH_EXTRA_ARGS"):
        monkeypatch.delenv(name, raising=False)
    down = closed_port()  # bound on 127.0.0.1, never listened on: nothing listens on 127.0.0.2 at it
    project = tmp_path / "ansible"
    project.mkdir()
    reach = f"ansible_host={sshd.address} ansible_port={sshd.port} ansible_ssh_private_key_file={client.key.path}"
    (project / "hosts.ini").write_text(f"[gpus]\ngpu01 {reach}\ngpu02 {reach} ansible_ssh_args='-o ServerAliveInterval=30'\n")
    (project / "ansible.cfg").write_text(
        "[ssh_connection]\n"
        f"ssh_args = -C -o ControlMaster=auto -o ControlPersist=60s -o ProxyJump=root@127.0.0.2:{down}\n"
        "pipelining = True\n")
    (project / "fleet.yaml").write_text(PLAYBOOK)
    done = cli("run", "fleet.yaml", "-i", "hosts.ini", "--batch", "--out", "runs", cwd=project)
    (run,) = (project / "runs").glob("*/run.json")
    hosts = {h["name"]: h for h in json.loads(run.read_text())["hosts"]}
    assert hosts["gpu02"]["status"] == "passed", done.stdout + done.stderr
    assert hosts["gpu01"]["status"] == "error", done.stdout + done.stderr
    assert f"jump host 127.0.0.2: connection refused by 127.0.0.2:{down}" in hosts["gpu01"]["error"]


def test_an_inventory_host_refusing_the_login_points_at_the_inventory_that_set_it(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    """The hint said "check User and IdentityFile in your ssh config" where the inventory's
    ansible_user had set the account the host refused."""
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(
        "[gpus]\n"
        f"gpu01 ansible_host={sshd.address} ansible_port={sshd.port} ansible_ssh_private_key_file={client.key.path}\n"
        f"gpu02 ansible_host={sshd.address} ansible_port={sshd.port} ansible_ssh_private_key_file={client.key.path} "
        "ansible_user=nosuchuser\n")
    done, record = _run(cli, tmp_path, inventory)
    assert done.code == 3 and record is not None, done.stdout + done.stderr
    hosts = {h["name"]: h for h in record["hosts"]}
    assert hosts["gpu01"]["status"] == "passed"
    assert "authentication failed for nosuchuser@" in hosts["gpu02"]["error"]
    assert f"ansible_user and ansible_ssh_private_key_file in {inventory}" in hosts["gpu02"]["hint"], hosts["gpu02"]["hint"]


def test_one_machine_listed_by_name_and_by_address_is_warned_about(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    """`gpu01 ansible_host=ADDR` and a line `ADDR` (added later by someone else) ran the
    playbook twice on one machine at the same time, benchmarks competing, with nothing said."""
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(
        "[gpus]\n"
        f"gpu01 ansible_host={sshd.address} ansible_port={sshd.port}\n"
        f"{sshd.address} ansible_port={sshd.port}\n"
        "[gpus:vars]\n"
        f"ansible_ssh_private_key_file={client.key.path}\n")
    done, record = _run(cli, tmp_path, inventory)
    assert done.code == 0 and record is not None, done.stdout + done.stderr
    warning = " ".join(done.stderr.split())
    assert f"warning: gpu01 and {sshd.address} are the same host ({sshd.address}:{sshd.port})" in warning, warning

"""Choosing hosts: ranges, Ansible inventories, --limit (pure parsing, no network)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.hosts import expand_host_pattern, resolve_hosts, split_host_list
from spec_debug.runner.inventory import load_inventory
from spec_debug.runner.ssh_config import Destination, parse_destination


def test_ranges_expand_like_pdsh_and_ansible() -> None:
    assert expand_host_pattern("gpu[01-03]") == ["gpu01", "gpu02", "gpu03"]
    assert expand_host_pattern("gpu[1-3,7]") == ["gpu1", "gpu2", "gpu3", "gpu7"]
    assert expand_host_pattern("gpu[01:05:2]") == ["gpu01", "gpu03", "gpu05"]
    assert expand_host_pattern("gpu[8-10]") == ["gpu8", "gpu9", "gpu10"]
    assert expand_host_pattern("rack[a-b]-n[1-2]") == ["racka-n1", "racka-n2", "rackb-n1", "rackb-n2"]
    assert len(expand_host_pattern("gpu[01-16]")) == 16
    assert expand_host_pattern("plain") == ["plain"]


@pytest.mark.parametrize("bad", ["gpu[3-1]", "gpu[1-", "gpu[]", "gpu[a-9]", "gpu[1-2]]"])
def test_bad_ranges_are_usage_errors(bad: str) -> None:
    with pytest.raises(UsageError):
        expand_host_pattern(bad)


def test_host_lists_split_outside_brackets() -> None:
    assert split_host_list("a,gpu[1-3,7],b") == ["a", "gpu[1-3,7]", "b"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("gpu01", Destination("gpu01")),
        ("alice@gpu01", Destination("gpu01", user="alice")),
        ("alice@10.0.0.5:2222", Destination("10.0.0.5", user="alice", port=2222)),
        ("[::1]:2200", Destination("::1", port=2200)),
        ("ssh://bob@h:22", Destination("h", user="bob", port=22)),
        ("alice@corp.example@gpu01", Destination("gpu01", user="alice@corp.example")),  # ssh(1) splits at the last @
    ],
)
def test_destinations_parse(text: str, expected: Destination) -> None:
    assert parse_destination(text) == expected


@pytest.mark.parametrize("bad", ["host:99999", "host:port", ""])
def test_bad_destinations_are_usage_errors(bad: str) -> None:
    with pytest.raises(UsageError):
        parse_destination(bad)


INI = """
# a fleet
bastion ansible_host=10.0.0.1

[gpus]
gpu[01:03] ansible_user=ml
gpu04:2222 python="~/ml-env/bin/python"

[gpus:vars]
python=python3
model=llama

[rack1]
gpu01
gpu02

[rack1:vars]
model=qwen

[fleet:children]
gpus

[fleet:vars]
region=eu
"""

YAML = """
all:
  vars:
    region: eu
  hosts:
    bastion:
      ansible_host: 10.0.0.1
  children:
    fleet:
      children:
        gpus:
          hosts:
            gpu[01:03]:
              ansible_user: ml
            gpu04:
              ansible_port: 2222
              python: ~/ml-env/bin/python
          vars:
            python: python3
            model: llama
    rack1:
      hosts:
        gpu01:
        gpu02:
      vars:
        model: qwen
"""


@pytest.fixture(params=["ini", "yaml"])
def inventory_file(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    path = tmp_path / ("hosts.ini" if request.param == "ini" else "hosts.yml")
    path.write_text(INI if request.param == "ini" else YAML)
    return path


def test_inventory_hosts_groups_and_connection_vars(inventory_file: Path) -> None:
    inventory = load_inventory(inventory_file)
    specs = {spec.name: spec for spec in inventory.specs()}
    assert list(specs) == ["bastion", "gpu01", "gpu02", "gpu03", "gpu04"]
    assert specs["bastion"].address == "10.0.0.1"
    assert specs["gpu02"].user == "ml" and specs["gpu02"].address == "gpu02"
    assert specs["gpu04"].port == 2222
    # Host vars beat group vars; a child group (rack1, deeper) would beat its parents.
    assert specs["gpu04"].vars["python"] == "~/ml-env/bin/python"
    assert specs["gpu03"].vars["python"] == "python3"
    assert specs["gpu01"].vars["region"] == "eu"
    assert "ansible_user" not in specs["gpu01"].vars
    assert inventory.group_hosts("fleet") == ["gpu01", "gpu02", "gpu03", "gpu04"]


def test_child_group_vars_override_parent_group_vars(tmp_path: Path) -> None:
    path = tmp_path / "inv.ini"
    path.write_text("[fleet:children]\ngpus\n[fleet:vars]\nmodel=parent\n[gpus]\ngpu01\n[gpus:vars]\nmodel=child\n")
    assert load_inventory(path).specs()[0].vars["model"] == "child"


@pytest.mark.parametrize(
    ("limit", "expected"),
    [
        ("gpus", ["gpu01", "gpu02", "gpu03", "gpu04"]),
        ("gpus:!rack1", ["gpu03", "gpu04"]),
        ("gpus,&rack1", ["gpu01", "gpu02"]),
        ("gpu0[3-4]", ["gpu03", "gpu04"]),
        ("gpu*:!gpu02", ["gpu01", "gpu03", "gpu04"]),
        ("bastion,gpu04", ["bastion", "gpu04"]),
        ("~gpu0[12]", ["gpu01", "gpu02"]),
        ("all:!fleet", ["bastion"]),
    ],
)
def test_limit_patterns(inventory_file: Path, limit: str, expected: list[str]) -> None:
    assert [s.name for s in resolve_hosts([], [], inventory_file, limit)] == expected


def test_named_hosts_take_details_from_the_inventory(inventory_file: Path) -> None:
    specs = resolve_hosts(["gpu04", "other@elsewhere:2200"], ["gpu[01-02]"], inventory_file, None)
    assert [s.name for s in specs] == ["gpu04", "other@elsewhere:2200", "gpu01", "gpu02"]
    assert specs[0].port == 2222 and specs[0].vars["python"] == "~/ml-env/bin/python"
    assert (specs[1].address, specs[1].user, specs[1].port) == ("elsewhere", "other", 2200)


def test_local_and_ssh_hosts_without_inventory() -> None:
    specs = resolve_hosts(["local", "gpu01"], ["gpu[02-03]"], None, "!gpu03")
    assert [(s.name, s.transport) for s in specs] == [("local", "local"), ("gpu01", "ssh"), ("gpu02", "ssh")]


def test_a_limit_that_matches_nothing_is_a_usage_error(inventory_file: Path) -> None:
    with pytest.raises(UsageError, match="no hosts"):
        resolve_hosts([], [], inventory_file, "nosuchgroup")


def test_bad_inventory_lines_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "inv.ini"
    path.write_text("[gpus]\ngpu01 notkeyvalue\n")
    with pytest.raises(UsageError, match=r"inv.ini:2"):
        load_inventory(path)


def test_ssh_args_from_ansible_inventories_become_ssh_config_options() -> None:
    from spec_debug.runner.ssh_config import parse_ssh_args

    args = "-C -o ProxyCommand=\"ssh -W %h:%p -q bastion\" -oStrictHostKeyChecking=no -o 'ServerAliveInterval 30' -p2222 -At -o Port=1"
    assert parse_ssh_args(args) == {
        "proxycommand": "ssh -W %h:%p -q bastion",
        "stricthostkeychecking": "no",
        "serveraliveinterval": "30",
        "port": "2222",  # the first value wins, as on ssh's command line
        "forwardagent": "yes",  # -A (in -At): the steps get the agent, as with ssh -A
        "requesttty": "yes",  # -t (in -At): asks for a terminal (the host's record says none is given)
    }
    assert parse_ssh_args("-C -J j1,j2 -p2222") == {"proxyjump": "j1,j2", "port": "2222"}
    # `ssh -o ProxyCommand=... -J j1,j2 host` stops: "Cannot specify -J with ProxyCommand" (ssh.c; was: -J kept beside it)
    with pytest.raises(UsageError, match="Cannot specify -J with ProxyCommand"):
        parse_ssh_args(args + " -J j1,j2")
    with pytest.raises(UsageError, match="unexpected 'bastion'"):
        parse_ssh_args("-A bastion")


def test_vars_files_encrypted_with_ansible_vault_are_left_out(tmp_path: Path) -> None:
    (tmp_path / "group_vars").mkdir()
    (tmp_path / "hosts.ini").write_text("[gpus]\ngpu01 ansible_python_interpreter=auto_silent\ngpu02 ansible_python_interpreter=/opt/venv/bin/python\n")
    (tmp_path / "group_vars" / "gpus.yaml").write_text("model: !unsafe '{{ not a template }}'\ntoken: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  6231\n")
    (tmp_path / "group_vars" / "all").write_text("$ANSIBLE_VAULT;1.1;AES256\n62313365\n")
    specs = {s.name: s for s in load_inventory(tmp_path / "hosts.ini").specs()}
    assert specs["gpu01"].vars == {"model": "{{ not a template }}"}  # `auto*` asks Ansible to discover: not a path
    assert specs["gpu02"].vars == {"model": "{{ not a template }}", "python": "/opt/venv/bin/python"}


def test_a_jinja_template_in_how_to_connect_is_a_usage_error_not_a_literal_host(tmp_path: Path) -> None:
    path = tmp_path / "hosts.yml"
    # Rendered over the host's vars since round 37, as Ansible renders it; an undefined one is refused.
    path.write_text("all:\n  vars:\n    ansible_ssh_common_args: '-J {{ bastion }}'\n  hosts:\n    gpu01:\n")
    with pytest.raises(UsageError, match=r"gpu01: ansible_ssh_common_args: .*'bastion' is undefined"):
        load_inventory(path).specs()
    # Only the hosts a run selects are read: --limit steers clear of the templated one.
    path.write_text(path.read_text() + "    gpu02:\n      ansible_ssh_common_args: '-J jump.corp'\n")
    assert [s.ssh_options for s in resolve_hosts([], [], path, "gpu02")] == [{"proxyjump": "jump.corp"}]


def test_an_ipv6_ansible_host_is_an_address_not_host_and_port(tmp_path: Path) -> None:
    import paramiko

    from spec_debug.runner.hosts import ssh_destination
    from spec_debug.runner.ssh_config import resolve_target

    path = tmp_path / "hosts.ini"
    path.write_text("[gpus]\ngpu01 ansible_host=fd00::17 ansible_port=2222\ngpu02 ansible_host=10.0.0.2\n")
    specs = {s.name: s for s in load_inventory(path).specs()}
    target = resolve_target(ssh_destination(specs["gpu01"].address), paramiko.SSHConfig(), port=specs["gpu01"].port)
    assert (target.hostname, target.port, target.known_hosts_name) == ("fd00::17", 2222, "[fd00::17]:2222")
    assert ssh_destination(specs["gpu02"].address) == "10.0.0.2"

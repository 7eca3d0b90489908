"""An inventory that writes one machine twice with two ports (`gpubox:2201` and `gpubox:2202`,
two containers' sshd on one box) names one host: Ansible reads `host:port` as the host `host`
(lib/ansible/parsing/utils/addresses.py, parse_address), and InventoryData.add_host
(lib/ansible/inventory/data.py) gives a host its port only when it first adds it (Host(name,
port)). spec-debug took the last line's port (2202) and said nothing, so the machine behind 2201
was silently not checked. Now the first port stands, as in Ansible, an `ansible_port=` on the
later line still sets it, and the run warns that the second line added no host, with the
inventory line that names both."""

from __future__ import annotations

from spec_debug.runner.inventory import load_inventory
from tests.conftest import run_cli

PLAYBOOK = "name: p\nsteps:\n  - id: a\n    run: echo hi\n"


def test_a_second_port_for_the_same_ini_host_keeps_the_first_and_is_warned(tmp_path):
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[gpus]\ngpubox:2201 ansible_connection=local\ngpubox:2202 ansible_connection=local\n")
    loaded = load_inventory(str(inventory))
    assert loaded.hosts == {"gpubox": {"ansible_port": "2201", "ansible_connection": "local"}}
    assert loaded.warnings == [
        f"{inventory}:3: gpubox:2202: gpubox is already a host of this inventory (port 2201), and Ansible reads "
        "`gpubox:2202` as that same host with its first port: no second host was added, so port 2202 is not checked; "
        "to check both, name each: gpubox_2202 ansible_host=gpubox ansible_port=2202"]


def test_a_host_first_written_without_a_port_keeps_none_and_is_warned(tmp_path):
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[a]\ngpubox\n[b]\ngpubox:2202\n")
    loaded = load_inventory(str(inventory))
    assert loaded.hosts == {"gpubox": {}}
    assert [w.split(", and ")[0] for w in loaded.warnings] == [
        f"{inventory}:4: gpubox:2202: gpubox is already a host of this inventory (no port of its own)"]


def test_the_same_port_again_or_an_ansible_port_var_is_no_warning(tmp_path):
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[a]\ngpubox:2201\n[b]\ngpubox:2201\nother:2201\nother:2202 ansible_port=2203\n")
    loaded = load_inventory(str(inventory))
    assert loaded.hosts == {"gpubox": {"ansible_port": "2201"}, "other": {"ansible_port": "2203"}}
    assert loaded.warnings == []


def test_a_yaml_inventory_reads_the_same_way(tmp_path):
    inventory = tmp_path / "hosts.yml"
    inventory.write_text("all:\n  children:\n    a:\n      hosts:\n        gpubox:2201:\n    b:\n      hosts:\n        gpubox:2202:\n")
    loaded = load_inventory(str(inventory))
    assert loaded.hosts == {"gpubox": {"ansible_port": "2201"}}
    assert [w.split(": gpubox is already")[0] for w in loaded.warnings] == [f"{inventory}: all.b.hosts.gpubox:2202"]


def test_the_run_says_it_before_it_starts_and_runs_the_host_once(tmp_path):
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[gpus]\ngpubox:2201 ansible_connection=local\ngpubox:2202 ansible_connection=local\n")
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    result = run_cli("run", str(tmp_path / "p.yaml"), "-i", str(inventory), "--out", str(tmp_path / "runs"))
    assert result.code == 0, result.stderr
    said = " ".join(result.stderr.split())
    assert f"warning: {inventory}:3: gpubox:2202: gpubox is already a host of this inventory (port 2201)" in said
    assert "on 1 host" in said

"""Public GPU-cluster inventories (NVIDIA DeepOps, Kubespray) read as Ansible reads them, and
`--limit` with a group's subscript (`slurm-node[0]`), which Ansible documents in "Patterns:
targeting hosts and groups" (ansible/ansible: lib/ansible/inventory/manager.py _apply_subscript)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.hosts import resolve_hosts
from spec_debug.runner.inventory import load_inventory

# NVIDIA/deepops config.example/inventory, its example hosts uncommented as a user does (the
# children lines keep their trailing " \t " as in the file)
DEEPOPS = """\
[all]
mgmt01     ansible_host=10.0.0.1
mgmt02     ansible_host=10.0.0.2
mgmt03     ansible_host=10.0.0.3
login01    ansible_host=10.0.1.1
gpu01      ansible_host=10.0.2.1
gpu02      ansible_host=10.0.2.2

[kube-master]
mgmt01
mgmt02
mgmt03

[etcd]
mgmt01
mgmt02
mgmt03

[kube-node]
gpu01
gpu02

[k8s-cluster:children]
kube-master \t \nkube-node \t \n
[slurm-master]
login01

[slurm-node]
gpu01
gpu02

[slurm-cluster:children]
slurm-master
slurm-node

[nfs-server]
login01

[nfs-clients]
gpu01
gpu02

[maas]
mgmt01

[all:vars]
ansible_user=ubuntu
# Configure SSH bastion/jumpbox for the cluster
ansible_ssh_common_args='-o ProxyCommand="ssh -W %h:%p -q ubuntu@10.0.0.1"'
"""
# NVIDIA/deepops config.example/host_vars/gpu01, its example var uncommented
DEEPOPS_GPU01 = """---
# Example of a host-specific variable file
# These variables would only be used for a host named "gpu01"

# Don't install the CUDA toolkit on this host
slurm_cluster_install_cuda: false
"""


@pytest.fixture
def deepops(tmp_path: Path) -> Path:
    (tmp_path / "host_vars").mkdir()
    (tmp_path / "host_vars" / "gpu01").write_text(DEEPOPS_GPU01)
    (tmp_path / "group_vars").mkdir()
    (tmp_path / "group_vars" / "slurm-cluster.yml").write_text("slurm_cluster_install_cuda: true\nslurm_version: '23.02'\n")
    path = tmp_path / "inventory"
    path.write_text(DEEPOPS)
    return path


def _names(inventory: Path, limit: str) -> list[str]:
    return [spec.name for spec in resolve_hosts([], [], inventory, limit)]


def test_deepops_inventory_reads_as_ansible_reads_it(deepops: Path) -> None:
    inventory = load_inventory(deepops)
    specs = {spec.name: spec for spec in inventory.specs()}
    assert list(specs) == ["mgmt01", "mgmt02", "mgmt03", "login01", "gpu01", "gpu02"]
    assert specs["gpu02"].address == "10.0.2.2" and specs["gpu02"].user == "ubuntu"
    assert specs["login01"].ssh_options == {"proxycommand": "ssh -W %h:%p -q ubuntu@10.0.0.1"}
    # host_vars/gpu01 beats group_vars/slurm-cluster.yml
    assert specs["gpu01"].vars["slurm_cluster_install_cuda"] is False
    assert specs["gpu02"].vars == {"slurm_cluster_install_cuda": True, "slurm_version": "23.02"}
    assert inventory.group_hosts("k8s-cluster") == ["mgmt01", "mgmt02", "mgmt03", "gpu01", "gpu02"]


@pytest.mark.parametrize(("limit", "expected"), [
    ("slurm-node", ["gpu01", "gpu02"]),
    ("k8s-cluster:!etcd", ["gpu01", "gpu02"]),
    ("slurm-cluster:&nfs-clients", ["gpu01", "gpu02"]),
    ("all:!k8s-cluster", ["login01"]),
    # a group's subscript: Ansible counts in Group.get_hosts order, from 0, inclusive ranges
    ("kube-master[0]", ["mgmt01"]),
    ("kube-master[-1]", ["mgmt03"]),
    ("kube-master[1:]", ["mgmt02", "mgmt03"]),
    ("k8s-cluster[2:3]", ["mgmt03", "gpu01"]),
    ("slurm-cluster[0]", ["login01"]),
    ("etcd:!etcd[0]", ["mgmt02", "mgmt03"]),
    # no group named gpu0: a host range, as in --hosts
    ("gpu0[1-2]", ["gpu01", "gpu02"]),
])
def test_deepops_limits(deepops: Path, limit: str, expected: list[str]) -> None:
    assert _names(deepops, limit) == expected


def test_a_subscript_past_the_group_says_so(deepops: Path) -> None:
    with pytest.raises(UsageError, match=r"group slurm-node has 2 host\(s\), no \[2\]"):
        _names(deepops, "slurm-node[2]")


def test_subscripts_count_in_the_group_s_own_order(tmp_path: Path) -> None:
    # Group.get_hosts (lib/ansible/inventory/group.py): the group's own hosts, then its
    # children's, whatever order the file first named them in
    path = tmp_path / "hosts.yml"
    path.write_text("all:\n  hosts:\n    gpu09:\n  children:\n    h200:\n      hosts:\n        gpu01:\n"
                    "      children:\n        spares:\n          hosts:\n            gpu09:\n")
    assert load_inventory(path).group_hosts("h200") == ["gpu01", "gpu09"]
    assert _names(path, "h200[-1]") == ["gpu09"]


# kubernetes-sigs/kubespray inventory/sample/inventory.ini, its example hosts uncommented: a comment
# after a host's vars is Ansible's too (its INI plugin splits host lines with shlex, comments=True)
KUBESPRAY = """\
[all]
node1 ansible_host=95.54.0.12  # ip=10.3.0.1 etcd_member_name=etcd1
node2 ansible_host=95.54.0.13  # ip=10.3.0.2 etcd_member_name=etcd2
node3 ansible_host=95.54.0.14  # ip=10.3.0.3 etcd_member_name=etcd3
bastion ansible_host=x.x.x.x ansible_user=some_user

[kube-controlplane]
node1
node2

[etcd]
node1
node2
node3

[kube-node]
node2
node3

[calico-rr]

[k8s-cluster:children]
kube-controlplane
kube-node
calico-rr
"""


def test_kubespray_sample(tmp_path: Path) -> None:
    path = tmp_path / "inventory.ini"
    path.write_text(KUBESPRAY)
    inventory = load_inventory(path)
    assert inventory.hosts["node1"] == {"ansible_host": "95.54.0.12"}
    assert inventory.group_hosts("ungrouped") == ["bastion"]
    assert inventory.spec("bastion").user == "some_user"
    assert _names(path, "k8s-cluster:!kube-node[0]") == ["node1", "node3"]
    assert _names(path, "calico-rr,etcd[-1]") == ["node3"]


def test_a_regex_limit_matches_from_the_start_of_a_name_as_ansible_s_does(deepops: Path) -> None:
    # lib/ansible/inventory/manager.py _match_list: pattern.match(item), anchored at the start only
    assert _names(deepops, "~gpu0[12]") == ["gpu01", "gpu02"]
    assert _names(deepops, "~(mgmt|login)0[13]") == ["mgmt01", "mgmt03", "login01"]
    assert _names(deepops, "~slurm-.*:!~.*node") == ["login01"]  # via group names too
    # "01" is inside mgmt01, login01, gpu01 but starts none of them, nor any group name
    with pytest.raises(UsageError, match="no hosts"):
        _names(deepops, "~01")


def test_group_vars_file_beats_the_folder_of_the_same_name(deepops: Path) -> None:
    # NVIDIA/deepops moved config.example/group_vars/all.yml into group_vars/all/*.yml; a config
    # copied across releases holds both. Ansible reads the folder first, then all.yml, the later
    # winning (lib/ansible/parsing/dataloader.py find_vars_files)
    group_vars = deepops.parent / "group_vars"
    (group_vars / "all").mkdir()
    (group_vars / "all" / "slurm.yml").write_text("slurm_version: '21.08'\nslurm_login_on_compute: false\n")
    (group_vars / "all.yml").write_text("slurm_login_on_compute: true\n")
    specs = {spec.name: spec for spec in load_inventory(deepops).specs()}
    assert specs["mgmt01"].vars == {"slurm_version": "21.08", "slurm_login_on_compute": True}
    assert specs["gpu02"].vars["slurm_version"] == "23.02"  # group_vars/slurm-cluster.yml, a child of all


def test_a_limit_file_names_the_hosts_to_run_on_again(deepops: Path, tmp_path: Path) -> None:
    # `ansible-playbook site.yml --limit @site.retry` (Ansible docs, "Patterns and ad-hoc
    # commands"; lib/ansible/inventory/manager.py InventoryManager.subset reads one pattern a line)
    retry = tmp_path / "site.retry"
    retry.write_text("gpu02\nlogin01\n\n")
    assert _names(deepops, f"@{retry}") == ["login01", "gpu02"]
    assert _names(deepops, f"@{retry},!slurm-master") == ["gpu02"]
    with pytest.raises(UsageError, match="cannot read the limit file"):
        _names(deepops, f"@{tmp_path / 'missing.retry'}")

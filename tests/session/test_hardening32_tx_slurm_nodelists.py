"""srun's ``-w``/``--nodelist`` takes a Slurm host list, not only a host: ``gpu[01-02]`` or
``gpu01,gpu02`` runs the command on several nodes, and a value with a "/" is a file of them
(slurm.schedmd.com/srun.html, --nodelist). The list was read as one host name, ``gpu[01-02]``,
and a distilled playbook told the user to run it with ``--host gpu[01-02]``."""

from __future__ import annotations

import pytest

from spec_debug.session.shell import parse_target


@pytest.mark.parametrize("command", [
    "srun -N2 -w gpu[01-02] nvidia-smi",
    "srun --nodelist=gpu01,gpu02 nvidia-smi",
    "srun --nodelist=./nodes.txt nvidia-smi",
])
def test_several_nodes_are_no_one_host(command: str) -> None:
    assert parse_target(command).host is None


def test_a_range_of_one_node_is_that_node() -> None:
    target = parse_target("srun -w gpu-node-[07] nvidia-smi")
    assert (target.host, target.inner) == ("gpu-node-07", "nvidia-smi")


def test_an_ssh_inside_still_names_its_host() -> None:
    assert parse_target("srun -w gpu[01-02] bash -c 'ssh gpu01 nvidia-smi'").host == "gpu01"

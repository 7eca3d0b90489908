"""A command run by ``salloc`` on a named node.

salloc(1) gets an allocation, then runs its command on the host it was typed on; an ``srun``
in that command starts its job step on the allocation's nodes (slurm.schedmd.com/salloc.html).
So ``salloc -w gpu09 -N1 srun nvidia-smi`` ran nvidia-smi on gpu09, as ``srun -w gpu09
nvidia-smi`` does; the analyzer read no host and no inner command for it (the whole salloc
line was the command), where the srun alone named gpu09. A command salloc runs itself (no
srun) runs where salloc ran.
"""

import pytest

from spec_debug.session.shell import categorize, parse_target


@pytest.mark.parametrize("command", [
    "salloc -w gpu09 -N1 srun nvidia-smi",
    "salloc --nodelist=gpu09 --gres=gpu:1 -t 30 srun nvidia-smi",
    "salloc -N1 -p gpu srun -w gpu09 nvidia-smi",           # the step names the node itself
    "salloc -N 1 --nodelist gpu[09] srun --pty nvidia-smi",  # a one-node range
])
def test_an_srun_inside_salloc_runs_on_the_allocated_node(command):
    target = parse_target(command)
    assert (target.host, target.inner) == ("gpu09", "nvidia-smi")
    assert categorize(command) == "gpu_status"


def test_a_launch_through_salloc_is_the_servers_command():
    launch = "python3 -m sglang.launch_server --model-path /models/llama --port 30000"
    target = parse_target(f"salloc -w gpu09 --gres=gpu:8 srun {launch}")
    assert (target.host, target.inner) == ("gpu09", launch)


def test_without_a_named_node_no_host_is_claimed():
    assert parse_target("salloc -N1 -p gpu srun nvidia-smi").host is None
    assert parse_target("salloc -N2 -w gpu[09-10] srun nvidia-smi").host is None


def test_a_command_salloc_runs_itself_runs_where_salloc_ran():
    assert parse_target("salloc -w gpu09 -N1 nvidia-smi").host is None
    # an ssh in it still says where it went
    assert parse_target("salloc -w gpu09 bash -c 'ssh gpu01 nvidia-smi'").host == "gpu01"

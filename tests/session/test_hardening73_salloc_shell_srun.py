"""``srun CMD`` typed in the shell an interactive ``salloc`` opened runs on the allocation's node,
which salloc names ("salloc: Nodes gpu-node-12 are ready for job"), while the prompt still
shows the login node (slurm.schedmd.com/salloc.html: with no command salloc runs the user's
shell where it was typed; srun starts its steps on the allocation). Before: ``srun nvidia-smi
-L`` and the failing ``srun python3 bench.py`` were placed on login01, so the OOM was the login
node's. Now they are gpu-node-12's; after ``exit`` ("salloc: Relinquishing job allocation") the
commands are login01's again, and an allocation of several nodes names no one host. The salloc
lines are slurm's own (src/salloc/salloc.c)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """\
me@login01:~$ salloc -N1 --gres=gpu:1 -t 60
salloc: Granted job allocation 123
salloc: Waiting for resource configuration
salloc: Nodes gpu-node-12 are ready for job
me@login01:~$ srun nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5e1c2b1a)
me@login01:~$ srun --nodelist=gpu-node-13 hostname
gpu-node-13
me@login01:~$ srun python3 bench.py
Traceback (most recent call last):
  File "/home/me/bench.py", line 3, in <module>
    x = torch.empty(10**12, device="cuda")
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3725.29 GiB.
srun: error: gpu-node-12: task 0: Exited with exit code 1
me@login01:~$ exit
exit
salloc: Relinquishing job allocation 123
me@login01:~$ srun hostname
login-step
"""


def _hosts(tmp_path: Path, text: str) -> list[tuple]:
    path = tmp_path / "session.log"
    path.write_text(text)
    doc = analyze_path(path).to_json()
    return [(c["command"], c["host"], c["exit_code"]) for c in doc["commands"]]


def test_srun_in_the_salloc_shell_runs_on_the_allocated_node(tmp_path: Path) -> None:
    assert _hosts(tmp_path, LOG) == [
        ("salloc -N1 --gres=gpu:1 -t 60", "login01", None),
        ("srun nvidia-smi -L", "gpu-node-12", None),
        ("srun --nodelist=gpu-node-13 hostname", "gpu-node-13", None),
        ("srun python3 bench.py", "gpu-node-12", 1),
        ("exit", "login01", None),
        ("srun hostname", "login01", None),
    ]


def test_an_allocation_of_several_nodes_names_no_one_host(tmp_path: Path) -> None:
    text = LOG.replace("Nodes gpu-node-12 are", "Nodes gpu-node-[12-13] are").replace("-N1", "-N2")
    got = _hosts(tmp_path, text)
    assert [h for _, h, _ in got] == ["login01", "login01", "gpu-node-13", "login01", "login01", "login01"]


def test_a_shell_on_the_node_itself_then_the_login_node_again(tmp_path: Path) -> None:
    # sites with LaunchParameters=use_interactive_step open salloc's shell on the node itself
    text = """\
me@login01:~$ salloc -N1 --gres=gpu:1
salloc: Granted job allocation 124
salloc: Nodes gpu-node-12 are ready for job
[me@gpu-node-12 ~]$ srun nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5e1c2b1a)
[me@gpu-node-12 ~]$ exit
exit
salloc: Relinquishing job allocation 124
me@login01:~$ srun hostname
login-step
"""
    assert [h for _, h, _ in _hosts(tmp_path, text)] == ["login01", "gpu-node-12", "gpu-node-12", "login01"]

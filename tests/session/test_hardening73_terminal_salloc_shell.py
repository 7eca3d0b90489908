"""``salloc -N1 --gres=gpu:1`` with no command runs the user's shell once it holds the allocation,
and ``exit`` there gives the allocation back (slurm.schedmd.com/salloc.html; "salloc:
Relinquishing job allocation"). Before, no shell was read as opened: that ``exit`` left the ssh
login to the cluster, so ``hostname`` and every later command typed on login01 lost their host.
``salloc ... srun CMD`` (a command given) opens no shell, as before."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """\
$ ssh login01
Last login: Mon Dec  7 09:01:02 2026 from 10.0.0.5
$ salloc -N1 --gres=gpu:1 -p gpu --time 01:00:00
salloc: Granted job allocation 4242
salloc: Nodes gpu-node-12 are ready for job
$ srun nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3
$ exit
exit
salloc: Relinquishing job allocation 4242
$ hostname
login01
$ salloc -N1 -p gpu srun nvidia-smi -L
salloc: Granted job allocation 4243
GPU 0: NVIDIA H100 80GB HBM3
salloc: Relinquishing job allocation 4243
$ sinfo -p gpu
PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST
$ exit
logout
Connection to login01 closed.
$ ls
bench.py
"""


def test_an_interactive_allocation_is_a_shell_its_exit_leaves(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text(LOG)
    got = [(c["host"], c["command"]) for c in analyze_path(path).to_json()["commands"]]
    assert got == [
        ("login01", "ssh login01"), ("login01", "salloc -N1 --gres=gpu:1 -p gpu --time 01:00:00"),
        # (the step runs on the allocation's node: test_hardening73_salloc_shell_srun)
        ("gpu-node-12", "srun nvidia-smi -L"), ("login01", "exit"), ("login01", "hostname"),
        ("login01", "salloc -N1 -p gpu srun nvidia-smi -L"), ("login01", "sinfo -p gpu"), ("login01", "exit"),
        (None, "ls"),
    ]

"""``ssh -t gpu07 docker exec -it sglang bash`` (and ``ssh -t gpu07 'kubectl exec -it sglang-0 --
bash'``) opens a shell in a container on gpu07 in one command, and the next lines are typed there.
Before, no shell was read as opened: the container's id its prompt shows (``root@3f2a1b9c8d7e``)
was taken for a host, so ``nvidia-smi -L`` ran on a machine "3f2a1b9c8d7e", in no container, and a
playbook distilled from it would ssh to that name. Now they are gpu07's container's commands, as
when ``ssh gpu07`` and ``docker exec -it sglang bash`` are typed one after the other."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """\
me@laptop:~$ ssh -t gpu07 docker exec -it sglang bash
root@3f2a1b9c8d7e:/sgl-workspace# nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5e0c)
root@3f2a1b9c8d7e:/sgl-workspace# exit
exit
Connection to gpu07 closed.
me@laptop:~$ ssh -t root@gpu08 'kubectl exec -it sglang-0 -n infer -- bash'
root@sglang-0:/sgl-workspace# python3 -c 'import sglang; print(sglang.__version__)'
0.4.6.post1
root@sglang-0:/sgl-workspace# exit
exit
command terminated with exit code 0
Connection to gpu08 closed.
me@laptop:~$ hostname
laptop
"""


def _commands(tmp_path: Path, text: str) -> list[tuple]:
    path = tmp_path / "session.log"
    path.write_text(text)
    return [(c["host"], c["container"], c["command"]) for c in analyze_path(path).to_json()["commands"]]


def test_the_shell_ssh_opens_in_a_container(tmp_path: Path) -> None:
    assert _commands(tmp_path, LOG) == [
        ("gpu07", "docker:sglang", "ssh -t gpu07 docker exec -it sglang bash"),
        ("gpu07", "docker:sglang", "nvidia-smi -L"),
        ("gpu07", "docker:sglang", "exit"),
        ("gpu08", "pod:sglang-0", "ssh -t root@gpu08 'kubectl exec -it sglang-0 -n infer -- bash'"),
        ("gpu08", "pod:sglang-0", "python3 -c 'import sglang; print(sglang.__version__)'"),
        ("gpu08", "pod:sglang-0", "exit"),
        ("laptop", None, "hostname"),
    ]


def test_left_by_the_connection_alone(tmp_path: Path) -> None:
    # Ctrl-D in the container's sh with no prompt host: ssh's "Connection ... closed." leaves it
    log = ("$ ssh -t gpu07 docker exec -it sglang sh\n# ls /models\nLlama-3.1-8B-Instruct\n"
           "# exit\nConnection to gpu07 closed.\n$ ls\nbench.py\n")
    assert _commands(tmp_path, log) == [
        ("gpu07", "docker:sglang", "ssh -t gpu07 docker exec -it sglang sh"),
        ("gpu07", "docker:sglang", "ls /models"), ("gpu07", "docker:sglang", "exit"), (None, None, "ls")]


def test_a_command_run_in_the_container_opens_no_shell(tmp_path: Path) -> None:
    log = ("me@laptop:~$ ssh gpu07 docker exec sglang nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n"
           "me@laptop:~$ hostname\nlaptop\n")
    assert _commands(tmp_path, log) == [
        ("gpu07", "docker:sglang", "ssh gpu07 docker exec sglang nvidia-smi -L"), ("laptop", None, "hostname")]

"""``docker exec sglang nvidia-smi > gpus.txt 2>&1`` (and ``kubectl exec``, ``srun``): the
redirections are the local shell's, done before docker runs (bash(1), REDIRECTION), as an ssh's
are; the container runs ``nvidia-smi``. Before, the remote command was read with the ``>`` quoted
into an argument, "nvidia-smi '>' gpus.txt 2 '>' '&' 1", which the timeline showed and a distilled
playbook would run in the container. An input redirection stays as typed (``bash < check.sh``:
the script is a local file), as for ssh."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.shell import parse_target

LOG = """\
root@gpu07:~# docker exec sglang nvidia-smi -L > gpus.txt 2>&1
root@gpu07:~# kubectl exec sglang-0 -- cat /proc/meminfo >> mem.log
root@gpu07:~# docker exec -i sglang bash < check.sh
ok
root@gpu07:~# docker exec sglang python3 -c 'print(1 > 0)'
True
"""


def test_the_container_runs_the_command_without_the_local_redirections(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text(LOG)
    got = [(c["container"], c["inner"]) for c in analyze_path(path).to_json()["commands"]]
    assert got == [
        ("docker:sglang", "nvidia-smi -L"),
        ("pod:sglang-0", "cat /proc/meminfo"),
        ("docker:sglang", "bash < check.sh"),
        ("docker:sglang", "python3 -c 'print(1 > 0)'"),
    ]


def test_as_ssh_reads_them() -> None:
    got = [parse_target(c).inner for c in (
        "docker exec sglang cat /tmp/bench.json 2>/dev/null", "docker exec sglang nvidia-smi &> gpus.txt",
        "srun -w gpu07 nvidia-smi -L > gpus.txt", "ssh gpu07 nvidia-smi -L > gpus.txt")]
    assert got == ["cat /tmp/bench.json", "nvidia-smi", "nvidia-smi -L", "nvidia-smi -L"]

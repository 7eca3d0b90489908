"""``docker compose exec sglang bash`` opens a shell in the service's container: compose's exec
gives it a terminal by default, with no ``-it`` (docker/compose cmd/compose/exec.go, ``-T
--no-TTY``: "By default 'docker compose exec' allocates a TTY"). Before, only ``docker exec -it``
was read as opening a shell: the container's prompt (``root@3f2a1b9c8d7e``) was taken for a host
named 3f2a1b9c8d7e, and at ``docker-compose exec sglang sh``'s bare ``# `` prompt the commands were
lost as Markdown headings. Now the lines typed there are the container's, on the host whose
daemon runs it, until ``exit``. With ``-T`` (a script piped in) no shell is opened."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """\
me@gpu07:~/serve$ docker compose exec sglang bash
root@3f2a1b9c8d7e:/sgl-workspace# nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5e0c)
root@3f2a1b9c8d7e:/sgl-workspace# exit
exit
me@gpu07:~/serve$ docker-compose exec sglang sh
# ls /models
Llama-3.1-8B-Instruct
# exit
me@gpu07:~/serve$ docker -H ssh://root@gpu08 compose -f serve.yml exec sglang bash
root@77aa1b9c8d7e:/sgl-workspace# nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-77aa)
root@77aa1b9c8d7e:/sgl-workspace# exit
exit
me@gpu07:~/serve$ docker compose exec -T sglang nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5e0c)
me@gpu07:~/serve$ hostname
gpu07
"""


def test_compose_execs_shell(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text(LOG)
    got = [(c["host"], c["container"], c["command"]) for c in analyze_path(path).to_json()["commands"]]
    assert got == [
        ("gpu07", "docker:sglang", "docker compose exec sglang bash"),
        ("gpu07", "docker:sglang", "nvidia-smi -L"),
        ("gpu07", "docker:sglang", "exit"),
        ("gpu07", "docker:sglang", "docker-compose exec sglang sh"),
        ("gpu07", "docker:sglang", "ls /models"),
        ("gpu07", "docker:sglang", "exit"),
        ("gpu08", "docker:sglang", "docker -H ssh://root@gpu08 compose -f serve.yml exec sglang bash"),
        ("gpu08", "docker:sglang", "nvidia-smi -L"),
        ("gpu08", "docker:sglang", "exit"),
        ("gpu07", "docker:sglang", "docker compose exec -T sglang nvidia-smi -L"),
        ("gpu07", None, "hostname"),
    ]

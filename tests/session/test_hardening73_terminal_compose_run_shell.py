"""``docker compose run --rm sglang bash`` starts a new container of the service with a terminal
(compose's run allocates a TTY by default, as its exec does: docker/compose cmd/compose/run.go) and
the next lines are typed in it. Before, no shell was read as opened: the new container's id in its
prompt (``root@9e8d7c6b5a4f``) was taken for a host. Now they are that container's commands,
``docker:`` + the id the prompt shows (as for ``docker run -it IMAGE bash``), on the host whose
daemon runs it (``docker -H ssh://root@gpu08 compose run ...``: gpu08)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """\
me@gpu07:~/serve$ docker compose -f serve.yml run --rm sglang bash
root@9e8d7c6b5a4f:/sgl-workspace# nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5e0c)
root@9e8d7c6b5a4f:/sgl-workspace# exit
exit
me@gpu07:~/serve$ docker -H ssh://root@gpu08 compose run --rm sglang bash
root@1a2b3c4d5e6f:/sgl-workspace# nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-77aa)
root@1a2b3c4d5e6f:/sgl-workspace# exit
exit
me@gpu07:~/serve$ hostname
gpu07
"""


def test_a_shell_in_a_new_service_container(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text(LOG)
    got = [(c["host"], c["container"], c["command"]) for c in analyze_path(path).to_json()["commands"]]
    assert got == [
        ("gpu07", None, "docker compose -f serve.yml run --rm sglang bash"),
        ("gpu07", "docker:9e8d7c6b5a4f", "nvidia-smi -L"),
        ("gpu07", "docker:9e8d7c6b5a4f", "exit"),
        ("gpu08", None, "docker -H ssh://root@gpu08 compose run --rm sglang bash"),
        ("gpu08", "docker:1a2b3c4d5e6f", "nvidia-smi -L"),
        ("gpu08", "docker:1a2b3c4d5e6f", "exit"),
        ("gpu07", None, "hostname"),
    ]

"""A ``docker run -it IMAGE bash`` sent to another daemon (``docker -H ssh://root@gpu08 run ...``,
``docker --context gpu07 run ...`` with a context the log created, ``DOCKER_HOST=ssh://root@gpu09
docker run ...``) opened a container shell on the machine the log was taken on: the commands
typed at the new container's prompt had host laptop. The container runs where the daemon does,
which the run's CLI resolves as for any subcommand (docker/cli cli/command/cli.go,
resolveContextName), as it does for ``docker exec -it`` (test_hardening71_container_shell_daemon,
test_hardening72_container_shell_context). No docker daemon on the machine this was written on:
the log follows docker's prompt shape."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """me@laptop:~$ docker context create gpu07 --docker host=ssh://root@gpu07
me@laptop:~$ docker -H ssh://root@gpu08 run -it --name sgl lmsysorg/sglang:latest bash
root@5e6f7a8b9c0d:/sgl-workspace# ls
root@5e6f7a8b9c0d:/sgl-workspace# exit
exit
me@laptop:~$ docker --context gpu07 run -it --gpus all lmsysorg/sglang:latest bash
root@3f9c2a7b1d04:/sgl-workspace# nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3
root@3f9c2a7b1d04:/sgl-workspace# exit
exit
me@laptop:~$ DOCKER_HOST=ssh://root@gpu09 docker run --rm -it lmsysorg/sglang:latest /bin/bash
root@1a2b3c4d5e6f:/sgl-workspace# ls /models
root@1a2b3c4d5e6f:/sgl-workspace# exit
exit
me@laptop:~$ docker run -it --name local lmsysorg/sglang:latest bash
root@7a8b9c0d1e2f:/sgl-workspace# ls
root@7a8b9c0d1e2f:/sgl-workspace# exit
exit
me@laptop:~$ hostname
laptop
"""


def test_a_run_containers_shell_is_on_the_daemons_host(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text(LOG)
    doc = analyze_path(path).to_json()
    typed = [(c["command"], c["host"], c["container"]) for c in doc["commands"] if not c["command"].startswith("docker")
             and not c["command"].startswith("DOCKER_HOST")]
    assert typed == [
        ("ls", "gpu08", "docker:sgl"), ("exit", "gpu08", "docker:sgl"),
        ("nvidia-smi -L", "gpu07", "docker:3f9c2a7b1d04"), ("exit", "gpu07", "docker:3f9c2a7b1d04"),
        ("ls /models", "gpu09", "docker:1a2b3c4d5e6f"), ("exit", "gpu09", "docker:1a2b3c4d5e6f"),
        ("ls", "laptop", "docker:local"), ("exit", "laptop", "docker:local"),
        ("hostname", "laptop", None)]

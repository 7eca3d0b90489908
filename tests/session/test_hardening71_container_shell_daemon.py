"""A container shell opened through a daemon named on the line (``docker -H ssh://root@gpu07 exec
-it sglang bash``, ``DOCKER_HOST=ssh://root@gpu07 docker exec -it sglang bash``) was no shell the
log followed: the CLI's own options before ``exec`` (docker/cli cli/flags/options.go: ``-H``,
``--context``, ...) and the variable before the program hid the ``exec``, so the commands typed
at the container's prompt had its id as their host. They ran in that container on gpu07, the
host the exec itself is recorded on (shell.parse_target reads ``-H`` and ``DOCKER_HOST``), until
``exit``. No docker daemon on the machine this was written on: the log follows docker's prompt
shape."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """me@laptop:~$ docker -H ssh://root@gpu07 exec -it sglang bash
root@a1b2c3d4e5f6:/sgl-workspace# nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3
root@a1b2c3d4e5f6:/sgl-workspace# exit
exit
me@laptop:~$ DOCKER_HOST=ssh://root@gpu07 docker exec -it sglang bash
root@a1b2c3d4e5f6:/sgl-workspace# ls /models
root@a1b2c3d4e5f6:/sgl-workspace# exit
exit
me@laptop:~$ FOO=1 docker ps
me@laptop:~$ hostname
"""


def test_a_container_shell_through_a_named_daemon(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text(LOG)
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"], c["container"]) for c in doc["commands"]] == [
        ("docker -H ssh://root@gpu07 exec -it sglang bash", "gpu07", "docker:sglang"),
        ("nvidia-smi -L", "gpu07", "docker:sglang"), ("exit", "gpu07", "docker:sglang"),
        ("DOCKER_HOST=ssh://root@gpu07 docker exec -it sglang bash", "gpu07", "docker:sglang"),
        ("ls /models", "gpu07", "docker:sglang"), ("exit", "gpu07", "docker:sglang"),
        ("FOO=1 docker ps", "laptop", None), ("hostname", "laptop", None)]

"""A container shell opened through a docker context the log created (``docker --context gpu07 exec
-it sglang bash``, or after ``docker context use gpu07``, ``DOCKER_CONTEXT=gpu07``), or after
``export DOCKER_HOST=ssh://root@gpu09``: the exec itself was placed on the context's host, but the
commands typed at the container's prompt stayed on the machine the log was taken on (laptop).
They ran in that container on the daemon's host (docker/cli cli/command/cli.go
``resolveContextName``: ``--context``, then ``-H``/``DOCKER_HOST``, then ``DOCKER_CONTEXT``, then
the current context), until ``exit``. No docker daemon on the machine this was written on: the
log follows docker's prompt shape and ``docker context create``'s documented output."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """me@laptop:~$ docker context create gpu07 --docker host=ssh://root@gpu07
gpu07
Successfully created context "gpu07"
me@laptop:~$ docker --context gpu07 exec -it sglang bash
root@a1b2c3d4e5f6:/sgl-workspace# nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3
root@a1b2c3d4e5f6:/sgl-workspace# exit
exit
me@laptop:~$ DOCKER_CONTEXT=gpu07 docker exec -it sglang bash
root@a1b2c3d4e5f6:/sgl-workspace# ls /models
root@a1b2c3d4e5f6:/sgl-workspace# exit
exit
me@laptop:~$ docker --context other exec -it sglang bash
root@a1b2c3d4e5f6:/sgl-workspace# ls /data
root@a1b2c3d4e5f6:/sgl-workspace# exit
exit
me@laptop:~$ docker context use gpu07
gpu07
Current context is now "gpu07"
me@laptop:~$ docker exec -it sglang bash
root@a1b2c3d4e5f6:/sgl-workspace# ls /ckpt
root@a1b2c3d4e5f6:/sgl-workspace# exit
exit
me@laptop:~$ export DOCKER_HOST=ssh://root@gpu09
me@laptop:~$ docker exec -it sglang bash
root@a1b2c3d4e5f6:/sgl-workspace# ls /cache
root@a1b2c3d4e5f6:/sgl-workspace# exit
exit
me@laptop:~$ hostname
laptop
"""


def test_a_container_shell_through_a_context_runs_on_its_host(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text(LOG)
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"], c["container"]) for c in doc["commands"]] == [
        ("docker context create gpu07 --docker host=ssh://root@gpu07", "laptop", None),
        ("docker --context gpu07 exec -it sglang bash", "gpu07", "docker:sglang"),
        ("nvidia-smi -L", "gpu07", "docker:sglang"), ("exit", "gpu07", "docker:sglang"),
        ("DOCKER_CONTEXT=gpu07 docker exec -it sglang bash", "gpu07", "docker:sglang"),
        ("ls /models", "gpu07", "docker:sglang"), ("exit", "gpu07", "docker:sglang"),
        # a context the log did not create names no host: the prompt's, as for the exec itself
        ("docker --context other exec -it sglang bash", "laptop", "docker:sglang"),
        ("ls /data", "laptop", "docker:sglang"), ("exit", "laptop", "docker:sglang"),
        ("docker context use gpu07", "laptop", None),
        ("docker exec -it sglang bash", "gpu07", "docker:sglang"),
        ("ls /ckpt", "gpu07", "docker:sglang"), ("exit", "gpu07", "docker:sglang"),
        ("export DOCKER_HOST=ssh://root@gpu09", "laptop", None),
        # DOCKER_HOST wins over the current context (resolveContextName)
        ("docker exec -it sglang bash", "gpu09", "docker:sglang"),
        ("ls /cache", "gpu09", "docker:sglang"), ("exit", "gpu09", "docker:sglang"),
        ("hostname", "laptop", None)]

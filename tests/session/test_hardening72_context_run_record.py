"""``docker --context gpu08 run …`` with a context the same log created (``docker context create gpu08
--docker host=ssh://root@gpu08``) ran its container on gpu08, but only an ``exec`` went through
docker_contexts: the run was recorded on the machine the session ran on. The CLI resolves its
context alike for every subcommand (docker/cli cli/command/cli.go, resolveContextName)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path, docker_contexts, shell

_CREATE = "docker context create gpu08 --docker host=ssh://root@gpu08:2222"


def _known(*commands: str) -> dict[str, str | None]:
    known: dict[str, str | None] = {}
    for command in commands:
        shell.note_variables(command, known)
        docker_contexts.note_contexts(command, known)
    return known


@pytest.mark.parametrize(("earlier", "command", "inner"), [
    ((_CREATE,), "docker --context gpu08 run --rm --gpus all img nvidia-smi -L", "docker run --rm --gpus all img nvidia-smi -L"),
    ((_CREATE,), "docker -c=gpu08 --log-level warn run img ls /models", "docker run img ls /models"),
    ((_CREATE, "docker context use gpu08"), "docker run img df -h", "docker run img df -h"),
    ((_CREATE,), "DOCKER_CONTEXT=gpu08 docker run img 'echo a b'", "docker run img 'echo a b'"),
])
def test_a_run_through_a_created_context_ran_on_its_host(earlier: tuple, command: str, inner: str) -> None:
    target = docker_contexts.run_on_context_host(command, shell.parse_target(command), _known(*earlier))
    assert (target.host, target.user, target.port, target.container, target.inner) == ("gpu08", "root", 2222, None, inner)


@pytest.mark.parametrize(("earlier", "command"), [
    ((_CREATE,), "docker --context other run img ls"),  # a context the log did not create
    ((_CREATE,), "docker run img ls"),  # no context in use
    ((_CREATE, "docker context use gpu08"), "docker -H unix:///var/run/docker.sock run img ls"),  # -H wins
    ((_CREATE, "docker context use gpu08", "export DOCKER_HOST=unix:///var/run/docker.sock"), "docker run img ls"),
    ((_CREATE,), "docker --context gpu08 cp sglang:/tmp/server.log ."),  # onto this machine (hardening72_context_daemon_commands)
    (("docker context create gpu08 --docker host=unix:///var/run/docker.sock",), "docker --context gpu08 run img ls"),
])
def test_other_runs_stay_where_they_were(earlier: tuple, command: str) -> None:
    before = shell.parse_target(command)
    assert docker_contexts.run_on_context_host(command, before, _known(*earlier)) == before


def test_the_log_records_the_run_on_the_contexts_host(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text("me@laptop:~$ docker context create gpu08 --docker host=ssh://root@gpu08\n"
                    "gpu08\nSuccessfully created context \"gpu08\"\n"
                    "me@laptop:~$ docker --context gpu08 run --rm --gpus all img nvidia-smi -L\n"
                    "GPU 0: NVIDIA H100 80GB HBM3\n"
                    "me@laptop:~$ docker run --rm img nvidia-smi -L\n"
                    "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n"
                    "me@laptop:~$ hostname\nlaptop\n")
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"]) for c in doc["commands"]][1:] == [
        ("docker --context gpu08 run --rm --gpus all img nvidia-smi -L", "gpu08"),
        ("docker run --rm img nvidia-smi -L", "laptop"), ("hostname", "laptop")]

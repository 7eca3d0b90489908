"""``export DOCKER_HOST=ssh://root@gpu08`` on one line of a terminal log, then ``docker run --gpus all
img nvidia-smi -L``, ``docker logs sglang`` or ``docker ps`` on later lines: the CLI reads the
variable for every subcommand (docker/cli cli/command/cli.go, resolveContextName), so these ran on
gpu08's daemon, but only a later ``docker exec`` was placed there: the rest were recorded on the
machine the session ran on. (``DOCKER_HOST=ssh://… docker ps``, two words after the assignment, was
not read either.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path, shell


def _hosts(tmp_path: Path, text: str) -> list[tuple[str, str]]:
    path = tmp_path / "session.log"
    path.write_text(text)
    return [(c["command"], c["host"]) for c in analyze_path(path).to_json()["commands"]]


def test_commands_after_an_exported_daemon_ran_on_its_host(tmp_path: Path) -> None:
    assert _hosts(tmp_path, "me@laptop:~$ export DOCKER_HOST=ssh://root@gpu08\n"
                            "me@laptop:~$ docker run --rm --gpus all img nvidia-smi -L\n"
                            "GPU 0: NVIDIA H100 80GB HBM3\n"
                            "me@laptop:~$ docker logs --tail 1 sglang\n"
                            "[2026-12-07 08:00:01] Decode batch. #running-req: 8, gen throughput (token/s): 140.2\n"
                            "me@laptop:~$ docker ps\n"
                            "CONTAINER ID   IMAGE     COMMAND   CREATED   STATUS    PORTS     NAMES\n"
                            "me@laptop:~$ docker run --rm -e HF_TOKEN=$HF_TOKEN img ls /models\nllama\n"
                            "me@laptop:~$ docker -H unix:///var/run/docker.sock ps\n"
                            "CONTAINER ID   IMAGE     COMMAND   CREATED   STATUS    PORTS     NAMES\n"
                            "me@laptop:~$ docker cp sglang:/tmp/server.log .\n"
                            "me@laptop:~$ hostname\nlaptop\n")[1:] == [
        ("docker run --rm --gpus all img nvidia-smi -L", "gpu08"), ("docker logs --tail 1 sglang", "gpu08"),
        ("docker ps", "gpu08"), ("docker run --rm -e HF_TOKEN=$HF_TOKEN img ls /models", "gpu08"),
        ("docker -H unix:///var/run/docker.sock ps", "laptop"), ("docker cp sglang:/tmp/server.log .", "laptop"),
        ("hostname", "laptop")]


def test_a_local_daemon_exported_keeps_them_here(tmp_path: Path) -> None:
    assert _hosts(tmp_path, "me@laptop:~$ export DOCKER_HOST=unix:///var/run/docker.sock\n"
                            "me@laptop:~$ docker logs --tail 1 sglang\nready\n"
                            "me@laptop:~$ podman ps\n"
                            "CONTAINER ID  IMAGE  COMMAND  CREATED  STATUS  PORTS  NAMES\n")[1:] == [
        ("docker logs --tail 1 sglang", "laptop"), ("podman ps", "laptop")]


def test_podman_reads_its_own_variable(tmp_path: Path) -> None:
    assert _hosts(tmp_path, "me@laptop:~$ export CONTAINER_HOST=ssh://me@gpu3/run/podman/podman.sock\n"
                            "me@laptop:~$ podman logs srv\nready\n"
                            "me@laptop:~$ docker logs srv\nError: No such container: srv\n")[1:] == [
        ("podman logs srv", "gpu3"), ("docker logs srv", "laptop")]


@pytest.mark.parametrize(("command", "host"), [
    ("DOCKER_HOST=ssh://root@gpu09 docker ps", "gpu09"),
    ("DOCKER_HOST=ssh://root@gpu09 docker info", "gpu09"),
    ("docker ps", None),
])
def test_a_one_word_listing_with_the_variable_on_its_line(command: str, host: str | None) -> None:
    target = shell.parse_target(command)
    assert (target.host, target.container) == (host, None)


def test_an_exec_into_a_container_named_by_a_variable(tmp_path: Path) -> None:
    assert _hosts(tmp_path, "me@laptop:~$ export DOCKER_HOST=ssh://root@gpu08 C=sglang\n"
                            "me@laptop:~$ docker exec $C nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n")[1:] == [
        ("docker exec $C nvidia-smi -L", "gpu08")]

"""``docker -H ssh://root@gpu08 run --rm IMAGE CMD`` (and ``DOCKER_HOST=ssh://… docker run``, podman's
``--url ssh://…``) ran its container on the daemon's host, but shell.parse_target placed no ``run``:
the command was recorded on the machine the session ran on, while the same CLI's ``exec`` was
already placed on the daemon's host. The CLI resolves its daemon alike for every subcommand
(docker/cli cli/command/cli.go, resolveContextName: the flags, then DOCKER_HOST)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path, shell


@pytest.mark.parametrize(("command", "where"), [
    ("docker -H ssh://root@gpu08 run --rm --gpus all lmsysorg/sglang:latest python3 -m sglang.bench_one_batch",
     ("gpu08", "root", None, "docker run --rm --gpus all lmsysorg/sglang:latest python3 -m sglang.bench_one_batch")),
    ("docker --host=ssh://ubuntu@gpu07:2222 run img nvidia-smi -L",
     ("gpu07", "ubuntu", 2222, "docker run img nvidia-smi -L")),
    ("DOCKER_HOST=ssh://root@gpu09 docker run --rm img ls /models", ("gpu09", "root", None, "docker run --rm img ls /models")),
    ("cd /srv && export DOCKER_HOST=ssh://me@gpu03; docker run img df -h", ("gpu03", "me", None, "docker run img df -h")),
    ("podman --url ssh://me@gpu3:2200/run/podman/podman.sock run img ls", ("gpu3", "me", 2200, "podman run img ls")),
    ("docker -H tcp://10.0.0.5:2376 run img ls", ("10.0.0.5", None, None, "docker run img ls")),
])
def test_a_run_on_another_daemon_ran_on_its_host(command: str, where: tuple) -> None:
    target = shell.parse_target(command)
    assert (target.host, target.user, target.port, target.inner) == where
    assert target.container is None


@pytest.mark.parametrize("command", [
    "docker run --rm img ls",
    "docker -H unix:///var/run/docker.sock run img ls",
    "docker -H ssh://root@localhost run img ls",
    "docker --context gpu07 run img ls",  # a context: its endpoint is known only from the log
    "DOCKER_HOST=ssh://root@gpu09 docker --context default run img ls",  # the flag wins
    "docker -H ssh://root@gpu08 version",  # the client's, then the daemon's (hardening72_daemon_listing)
])
def test_a_local_or_unnamed_daemon_stays_here(command: str) -> None:
    target = shell.parse_target(command)
    assert (target.host, target.container, target.inner) == (None, None, command)


def test_the_log_records_the_run_on_the_daemons_host(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text("me@laptop:~$ docker -H ssh://root@gpu08 run --rm --gpus all img nvidia-smi -L\n"
                    "GPU 0: NVIDIA H100 80GB HBM3\n"
                    "me@laptop:~$ docker run --rm img nvidia-smi -L\n"
                    "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n"
                    "me@laptop:~$ hostname\nlaptop\n")
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"]) for c in doc["commands"]] == [
        ("docker -H ssh://root@gpu08 run --rm --gpus all img nvidia-smi -L", "gpu08"),
        ("docker run --rm img nvidia-smi -L", "laptop"), ("hostname", "laptop")]

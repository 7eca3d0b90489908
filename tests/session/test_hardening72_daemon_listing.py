"""``docker -H ssh://root@gpu08 ps`` lists gpu08's containers (``images`` its images, ``pull`` fills
its image store, ``info`` tells its runtimes and disk), but only the container commands (run, logs,
restart, ...) were placed on the daemon's host: the listing was recorded on the machine the session
ran on. The CLI resolves its daemon alike for every subcommand (docker/cli cli/command/cli.go,
resolveContextName), and ``ps`` asks that daemon's API for its list (cli/command/container/list.go)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path, shell


@pytest.mark.parametrize(("command", "where"), [
    ("docker -H ssh://root@gpu08 ps -a", ("gpu08", "root", None, "docker ps -a")),
    ("docker --host=ssh://me@gpu07:2222 images", ("gpu07", "me", 2222, "docker images")),
    ("DOCKER_HOST=ssh://root@gpu09 docker pull lmsysorg/sglang:latest",
     ("gpu09", "root", None, "docker pull lmsysorg/sglang:latest")),
    ("docker -H tcp://10.0.0.5:2376 info", ("10.0.0.5", None, None, "docker info")),
    ("docker -H ssh://root@gpu08 rm -f sglang", ("gpu08", "root", None, "docker rm -f sglang")),
    ("docker -H ssh://root@gpu08 container ls", ("gpu08", "root", None, "docker container ls")),
    ("docker -H ssh://root@gpu08 system df", ("gpu08", "root", None, "docker system df")),
    ("podman --url ssh://me@gpu3/run/podman/podman.sock ps", ("gpu3", "me", None, "podman ps")),
])
def test_a_listing_of_another_daemon_ran_on_its_host(command: str, where: tuple) -> None:
    target = shell.parse_target(command)
    assert (target.host, target.user, target.port, target.inner, target.container) == where + (None,)


@pytest.mark.parametrize("command", [
    "docker ps",
    "docker images",
    "docker -H unix:///var/run/docker.sock ps",
    "docker -H ssh://root@gpu08 version",
    "docker -H ssh://root@gpu08 login ghcr.io",  # this machine's credentials
    "docker -H ssh://root@gpu08 container cp sglang:/tmp/log.txt .",  # onto this machine
    "docker -H ssh://root@gpu08 image save -o img.tar img",
    "docker -H ssh://root@gpu08 image",
    "DOCKER_HOST=ssh://root@gpu09 docker --context default ps",  # the flag wins
])
def test_a_local_daemon_or_local_files_stay_here(command: str) -> None:
    target = shell.parse_target(command)
    assert (target.host, target.container, target.inner) == (None, None, command)


def test_the_log_records_the_listing_on_the_daemons_host(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text("me@laptop:~$ docker -H ssh://root@gpu08 ps\n"
                    "CONTAINER ID   IMAGE                    COMMAND                  STATUS         NAMES\n"
                    "3f2a1b9c8d7e   lmsysorg/sglang:latest   \"python3 -m sglang.l…\"   Up 2 minutes   sglang\n"
                    "me@laptop:~$ docker ps\n"
                    "CONTAINER ID   IMAGE     COMMAND   CREATED   STATUS    PORTS     NAMES\n"
                    "me@laptop:~$ hostname\nlaptop\n")
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"]) for c in doc["commands"]] == [
        ("docker -H ssh://root@gpu08 ps", "gpu08"), ("docker ps", "laptop"), ("hostname", "laptop")]

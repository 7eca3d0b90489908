"""``docker -H ssh://root@gpu08 logs sglang`` (and restart, stop, top, ... or ``DOCKER_HOST=ssh://…``
on the line) reached the daemon on gpu08: its output is gpu08's container's, but the command was
recorded on the machine the session ran on, as only exec and run were placed on the daemon's host.
The CLI resolves its daemon alike for every subcommand (docker/cli cli/command/cli.go,
resolveContextName: the flags, then DOCKER_HOST)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path, shell


@pytest.mark.parametrize(("command", "where"), [
    ("docker -H ssh://root@gpu08 logs --tail 50 sglang", ("gpu08", "root", None, "docker logs --tail 50 sglang")),
    ("docker --host=ssh://me@gpu07:2222 restart sglang", ("gpu07", "me", 2222, "docker restart sglang")),
    ("DOCKER_HOST=ssh://root@gpu09 docker top vllm", ("gpu09", "root", None, "docker top vllm")),
    ("podman --url ssh://me@gpu3/run/podman/podman.sock stop srv", ("gpu3", "me", None, "podman stop srv")),
    ("docker -H tcp://10.0.0.5:2376 inspect sglang", ("10.0.0.5", None, None, "docker inspect sglang")),
])
def test_a_container_command_on_another_daemon_ran_on_its_host(command: str, where: tuple) -> None:
    target = shell.parse_target(command)
    assert (target.host, target.user, target.port, target.inner, target.container) == where + (None,)


@pytest.mark.parametrize("command", [
    "docker logs sglang",
    "docker -H unix:///var/run/docker.sock logs sglang",
    "docker -H ssh://root@localhost restart sglang",
    "docker -H ssh://root@gpu08 cp sglang:/tmp/log.txt .",  # copies onto this machine
    "DOCKER_HOST=ssh://root@gpu09 docker --context default logs sglang",  # the flag wins
])
def test_a_local_daemon_or_a_copy_stays_here(command: str) -> None:
    target = shell.parse_target(command)
    assert (target.host, target.container, target.inner) == (None, None, command)


def test_the_log_records_the_logs_on_the_daemons_host(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text("me@laptop:~$ docker -H ssh://root@gpu08 logs --tail 2 sglang\n"
                    "[2026-12-07 08:00:01] Decode batch. #running-req: 8, gen throughput (token/s): 140.2\n"
                    "me@laptop:~$ hostname\nlaptop\n")
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"]) for c in doc["commands"]] == [
        ("docker -H ssh://root@gpu08 logs --tail 2 sglang", "gpu08"), ("hostname", "laptop")]

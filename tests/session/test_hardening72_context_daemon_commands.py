"""``docker --context gpu08 logs sglang`` (restart, ps, ...) through a context the same log created
(``docker context create gpu08 --docker host=ssh://root@gpu08``) reached gpu08's daemon, but only a
``run`` (and an exec) through such a context was placed on its host: the container's log was recorded
on the machine the session ran on. The CLI resolves the context alike for every subcommand
(docker/cli cli/command/cli.go, resolveContextName)."""

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
    ((_CREATE,), "docker --context gpu08 logs --tail 50 sglang", "docker logs --tail 50 sglang"),
    ((_CREATE,), "docker -c gpu08 restart sglang", "docker restart sglang"),
    ((_CREATE, "docker context use gpu08"), "docker ps -a", "docker ps -a"),
    ((_CREATE,), "DOCKER_CONTEXT=gpu08 docker stop sglang", "docker stop sglang"),
    ((_CREATE,), "docker --context=gpu08 container ls", "docker container ls"),
])
def test_a_daemon_command_through_a_created_context_ran_on_its_host(earlier: tuple, command: str, inner: str) -> None:
    target = docker_contexts.run_on_context_host(command, shell.parse_target(command), _known(*earlier))
    assert (target.host, target.user, target.port, target.container, target.inner) == ("gpu08", "root", 2222, None, inner)


@pytest.mark.parametrize(("earlier", "command"), [
    ((_CREATE,), "docker --context other logs sglang"),  # a context the log did not create
    ((_CREATE,), "docker logs sglang"),  # no context in use
    ((_CREATE, "docker context use gpu08"), "docker -H unix:///var/run/docker.sock logs sglang"),  # -H wins
    ((_CREATE,), "docker --context gpu08 cp sglang:/tmp/server.log ."),  # onto this machine
    ((_CREATE,), "docker --context gpu08 container cp sglang:/tmp/server.log ."),
    ((_CREATE,), "docker --context gpu08 version"),
])
def test_other_commands_stay_where_they_were(earlier: tuple, command: str) -> None:
    before = shell.parse_target(command)
    assert docker_contexts.run_on_context_host(command, before, _known(*earlier)) == before


def test_the_log_records_the_containers_log_on_the_contexts_host(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text("me@laptop:~$ docker context create gpu08 --docker host=ssh://root@gpu08\n"
                    "gpu08\nSuccessfully created context \"gpu08\"\n"
                    "me@laptop:~$ docker --context gpu08 logs --tail 1 sglang\n"
                    "[2026-12-07 08:00:01] Decode batch. #running-req: 8, gen throughput (token/s): 140.2\n"
                    "me@laptop:~$ docker --context gpu08 restart sglang\nsglang\n"
                    "me@laptop:~$ docker logs --tail 1 sglang\n"
                    "Error response from daemon: No such container: sglang\n"
                    "me@laptop:~$ hostname\nlaptop\n")
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"]) for c in doc["commands"]][1:] == [
        ("docker --context gpu08 logs --tail 1 sglang", "gpu08"), ("docker --context gpu08 restart sglang", "gpu08"),
        ("docker logs --tail 1 sglang", "laptop"), ("hostname", "laptop")]

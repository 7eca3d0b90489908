"""Compose reaches the daemon the docker CLI's own options and ``DOCKER_HOST`` name, as any docker
command does (docker/compose cmd/compose/compose.go builds its client from the CLI's):
``docker -H ssh://gpu07 compose up -d``, ``docker --context gpu07 compose logs sglang`` (a context
the log created) and ``DOCKER_HOST=ssh://gpu07 docker compose ps`` start, read and list gpu07's
containers. Before: each was placed on the machine the session ran on (login01), and
``docker -H ssh://gpu07 compose exec sglang nvidia-smi`` was no container at all, so gpu07's
``nvidia-smi`` output was read as login01's. Compose's local subcommands (``config``, ``cp``)
stay where the session ran, as a plain ``docker compose up`` with no daemon named does."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """\
root@login01:~# docker -H ssh://root@gpu07 compose -f serve.yml up -d
[+] Running 1/1
 ✔ Container serve-sglang-1  Started
root@login01:~# docker -H ssh://root@gpu07 compose -f serve.yml exec -T sglang nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5e0c)
root@login01:~# docker context create gpu08 --docker "host=ssh://root@gpu08"
gpu08
Successfully created context "gpu08"
root@login01:~# docker --context gpu08 compose logs --tail 5 sglang
sglang-1  | [2026-12-07 09:12:01] The server is fired up and ready to roll!
root@login01:~# docker --context gpu08 compose exec sglang nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-77aa)
root@login01:~# DOCKER_HOST=ssh://root@gpu09 docker compose ps
NAME             IMAGE                        SERVICE   STATUS
serve-sglang-1   lmsysorg/sglang:v0.4.6.post1 sglang    Up 3 minutes
root@login01:~# DOCKER_HOST=ssh://root@gpu09 docker-compose -f serve.yml restart sglang
Restarting serve-sglang-1 ... done
root@login01:~# DOCKER_HOST=ssh://root@gpu09 docker compose -f serve.yml config --services
sglang
root@login01:~# docker -H ssh://root@gpu07 compose cp sglang:/tmp/bench.json .
root@login01:~# docker compose up -d
[+] Running 1/1
"""


def _commands(tmp_path: Path, text: str) -> list[tuple]:
    path = tmp_path / "session.log"
    path.write_text(text)
    doc = analyze_path(path).to_json()
    return [(c["host"], c["user"], c["container"], c["command"]) for c in doc["commands"]]


def test_compose_runs_on_the_daemons_host(tmp_path: Path) -> None:
    assert _commands(tmp_path, LOG) == [
        ("gpu07", "root", None, "docker -H ssh://root@gpu07 compose -f serve.yml up -d"),
        ("gpu07", "root", "docker:sglang", "docker -H ssh://root@gpu07 compose -f serve.yml exec -T sglang nvidia-smi -L"),
        ("login01", "root", None, 'docker context create gpu08 --docker "host=ssh://root@gpu08"'),
        ("gpu08", "root", None, "docker --context gpu08 compose logs --tail 5 sglang"),
        ("gpu08", "root", "docker:sglang", "docker --context gpu08 compose exec sglang nvidia-smi -L"),
        ("gpu09", "root", None, "DOCKER_HOST=ssh://root@gpu09 docker compose ps"),
        ("gpu09", "root", None, "DOCKER_HOST=ssh://root@gpu09 docker-compose -f serve.yml restart sglang"),
        ("login01", "root", None, "DOCKER_HOST=ssh://root@gpu09 docker compose -f serve.yml config --services"),
        ("login01", "root", None, "docker -H ssh://root@gpu07 compose cp sglang:/tmp/bench.json ."),
        ("login01", "root", None, "docker compose up -d"),
    ]


def test_an_exported_daemon_takes_compose_along(tmp_path: Path) -> None:
    log = ("root@login01:~# export DOCKER_HOST=ssh://root@gpu09\n"
           "root@login01:~# docker compose up -d\n[+] Running 1/1\n"
           "root@login01:~# docker compose logs sglang\nsglang-1  | ready\n"
           "root@login01:~# unset DOCKER_HOST\n"
           "root@login01:~# docker compose logs sglang\n")
    assert [(c[0], c[3]) for c in _commands(tmp_path, log)] == [
        ("login01", "export DOCKER_HOST=ssh://root@gpu09"), ("gpu09", "docker compose up -d"),
        ("gpu09", "docker compose logs sglang"), ("login01", "unset DOCKER_HOST"),
        ("login01", "docker compose logs sglang")]


def test_the_parsed_target_of_a_compose_line() -> None:
    from spec_debug.session.shell import parse_target

    up = parse_target("docker -H ssh://ubuntu@gpu07:2222 compose up -d")
    assert (up.user, up.host, up.port, up.container, up.inner) == ("ubuntu", "gpu07", 2222, None, "docker compose up -d")
    ex = parse_target("docker --host=ssh://gpu07 compose exec sglang bash -c 'nvidia-smi && ls /models'")
    assert (ex.host, ex.container, ex.inner) == ("gpu07", "docker:sglang", "nvidia-smi && ls /models")
    assert parse_target("docker compose ps").host is None

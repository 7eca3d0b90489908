"""``DOCKER_HOST=ssh://user@gpu07 docker exec sglang CMD`` reaches the daemon on gpu07 over ssh, and
the container runs there (docs.docker.com, engine/security/protect-access: ``DOCKER_HOST=ssh://me@
example.com docker ps``), as ``docker -H ssh://…`` does, which was read already. Before, the variable
was passed over: the container was found but the command read as run on the session's own machine
(no host), in an agent's call and after an ``export DOCKER_HOST=…`` earlier in a terminal log."""

from __future__ import annotations

from spec_debug.session import analyze_path
from tests.session.chat_runs import write_chat_runs

_SMI = "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5f1c)"
_LOG = ("[2025-08-18 10:05:02] Decode batch, #running-req: 1, #token: 1042, token usage: 0.01, accept len: 1.21, "
        "accept rate: 0.10, cuda graph: True, gen throughput (token/s): 48.20, #queue-req: 0")


def test_a_docker_exec_under_docker_host_runs_on_that_host(tmp_path):
    path = write_chat_runs(tmp_path / "chat.json", "accept length dropped in the sglang container on gpu07", [
        ("DOCKER_HOST=ssh://ubuntu@gpu07 docker exec sglang nvidia-smi -L", _SMI),
        ("export DOCKER_HOST=ssh://ubuntu@gpu07:2222; docker exec sglang tail -n 1 /tmp/server.log", _LOG),
        ("DOCKER_HOST=ssh://ubuntu@gpu07 docker --context local exec sglang nvidia-smi -L", _SMI),
        ("DOCKER_HOST=ssh://ubuntu@gpu07 docker compose exec -T sglang nvidia-smi -L", _SMI)])
    a = analyze_path(path)
    assert [(c.host, c.container, c.port) for c in a.commands] == [
        ("gpu07", "docker:sglang", None), ("gpu07", "docker:sglang", 2222),
        (None, "docker:sglang", None),  # --context wins over the variable (docker/cli resolveContextName)
        ("gpu07", "docker:sglang", None)]
    assert [m.host for m in a.metrics if m.name == "accept_length"] == ["gpu07"]


def test_docker_host_exported_earlier_in_a_terminal_log(tmp_path):
    log = tmp_path / "terminal.log"
    log.write_text("me@laptop:~$ export DOCKER_HOST=ssh://ubuntu@gpu07\n"
                   "me@laptop:~$ docker exec sglang nvidia-smi -L\n"
                   f"{_SMI}\n"
                   "me@laptop:~$ docker exec sglang tail -n 1 /tmp/server.log\n"
                   f"{_LOG}\n"
                   "me@laptop:~$ ls\n"
                   "notes.txt\n")
    a = analyze_path(log)
    assert [(c.inner, c.host, c.container) for c in a.commands if c.container] == [
        ("nvidia-smi -L", "gpu07", "docker:sglang"), ("tail -n 1 /tmp/server.log", "gpu07", "docker:sglang")]
    assert [m.host for m in a.metrics if m.name == "accept_length"] == ["gpu07"]

"""A Docker daemon reached over TCP, ``docker -H tcp://gpu07:2376 exec sglang CMD`` or
``DOCKER_HOST=tcp://gpu07:2376`` (docs.docker.com, engine/security/protect-access: ``export
DOCKER_HOST=tcp://$HOST:2376``): the container runs on gpu07. Only ``ssh://`` daemons were read, so
the command read as run on the session's own machine; the port is the daemon's, no ssh login's, and
a loopback daemon is the local one."""

from __future__ import annotations

from spec_debug.session import analyze_path
from tests.session.chat_runs import write_chat_runs

_SMI = "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5f1c)"


def test_a_docker_exec_on_a_tcp_daemon_runs_on_its_host(tmp_path):
    path = write_chat_runs(tmp_path / "chat.json", "is the sglang container on gpu07 seeing its GPU?", [
        ("docker -H tcp://gpu07:2376 --tlsverify exec sglang nvidia-smi -L", _SMI),
        ("DOCKER_HOST=tcp://10.0.0.7:2376 docker exec sglang nvidia-smi -L", _SMI),
        ("DOCKER_HOST=tcp://127.0.0.1:2375 docker exec sglang nvidia-smi -L", _SMI)])
    a = analyze_path(path)
    assert [(c.host, c.user, c.port, c.container) for c in a.commands] == [
        ("gpu07", None, None, "docker:sglang"), ("10.0.0.7", None, None, "docker:sglang"),
        (None, None, None, "docker:sglang")]

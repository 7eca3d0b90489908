"""A docker context names no host, but the log that created it says where its endpoint is:
``docker context create gpu07 --docker "host=ssh://root@gpu07"``, then ``docker --context gpu07
exec``, ``DOCKER_CONTEXT=gpu07 docker exec`` or ``docker context use gpu07`` and ``docker exec``
run the container on gpu07 (docker/cli cli/command/cli.go, resolveContextName). Before: each was
the prompt host's container. A context the log did not create, and ``docker context use
default``, stay the prompt host's as before. The lines the CLI prints are docker/cli's
("Successfully created context", "Current context is now"); no daemon was reachable to record
them here."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """\
root@login01:~# docker context create gpu07 --docker "host=ssh://root@gpu07"
gpu07
Successfully created context "gpu07"
root@login01:~# docker --context gpu07 exec sglang nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5e0c)
root@login01:~# DOCKER_CONTEXT=gpu07 docker exec sglang nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5e0c)
root@login01:~# docker context use gpu07
gpu07
Current context is now "gpu07"
root@login01:~# docker exec sglang nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5e0c)
root@login01:~# docker --context lab exec sglang nvidia-smi -L
GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-1a2b)
root@login01:~# docker context use default
default
Current context is now "default"
root@login01:~# docker exec sglang nvidia-smi -L
GPU 0: NVIDIA L4 (UUID: GPU-9f9f)
"""


def test_a_context_the_log_created_puts_the_container_on_its_host(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text(LOG)
    doc = analyze_path(path).to_json()
    got = [(c["host"], c["command"]) for c in doc["commands"] if " exec " in c["command"]]
    assert got == [
        ("gpu07", "docker --context gpu07 exec sglang nvidia-smi -L"),
        ("gpu07", "DOCKER_CONTEXT=gpu07 docker exec sglang nvidia-smi -L"),
        ("gpu07", "docker exec sglang nvidia-smi -L"),
        ("login01", "docker --context lab exec sglang nvidia-smi -L"),
        ("login01", "docker exec sglang nvidia-smi -L"),
    ]

"""The commands typed in a container's shell a terminal log opened (``docker exec -it sglang
bash``) had the container's id as their host (``root@a1b2c3d4e5f6:/sgl-workspace#``, docker's
default hostname is the container id's first 12 hex digits: docs.docker.com, "Container
networking", hostname) and no container: a launch that failed there was a machine
``a1b2c3d4e5f6``'s. They ran in that container, on the machine the ``docker exec`` was typed on,
as ``docker exec sglang CMD`` records them (host ``gpu01``, container ``docker:sglang``), until
``exit``. The docker daemon is absent on the machine these tests were written on: the log follows
the shape of docker's prompts (bash's ``\\u@\\h:\\w#`` in a container named by its id)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """root@gpu01:~# docker exec -it sglang bash
root@a1b2c3d4e5f6:/sgl-workspace# python3 -m sglang.launch_server --model-path /models/x --speculative-algorithm EAGLE3
RuntimeError: CUDA error: out of memory
root@a1b2c3d4e5f6:/sgl-workspace# bash
root@a1b2c3d4e5f6:/sgl-workspace# nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3
root@a1b2c3d4e5f6:/sgl-workspace# exit
exit
root@a1b2c3d4e5f6:/sgl-workspace# exit
exit
root@gpu01:~# docker exec -it nosuch bash
Error response from daemon: No such container: nosuch
root@gpu01:~# nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3
"""


def test_a_container_shells_commands_ran_in_the_container(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text(LOG)
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"], c["container"], c["cwd"]) for c in doc["commands"]] == [
        ("docker exec -it sglang bash", "gpu01", "docker:sglang", None),
        ("python3 -m sglang.launch_server --model-path /models/x --speculative-algorithm EAGLE3", "gpu01",
         "docker:sglang", "/sgl-workspace"),
        ("bash", "gpu01", "docker:sglang", "/sgl-workspace"),
        ("nvidia-smi -L", "gpu01", "docker:sglang", "/sgl-workspace"),
        ("exit", "gpu01", "docker:sglang", "/sgl-workspace"),
        ("exit", "gpu01", "docker:sglang", "/sgl-workspace"),
        ("docker exec -it nosuch bash", "gpu01", "docker:nosuch", None),
        ("nvidia-smi -L", "gpu01", None, "~")]
    ran = {c["seq"]: c["command"] for c in doc["commands"]}
    assert [(e["kind"], e["host"], ran[e["command_seq"]]) for e in doc["errors"]] == [
        ("cuda_oom", "gpu01", "python3 -m sglang.launch_server --model-path /models/x --speculative-algorithm EAGLE3"),
        ("tool_error", "gpu01", "docker exec -it nosuch bash")]


def test_a_pod_shell_too(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text("me@laptop:~$ kubectl exec -it sglang-0 -- bash\n"
                    "root@sglang-0:/# nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\nroot@sglang-0:/# exit\nexit\n"
                    "me@laptop:~$ ls\n")
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"], c["container"]) for c in doc["commands"]] == [
        ("kubectl exec -it sglang-0 -- bash", "laptop", "pod:sglang-0"), ("nvidia-smi -L", "laptop", "pod:sglang-0"),
        ("exit", "laptop", "pod:sglang-0"), ("ls", "laptop", None)]

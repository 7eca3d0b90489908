"""``docker run -it IMAGE bash`` opened no shell the log followed: the commands typed at the new
container's prompt (``root@3f9c2a7b1d04:/sgl-workspace#``) had the container's id as their host
and no container. They ran in that container on the machine ``docker run`` was typed on: its
``--name``, or, with none, the id its prompt shows (docker's default hostname is the container
id's first 12 hex digits, which ``docker exec`` accepts too: docs.docker.com, container
networking), until ``exit``. A ``docker run`` with a command of its own opens no shell. No docker
daemon on the machine this was written on: the log follows docker's prompt shape."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """root@gpu01:~# docker run -it --gpus all --shm-size 32g -v /models:/models lmsysorg/sglang:latest bash
root@3f9c2a7b1d04:/sgl-workspace# nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3
root@3f9c2a7b1d04:/sgl-workspace# exit
exit
root@gpu01:~# docker run --rm -it --name sgl lmsysorg/sglang:latest /bin/bash
root@5e6f7a8b9c0d:/sgl-workspace# python3 -c 'import sglang'
root@5e6f7a8b9c0d:/sgl-workspace# exit
exit
root@gpu01:~# docker run --rm lmsysorg/sglang:latest nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3
root@gpu01:~# ls
"""


def test_a_run_containers_shell(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text(LOG)
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"], c["container"], c["cwd"]) for c in doc["commands"]] == [
        ("docker run -it --gpus all --shm-size 32g -v /models:/models lmsysorg/sglang:latest bash", "gpu01", None, "~"),
        ("nvidia-smi -L", "gpu01", "docker:3f9c2a7b1d04", "/sgl-workspace"),
        ("exit", "gpu01", "docker:3f9c2a7b1d04", "/sgl-workspace"),
        ("docker run --rm -it --name sgl lmsysorg/sglang:latest /bin/bash", "gpu01", None, "~"),
        ("python3 -c 'import sglang'", "gpu01", "docker:sgl", "/sgl-workspace"),
        ("exit", "gpu01", "docker:sgl", "/sgl-workspace"),
        ("docker run --rm lmsysorg/sglang:latest nvidia-smi -L", "gpu01", None, "~"),
        ("ls", "gpu01", None, "~")]


def test_a_prompt_with_no_host_names_no_container(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text("root@gpu01:~# docker run -it lmsysorg/sglang:latest bash\nbash-5.1# nvidia-smi -L\n"
                    "GPU 0: NVIDIA H100 80GB HBM3\nbash-5.1# exit\nexit\nroot@gpu01:~# ls\n")
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"], c["container"]) for c in doc["commands"]] == [
        ("docker run -it lmsysorg/sglang:latest bash", "gpu01", None), ("nvidia-smi -L", "gpu01", None),
        ("exit", "gpu01", None), ("ls", "gpu01", None)]

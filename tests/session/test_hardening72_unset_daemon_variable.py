"""``unset DOCKER_HOST`` (or ``unset GPU``) in a terminal log was not read: the shell's variables
kept the daemon on gpu08, so the ``docker ps`` and ``docker exec`` typed after it, which reached
the local daemon again, were still placed on gpu08 (bash(1), SHELL BUILTIN COMMANDS, unset: "For
each name, remove the corresponding variable or function")."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path, shell


def _commands(tmp_path: Path, text: str) -> list[tuple]:
    path = tmp_path / "session.log"
    path.write_text(text)
    return [(c["command"], c["host"], c["container"]) for c in analyze_path(path).to_json()["commands"]]


def test_docker_commands_after_unset_reach_the_local_daemon(tmp_path: Path) -> None:
    assert _commands(tmp_path, "me@laptop:~$ export DOCKER_HOST=ssh://root@gpu08\n"
                               "me@laptop:~$ docker logs --tail 1 sglang\nready\n"
                               "me@laptop:~$ docker exec sglang nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n"
                               "me@laptop:~$ unset DOCKER_HOST\n"
                               "me@laptop:~$ docker ps\n"
                               "CONTAINER ID   IMAGE     COMMAND   CREATED   STATUS    PORTS     NAMES\n"
                               "me@laptop:~$ docker exec sglang nvidia-smi -L\n"
                               "Error response from daemon: No such container: sglang\n")[1:] == [
        ("docker logs --tail 1 sglang", "gpu08", None), ("docker exec sglang nvidia-smi -L", "gpu08", "docker:sglang"),
        ("unset DOCKER_HOST", "laptop", None), ("docker ps", "laptop", None),
        ("docker exec sglang nvidia-smi -L", "laptop", "docker:sglang")]


def test_a_container_shell_opened_after_unset_is_local(tmp_path: Path) -> None:
    assert _commands(tmp_path, "$ export DOCKER_HOST=ssh://root@gpu08\n"
                               "$ unset DOCKER_HOST\n"
                               "$ docker exec -it sglang bash\n"
                               "$ nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n")[2:] == [
        ("docker exec -it sglang bash", None, "docker:sglang"), ("nvidia-smi -L", None, "docker:sglang")]


def test_the_shell_forgets_only_the_names_it_unsets() -> None:
    known: dict[str, str | None] = {}
    shell.note_variables("export DOCKER_HOST=ssh://root@gpu08 GPU=gpu07 CUDA_VISIBLE_DEVICES=0", known)
    shell.note_variables("unset -v DOCKER_HOST CUDA_VISIBLE_DEVICES", known)
    assert known == {"GPU": "gpu07"}
    shell.note_variables("unset -f GPU", known)  # a function of that name, not the variable
    assert known == {"GPU": "gpu07"}


def test_an_unset_on_the_same_line() -> None:
    assert shell.parse_target("export DOCKER_HOST=ssh://root@gpu08; unset DOCKER_HOST; docker ps").host is None
    assert shell.parse_target("export DOCKER_HOST=ssh://root@gpu08; docker ps").host == "gpu08"

"""``export -n DOCKER_HOST`` (bash's un-export: "the export property is removed from each name",
bash(1) SHELL BUILTIN COMMANDS) keeps the variable in the shell but out of docker's environment, so
the next ``docker ps`` asks the local daemon again, as after ``unset DOCKER_HOST``. Before, the
terminal log's later docker commands stayed on gpu07, the daemon of the old export. ``export
DOCKER_HOST`` with no value exports the kept value again; ``declare +x DOCKER_CONTEXT`` un-exports
the context alike. A variable the shell expands itself (``ssh $GPU``) still names its host."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """\
root@login01:~# export DOCKER_HOST=ssh://root@gpu07
root@login01:~# docker ps --format '{{.Names}}'
sglang
root@login01:~# export -n DOCKER_HOST
root@login01:~# docker ps --format '{{.Names}}'
registry
root@login01:~# echo $DOCKER_HOST
ssh://root@gpu07
root@login01:~# export DOCKER_HOST
root@login01:~# docker exec sglang nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5e0c)
root@login01:~# export -n DOCKER_HOST=ssh://root@gpu08
root@login01:~# docker logs --tail 1 sglang
INFO:     127.0.0.1:41234 - "GET /health HTTP/1.1" 200 OK
root@login01:~# export GPU=gpu09
root@login01:~# export -n GPU
root@login01:~# ssh $GPU nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-9c01)
"""


def _commands(tmp_path: Path, text: str) -> list[tuple]:
    path = tmp_path / "session.log"
    path.write_text(text)
    doc = analyze_path(path).to_json()
    return [(c["host"], c["container"], c["command"]) for c in doc["commands"]]


def test_an_unexported_daemon_is_no_longer_dockers(tmp_path: Path) -> None:
    assert _commands(tmp_path, LOG) == [
        ("login01", None, "export DOCKER_HOST=ssh://root@gpu07"),
        ("gpu07", None, "docker ps --format '{{.Names}}'"),
        ("login01", None, "export -n DOCKER_HOST"),
        ("login01", None, "docker ps --format '{{.Names}}'"),
        ("login01", None, "echo $DOCKER_HOST"),
        ("login01", None, "export DOCKER_HOST"),
        ("gpu07", "docker:sglang", "docker exec sglang nvidia-smi -L"),
        ("login01", None, "export -n DOCKER_HOST=ssh://root@gpu08"),
        ("login01", None, "docker logs --tail 1 sglang"),
        ("login01", None, "export GPU=gpu09"),
        ("login01", None, "export -n GPU"),
        ("gpu09", None, "ssh $GPU nvidia-smi -L"),
    ]


def test_declare_plus_x_unexports_the_context(tmp_path: Path) -> None:
    log = ('root@login01:~# docker context create gpu08 --docker "host=ssh://root@gpu08"\ngpu08\n'
           'Successfully created context "gpu08"\n'
           "root@login01:~# export DOCKER_CONTEXT=gpu08\n"
           "root@login01:~# docker exec sglang nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n"
           "root@login01:~# declare +x DOCKER_CONTEXT\n"
           "root@login01:~# docker exec sglang nvidia-smi -L\nGPU 0: NVIDIA L4\n")
    assert [c[0] for c in _commands(tmp_path, log)] == ["login01", "login01", "gpu08", "login01", "login01"]


def test_the_shells_variables() -> None:
    from spec_debug.session.shell import note_variables

    known: dict[str, str | None] = {}
    note_variables("export DOCKER_HOST=ssh://gpu07 GPU=gpu09", known)
    note_variables("export -n DOCKER_HOST GPU", known)
    assert (known.get("DOCKER_HOST"), known["GPU"]) == (None, "gpu09")
    note_variables("export DOCKER_HOST", known)
    assert known["DOCKER_HOST"] == "ssh://gpu07"

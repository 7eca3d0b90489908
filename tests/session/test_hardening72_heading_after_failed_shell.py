"""A Markdown heading right after a shell that failed to open (``docker exec -it nope sh``:
"Error response from daemon: No such container", ``ssh gpu09``: "Connection refused") flushed
the output unread: the shell was taken as opened, and every later command was placed in the
container or on the unreachable host. The heading now settles the output first, as a prompt
does."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path


def _commands(tmp_path: Path, text: str) -> list[tuple]:
    path = tmp_path / "session.log"
    path.write_text(text)
    return [(c["command"], c["host"], c["container"]) for c in analyze_path(path).to_json()["commands"]]


def test_a_failed_exec_before_a_heading_opens_no_shell(tmp_path: Path) -> None:
    log = ("me@laptop:~$ docker exec -it nope sh\nError response from daemon: No such container: nope\n"
           "# Retry on gpu07\nme@laptop:~$ pwd\n/home/me\n")
    assert _commands(tmp_path, log) == [("docker exec -it nope sh", "laptop", "docker:nope"), ("pwd", "laptop", None)]


def test_a_refused_login_before_a_heading_opens_no_shell(tmp_path: Path) -> None:
    log = ("$ ssh gpu09\nssh: connect to host gpu09 port 22: Connection refused\n## Next\n$ nvidia-smi -L\n"
           "GPU 0: NVIDIA H100 80GB HBM3\n")
    assert _commands(tmp_path, log) == [("ssh gpu09", "gpu09", None), ("nvidia-smi -L", None, None)]


def test_an_opened_shell_stays_open_over_a_heading(tmp_path: Path) -> None:
    log = "$ ssh gpu09\nLast login: Sat Nov 15 09:12:01 2025\n## On gpu09\n$ nvidia-smi -L\nGPU 0: NVIDIA H100\n"
    assert _commands(tmp_path, log) == [("ssh gpu09", "gpu09", None), ("nvidia-smi -L", "gpu09", None)]

"""A terminal log kept as a note: ``ssh gpu07``, then the writer's remark before gpu07's banner and
prompt (``# now on the gpu box, check the server``). Before, the remark was read as a command typed
at a root shell's bare ``# `` prompt on gpu07 ("now on the gpu box, check the server"); and after
``ssh ubuntu@gpu07`` it was a Markdown heading that made the whole log Markdown, so the root shell
``sudo -i`` opened later lost its ``# nvidia-smi -L`` and ``# exit``, and the laptop's last ``ls``
was placed on gpu07. Now a remark in words is neither: a heading event, the log still a terminal's.
A root login's real bare-prompt commands stay commands (test_hardening72_bare_root_prompt)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

BARE_LOGIN = """\
me@laptop:~$ ssh gpu07
# now on the gpu box, check the server
Welcome to Ubuntu 22.04.4 LTS (GNU/Linux 5.15.0-105-generic x86_64)
Last login: Mon Dec  7 09:01:02 2026 from 10.0.0.5
ubuntu@gpu07:~$ nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5e0c)
ubuntu@gpu07:~$ exit
logout
Connection to gpu07 closed.
me@laptop:~$ ls
bench.py
"""

NAMED_LOGIN = """\
$ ssh ubuntu@gpu07
# logged in, the sglang container should be up: checking it
Welcome to Ubuntu 22.04.4 LTS (GNU/Linux 5.15.0-105-generic x86_64)
$ sudo -i
# docker ps --format '{{.Names}}'
sglang
# exit
logout
$ exit
logout
Connection to gpu07 closed.
$ ls
bench.py
"""


def _events(tmp_path: Path, text: str):
    from spec_debug.session.agents import AgentTree
    from spec_debug.session.events import ReadStats
    from spec_debug.session.sources import discover, iter_events

    path = tmp_path / "session.log"
    path.write_text(text)
    (source,) = discover(path)
    return list(iter_events(source, ReadStats(), AgentTree()))


def _commands(tmp_path: Path, text: str) -> list[tuple]:
    path = tmp_path / "session.log"
    path.write_text(text)
    return [(c["command"], c["host"]) for c in analyze_path(path).to_json()["commands"]]


def test_a_remark_before_the_remote_prompt_is_no_command(tmp_path: Path) -> None:
    assert _commands(tmp_path, BARE_LOGIN) == [
        ("ssh gpu07", "gpu07"), ("nvidia-smi -L", "gpu07"), ("exit", "gpu07"), ("ls", "laptop")]
    assert [e.text for e in _events(tmp_path, BARE_LOGIN) if e.raw_type == "heading"] == [
        "now on the gpu box, check the server"]


def test_a_remark_keeps_a_later_root_shells_commands(tmp_path: Path) -> None:
    assert _commands(tmp_path, NAMED_LOGIN) == [
        ("ssh ubuntu@gpu07", "gpu07"), ("sudo -i", "gpu07"), ("docker ps --format '{{.Names}}'", "gpu07"),
        ("exit", "gpu07"), ("exit", "gpu07"), ("ls", None)]


def test_commands_at_a_root_logins_bare_prompt_stay_commands(tmp_path: Path) -> None:
    log = ("$ ssh root@gpu07\n# ls /models/eagle3-llama3-8b\nconfig.json  model.safetensors\n"
           "# cat /etc/hostname\ngpu07\n# exit\n$ ls\n")
    assert _commands(tmp_path, log) == [
        ("ssh root@gpu07", "gpu07"), ("ls /models/eagle3-llama3-8b", "gpu07"), ("cat /etc/hostname", "gpu07"),
        ("exit", "gpu07"), ("ls", None)]


def test_what_reads_as_a_remark() -> None:
    from spec_debug.session.formats.text_log import _remark

    assert [_remark(t) for t in (
        "now on the gpu box, check the server", "results on gpu07: accept length stuck near 1",
        "why is the draft idle?", "it's the d2t map, checking",
    )] == [True, True, True, True]
    assert [_remark(t) for t in (
        "nvidia-smi -L", "echo a, b > /tmp/x", "python3 -c 'print(1, 2)'", "scp bench.json gpu07:",
        "ls /models", "docker ps --format '{{.Names}}'",
    )] == [False, False, False, False, False, False]

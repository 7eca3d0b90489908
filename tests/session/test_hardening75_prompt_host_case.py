"""A machine's name is case-insensitive, but prompts show it as the machine spells it: Git Bash's
``me@LAPTOP-7Q2 MINGW64 ~/work``, macOS zsh's ``jane@Janes-MacBook-Pro ~ %``, a GPU host whose
hostname is ``GPU01``. Before: those commands were on ``LAPTOP-7Q2`` while the same laptop's
PowerShell transcript (``Machine: LAPTOP-7Q2 (...)``) put its commands on ``laptop-7q2``, and after
``ssh gpu01`` the commands typed at ``root@GPU01:~#`` were on ``GPU01``: one machine listed twice
among the session's hosts, its errors split between the two names. Now a prompt's host is
lower-cased, as the transcript's machine is and as ssh itself lower-cases the host it connects to
(openssh-portable ssh.c): one machine, one name."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

_GPU_LOGIN = """\
me@laptop:~$ ssh gpu01
Welcome to Ubuntu 22.04.3 LTS
Last login: Mon Dec  7 10:00:00 2026 from 10.0.0.2
root@GPU01:~# nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3
root@GPU01:~# python3 -m sglang.launch_server --model-path /models/llama --port 30000
Traceback (most recent call last):
  File "/sgl-workspace/sglang/python/sglang/launch_server.py", line 14, in <module>
RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB
root@GPU01:~# exit
logout
Connection to gpu01 closed.
me@laptop:~$ ls
notes.md
"""

_TRANSCRIPT = "\r\n".join([
    "**********************", "PowerShell transcript start", "Start time: 20261207101500",
    "Username: LAPTOP-7Q2\\me", "RunAs User: LAPTOP-7Q2\\me",
    "Machine: LAPTOP-7Q2 (Microsoft Windows NT 10.0.22631.0)",
    "Host Application: C:\\Program Files\\PowerShell\\7\\pwsh.exe", "Process ID: 4242",
    "**********************",
    "PS C:\\Users\\me\\work> python check_draft.py", "checking draft config",
    "PS C:\\Users\\me\\work> ssh gpu01 nvidia-smi -L", "GPU 0: NVIDIA H100 80GB HBM3",
    "**********************", "PowerShell transcript end", "End time: 20261207102000",
    "**********************", ""])

_GIT_BASH = """\

me@LAPTOP-7Q2 MINGW64 ~/work (main)
$ python check_draft.py
checking draft config

me@LAPTOP-7Q2 MINGW64 ~/work (main)
$ ls
check_draft.py
"""


def test_the_host_a_login_reached_keeps_its_name(tmp_path: Path) -> None:
    path = tmp_path / "terminal.log"
    path.write_text(_GPU_LOGIN, encoding="utf-8")
    a = analyze_path(path)
    assert [(c.host, c.command) for c in a.commands] == [
        ("gpu01", "ssh gpu01"), ("gpu01", "nvidia-smi -L"),
        ("gpu01", "python3 -m sglang.launch_server --model-path /models/llama --port 30000"),
        ("gpu01", "exit"), ("laptop", "ls")]
    assert a.hosts == ["gpu01", "laptop"]
    assert [(e.host, e.exception) for e in a.errors] == [("gpu01", "RuntimeError")]


def test_one_laptop_in_a_transcript_and_a_git_bash_log(tmp_path: Path) -> None:
    (tmp_path / "pwsh_transcript.txt").write_text(_TRANSCRIPT, encoding="utf-8", newline="")
    (tmp_path / "gitbash.log").write_text(_GIT_BASH, encoding="utf-8")
    a = analyze_path(tmp_path)
    assert sorted((c.host, c.command) for c in a.commands) == [
        ("gpu01", "ssh gpu01 nvidia-smi -L"), ("laptop-7q2", "ls"),
        ("laptop-7q2", "python check_draft.py"), ("laptop-7q2", "python check_draft.py")]
    assert sorted(a.hosts) == ["gpu01", "laptop-7q2"]


def test_a_macos_prompt(tmp_path: Path) -> None:
    path = tmp_path / "zsh.log"
    path.write_text("jane@Janes-MacBook-Pro ~ % python3 bench.py --port 30000\nok\n"
                    "jane@Janes-MacBook-Pro ~ % ssh gpu01 nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n",
                    encoding="utf-8")
    a = analyze_path(path)
    assert [(c.host, c.user, c.command) for c in a.commands] == [
        ("janes-macbook-pro", "jane", "python3 bench.py --port 30000"),
        ("gpu01", None, "ssh gpu01 nvidia-smi -L")]


def test_a_login_typed_in_capitals_keeps_its_spelling(tmp_path: Path) -> None:
    path = tmp_path / "terminal.log"
    path.write_text("me@laptop:~$ ssh root@GPU01\nLast login: Mon Dec  7 10:00:00 2026 from 10.0.0.2\n"
                    "root@GPU01:~# nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\nroot@GPU01:~# exit\nlogout\n"
                    "Connection to GPU01 closed.\nme@laptop:~$ ls\nnotes.md\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(c.host, c.command) for c in a.commands] == [
        ("GPU01", "ssh root@GPU01"), ("GPU01", "nvidia-smi -L"), ("GPU01", "exit"), ("laptop", "ls")]
    assert a.hosts == ["GPU01", "laptop"]

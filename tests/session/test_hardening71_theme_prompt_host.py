"""A theme's prompt that shows no host (oh-my-zsh's ``➜  rec``), after prompts of the same shell
that showed one (``root@gpu-node-7:~#``): the commands typed there got no host, so their errors
were nobody's machine's while the ones before were gpu-node-7's. A shell's prompt changes while
its machine does not (``exec zsh``, a theme sourced); only a login or ``exit`` changes the host.
The typescript was recorded with util-linux script 2.38.1 in tmux 3.3a: bash 5.2 with PS1
``root@gpu-node-7:\\w# `` runs ``exec env ZDOTDIR=... zsh -i``, whose .zshrc sets robbyrussell's
PROMPT (ohmyzsh/ohmyzsh themes/robbyrussell.zsh-theme, without its git part)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

TS = b"".join([
    b'Script started on 2026-12-07 04:55:11+00:00 [COMMAND="bash --rcfile /tmp/textlogs9-scratch'
    b'/bashrc -i" TERM="tmux-256color" TTY="/dev/pts/0" COLUMNS="120" LINES="40"]\n',
    b'\x1b[?2004hroot@gpu-node-7:/tmp/textlogs9-scratch# cd /tmp/textlogs9-scratch/rec\r\n',
    b"\x1b[?2004l\r\x1b[?2004hroot@gpu-node-7:/tmp/textlogs9-scratch/rec# python3 -c 'import sys; print"
    b"(sys.version_info[:2])'\r\n",
    b'\x1b[?2004l\r(3, 11)\r\n',
    b'\x1b[?2004hroot@gpu-node-7:/tmp/textlogs9-scratch/rec# exec env ZDOTDIR=/tmp/textlogs9-scratc'
    b'h/zdot zsh -i\r\n',
    b'\x1b[?2004l\r\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                           '
    b'                                                            \r \r\r\x1b[0m\x1b[27m\x1b[24m\x1b[J\x1b[01;32m\xe2'
    b'\x9e\x9c  \x1b[36mrec\x1b[00m \x1b[K\x1b[?1h\x1b=\x1b[?2004hl\x08ls /models/eagle3-llama3.1-8b\x1b[?1l\x1b>\x1b[?2004l\r\r\n',
    b"ls: cannot access '/models/eagle3-llama3.1-8b': No such file or directory\r\n",
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                    '
    b'                                                   \r \r\r\x1b[0m\x1b[27m\x1b[24m\x1b[J\x1b[01;31m\xe2\x9e\x9c  \x1b[36m'
    b"rec\x1b[00m \x1b[K\x1b[?1h\x1b=\x1b[?2004hp\x08python3 -c 'import torch_missing_mod'\x1b[?1l\x1b>\x1b[?2004l\r\r\n",
    b'Traceback (most recent call last):\r\n',
    b'  File "<string>", line 1, in <module>\r\n',
    b"ModuleNotFoundError: No module named 'torch_missing_mod'\r\n",
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                    '
    b'                                                   \r \r\r\x1b[0m\x1b[27m\x1b[24m\x1b[J\x1b[01;31m\xe2\x9e\x9c  \x1b[36m'
    b'rec\x1b[00m \x1b[K\x1b[?1h\x1b=\x1b[?2004he\x08exit\x1b[?1l\x1b>\x1b[?2004l\r\r\n',
    b'\n',
    b'Script done on 2026-12-07 04:55:16+00:00 [COMMAND_EXIT_CODE="1"]\n',
])


def test_a_themes_prompt_after_exec_zsh_is_the_same_hosts(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(TS)
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"]) for c in doc["commands"]][1:] == [
        ("cd /tmp/textlogs9-scratch/rec", "gpu-node-7"),
        ("python3 -c 'import sys; print(sys.version_info[:2])'", "gpu-node-7"),
        ("exec env ZDOTDIR=/tmp/textlogs9-scratch/zdot zsh -i", "gpu-node-7"),
        ("ls /models/eagle3-llama3.1-8b", "gpu-node-7"),
        ("python3 -c 'import torch_missing_mod'", "gpu-node-7"),
        ("exit", "gpu-node-7")]
    assert [(e["host"], e["message"]) for e in doc["errors"]] == [
        ("gpu-node-7", "ls: cannot access '/models/eagle3-llama3.1-8b': No such file or directory"),
        ("gpu-node-7", "No module named 'torch_missing_mod'")]


def test_the_carried_host_follows_logins_and_exits(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text("me@laptop:~$ exec zsh\n"
                    "➜  ~ ssh gpu01\n"
                    "Last login: Mon Dec  7 04:00:00 2026 from 10.0.0.2\n"
                    "root@gpu01:~# exec zsh\n"
                    "➜  ~ nvidia-smi -L\n"
                    "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5d1c)\n"
                    "➜  ~ exit\n"
                    "Connection to gpu01 closed.\n"
                    "➜  ~ ls\n"
                    "notes.md\n")
    assert [(c.command, c.host) for c in analyze_path(path).commands] == [
        ("exec zsh", "laptop"), ("ssh gpu01", "gpu01"), ("exec zsh", "gpu01"), ("nvidia-smi -L", "gpu01"),
        ("exit", "gpu01"), ("ls", "laptop")]


def test_a_notes_bare_dollar_carries_no_host(tmp_path: Path) -> None:
    # a `$ ` line is how notes write a command on any machine: no theme of a shell, no host carried
    path = tmp_path / "note.log"
    path.write_text("root@gpu01:~# nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n$ pip list\nsglang 0.4.6\n")
    assert [(c.command, c.host) for c in analyze_path(path).commands] == [("nvidia-smi -L", "gpu01"), ("pip list", None)]

"""starship's default prompt on a host reached over ssh is two lines: ``ubuntu in 🌐 gpu-node-7
in ~/sglang`` (its username and hostname modules, shown in an ssh session), then ``❯ cmd``. The
host is only on the first line; the ``❯`` line alone shows none. Before: the commands typed there
were read as the local machine's (no host), so a playbook would have run them on the wrong
machine; now each is on the host (and user, and folder) the line above shows, across an ssh hop
to another host and back. The typescript is a bash 5.2.15 session recorded with util-linux script
2.38.1 whose PS1 prints starship's default text (no starship here: starship/starship
src/configs/hostname.rs and src/configs/username.rs give the "🌐 " and the " in "s); the hop is
written by hand in the same lines."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

STARSHIP_TYPESCRIPT = b"".join([
    b'Script started on 2026-12-06 06:11:37+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm" TTY="/dev/pts/0" COLUMNS="-1" LINES="-1"]\n',
    b"\x1b[?2004hbash-5.2# export PS1='\\n\\u in \xf0\x9f\x8c\x90 gpu-node-7 in \\w \\n\xe2\x9d\xaf '\r\n",
    b'\x1b[?2004l\r\x1b[?2004h\r\r\n',
    b'root in \xf0\x9f\x8c\x90 gpu-node-7 in /tmp/terminal5-scratch/rec \r\r\n',
    b'\xe2\x9d\xaf mkdir -p /tmp/terminal5-scratch/rec/models && cd /tmp/terminal5-scratch/rec\r\n',
    b'\x1b[?2004l\r\x1b[?2004h\r\r\n',
    b'root in \xf0\x9f\x8c\x90 gpu-node-7 in /tmp/terminal5-scratch/rec \r\r\n',
    b'\xe2\x9d\xaf ls models/eagle3\r\n',
    b"\x1b[?2004l\rls: cannot access 'models/eagle3': No such file or directory\r\n",
    b'\x1b[?2004h\r\r\n',
    b'root in \xf0\x9f\x8c\x90 gpu-node-7 in /tmp/terminal5-scratch/rec \r\r\n',
    b'\xe2\x9d\xaf nvidia-smi -L 2>&1 | head -1\r\n',
    b'\x1b[?2004l\rbash: nvidia-smi: command not found\r\n',
    b'\x1b[?2004h\r\r\n',
    b'root in \xf0\x9f\x8c\x90 gpu-node-7 in /tmp/terminal5-scratch/rec \r\r\n',
    b'\xe2\x9d\xaf exit\r\n',
    b'\x1b[?2004l\rexit\r\n',
    b'\n',
    b'Script done on 2026-12-06 06:11:41+00:00 [COMMAND_EXIT_CODE="0"]\n',
])

STARSHIP_HOP = "\n".join([
    "",
    "ubuntu in 🌐 gpu-node-7 in ~/sglang on  main ",
    "❯ nvidia-smi -L",
    "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-1)",
    "",
    "ubuntu in 🌐 gpu-node-7 in ~/sglang on  main ",
    "❯ ssh ubuntu@gpu-node-9",
    "",
    "ubuntu in 🌐 gpu-node-9 in ~ ",
    "❯ cat /models/eagle3/config.json",
    "cat: /models/eagle3/config.json: No such file or directory",
    "",
    "ubuntu in 🌐 gpu-node-9 in ~ ",
    "❯ exit",
    "",
    "ubuntu in 🌐 gpu-node-7 in ~/sglang on  main ",
    "❯ ls /models",
    "eagle3",
    "",
    "starship says ❯ is its character module",
]) + "\n"


def test_commands_at_a_starship_prompt_run_on_the_host_the_line_above_shows(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(STARSHIP_TYPESCRIPT)
    a = analyze_path(path)
    assert [(c.host, c.user, c.command) for c in a.commands][2:] == [
        ("gpu-node-7", "root", "mkdir -p /tmp/terminal5-scratch/rec/models && cd /tmp/terminal5-scratch/rec"),
        ("gpu-node-7", "root", "ls models/eagle3"),
        ("gpu-node-7", "root", "nvidia-smi -L 2>&1 | head -1"),
        ("gpu-node-7", "root", "exit"),
    ]


def test_a_starship_prompt_keeps_its_host_across_an_ssh_hop(tmp_path: Path) -> None:
    path = tmp_path / "console.log"
    path.write_text(STARSHIP_HOP, encoding="utf-8")
    a = analyze_path(path)
    assert [(c.host, c.user, c.command) for c in a.commands] == [
        ("gpu-node-7", "ubuntu", "nvidia-smi -L"),
        ("gpu-node-9", "ubuntu", "ssh ubuntu@gpu-node-9"),
        ("gpu-node-9", "ubuntu", "cat /models/eagle3/config.json"),
        ("gpu-node-9", "ubuntu", "exit"),
        ("gpu-node-7", "ubuntu", "ls /models"),
    ]
    assert a.commands[2].is_error

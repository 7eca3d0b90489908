"""Bash and zsh prompts that show the time after the folder: ``root@gpu10:~/w [13:20:52]# ``
(PS1 ``'\\u@\\h:\\w [\\t]\\$ '``, bash(1), PROMPTING) and ``me@gpu10 ~/w [10:01:02] $``. Before:
neither was read as a prompt, so a typescript was one command (the ``bash`` script started, with
script's status 127) and a pasted log had no commands at all: every command typed on gpu10 was
lost. Now each command is read on the host, as the user and in the folder its prompt shows, and
``echo $?`` gives the command before it its status. The typescript is a bash 5.2.15 session
recorded with util-linux script 2.38.1 (hostname set with unshare --uts)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

TIME_AFTER_FOLDER = b"".join([
    b'Script started on 2026-12-07 13:20:51+00:00 [COMMAND="bash --rcfile /tmp/rec/rc1 -i" <not executed on terminal>]\n',
    b'\x1b[?2004hroot@gpu10:~ [13:20:51]# cd ~/w\r\n',
    b'\x1b[?2004l\r',
    b'\x1b[?2004hroot@gpu10:~/w [13:20:52]# python3 -c "import sys; print(\'loading\'); sys.exit(3)"\r\n',
    b'\x1b[?2004l\r',
    b'loading\r\n',
    b'\x1b[?2004hroot@gpu10:~/w [13:20:52]# echo $?\r\n',
    b'\x1b[?2004l\r',
    b'3\r\n',
    b'\x1b[?2004hroot@gpu10:~/w [13:20:52]# nvidia-smi -L\r\n',
    b'\x1b[?2004l\r',
    b'bash: nvidia-smi: command not found\r\n',
    b'\x1b[?2004hroot@gpu10:~/w [13:20:53]# exit\r\n',
    b'\x1b[?2004l\r',
    b'exit\r\n',
    b'\n',
    b'Script done on 2026-12-07 13:20:53+00:00 [COMMAND_EXIT_CODE="127"]\n',
])


def test_a_typescript_with_the_time_after_the_folder_keeps_every_command(tmp_path: Path) -> None:
    path = tmp_path / "gpu10.typescript"
    path.write_bytes(TIME_AFTER_FOLDER)
    a = analyze_path(path)
    typed = [(c.host, c.user, c.cwd, c.exit_code, c.command) for c in a.commands[1:]]
    assert typed == [
        ("gpu10", "root", "~", None, "cd ~/w"),
        ("gpu10", "root", "~/w", 3, "python3 -c \"import sys; print('loading'); sys.exit(3)\""),
        ("gpu10", "root", "~/w", None, "echo $?"),
        ("gpu10", "root", "~/w", None, "nvidia-smi -L"),
        ("gpu10", "root", "~/w", None, "exit"),
    ]
    assert a.commands[0].command == "bash --rcfile /tmp/rec/rc1 -i"
    assert [c.command for c in a.commands if c.is_error] == [
        "python3 -c \"import sys; print('loading'); sys.exit(3)\"", "nvidia-smi -L"]


_PASTED = """\
me@laptop:~$ ssh me@gpu10
me@gpu10:~/w [10:01:02]$ python3 -m sglang.launch_server --model-path /models/target --speculative-algorithm EAGLE3
RuntimeError: CUDA error: out of memory
me@gpu10:~/w [10:01:40]$ echo $?
1
me@gpu10:~/w [10:01:41]$ exit
me@laptop:~$ zsh
me@laptop ~/notes [10:02:00] % ls
incident.md
"""


def test_a_pasted_log_reads_the_prompts_on_the_hosts_they_name(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text(_PASTED, encoding="utf-8")
    a = analyze_path(path)
    assert [(c.host, c.user, c.cwd, c.exit_code, c.command) for c in a.commands] == [
        ("gpu10", "me", None, None, "ssh me@gpu10"),
        ("gpu10", "me", "~/w", 1, "python3 -m sglang.launch_server --model-path /models/target "
                                  "--speculative-algorithm EAGLE3"),
        ("gpu10", "me", "~/w", None, "echo $?"),
        ("gpu10", "me", "~/w", None, "exit"),
        ("laptop", "me", "~", None, "zsh"),
        ("laptop", "me", "~/notes", None, "ls"),
    ]

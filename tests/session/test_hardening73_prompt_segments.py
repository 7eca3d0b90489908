"""Bash prompts that put something between the host and the typed command: the whole folder
inside the brackets with git's branch after them, ``[root@gpu13:~/w] (main) # `` (PS1
``'[\\u@\\h:\\w]$(__git_ps1 " (%s)") \\$ '``, git contrib/completion/git-prompt.sh), and the time
between the host and the folder, ``root@gpu10 [11:22:24] ~/w # `` (PS1 ``'\\u@\\h [\\t] \\w \\$ '``,
bash(1), PROMPTING). Before: neither line was read as a prompt, so the whole log was one command
(the ``bash`` that script started) and every command typed on gpu13 or gpu10 was lost. Now each
command is read, on the host its prompt names, and the folder ``~/w`` is kept. Both typescripts
are bash 5.2.15 sessions recorded with util-linux script 2.38.1 (hostnames set with unshare --uts)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

BRANCH_AFTER_BRACKETS = b"".join([
    b'Script started on 2026-12-07 11:22:14+00:00 [COMMAND="bash --rcfile /tmp/rec/rc1 -i" <not executed on terminal>]\n',
    b'\x1b[?2004h[root@gpu13:~] # cd ~/w\r\n',
    b'\x1b[?2004l\r',
    b'\x1b[?2004h[root@gpu13:~/w] (main) # python3 -c "import sys; print(1); sys.exit(3)"\r\n',
    b'\x1b[?2004l\r',
    b'1\r\n',
    b'\x1b[?2004h[root@gpu13:~/w] (main) # echo "status: $?"\r\n',
    b'\x1b[?2004l\r',
    b'status: 3\r\n',
    b'\x1b[?2004h[root@gpu13:~/w] (main) # ls /nonexistent\r\n',
    b'\x1b[?2004l\r',
    b"ls: cannot access '/nonexistent': No such file or directory\r\n",
    b'\x1b[?2004h[root@gpu13:~/w] (main) # echo "rc=$?"\r\n',
    b'\x1b[?2004l\r',
    b'rc=2\r\n',
    b'\x1b[?2004h[root@gpu13:~/w] (main) # true\r\n',
    b'\x1b[?2004l\r',
    b'\x1b[?2004h[root@gpu13:~/w] (main) # echo "status: $?"\r\n',
    b'\x1b[?2004l\r',
    b'status: 0\r\n',
    b'\x1b[?2004h[root@gpu13:~/w] (main) # exit\r\n',
    b'\x1b[?2004l\r',
    b'exit\r\n',
    b'\n',
    b'Script done on 2026-12-07 11:22:22+00:00 [COMMAND_EXIT_CODE="0"]\n',
])

TIME_BEFORE_FOLDER = b"".join([
    b'Script started on 2026-12-07 11:22:23+00:00 [COMMAND="bash --rcfile /tmp/rec/rc2 -i" <not executed on terminal>]\n',
    b'\x1b[?2004hroot@gpu10 [11:22:23] ~ # cd ~/w\r\n',
    b'\x1b[?2004l\r',
    b'\x1b[?2004hroot@gpu10 [11:22:24] ~/w # python3 -c "import sys; print(1); sys.exit(3)"\r\n',
    b'\x1b[?2004l\r',
    b'1\r\n',
    b'\x1b[?2004hroot@gpu10 [11:22:25] ~/w # echo "status: $?"\r\n',
    b'\x1b[?2004l\r',
    b'status: 3\r\n',
    b'\x1b[?2004hroot@gpu10 [11:22:26] ~/w # ls /nonexistent\r\n',
    b'\x1b[?2004l\r',
    b"ls: cannot access '/nonexistent': No such file or directory\r\n",
    b'\x1b[?2004hroot@gpu10 [11:22:27] ~/w # echo "rc=$?"\r\n',
    b'\x1b[?2004l\r',
    b'rc=2\r\n',
    b'\x1b[?2004hroot@gpu10 [11:22:28] ~/w # true\r\n',
    b'\x1b[?2004l\r',
    b'\x1b[?2004hroot@gpu10 [11:22:29] ~/w # echo "status: $?"\r\n',
    b'\x1b[?2004l\r',
    b'status: 0\r\n',
    b'\x1b[?2004hroot@gpu10 [11:22:30] ~/w # exit\r\n',
    b'\x1b[?2004l\r',
    b'exit\r\n',
    b'\n',
    b'Script done on 2026-12-07 11:22:31+00:00 [COMMAND_EXIT_CODE="0"]\n',
])

TYPED = ["cd ~/w", 'python3 -c "import sys; print(1); sys.exit(3)"', 'echo "status: $?"', "ls /nonexistent",
         'echo "rc=$?"', "true", 'echo "status: $?"', "exit"]


def _commands(tmp_path: Path, data: bytes) -> list[tuple]:
    path = tmp_path / "typescript"
    path.write_bytes(data)
    doc = analyze_path(path).to_json()
    return [(c["command"], c["host"]) for c in doc["commands"]]


def test_the_folder_in_brackets_and_the_branch_after_them(tmp_path: Path) -> None:
    got = _commands(tmp_path, BRANCH_AFTER_BRACKETS)
    assert got == [("bash --rcfile /tmp/rec/rc1 -i", None)] + [(c, "gpu13") for c in TYPED]


def test_the_folder_each_command_ran_in(tmp_path: Path) -> None:
    for data in (BRANCH_AFTER_BRACKETS, TIME_BEFORE_FOLDER):
        path = tmp_path / "typescript"
        path.write_bytes(data)
        got = [c["cwd"] for c in analyze_path(path).to_json()["commands"]]
        assert got == [None, "~"] + ["~/w"] * 7


def test_the_time_between_the_host_and_the_folder(tmp_path: Path) -> None:
    got = _commands(tmp_path, TIME_BEFORE_FOLDER)
    assert got == [("bash --rcfile /tmp/rec/rc2 -i", None)] + [(c, "gpu10") for c in TYPED]


def test_a_bracketed_folder_without_a_branch_and_the_rhel_prompt_stay_prompts(tmp_path: Path) -> None:
    text = ("[me@gpu13:~/sglang]$ nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n"
            "[root@gpu-3 ~]# hostname\ngpu-3\n")
    got = _commands(tmp_path, text.encode())
    assert got == [("nvidia-smi -L", "gpu13"), ("hostname", "gpu-3")]

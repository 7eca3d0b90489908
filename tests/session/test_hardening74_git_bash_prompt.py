"""Git Bash on Windows (Git for Windows' ``/etc/profile.d/git-prompt.sh``) shows its prompt on two
rows: ``me@LAPTOP-7Q2 MINGW64 ~/work (main)`` (user, host, ``$MSYSTEM``, folder, git's branch),
then ``$ `` with the command. Before: the first row was read as the last line of the output of
the command before it, so ``echo $?``'s ``1`` was no status (its output ended on the prompt row),
and the commands typed there had no host, user or folder. Now the two rows are one prompt, as the
one-row ``me@LAPTOP-7Q2:~/work$`` would be: the output ends where the command's did, the status is
read, and the laptop's commands are its own; an ssh still runs on the host it names."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

_LOG = """\

me@LAPTOP-7Q2 MINGW64 ~/work (main)
$ ssh gpu01 nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3

me@LAPTOP-7Q2 MINGW64 ~/work (main)
$ python check_draft.py
checking draft config

me@LAPTOP-7Q2 MINGW64 ~/work (main)
$ echo $?
1

me@LAPTOP-7Q2 MINGW64 ~/work (main)
$ ls
check_draft.py  notes.md
"""


def test_git_bash_two_row_prompt_is_one_prompt(tmp_path: Path) -> None:
    path = tmp_path / "gitbash.log"
    path.write_text(_LOG, encoding="utf-8")
    a = analyze_path(path)
    assert [(c.host, c.user, c.cwd, c.exit_code, c.is_error, c.command) for c in a.commands] == [
        ("gpu01", None, None, None, False, "ssh gpu01 nvidia-smi -L"),
        ("laptop-7q2", "me", "~/work", 1, True, "python check_draft.py"),
        ("laptop-7q2", "me", "~/work", None, False, "echo $?"),
        ("laptop-7q2", "me", "~/work", None, False, "ls"),
    ]


def test_a_row_that_only_looks_like_it_stays_output(tmp_path: Path) -> None:
    path = tmp_path / "gitbash.log"
    path.write_text("me@gpu01:~$ grep -h MINGW64 notes.md\nme@LAPTOP-7Q2 MINGW64 ~/work (main)\nme@gpu01:~$ ls\n",
                    encoding="utf-8")
    a = analyze_path(path)
    assert [(c.host, c.command) for c in a.commands] == [("gpu01", "grep -h MINGW64 notes.md"), ("gpu01", "ls")]

"""A bracketed prompt that shows the whole folder after a space, ``[root@gpu13 ~/w]# `` (PS1
``'[\\u@\\h \\w]\\$ '``, bash(1), PROMPTING: ``\\w`` the whole path, ``~`` for the home). Before:
the folder was dropped (read as ``\\W``, the last part only), so ``ls`` and ``pwd`` had no folder.
Now ``~/w`` and ``/tmp`` are kept; a last part alone (``[me@gpu13 w]$``) still gives none, as
``\\W`` shows no path to go back to. The typescript is a bash 5.2.15 session recorded with
util-linux script 2.38.1."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

WHOLE_FOLDER = b"".join([
    b'Script started on 2026-12-07 11:31:40+00:00 [COMMAND="bash --rcfile /tmp/rec/rc3 -i" <not executed on terminal>]\n',
    b'\x1b[?2004h[root@gpu13 ~]# cd ~/w\r\n',
    b'\x1b[?2004l\r',
    b'\x1b[?2004h[root@gpu13 ~/w]# ls\r\n',
    b'\x1b[?2004l\r',
    b'bench.py\r\n',
    b'\x1b[?2004h[root@gpu13 ~/w]# cd /tmp\r\n',
    b'\x1b[?2004l\r',
    b'\x1b[?2004h[root@gpu13 /tmp]# pwd\r\n',
    b'\x1b[?2004l\r',
    b'/tmp\r\n',
    b'\x1b[?2004h[root@gpu13 /tmp]# exit\r\n',
    b'\x1b[?2004l\r',
    b'exit\r\n',
    b'\n',
    b'Script done on 2026-12-07 11:31:44+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_the_whole_folder_in_the_brackets_is_each_commands(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(WHOLE_FOLDER)
    got = [(c["command"], c["host"], c["cwd"]) for c in analyze_path(path).to_json()["commands"]]
    assert got == [("bash --rcfile /tmp/rec/rc3 -i", None, None), ("cd ~/w", "gpu13", "~"), ("ls", "gpu13", "~/w"),
                   ("cd /tmp", "gpu13", "~/w"), ("pwd", "gpu13", "/tmp"), ("exit", "gpu13", "/tmp")]


def test_the_last_part_alone_gives_no_folder(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text("[me@gpu13 w]$ ls\nbench.py\n[me@gpu13 w (main)]$ pwd\n/home/me/w\n")
    got = [(c["command"], c["host"], c["cwd"]) for c in analyze_path(path).to_json()["commands"]]
    assert got == [("ls", "gpu13", None), ("pwd", "gpu13", None)]

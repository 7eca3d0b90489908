"""Shell commands run from IPython on a GPU host: ``In [1]: !ls /nonexistent`` (IPython's "System
shell access", the same in ``jupyter console``). Before: the ``In [N]: !`` line was no prompt, so
the commands run there were lost, their output (ls's error) read as the ``ipython`` command's.
Now each ``!`` command is read, on the host of the shell that started ``ipython`` (gpu03 here),
its output its own. The typescript is an IPython 8.12.3 session started from bash 5.2.15, recorded
with util-linux script 2.38.1 (hostname set with unshare --uts)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

IPYTHON_SHELL = b"".join([
    b'Script started on 2026-12-07 13:50:52+00:00 [COMMAND="bash --rcfile /tmp/rec/rc2 -i" <not executed on terminal>]\n',
    b'\x1b[?2004hroot@gpu03:~# ipython --no-banner --colors=NoColor\r\n',
    b'\x1b[?2004l\r',
    b'\x1b[?12l\x1b[?25h\x1b[22;0t\x1b]0;IPython: tmp/rec\x07\r\n',
    b'\x1b[6n\x1b[?2004h\x1b[?1l\x1b[?25l\x1b[0m\x1b[?7l\x1b[0m\x1b[J\x1b[0mIn [1]:\x1b[7D\x1b[8C\x1b[?7h\x1b[0m\x1b[?12l\x1b[?25h\x1b[?25l\x1b[?7l\x1b[8D\x1b[0mIn [1]: !ls /nonexistent\x1b[?7h\x1b[0m\x1b[?12l\x1b[?25h\x1b[?25l\x1b[?7l\x1b[24D\x1b[0m\x1b[J\x1b[0mIn [1]: !ls /nonexistent\x1b[24D\x1b[0m\r',
    b'\r\n',
    b"\x1b[J\x1b[?7h\x1b[0m\x1b[?12l\x1b[?25h\x1b[?2004lls: cannot access '/nonexistent': No such file or directory\r\n",
    b'\r\n',
    b'\x1b[6n\x1b[?2004h\x1b[?25l\x1b[0m\x1b[?7l\x1b[0m\x1b[J\x1b[0mIn [2]:\x1b[7D\x1b[8C\x1b[?7h\x1b[0m\x1b[?12l\x1b[?25h\x1b[?25l\x1b[?7l\x1b[8D\x1b[0mIn [2]: !python3 -c "print(\'draft ok\')"\x1b[?7h\x1b[0m\x1b[?12l\x1b[?25h\x1b[?25l\x1b[?7l\x1b[39D\x1b[0m\x1b[J\x1b[0mIn [2]: !python3 -c "print(\'draft ok\')"\x1b[39D\x1b[0m\r',
    b'\r\n',
    b'\x1b[J\x1b[?7h\x1b[0m\x1b[?12l\x1b[?25h\x1b[?2004ldraft ok\r\n',
    b'\r\n',
    b'\x1b[6n\x1b[?2004h\x1b[?25l\x1b[0m\x1b[?7l\x1b[0m\x1b[J\x1b[0mIn [3]:\x1b[7D\x1b[8C\x1b[?7h\x1b[0m\x1b[?12l\x1b[?25h\x1b[?25l\x1b[?7l\x1b[8D\x1b[0m\x1b[J\x1b[0mIn [3]: exit\x1b[12D\x1b[0m\r',
    b'\r\n',
    b'\x1b[J\x1b[?7h\x1b[0m\x1b[?12l\x1b[?25h\x1b[?2004l\x1b[23;0t\x1b[?2004hroot@gpu03:~# exit\r\n',
    b'\x1b[?2004l\r',
    b'exit\r\n',
    b'\n',
    b'Script done on 2026-12-07 13:51:01+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_ipython_shell_commands_are_read_on_the_host_it_runs_on(tmp_path: Path) -> None:
    path = tmp_path / "gpu03.typescript"
    path.write_bytes(IPYTHON_SHELL)
    a = analyze_path(path)
    assert [(c.host, c.is_error, c.command) for c in a.commands[1:]] == [
        ("gpu03", False, "ipython --no-banner --colors=NoColor"),
        ("gpu03", True, "ls /nonexistent"),
        ("gpu03", False, "python3 -c \"print('draft ok')\""),
        ("gpu03", False, "exit"),
    ]
    assert [(e.host, e.command_seq, e.message) for e in a.errors] == [
        ("gpu03", a.commands[2].seq, "ls: cannot access '/nonexistent': No such file or directory")]


_PASTED = """\
me@laptop:~$ ipython
In [1]: !ssh gpu01 nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3

In [2]: !!ls
Out[2]: ['notes.md']

In [3]: exit
me@laptop:~$ ls
notes.md
"""


def test_an_ssh_run_from_ipython_is_the_hosts_it_names(tmp_path: Path) -> None:
    path = tmp_path / "ipython.log"
    path.write_text(_PASTED, encoding="utf-8")
    assert [(c.host, c.inner) for c in analyze_path(path).commands] == [
        ("laptop", "ipython"), ("gpu01", "nvidia-smi -L"), ("laptop", "ls")]

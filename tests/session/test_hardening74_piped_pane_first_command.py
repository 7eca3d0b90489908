"""A pane logged with ``tmux pipe-pane -o 'cat >> pane.log'`` (tmux(1), pipe-pane), started from
tmux's command prompt while the shell waited at its own: the log begins with the echo of the
command typed next, no prompt before it. Before: that first row was read as text, so the command
was lost, the CUDA error it printed went to no command, and the ``echo $?`` after it gave its 1 to
nothing. Now the row is a command (on no host yet: no prompt has shown the shell's), its output
and status its own. The logs are bash 5.2.15 and zsh 5.9 in tmux 3.3a (hostname set with unshare
--uts), the pipe opened once the prompt was drawn."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

BASH_PANE = b"".join([
    b'python3 -c "import sys; print(\\"CUDA error: out of memory\\"); sys.exit(1)"\r\n',
    b'\x1b[?2004l\r',
    b'CUDA error: out of memory\r\n',
    b'\x1b[?2004hroot@gpu05:~# echo $?\r\n',
    b'\x1b[?2004l\r',
    b'1\r\n',
    b'\x1b[?2004hroot@gpu05:~# ls /nonexistent\r\n',
    b'\x1b[?2004l\r',
    b"ls: cannot access '/nonexistent': No such file or directory\r\n",
    b'\x1b[?2004hroot@gpu05:~# exit\r\n',
    b'\x1b[?2004l\r',
    b'exit\r\n',
])

ZSH_PANE = b"".join([
    b'p\x08python3 -c "import sys; print(\\"CUDA error: out of memory\\"); sys.exit(1)"\x1b[?1l\x1b>\x1b[?2004l\r',
    b'\r\n',
    b'CUDA error: out of memory\r\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                                                                       \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu06 ~/w # \x1b[K\x1b[?1h\x1b=\x1b[?2004he\x08echo $?\x1b[?1l\x1b>\x1b[?2004l\r',
    b'\r\n',
    b'1\r\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                                                                       \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu06 ~/w # \x1b[K\x1b[?1h\x1b=\x1b[?2004he\x08exit\x1b[?1l\x1b>\x1b[?2004l\r',
    b'\r\n',
])

_FIRST = 'python3 -c "import sys; print(\\"CUDA error: out of memory\\"); sys.exit(1)"'


def test_the_command_typed_first_in_a_piped_bash_pane_is_read(tmp_path: Path) -> None:
    path = tmp_path / "pane.log"
    path.write_bytes(BASH_PANE)
    a = analyze_path(path)
    assert [(c.host, c.exit_code, c.is_error, c.command) for c in a.commands] == [
        (None, 1, True, _FIRST),
        ("gpu05", None, False, "echo $?"),
        ("gpu05", None, True, "ls /nonexistent"),
        ("gpu05", None, False, "exit"),
    ]
    assert [(e.kind, e.command_seq) for e in a.errors] == [
        ("cuda_oom", a.commands[0].seq), ("tool_error", a.commands[2].seq)]


def test_the_command_typed_first_in_a_piped_zsh_pane_is_read(tmp_path: Path) -> None:
    path = tmp_path / "pane.log"
    path.write_bytes(ZSH_PANE)
    a = analyze_path(path)
    assert [(c.host, c.cwd, c.exit_code, c.command) for c in a.commands] == [
        (None, None, 1, _FIRST),
        ("gpu06", "~/w", None, "echo $?"),
        ("gpu06", "~/w", None, "exit"),
    ]


def test_a_log_that_starts_with_output_keeps_it_as_output(tmp_path: Path) -> None:
    path = tmp_path / "pane.log"
    path.write_bytes(b"CUDA error: out of memory\r\n\x1b[?2004hroot@gpu05:~# ls\r\n\x1b[?2004l\rnotes.md\r\n")
    assert [(c.host, c.command) for c in analyze_path(path).commands] == [("gpu05", "ls")]

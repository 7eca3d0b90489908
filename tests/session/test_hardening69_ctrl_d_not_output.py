"""A terminal log that ends at the shell's prompt: with Ctrl-D there, bash writes the prompt,
then "exit" ("logout" for a login shell) as it leaves; a tmux pane's copy ends on the prompt
waiting, nothing typed. Those lines were read as the last command's output, so an ``echo $?``
typed last read "1", the prompt (and "exit"): no status, and the failed command before it kept
none. They are the shell's, not the command's: left out of its output.

The typescript is a real one: util-linux script 2.38.1 running bash 5.2.15 (``--norc -i``,
``PS1='me@gpu01:~$ '``), the input piped to it and ended, as Ctrl-D ends it."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

RECORDED = (
    b'Script started on 2026-12-06 23:31:14+00:00 [<not executed on terminal>]\n'
    b'\x1b[?2004hme@gpu01:~$ sh -c "echo accept length: 1.20; exit 1"\r\n\x1b[?2004l\raccept length: 1.20\r\n'
    b'\x1b[?2004hme@gpu01:~$ echo $?\r\n\x1b[?2004l\r1\r\n'
    b'\x1b[?2004hme@gpu01:~$ \x1b[?2004l\r\r\nexit\r\n\n'
    b'Script done on 2026-12-06 23:31:15+00:00 [COMMAND_EXIT_CODE="0"]\n')


def test_the_echo_typed_last_gives_the_status_of_the_command_before(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(RECORDED)
    bench, echo = analyze_path(path).commands
    assert (bench.command, bench.exit_code, bench.is_error) == ('sh -c "echo accept length: 1.20; exit 1"', 1, True)
    assert (echo.command, echo.exit_code, echo.is_error) == ("echo $?", 0, False)


@pytest.mark.parametrize("end", ["root@gpu01:~# \nexit\n", "root@gpu01:~# \nlogout\n", "root@gpu01:~#\n"],
                         ids=["ctrl-d", "ctrl-d-login", "waiting"])
def test_a_copied_terminal_ending_at_its_prompt(tmp_path: Path, end: str) -> None:
    # the same end copied from a terminal or a tmux pane (capture-pane trims the prompt's last
    # space), no script(1) lines around it; or the pane's last row, the prompt waiting
    path = tmp_path / "terminal.log"
    path.write_text("root@gpu01:~# python3 bench_speculative.py --port 30000\naccept length: 1.20\n"
                    f"root@gpu01:~# echo $?\n2\n{end}")
    bench, echo = analyze_path(path).commands
    assert (bench.exit_code, bench.is_error, echo.exit_code) == (2, True, None)

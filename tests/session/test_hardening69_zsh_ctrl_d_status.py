"""An interactive zsh recorded with util-linux ``script`` and left with Ctrl-D. zsh leaves on end
of input as ``exit`` with no argument does, with "the exit status from the last command executed"
(zshbuiltins(1), ``exit``: "An EOF condition will also cause the shell to exit"), and, unlike
bash, writes no "exit" as it goes: the typescript ends on its prompt, nothing typed, then
``Script done ... [COMMAND_EXIT_CODE="3"]``. The last command, which exited 3 having printed no
error of its own, kept no status.

The typescript is a real one: util-linux script 2.38.1 running zsh 5.9 (``zsh -f -i``,
``PS1='me@gpu01 %~ %# '``, as root), the input piped to it and ended, as Ctrl-D ends it."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

PROMPT = (b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m' + b' ' * 79 + b'\r \r\r\x1b[0m\x1b[27m\x1b[24m\x1b[J'
          b'me@gpu01 ~ # \x1b[K\x1b[?2004h')
RECORDED = (
    b'Script started on 2026-12-06 23:38:37+00:00 [<not executed on terminal>]\n'
    + PROMPT + b'e\x08echo before\x1b[?2004l\r\r\nbefore\r\n'
    + PROMPT + b's\x08sh -c "echo loading draft; exit 3"\x1b[?2004l\r\r\nloading draft\r\n'
    + PROMPT + b'\x1b[?2004l\r\r\n\nScript done on 2026-12-06 23:38:38+00:00 [COMMAND_EXIT_CODE="3"]\n')


def test_zsh_left_at_its_prompt_gives_its_status_to_the_last_command(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(RECORDED)
    before, launch = analyze_path(path).commands
    assert (before.command, before.exit_code) == ("echo before", None)
    assert (launch.command, launch.exit_code, launch.is_error, launch.host) == \
        ('sh -c "echo loading draft; exit 3"', 3, True, "gpu01")


@pytest.mark.parametrize("status", [b"129", b"143"])
def test_a_signals_status_is_the_shells_own(tmp_path: Path, status: bytes) -> None:
    # the window closed (SIGHUP) or the shell was killed (SIGTERM) at its prompt: 128 + the
    # signal's number (bash(1), EXIT STATUS; zsh the same), no status of the command before
    path = tmp_path / "typescript"
    path.write_bytes(RECORDED.replace(b'"3"]', b'"' + status + b'"]'))
    before, launch = analyze_path(path).commands
    assert (launch.exit_code, launch.is_error) == (None, False)


FISH = (  # fish 3.6.0 (`fish --no-config -i`, as root) under util-linux script 2.38.1, the same input
    b'Script started on 2026-12-06 23:51:13+00:00 [<not executed on terminal>]\n'
    b'\x1b]0;~\x07\x1b[30m\x1b(B\x1b[m\rroot\x1b(B\x1b[m@vm\x1b(B\x1b[m ~\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K'
    b'\r\x1b[11Cecho \r\x1b[16Cbefore\r\x1b[22C\x1b[11Decho before\r\x1b[22C\r\n'
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;echo before ~\x07\x1b[30m\x1b(B\x1b[m\rbefore\r\n'
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m' + b' ' * 79 + b'\r\xe2\x8f\x8e \r\x1b[K'
    b'\x1b]0;~\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m ~\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K'
    b'\r\x1b[11Csh \r\x1b[14C-c \r\x1b[17C"echo \r\x1b[23Cloading \r\x1b[31Cdraft;\r\x1b[37C \r\x1b[38Cexit '
    b'\r\x1b[43C3"\r\x1b[45C\x1b[34Dsh -c "echo loading draft; exit 3"\r\x1b[45C\r\n'
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;sh -c "echo loading  ~\x07\x1b[30m\x1b(B\x1b[m\rloading draft\r\n'
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m' + b' ' * 79 + b'\r\xe2\x8f\x8e \r\x1b[K'
    b'\x1b]0;~\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m ~\x1b(B\x1b[m\x1b(B\x1b[m '
    b'\x1b(B\x1b[m\x1b[31m[\x1b[1m\x1b[31m3\x1b(B\x1b[m\x1b[31m]\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[15C\r\n'
    b'\x1b[30m\x1b(B\x1b[m\x1b[30m\x1b(B\x1b[m\nScript done on 2026-12-06 23:51:16+00:00 [COMMAND_EXIT_CODE="0"]\n')


def test_fish_left_at_its_prompt_exits_0_whatever_ran_last(tmp_path: Path) -> None:
    # fish's 0 on leaving is no status of the command before: the status its last prompt
    # shows, "[3]", is (test_hardening69_last_prompt_status)
    path = tmp_path / "typescript"
    path.write_bytes(FISH)
    before, launch = analyze_path(path).commands
    assert launch.command == 'sh -c "echo loading draft; exit 3"'
    assert (launch.exit_code, launch.is_error) == (3, True)

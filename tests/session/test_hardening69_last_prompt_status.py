"""The status the last prompt of a log shows. fish's default prompt shows the last command's
status when it is not 0, ``root@vm ~ [3]# `` (fish 3.6.0 ``share/functions/fish_prompt.fish``),
and so do the bash and zsh prompts that put ``[N]`` before it (``%(?..[%?] )``); the log's
reader gives that status to the command before a prompt with a command typed at it. The prompt a
log ends on, nothing typed (a tmux pane's last row, a typescript left with Ctrl-D), was read
as a line of the last command's output: its status went to no command, and a command with no
output kept the prompt as its output. Now it is the shell's, its status the command's.

The fish typescript is a real one (test_hardening69_zsh_ctrl_d_status.FISH): util-linux script
2.38.1 running fish 3.6.0, ``sh -c "echo loading draft; exit 3"`` typed last."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

from tests.session.test_hardening69_zsh_ctrl_d_status import FISH


def test_fishs_last_prompt_gives_the_last_commands_status(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(FISH)
    before, launch = analyze_path(path).commands
    assert (before.exit_code, before.is_error) == (None, False)
    assert (launch.exit_code, launch.is_error, launch.host) == (3, True, "vm")


@pytest.mark.parametrize("log, status", [
    ("me@gpu02 ~/work> python3 bench_speculative.py\naccept length: 1.10\nme@gpu02 ~/work [1]>\n", 1),
    ("me@gpu01:~$ ls\nx.py\nme@gpu01:~$ python3 bench_speculative.py\n[2] me@gpu01:~$\n", 2),
    ("me@gpu01:~$ python3 bench_speculative.py\n[1] me@gpu01:~$ ls\nx.py\nme@gpu01:~$\n", 0),
], ids=["fish", "status-prefix-no-output", "status-prefix-0"])
def test_a_captured_panes_last_row_gives_the_last_commands_status(tmp_path: Path, log: str, status: int) -> None:
    path = tmp_path / "pane.txt"
    path.write_text(log)
    last = analyze_path(path).commands[-1]
    assert (last.exit_code, last.is_error) == (status, status != 0)

"""A tmux capture (``capture-pane -p`` without ``-J``) of a pane where ``export PS1='...(main)$ '``
was typed and the pane's edge fell just before its ``$ '``: the next row, ``$ '``, reads as a
prompt, so the row before was a line of its own (the command with its quote left open) and ``'``
a command of its own, a phantom in the timeline. A quote left open when Enter is pressed goes on
after PS2's ``> `` (bash(1), PROMPTING), never after a prompt: a row that reads as a prompt and
closes the quote the row before left open at the edge is the rest of that command.

Both captures in data_h71_panes are real: tmux 3.3a, a pane of 80 columns, bash 5.2
(``bash --rcfile`` with ``PS1='$ '``), the commands typed through send-keys; the short one cuts
only the export (the width learnt from it), the long one also a command's long output."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.formats.text_log import pane_width

DATA = Path(__file__).parent / "data_h71_panes"

EXPORT = r"export PS1='\[\e[01;32m\]root@gpu01\[\e[00m\]:\[\e[01;34m\]\W\[\e[00m\] (main)$ '"


def test_a_short_capture_cut_inside_the_quote_is_read_whole() -> None:
    path = DATA / "bash_80_ps1_quote_cut.txt"
    assert pane_width(path) == 80
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"]) for c in doc["commands"]] == [
        ("cd rec", None), (EXPORT, None), ("ls /models/eagle3", "gpu01"),
        ("python3 -c 'import sglang_missing'", "gpu01")]
    assert [e["message"] for e in doc["errors"]] == [
        "ls: cannot access '/models/eagle3': No such file or directory", "No module named 'sglang_missing'"]


def test_a_capture_whose_width_is_known_joins_the_quotes_rest() -> None:
    path = DATA / "bash_80_ps1_quote_cut_long.txt"
    assert pane_width(path) == 80
    assert [c.command for c in analyze_path(path).commands] == [
        "cd rec", """python3 -c "print(' '.join(f'--flag-{i} {i}' for i in range(24)))\"""", EXPORT,
        "ls /models/eagle3"]


@pytest.mark.parametrize("after", ["$ ls", "$ echo '"])
def test_a_prompt_after_a_closed_command_starts_its_own_line(tmp_path: Path, after: str) -> None:
    # the row before left no quote open (or the row keeps it open): the prompt is the next command's
    path = tmp_path / "pane.txt"
    path.write_text("$ " + "echo 'abc'" + " --flag" * 9 + " x\n" + after + "\nabc\n")
    assert [c.command for c in analyze_path(path).commands][0] == "echo 'abc'" + " --flag" * 9 + " x"

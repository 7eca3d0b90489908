"""A command whose last row in a tmux capture (``capture-pane -p``, no ``-J``) is exactly as wide
as the pane: the reader cannot tell its end from a cut (text_log._rejoined), and took the next
row with it, the command's own error included (`nosuch-vllm serve ... --speculative-config
'{...}'bash: nosuch-vllm: command not found`), so the call was no failure. A row whose first word
ends in a colon, after a command with no quote open, is what the command said.

bash_80_last_row_at_edge.txt is a real capture (tmux 3.3a, 80 columns, bash 5.2 --norc, a command
that is not installed typed through send-keys)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.formats.text_log import pane_width

from tests.session.test_hardening70_short_pane_wraps import DATA, LAUNCH


def test_a_commands_last_row_as_wide_as_the_pane_keeps_its_error_out() -> None:
    # the quoted config ends at the pane's edge: the row after it ("bash: nosuch-vllm: command not
    # found") was read as more of the command, and the call as no failure
    path = DATA / "bash_80_last_row_at_edge.txt"
    assert pane_width(path) == 80
    served, launched = analyze_path(path).commands
    assert served.command == ("nosuch-vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
                              "'{\"method\": \"eagle3\", \"model\": \"/models/e3\", \"num_speculative_tokens\": 3}'")
    assert served.is_error
    assert (launched.command, launched.is_error) == (LAUNCH, True)


def test_a_row_that_goes_on_inside_a_quote_is_still_the_commands(tmp_path: Path) -> None:
    # `"mo` then `del": ...`: the next row's first word ends in a colon, inside the open quote
    head = "root@gpu01:~# python3 -c 'print({\"method\": \"eagle3\", \""
    line = head + "k" * (80 - 3 - len(head) - len('": 3, ')) + '": 3, "model": "/models/e3"})\''
    cut = line.index('"model"') + 3
    assert cut == 80
    path = tmp_path / "pane.txt"
    path.write_text((line[:cut] + "\n" + line[cut:] + "\n{'method': 'eagle3'}\n") * 3 + "root@gpu01:~#\n")
    assert pane_width(path) == 80
    assert [c.command for c in analyze_path(path).commands] == [line.removeprefix("root@gpu01:~# ")] * 3

"""A short tmux capture (``capture-pane -p`` without ``-J``) of a pane where a long command was
typed: the pane cuts the command into rows as wide as the pane (tmux(1), capture-pane: "-J
preserves trailing spaces and joins any wrapped lines"). The reader learns the width from a
capture's rows (text_log.pane_width), but only where three rows or more were cut: a capture of a
launch command and its short error, one or two cut rows, read the command up to the pane's edge
(`... --model-path meta-llama/Llama-3.1-8B-Instruct`) and the rest (`--speculative-algorithm
EAGLE3 --port 30000`) as its output. Now a command that is the capture's widest row and goes on
with its own words in the next row gives the width.

The captures in data_h70_panes are real: tmux 3.3a, panes of 80 (bash 5.2, ``bash --norc``) and
100 columns (zsh 5.9, ``zsh -f``), a command that is not installed typed through send-keys (its
"command not found" is the output); each cut falls another way: on a space past the edge, on a
space at the edge (trimmed by capture-pane), inside a path and inside an option."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.formats.text_log import pane_width

DATA = Path(__file__).parent / "data_h70_panes"

LAUNCH = "nosuch-sglang-launch --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --port 30000"


@pytest.mark.parametrize("capture, width, command", [
    ("bash_80_space_past_edge.txt", 80, LAUNCH),
    ("bash_80_space_on_edge.txt", 80, LAUNCH.replace("Instruct", "Instrut")),
    ("bash_80_mid_word.txt", 80, LAUNCH.replace("Instruct", "Instruct-AB")),
    ("zsh_100_mid_word.txt", 100, "nosuch-vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 1 "
                                  "--max-model-len 8192 --speculative-config /tmp/e3.json"),
])
def test_a_command_cut_at_the_panes_edge_is_read_whole(capture: str, width: int, command: str) -> None:
    path = DATA / capture
    assert max(len(row) for row in path.read_text().splitlines()) <= width  # cut: no row is longer
    assert pane_width(path) == width
    launched = analyze_path(path).commands[0]
    assert launched.command == command
    assert launched.is_error  # its "command not found" is its output, not a row of the command


def test_the_same_pane_captured_with_J_is_read_alike() -> None:
    path = DATA / "bash_80_joined.txt"
    assert pane_width(path) is None
    assert [c.command for c in analyze_path(path).commands] == [LAUNCH, "ls /nonexistent-models"]


@pytest.mark.parametrize("log", [
    # the command is the widest row, and the output starts a line of its own
    "root@gpu01:~# python3 -m sglang.launch_server --model-path /models/llama --port 30000\n"
    "Traceback (most recent call last):\nModuleNotFoundError: No module named 'sglang'\nroot@gpu01:~#\n",
    "root@gpu01:~# python3 -m sglang.launch_server --model-path /models/llama --port 30000\n"
    "-bash: python3: command not found\nroot@gpu01:~#\n",
    "root@gpu01:~# python3 -m sglang.launch_server --model-path /models/llama --trust-remote-code\n"
    "[2025-08-18 10:02:31] server_args=ServerArgs(model_path='/models/llama')\nroot@gpu01:~#\n",
    "root@gpu01:~# python3 -m sglang.launch_server --model-path /models/llama --trust-remote-code\n"
    "2025-08-18 10:02:31 loading weights\nroot@gpu01:~#\n",
    # a command continued with a backslash goes on through the shell, not the pane
    "root@gpu01:~# python3 -m sglang.launch_server --model-path /models/llama --port 30000 \\\n"
    "> --speculative-algorithm EAGLE3\nready\nroot@gpu01:~#\n",
])
def test_a_command_that_ends_in_its_row_is_not_joined_with_its_output(tmp_path: Path, log: str) -> None:
    path = tmp_path / "pane.txt"
    path.write_text(log)
    assert pane_width(path) is None
    first = log.split("\n", 1)[0].removeprefix("root@gpu01:~# ")
    assert analyze_path(path).commands[0].command.startswith(first.rstrip("\\ "))

"""A command longer than the terminal is wide, typed in zsh: when it reaches the right margin the
line editor writes a space past the last column (the terminal wraps), a carriage return and an
erase, echoes the next character, returns, and goes on in the next row; each later carriage
return goes back to that row's start. Read as one line whose carriage returns go back to its
start, a wrapped command was overwritten by its last row: an SGLang launch (always longer than
a terminal) was lost from the log, and its error followed no command. The bytes are laid out as
zsh 5.9 wrote them in a util-linux script 2.38.1 typescript at 40 and 61 columns."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LAUNCH = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm "
          "EAGLE3 --speculative-draft-model-path /models/eagle3 --port 30000")
SHOWN = "root@gpu02 /root # "
PROMPT = b"\x1b[0m\x1b[27m\x1b[24m\x1b[J" + SHOWN.encode() + b"\x1b[K\x1b[?1h\x1b=\x1b[?2004h"
ENTER = b"\x1b[?1l\x1b>\x1b[?2004l\r\r\n"


def _typed_in_zsh(command: str, width: int) -> bytes:
    """What zsh echoes for ``command`` typed at PROMPT on a terminal ``width`` columns wide."""
    rows, first = [], width - len(SHOWN)
    rows.append(command[:first])
    rows += [command[i:i + width] for i in range(first, len(command), width)]
    echoed = f"{command[0]}\b" + rows[0]
    for row in rows[1:]:
        echoed += f" \r\x1b[K{row[0]}\r{row}"
    return PROMPT + echoed.encode() + ENTER


def test_a_command_wrapped_over_rows_is_read_whole(tmp_path: Path) -> None:
    short = "echo python3 -m sglang.launch_server --tp 2 --port 30000"  # a space in the last column
    path = tmp_path / "typescript"
    path.write_bytes(
        b'Script started on 2025-10-01 10:00:00+00:00 [COMMAND="zsh -i" <not executed on terminal>]\n'
        + _typed_in_zsh(LAUNCH, 40)
        + b"/usr/bin/python3: Error while finding module specification for 'sglang.launch_server' "
          b"(ModuleNotFoundError: No module named 'sglang')\r\n"
        + _typed_in_zsh(short, 61) + b"python3 -m sglang.launch_server --tp 2 --port 30000\r\n"
        + b'Script done on 2025-10-01 10:00:09+00:00 [COMMAND_EXIT_CODE="0"]\n')
    assert _typed_in_zsh(short, 61).count(b" \r\x1b[K") == 1 and short[61 - len(SHOWN) - 1] == " "
    doc = analyze_path(path).to_json()
    commands = [c for c in doc["commands"] if c["command"] != "zsh -i"]
    assert [c["command"] for c in commands] == [LAUNCH, short]
    assert [(e["exception"], e["command_seq"]) for e in doc["errors"]] == [("ModuleNotFoundError", commands[0]["seq"])]


def test_a_progress_bar_that_clears_its_row_is_still_redrawn_in_place() -> None:
    # a state ended with a space, a carriage return and an erase: the next state replaces it
    # (the line is no line editor's: it never turned the keypad or bracketed paste on)
    from spec_debug.session.formats.common import Cursor
    from spec_debug.session.formats.text_log import read_lines

    rows = [(1, "root@gpu01:~# huggingface-cli download /models/eagle3", None),
            (2, "Fetching 4 files:  25% \r\x1b[KFetching 4 files:  50% \r\x1b[KFetching 4 files: 100%", None)]
    cursor = Cursor(session="s", agent="main", file="pane.log")
    results = [e.text for e in read_lines(iter(rows), cursor) if e.kind == "tool_result"]
    assert results == ["Fetching 4 files: 100%"]

"""An asciinema recording of a terminal wider than 80 columns: bash's readline wraps a long
command at the terminal's width with a space past the last column and a carriage return
(GNU readline ``display.c``, ``update_line``), and such a wrap is joined only where the cursor
stands past the last column of a full row. The width was 80 unless a ``Script started`` line
gave another, though the recording's header says it (v1 and v2 ``width``, v3 ``term.cols``:
docs.asciinema.org/manual/asciicast/v1, /v2 and /v3): the rows of a command typed in a 120-column
terminal were written over one another, and only ``...--model-p`` of it was left.

The output stream is a real one: util-linux script 2.38.1 running bash 5.2.15 (PS1
'\\u@\\h:\\w\\$ ') in a 120-column pty, the command typed key by key; asciinema records the same
pty output, here cut at its newlines into events."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

STREAM = [
    '\x1b[?2004hroot@vm:~# python3 -c \'import sys; print("loading draft"); sys.exit(3)\' --model-path '
    '/models/llama-3.1-8b-instruct --spe \rculative-draft-model-path /models/eagle3-llama3.1-8b --tp 1\r\n',
    '\x1b[?2004l\rloading draft\r\n',
    '\x1b[?2004hroot@vm:~# echo done\r\n',
    '\x1b[?2004l\rdone\r\n',
]
LAUNCH = ("python3 -c 'import sys; print(\"loading draft\"); sys.exit(3)' --model-path /models/llama-3.1-8b-instruct "
          "--speculative-draft-model-path /models/eagle3-llama3.1-8b --tp 1")


def _cast(tmp_path: Path, header: dict, relative: bool) -> Path:
    rows = [json.dumps(header)]
    for n, data in enumerate(STREAM):
        rows.append(json.dumps([0.25 if relative else 0.5 + 0.25 * n, "o", data]))
    path = tmp_path / "session.cast"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("header, relative", [
    ({"version": 2, "width": 120, "height": 24, "timestamp": 1796560053, "env": {"SHELL": "/bin/bash"}}, False),
    ({"version": 3, "term": {"cols": 120, "rows": 24, "type": "screen"}, "timestamp": 1796560053}, True),
], ids=["v2", "v3"])
def test_a_long_command_in_a_wide_recording_is_read_whole(tmp_path: Path, header: dict, relative: bool) -> None:
    commands = [(c.command, c.host) for c in analyze_path(_cast(tmp_path, header, relative)).commands]
    assert commands == [(LAUNCH, "vm"), ("echo done", "vm")]


def test_a_v1_document_gives_its_width_too(tmp_path: Path) -> None:
    # asciinema 1.x: one JSON document, the frames under "stdout" (docs.asciinema.org/manual/asciicast/v1)
    doc = {"version": 1, "width": 120, "height": 24, "duration": 1.0, "command": "/bin/bash", "title": "",
           "env": {"TERM": "screen", "SHELL": "/bin/bash"}, "stdout": [[0.25, data] for data in STREAM]}
    path = tmp_path / "session.cast"
    path.write_text(json.dumps(doc, indent=4), encoding="utf-8")
    assert [c.command for c in analyze_path(path).commands] == [LAUNCH, "echo done"]


def test_at_80_columns_the_same_row_is_no_wrap(tmp_path: Path) -> None:
    # the header's width is what counts: at 80 columns the cursor is not past the last column
    # where the 120-column row wrapped, and the carriage return goes back over the row
    header = {"version": 2, "width": 80, "height": 24, "timestamp": 1796560053}
    commands = [c.command for c in analyze_path(_cast(tmp_path, header, False)).commands]
    assert LAUNCH not in commands and commands[-1] == "echo done"

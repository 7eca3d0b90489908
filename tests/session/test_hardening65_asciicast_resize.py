"""An asciinema recording whose terminal was resized while it ran: asciinema writes each resize as
an ``"r"`` event whose data is ``"COLSxROWS"`` (asciinema ``src/asciicast/v2.rs``,
``serialize_event``: ``Resize(cols, rows) => ('r', format!("{cols}x{rows}"))``, at e53220fb; the
same code in v3, docs.asciinema.org/manual/asciicast/v2 and /v3). The width readline wraps a long
command at is the terminal's as the command is typed, not the header's: a window made wider
after ``asciinema rec`` started had its long commands cut where they wrapped (only the last row
of ``... --spe`` / ``culative-draft-model-path ...`` was left), the resize being ignored.

The output stream is the real one of test_hardening64_asciicast_width (util-linux script 2.38.1
running bash 5.2.15 in a 120-column pty, the command typed key by key)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

PROMPT_WRAPPED = (
    '\x1b[?2004hroot@vm:~# python3 -c \'import sys; print("loading draft"); sys.exit(3)\' --model-path '
    '/models/llama-3.1-8b-instruct --spe \rculative-draft-model-path /models/eagle3-llama3.1-8b --tp 1\r\n')
STREAM = [
    '\x1b[?2004hroot@vm:~# echo before\r\n',
    '\x1b[?2004l\rbefore\r\n',
    PROMPT_WRAPPED,
    '\x1b[?2004l\rloading draft\r\n',
    '\x1b[?2004hroot@vm:~# echo done\r\n',
    '\x1b[?2004l\rdone\r\n',
]
LAUNCH = ("python3 -c 'import sys; print(\"loading draft\"); sys.exit(3)' --model-path /models/llama-3.1-8b-instruct "
          "--speculative-draft-model-path /models/eagle3-llama3.1-8b --tp 1")


def _cast(tmp_path: Path, header: dict, relative: bool, resizes: dict[int, str]) -> Path:
    """The stream's events, a resize to ``resizes[n]`` written before the n-th output event."""
    rows = [json.dumps(header)]
    clock = 0.0
    for n, data in enumerate(STREAM):
        if n in resizes:
            clock += 0.1
            rows.append(json.dumps([0.1 if relative else round(clock, 6), "r", resizes[n]]))
        clock += 0.25
        rows.append(json.dumps([0.25 if relative else round(clock, 6), "o", data]))
    path = tmp_path / "session.cast"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("header, relative", [
    ({"version": 2, "width": 80, "height": 24, "timestamp": 1796560053, "env": {"SHELL": "/bin/bash"}}, False),
    ({"version": 3, "term": {"cols": 80, "rows": 24, "type": "xterm-256color"}, "timestamp": 1796560053}, True),
], ids=["v2", "v3"])
def test_a_window_made_wider_mid_recording_wraps_at_its_new_width(tmp_path: Path, header: dict,
                                                                  relative: bool) -> None:
    # recorded at 80 columns, the window then made 120 wide before the long command was typed
    path = _cast(tmp_path, header, relative, {2: "120x24"})
    commands = [c.command for c in analyze_path(path).commands]
    assert commands == ["echo before", LAUNCH, "echo done"]


def test_a_resize_after_the_command_leaves_it_as_it_was_typed(tmp_path: Path) -> None:
    # typed at 120 columns (the header's), the window made narrower only after it ran: at 80
    # columns the same row would be no wrap (test_hardening64_asciicast_width), so the width in
    # force is the one the command was typed at
    header = {"version": 2, "width": 120, "height": 24, "timestamp": 1796560053}
    commands = [c.command for c in analyze_path(_cast(tmp_path, header, False, {3: "80x24"})).commands]
    assert commands == ["echo before", LAUNCH, "echo done"]


def test_a_malformed_resize_is_no_width(tmp_path: Path) -> None:
    header = {"version": 2, "width": 120, "height": 24, "timestamp": 1796560053}
    commands = [c.command for c in analyze_path(_cast(tmp_path, header, False, {2: "wide"})).commands]
    assert commands == ["echo before", LAUNCH, "echo done"]

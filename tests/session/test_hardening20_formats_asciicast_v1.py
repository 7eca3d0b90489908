"""An asciicast v1 recording (asciinema 1.x, before 2.0: one JSON document ``{"version": 1,
"width", "height", "duration", "command", "title", "env", "stdout": [[delay, data], ...]}``,
docs.asciinema.org/manual/asciicast/v1) is read as the terminal session it recorded. Before, it
was a Claude Code session of one record of an unknown type (indented) or refused as no transcript
(on one line). A copy cut short keeps the frames before the cut; a ``.cast.gz`` is read through."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from spec_debug.session import analyze_path

FRAMES = [[0.5, "root@gpu01:~# "], [0.8, "nvidia-smi -L\r\n"], [0.3, "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-1)\r\n"],
          [0.2, "root@gpu01:~# "], [1.0, 'python3 -c "import sglang"\r\n'],
          [0.4, "Traceback (most recent call last):\r\n  File \"<string>\", line 1, in <module>\r\n"
                "ModuleNotFoundError: No module named 'sglang'\r\n"], [0.2, "root@gpu01:~# "]]
DOC = {"version": 1, "width": 120, "height": 30, "duration": 3.4, "command": "/bin/bash", "title": "",
       "env": {"TERM": "xterm-256color", "SHELL": "/bin/bash"}, "stdout": FRAMES}


def _commands(a):
    return [(c.host, c.command) for c in a.commands]


def test_a_v1_recording_is_its_terminal_session(tmp_path):
    indented = tmp_path / "session.cast"
    indented.write_text(json.dumps(DOC, indent=2), encoding="utf-8")
    one_line = tmp_path / "one-line.json"
    one_line.write_text(json.dumps(DOC), encoding="utf-8")
    packed = tmp_path / "packed.cast.gz"
    packed.write_bytes(gzip.compress(json.dumps(DOC, indent=2).encode()))
    for path in (indented, one_line, packed):
        a = analyze_path(path)
        assert a.sessions[0]["format"] == "text", path.name
        assert _commands(a) == [("gpu01", "nvidia-smi -L"), ("gpu01", 'python3 -c "import sglang"')], path.name
        assert any(e.exception == "ModuleNotFoundError" for e in a.errors)


def test_a_v1_recording_cut_short_keeps_what_came_before(tmp_path):
    text = json.dumps(DOC, indent=2)
    path = tmp_path / "cut.cast"
    path.write_text(text[:text.index("Traceback")], encoding="utf-8")
    a = analyze_path(path)
    assert _commands(a)[:1] == [("gpu01", "nvidia-smi -L")]
    assert a.stats["lines_skipped"] >= 1  # the cut is counted

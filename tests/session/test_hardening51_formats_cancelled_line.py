"""A line given up with Ctrl-C before Enter ran nothing: the terminal echoes the key as ``^C``
(stty(1) ``echoctl``) at the end of the line and bash prints a new prompt. A terminal log read
``rm -rf /models/eagle3^C`` as a command that ran, and a loop given up at its PS2 line as a
command ``for i in 1 2; do\\n^C``. The typescript is a bash 5.2 session recorded with util-linux
script 2.38.1; the capture is tmux's capture-pane of the same keys."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

TYPESCRIPT = (
    b'Script started on 2025-10-01 10:00:00+00:00 [COMMAND="bash -i" <not executed on terminal>]\n'
    b"\x1b[?2004hroot@gpu01:~# rm -rf /models/eagle3^C\x1b[?2004l\r\x1b[?2004h\x1b[?2004l\r\r\n"
    b"\x1b[?2004hroot@gpu01:~# for h in gpu01 gpu02; do\r\n"
    b"\x1b[?2004l\r\x1b[?2004h> ssh $h rm -rf /models/eagle3^C\x1b[?2004l\r\x1b[?2004h\x1b[?2004l\r\r\n"
    b"\x1b[?2004hroot@gpu01:~# sleep 30\r\n"
    b"\x1b[?2004l\r^C\r\n"
    b"\x1b[?2004hroot@gpu01:~# ls /models\r\n"
    b"\x1b[?2004l\reagle3\r\n"
    b'Script done on 2025-10-01 10:00:09+00:00 [COMMAND_EXIT_CODE="0"]\n')


def test_lines_given_up_with_ctrl_c_are_no_commands(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(TYPESCRIPT)
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"] if c["command"] != "bash -i"] == ["sleep 30", "ls /models"]


def test_a_capture_pane_of_a_line_given_up(tmp_path: Path) -> None:
    path = tmp_path / "pane.log"
    path.write_text("root@gpu01:~# pkill -f sglang.launch_server^C\nroot@gpu01:~# nvidia-smi -L\n"
                    "GPU 0: NVIDIA H100 80GB HBM3\n")
    assert [c["command"] for c in analyze_path(path).to_json()["commands"]] == ["nvidia-smi -L"]

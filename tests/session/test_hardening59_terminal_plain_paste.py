"""A multi-line bracketed paste at a bash 5.2 prompt with ``bind 'set enable-active-region off'``:
readline shows no highlight and does not redraw; it writes the first line after the prompt and
each other line on a row of its own after a carriage return, Enter's paste-off after the last
(a paste ending in a newline ends on ``\\r\\x1b[A``). Before: only the first line was the
command, the others its output, and a status the paste reported (``echo $?`` after it: its last
line's) was the first line's (``python3 -c 'sys.exit(...)'`` "exited 0"). Now the paste is one
command of all its lines, whose status is the last line's. The typescript is a bash 5.2.15
session recorded with util-linux script 2.38.1, each paste sent as ``\\e[200~...\\e[201~``."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

PLAIN_PASTES = b"".join([
    b'Script started on 2026-12-06 04:57:45+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm-256color" TTY="/dev/pts/0" COLUMNS="-1" LINES="-1"]\n',
    b"\x1b[?2004hbash-5.2# bind 'set enable-active-region off'\r\n",
    b'\x1b[?2004l\r',
    b"\x1b[?2004hbash-5.2# export PS1='ubuntu@gpu-node-7:~/sglang$ '\r\n",
    b'\x1b[?2004l\r',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ echo one\r\n',
    b'\r',
    b'echo two\r\n',
    b'\r',
    b'echo three\r\n',
    b'\r',
    b'\x1b[A\r\n',
    b'\x1b[?2004l\r',
    b'one\r\n',
    b'two\r\n',
    b'three\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ python3 -c \'import sys; sys.exit("no draft checkpoint")\'\x00\r\n',
    b'\r',
    b'echo done\r\n',
    b'\x1b[?2004l\r',
    b'no draft checkpoint\r\n',
    b'done\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ echo $?\r\n',
    b'\x1b[?2004l\r',
    b'0\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ echo start\r\n',
    b'\r',
    b'python3 -c \'raise RuntimeError("CUDA out of memory")\'\r\n',
    b'\x1b[?2004l\r',
    b'start\r\n',
    b'Traceback (most recent call last):\r\n',
    b'  File "<string>", line 1, in <module>\r\n',
    b'RuntimeError: CUDA out of memory\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ echo $?\r\n',
    b'\x1b[?2004l\r',
    b'1\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ exit\r\n',
    b'\x1b[?2004l\r',
    b'exit\r\n',
    b'\n',
    b'Script done on 2026-12-06 04:57:51+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def _doc(tmp_path: Path) -> dict:
    path = tmp_path / "typescript"
    path.write_bytes(PLAIN_PASTES)
    return analyze_path(path).to_json()


def test_each_plain_paste_is_one_command_of_all_its_lines(tmp_path: Path) -> None:
    assert [c["command"] for c in _doc(tmp_path)["commands"]][3:] == [
        "echo one\necho two\necho three",
        "python3 -c 'import sys; sys.exit(\"no draft checkpoint\")'\necho done",
        "echo $?",
        "echo start\npython3 -c 'raise RuntimeError(\"CUDA out of memory\")'",
        "echo $?",
        "exit"]


def test_a_plain_paste_has_its_last_lines_status(tmp_path: Path) -> None:
    doc = _doc(tmp_path)
    status = {c["command"].split("\n")[-1]: (c["is_error"], c["exit_code"]) for c in doc["commands"]}
    assert status["echo done"] == (False, 0)
    assert status["python3 -c 'raise RuntimeError(\"CUDA out of memory\")'"] == (True, 1)
    seq = {c["command"]: c["seq"] for c in doc["commands"]}
    oom = next(e for e in doc["errors"] if e["kind"] == "cuda_oom")
    assert oom["command_seq"] == seq["echo start\npython3 -c 'raise RuntimeError(\"CUDA out of memory\")'"]

"""``set -o pipefail`` typed at the prompt makes a pipeline's status its last failing command's
(bash(1), Pipelines): ``python3 load.py 2>&1 | tail -n 5`` after it failed with the program's
``sys.exit("Error: could not load draft")``. Before: the pipeline was a success as before the
``set`` (tail's 0), where it stays one. The typescript is a bash 5.2.15 session recorded with
util-linux script 2.38.1."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

PIPEFAIL = b"".join([
    b'Script started on 2026-12-06 02:17:51+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm" '
    b'TTY="/dev/pts/3" COLUMNS="-1" LINES="-1"]\n',
    b"\x1b[?2004hbash-5.2# export PS1='ubuntu@gpu-node-7:~/sglang$ '\r\n",
    b'\x1b[?2004l\r\x1b[?2004hubuntu@gpu-node-7:~/sglang$ cd /tmp/terminal-scratch/rec\r\n',
    b'\x1b[?2004l\r\x1b[?2004hubuntu@gpu-node-7:~/sglang$ python3 load.py 2>&1 | tail -n 5\r\n',
    b'\x1b[?2004l\rloading draft from /ckpt/eagle3\r\n',
    b'Error: could not load draft\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ set -o pipefail\r\n',
    b'\x1b[?2004l\r\x1b[?2004hubuntu@gpu-node-7:~/sglang$ python3 load.py 2>&1 | tail -n 5\r\n',
    b'\x1b[?2004l\rloading draft from /ckpt/eagle3\r\n',
    b'Error: could not load draft\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ echo end\r\n',
    b'\x1b[?2004l\rend\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ exit\r\n',
    b'\x1b[?2004l\rexit\r\n',
    b'\n',
    b'Script done on 2026-12-06 02:18:01+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_a_pipeline_after_set_o_pipefail_fails_with_its_program(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(PIPEFAIL)
    doc = analyze_path(path).to_json()
    piped = [c["is_error"] for c in doc["commands"] if c["command"] == "python3 load.py 2>&1 | tail -n 5"]
    assert piped == [False, True]
    assert [e["message"] for e in doc["errors"]] == ["Error: could not load draft"]

"""``echo $?`` printing 0 after a run the output alone read as failed (python_exit: a last
"Error: ..." line the program went on from) undoes the failure, and so the step that run added
to its command's streak of failing runs: three such runs, each cleared by the shell's 0, are no
loop. Before: a loop of 3 failing "pythonN load.py" runs, though none failed. The errors they
printed stay the session's. The typescript is a bash 5.2.15 session recorded with util-linux
script 2.38.1 (load.py prints "Error: no draft vocab mapping, using the target's" and exits 0)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

CLEARED = b"".join([
    b'Script started on 2026-12-06 02:44:54+00:00 [COMMAND="bash --norc --noprofile -i" <not executed on terminal>]\n',
    b"\x1b[?2004hbash-5.2# export PS1='ubuntu@gpu-node-7:~/sglang$ '\r\n",
    b'\x1b[?2004l\r',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ cd /tmp/terminal2-scratch/rec\r\n',
    b'\x1b[?2004l\r',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ python3 load.py\r\n',
    b'\x1b[?2004l\r',
    b'loading draft from /ckpt/eagle3\r\n',
    b"Error: no draft vocab mapping, using the target's\r\n",
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ echo $?\r\n',
    b'\x1b[?2004l\r',
    b'0\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ python3 load.py\r\n',
    b'\x1b[?2004l\r',
    b'loading draft from /ckpt/eagle3\r\n',
    b"Error: no draft vocab mapping, using the target's\r\n",
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ echo $?\r\n',
    b'\x1b[?2004l\r',
    b'0\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ python3 load.py\r\n',
    b'\x1b[?2004l\r',
    b'loading draft from /ckpt/eagle3\r\n',
    b"Error: no draft vocab mapping, using the target's\r\n",
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ echo $?\r\n',
    b'\x1b[?2004l\r',
    b'0\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ ls\r\n',
    b'\x1b[?2004l\r',
    b'deploy.log  deploy.sh  in.txt  in2.txt\tload.py  ts1  ts2  typescript\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ exit\r\n',
    b'\x1b[?2004l\r',
    b'exit\r\n',
    b'\n',
    b'Script done on 2026-12-06 02:45:01+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_runs_echo_dollar_question_cleared_are_no_loop(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(CLEARED)
    doc = analyze_path(path).to_json()
    runs = [(c["is_error"], c["exit_code"]) for c in doc["commands"] if c["command"] == "python3 load.py"]
    assert runs == [(False, 0)] * 3
    assert doc["loops"] == []
    assert [e["message"] for e in doc["errors"]] == ["Error: no draft vocab mapping, using the target's"] * 3

"""Commands other than a silent wait typed while ``python3 srv.py &`` ran: ``tail -f srv.log``
(stopped with Ctrl-C), ``curl -sS -m 4 .../health`` (a server that never answered: curl's own
"(28) Operation timed out"), ``ps -o pid,cmd; sleep 3; ls``. The job raised meanwhile and its
traceback (its stderr is the terminal) landed in each one's output, its end reported after it
(``[1]+  Exit 1  python3 srv.py``). None of those programs prints a Python traceback: the CUDA
OOM is the job's error. Before: a failed curl and a failed ``ps; sleep; ls`` whose error was the
OOM, and the tail's stop no interrupt, its error the OOM. Now the OOM is each job's error, the
tail an interrupt, ``ps; sleep; ls`` no failure, and curl fails on its own timeout. The
typescript is a bash 5.2.15 session recorded with util-linux script 2.38.1."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

FOREGROUND_WHILE_JOB_RAISES = b"".join([
    b'Script started on 2026-12-06 04:59:15+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm-256color" TTY="/dev/pts/0" COLUMNS="-1" LINES="-1"]\n',
    b"\x1b[?2004hbash-5.2# export PS1='ubuntu@gpu-node-7:~/sglang$ '\r\n",
    b'\x1b[?2004l\r',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ cd /tmp/terminal4-scratch/rec3\r\n',
    b'\x1b[?2004l\r',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ python3 srv.py &\r\n',
    b'\x1b[?2004l\r',
    b'[1] 3706\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ loading draft from /ckpt/eagle3\r\n',
    b'tail -f srv.log\r\n',
    b'\x1b[?2004l\r',
    b'server log line\r\n',
    b'Traceback (most recent call last):\r\n',
    b'  File "/tmp/terminal4-scratch/rec3/srv.py", line 4, in <module>\r\n',
    b'    raise RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB")\r\n',
    b'RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\r\n',
    b'^C\r\n',
    b'[1]+  Exit 1                  python3 srv.py\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ python3 srv.py &\r\n',
    b'\x1b[?2004l\r',
    b'[1] 3803\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ loading draft from /ckpt/eagle3\r\n',
    b'curl -sS -m 4 http://127.0.0.1:30000/health\r\n',
    b'\x1b[?2004l\r',
    b'Traceback (most recent call last):\r\n',
    b'  File "/tmp/terminal4-scratch/rec3/srv.py", line 4, in <module>\r\n',
    b'    raise RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB")\r\n',
    b'RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\r\n',
    b'curl: (28) Operation timed out after 4005 milliseconds with 0 bytes received\r\n',
    b'[1]+  Exit 1                  python3 srv.py\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ python3 srv.py &\r\n',
    b'\x1b[?2004l\r',
    b'[1] 4097\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ loading draft from /ckpt/eagle3\r\n',
    b'ps -o pid,cmd; sleep 3; ls\r\n',
    b'\x1b[?2004l\r',
    b'  PID CMD\r\n',
    b' 3521 bash --norc --noprofile -i\r\n',
    b' 4097 python3 srv.py\r\n',
    b' 4111 ps -o pid,cmd\r\n',
    b'Traceback (most recent call last):\r\n',
    b'  File "/tmp/terminal4-scratch/rec3/srv.py", line 4, in <module>\r\n',
    b'    raise RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB")\r\n',
    b'RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\r\n',
    b'[1]+  Exit 1                  python3 srv.py\r\n',
    b'srv.log  srv.py\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ exit\r\n',
    b'\x1b[?2004l\r',
    b'exit\r\n',
    b'\n',
    b'Script done on 2026-12-06 04:59:34+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def _doc(tmp_path: Path) -> dict:
    path = tmp_path / "typescript"
    path.write_bytes(FOREGROUND_WHILE_JOB_RAISES)
    return analyze_path(path).to_json()


def test_the_jobs_traceback_is_the_jobs_error(tmp_path: Path) -> None:
    doc = _doc(tmp_path)
    commands = doc["commands"]
    jobs = [c["seq"] for c in commands if c["command"] == "python3 srv.py &"]
    assert len(jobs) == 3
    assert sorted(e["command_seq"] for e in doc["errors"] if e["kind"] == "cuda_oom") == jobs
    assert all(e["host"] == "gpu-node-7" for e in doc["errors"])


def test_the_foreground_commands_keep_their_own_outcome(tmp_path: Path) -> None:
    doc = _doc(tmp_path)
    failed = {c["command"]: c["is_error"] for c in doc["commands"]}
    assert failed["tail -f srv.log"] is False
    assert failed["ps -o pid,cmd; sleep 3; ls"] is False
    assert failed["curl -sS -m 4 http://127.0.0.1:30000/health"] is True
    seq = {c["command"]: c["seq"] for c in doc["commands"]}
    own = [(e["kind"], e["message"][:11]) for e in doc["errors"]
           if e["command_seq"] == seq["curl -sS -m 4 http://127.0.0.1:30000/health"]]
    assert own == [("timeout", "curl: (28) ")]
    assert doc["stats"]["interrupts"] == 1

"""fish reports a background job a signal ended as ``fish: Job 1, 'python3 -c 'import time;
time.s…' terminated by signal SIGKILL (Forced quit)`` (its command cut with an ellipsis to fit the
terminal): a server the OOM killer took, in a fish session. Before: no job end was read (only
bash's and zsh's ``[1]+  Killed ...``), the launch a success. Now the job's call failed with 137
(128 + SIGKILL), its error a signal's. A job that exits says only "has ended", whatever its
status (``sys.exit(3)`` here): no status is read from it. The typescript is a fish 3.6.0 session
(``fish --no-config``) recorded with util-linux script 2.38.1."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

FISH_JOB_KILLED = b"".join([
    b'Script started on 2026-12-06 05:10:34+00:00 [COMMAND="fish --no-config -i" TERM="xterm-256color" TTY="/dev/pts/0" COLUMNS="-1" LINES="-1"]\n',
    b'\x1b]0;/t/terminal4-scratch\x07\x1b[30m\x1b(B\x1b[m\r',
    b'root\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/terminal4-scratch\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r',
    b'\x1b[30Ccd \r',
    b'\x1b[33C/tmp/terminal4-scratch/rec3\r',
    b'\x1b[60C\x1b[30Dcd /tmp/terminal4-scratch/rec3\r',
    b'\x1b[60C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;cd /tmp/terminal4-sc /t/terminal4-scratch\x07\x1b[30m\x1b(B\x1b[m\r',
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r',
    b'\xe2\x8f\x8e \r',
    b'\x1b[K\x1b]0;/t/t/rec3\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec3\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r',
    b'\x1b[19Cpython3 \r',
    b'\x1b[27C-c \r',
    b"\x1b[30C'import \r",
    b'\x1b[38Ctime;\r',
    b'\x1b[43C \r',
    b'\x1b[44Ctime.sleep(60)\r',
    b"\x1b[58C' \r",
    b'\x1b[60C&\r',
    b"\x1b[61C\x1b[42Dpython3 -c 'import time; time.sleep(60)' &\r",
    b'\x1b[61C\r\n',
    b"\x1b[30m\x1b(B\x1b[m\x1b]0;python3 -c 'import t /t/t/rec3\x07\x1b[30m\x1b(B\x1b[m\r",
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r',
    b'\xe2\x8f\x8e \r',
    b'\x1b[K\x1b]0;/t/t/rec3\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec3\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r',
    b'\x1b[19Cpkill \r',
    b'\x1b[25C-9 \r',
    b'\x1b[28C-f \r',
    b'\x1b[31Ctime.sleep\r',
    b'\x1b[41C\x1b[22Dpkill -9 -f time.sleep\r',
    b'\x1b[41C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;pkill -9 -f time.sle /t/t/rec3\x07\x1b[30m\x1b(B\x1b[m\r',
    b'\r\n',
    b"fish: Job 1, 'python3 -c 'import time; time.s\xe2\x80\xa6' terminated by signal SIGKILL (Forced quit)\r\n",
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r',
    b'\xe2\x8f\x8e \r',
    b'\x1b[K\x1b]0;/t/t/rec3\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec3\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r',
    b'\x1b[19C\x1b]0;/t/t/rec3\x07\x1b[30m\x1b(B\x1b[m\r',
    b'root\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec3\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r',
    b'\x1b[19Cecho \r',
    b'\x1b[24Cnext\r',
    b'\x1b[28C\x1b[9Decho next\r',
    b'\x1b[28C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;echo next /t/t/rec3\x07\x1b[30m\x1b(B\x1b[m\r',
    b'next\r\n',
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r',
    b'\xe2\x8f\x8e \r',
    b'\x1b[K\x1b]0;/t/t/rec3\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec3\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r',
    b'\x1b[19Cpython3 \r',
    b'\x1b[27C-c \r',
    b"\x1b[30C'import \r",
    b'\x1b[38Csys;\r',
    b'\x1b[42C \r',
    b'\x1b[43Csys.exit(3)\r',
    b"\x1b[54C' \r",
    b'\x1b[56C&\r',
    b"\x1b[57C\x1b[38Dpython3 -c 'import sys; sys.exit(3)' &\r",
    b'\x1b[57C\r\n',
    b"\x1b[30m\x1b(B\x1b[m\x1b]0;python3 -c 'import s /t/t/rec3\x07\x1b[30m\x1b(B\x1b[m\r",
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r',
    b'\xe2\x8f\x8e \r',
    b'\x1b[K\x1b]0;/t/t/rec3\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec3\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r',
    b'\x1b[19C\r\n',
    b"fish: Job 1, 'python3 -c 'import sys; sys.exi\xe2\x80\xa6' has ended\r\n",
    b'\r',
    b'\x1b[19C\x1b]0;/t/t/rec3\x07\x1b[30m\x1b(B\x1b[m\r',
    b'root\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec3\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r',
    b'\x1b[19C\x1b]0;/t/t/rec3\x07\x1b[30m\x1b(B\x1b[m\r',
    b'root\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec3\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r',
    b'\x1b[19Cecho \r',
    b'\x1b[24Cafter\r',
    b'\x1b[29C\x1b[10Decho after\r',
    b'\x1b[29C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;echo after /t/t/rec3\x07\x1b[30m\x1b(B\x1b[m\r',
    b'after\r\n',
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r',
    b'\xe2\x8f\x8e \r',
    b'\x1b[K\x1b]0;/t/t/rec3\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec3\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r',
    b'\x1b[19Cexit\r',
    b'\x1b[23C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;exit /t/t/rec3\x07\x1b[30m\x1b(B\x1b[m\r',
    b'\x1b[30m\x1b(B\x1b[m\n',
    b'Script done on 2026-12-06 05:10:42+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_a_fish_job_a_signal_ended_failed(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(FISH_JOB_KILLED)
    doc = analyze_path(path).to_json()
    status = {c["command"]: (c["is_error"], c["exit_code"]) for c in doc["commands"]}
    assert status["python3 -c 'import time; time.sleep(60)' &"] == (True, 137)
    assert status["python3 -c 'import sys; sys.exit(3)' &"] == (False, None)
    assert status["pkill -9 -f time.sleep"] == (False, None)
    seq = {c["command"]: c["seq"] for c in doc["commands"]}
    assert [(e["kind"], e["exception"], e["command_seq"]) for e in doc["errors"]] == [
        ("signal", "SIGKILL", seq["python3 -c 'import time; time.sleep(60)' &"])]


def test_a_cut_command_names_the_one_job_it_starts() -> None:
    from spec_debug.session.job_ends import JobEnd, ended_job, job_ends  # (ended_job is new)

    end = job_ends("fish: Job 2, 'python3 -m sglang.launch_server --model-path /m…' terminated by signal "
                   "SIGTERM (Polite quit request)\n")
    assert end == [JobEnd("python3 -m sglang.launch_server --model-path /m", 143, "SIGTERM", end[0].line, True)]
    jobs = {"python3 -m sglang.launch_server --model-path /m/llama": 1, "python3 bench.py": 2}
    assert ended_job(jobs, end[0]) == "python3 -m sglang.launch_server --model-path /m/llama"
    assert ended_job({**jobs, "python3 -m sglang.launch_server --model-path /m/qwen": 3}, end[0]) is None
    whole = job_ends("fish: Job 1, 'python3 srv.py &' terminated by signal SIGKILL (Forced quit)\n")
    assert [(e.command, e.cut) for e in whole] == [("python3 srv.py", False)]

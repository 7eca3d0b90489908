"""bash shows a background job started in another folder than the one the shell is in when the
job ends with ``  (wd: DIR)`` after its command (bash jobs.c ``print_pipeline``: ``if (strcmp
(wd, jobs[index]->wd) != 0) fprintf (stream, "  (wd: %s)", ...)``). The job's line
``[1]+  Exit 1   nohup python3 srv.py > srv.log 2>&1  (wd: /tmp/.../rec/a)`` then matched no job
typed: the job's failure, and the reason its log gave later, were lost.

Recorded with util-linux script 2.38.1 in tmux 3.3a, bash 5.2 with PS1 ``root@gpu01:\\w# ``:
a/srv.py prints a ServerArgs line then exits with ``sys.exit("Error: ...")``."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.job_ends import job_ends

CD_AWAY = b"".join([
    b'Script started on 2026-12-07 05:29:17+00:00 [COMMAND="bash --rcfile /tmp/textlogs10-scratch/bashrc -i"'
    b' TERM="tmux-256color" TTY="/dev/pts/2" COLUMNS="120" LINES="40"]\n',
    b'\x1b[?2004hroot@gpu01:/tmp/textlogs10-scratch# cd /tmp/textlogs10-scratch/rec/a\r\n',
    b'\x1b[?2004l\r',
    b'\x1b[?2004hroot@gpu01:/tmp/textlogs10-scratch/rec/a# nohup python3 srv.py > srv.log 2>&1 &\r\n',
    b'\x1b[?2004l\r',
    b'[1] 25428\r\n',
    b'\x1b[?2004hroot@gpu01:/tmp/textlogs10-scratch/rec/a# cd ..\r\n',
    b'\x1b[?2004l\r',
    b'[1]+  Exit 1                  nohup python3 srv.py > srv.log 2>&1  (wd: /tmp/textlogs10-scratch/rec/a)\r\n',
    b'(wd now: /tmp/textlogs10-scratch/rec)\r\n',
    b'\x1b[?2004hroot@gpu01:/tmp/textlogs10-scratch/rec# sleep 1\r\n',
    b'\x1b[?2004l\r',
    b'\x1b[?2004hroot@gpu01:/tmp/textlogs10-scratch/rec# tail -n 2 a/srv.log\r\n',
    b'\x1b[?2004l\r',
    b"server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B-Instruct', speculative_algorithm='EAGLE3')\r\n",
    b'Error: draft model /models/EAGLE3-LLaMA3.1-Instruct-8B not found\r\n',
    b'\x1b[?2004hroot@gpu01:/tmp/textlogs10-scratch/rec# exit\r\n',
    b'\x1b[?2004l\r',
    b'exit\r\n',
    b'\n',
    b'Script done on 2026-12-07 05:29:23+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_a_job_ended_after_cd_is_the_job_typed(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(CD_AWAY)
    doc = analyze_path(path).to_json()
    ran = {c["seq"]: c["command"] for c in doc["commands"]}
    job = "nohup python3 srv.py > srv.log 2>&1 &"
    assert [(e["kind"], ran[e["command_seq"]], e["message"]) for e in doc["errors"]] == [
        ("exit_code", job,
         "[1]+  Exit 1                  nohup python3 srv.py > srv.log 2>&1  (wd: /tmp/textlogs10-scratch/rec/a)"),
        ("tool_error", job, "Error: draft model /models/EAGLE3-LLaMA3.1-Instruct-8B not found")]


def test_the_folder_is_read_off_the_command() -> None:
    ends = job_ends("[2]-  Killed                  python3 -m sglang.launch_server --port 30000  (wd: ~/runs/x)\n"
                    "[1]+  Done                    sleep 1\n")
    assert [(e.command, e.exit_code, e.signal, e.wd) for e in ends] == [
        ("python3 -m sglang.launch_server --port 30000", 137, "SIGKILL", "~/runs/x"), ("sleep 1", 0, None, None)]

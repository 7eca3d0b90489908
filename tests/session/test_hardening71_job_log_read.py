"""A server started in the background with its output sent to a file (``nohup python3 srv.py >
srv.log 2>&1 &``) fails: the shell's ``[1]+  Exit 1  nohup python3 srv.py > srv.log 2>&1`` says
only that it failed, and why is in srv.log, read later with ``cat srv.log`` / ``tail srv.log``.
The log's traceback was the reading's error (not the job's), and its last line ``Error: draft
model ... not found`` (a sys.exit message) no error at all: the job's failure had no reason.
Now the errors a reading of the file a job writes to shows are the job's, and where the job
failed, the log's last line stating a failure is the one it ended on.

The typescripts were recorded with util-linux script 2.38.1 in tmux 3.3a, bash 5.2 with
PS1 ``root@gpu01:\\w# ``: srv.py prints a ServerArgs line then the error to stderr and exits 1;
srv2.py dies of an OSError traceback (no GPU there: nvidia-smi is missing)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

EXIT_THEN_CAT = b"".join([
    b'Script started on 2026-12-07 04:59:04+00:00 [COMMAND="bash --rcfile /tmp/textlogs9-scratch'
    b'/bashrc3 -i" TERM="tmux-256color" TTY="/dev/pts/0" COLUMNS="120" LINES="40"]\n',
    b'\x1b[?2004hroot@gpu01:/tmp/textlogs9-scratch/rec# cd /tmp/textlogs9-scratch/rec\r\n',
    b'\x1b[?2004l\r\x1b[?2004hroot@gpu01:/tmp/textlogs9-scratch/rec# nohup python3 srv.py > srv.log 2>&'
    b'1 &\r\n',
    b'\x1b[?2004l\r[1] 24461\r\n',
    b'\x1b[?2004hroot@gpu01:/tmp/textlogs9-scratch/rec# curl -s localhost:39999/health\r\n',
    b'\x1b[?2004l\r[1]+  Exit 1                  nohup python3 srv.py > srv.log 2>&1\r\n',
    b'\x1b[?2004hroot@gpu01:/tmp/textlogs9-scratch/rec# cat srv.log\r\n',
    b'\x1b[?2004l\rnohup: ignoring input\r\n',
    b"[2026-12-07 05:00:01] server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B-Instruct'"
    b", speculative_algorithm='EAGLE3')\r\n",
    b'Error: draft model /models/EAGLE3-LLaMA3.1-Instruct-8B not found\r\n',
    b'\x1b[?2004hroot@gpu01:/tmp/textlogs9-scratch/rec# exit\r\n',
    b'\x1b[?2004l\rexit\r\n',
    b'\n',
    b'Script done on 2026-12-07 04:59:09+00:00 [COMMAND_EXIT_CODE="0"]\n',
])

TRACEBACK_THEN_TAIL = b"".join([
    b'Script started on 2026-12-07 04:59:27+00:00 [COMMAND="bash --rcfile /tmp/textlogs9-scratch'
    b'/bashrc3 -i" TERM="tmux-256color" TTY="/dev/pts/0" COLUMNS="120" LINES="40"]\n',
    b'\x1b[?2004hroot@gpu01:/tmp/textlogs9-scratch/rec# cd /tmp/textlogs9-scratch/rec\r\n',
    b'\x1b[?2004l\r\x1b[?2004hroot@gpu01:/tmp/textlogs9-scratch/rec# nohup python3 srv2.py > srv.log 2>'
    b'&1 &\r\n',
    b'\x1b[?2004l\r[1] 25058\r\n',
    b'\x1b[?2004hroot@gpu01:/tmp/textlogs9-scratch/rec# nvidia-smi -L\r\n',
    b'\x1b[?2004l\rbash: nvidia-smi: command not found\r\n',
    b'[1]+  Exit 1                  nohup python3 srv2.py > srv.log 2>&1\r\n',
    b'\x1b[?2004hroot@gpu01:/tmp/textlogs9-scratch/rec# tail -n 5 srv.log\r\n',
    b'\x1b[?2004l\r  File "/tmp/textlogs9-scratch/rec/srv2.py", line 6, in <module>\r\n',
    b'    load_draft("/models/EAGLE3-LLaMA3.1-Instruct-8B")\r\n',
    b'  File "/tmp/textlogs9-scratch/rec/srv2.py", line 5, in load_draft\r\n',
    b'    raise OSError(f"{path} does not appear to have a file named config.json")\r\n',
    b'OSError: /models/EAGLE3-LLaMA3.1-Instruct-8B does not appear to have a file named config.j'
    b'son\r\n',
    b'\x1b[?2004hroot@gpu01:/tmp/textlogs9-scratch/rec# exit\r\n',
    b'\x1b[?2004l\rexit\r\n',
    b'\n',
    b'Script done on 2026-12-07 04:59:32+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def _errors(tmp_path: Path, data: bytes) -> list[tuple[str, int, str | None, str]]:
    path = tmp_path / "typescript"
    path.write_bytes(data)
    doc = analyze_path(path).to_json()
    ran = {c["seq"]: c["command"] for c in doc["commands"]}
    return [(e["kind"], ran[e["command_seq"]], e["host"], e["message"]) for e in doc["errors"]]


def test_the_jobs_failure_says_why_from_its_log(tmp_path: Path) -> None:
    assert _errors(tmp_path, EXIT_THEN_CAT) == [
        ("exit_code", "nohup python3 srv.py > srv.log 2>&1 &", "gpu01",
         "[1]+  Exit 1                  nohup python3 srv.py > srv.log 2>&1"),
        ("tool_error", "nohup python3 srv.py > srv.log 2>&1 &", "gpu01",
         "Error: draft model /models/EAGLE3-LLaMA3.1-Instruct-8B not found")]


def test_the_traceback_in_the_jobs_log_is_the_jobs(tmp_path: Path) -> None:
    job = "nohup python3 srv2.py > srv.log 2>&1 &"
    assert _errors(tmp_path, TRACEBACK_THEN_TAIL) == [
        ("exit_code", job, "gpu01", "[1]+  Exit 1                  nohup python3 srv2.py > srv.log 2>&1"),
        ("tool_error", "nvidia-smi -L", "gpu01", "bash: nvidia-smi: command not found"),
        ("traceback", job, "gpu01",
         "/models/EAGLE3-LLaMA3.1-Instruct-8B does not appear to have a file named config.json")]


def test_another_files_errors_stay_the_readings(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text("root@gpu01:~# nohup python3 srv.py > srv.log 2>&1 &\n[1] 4242\n"
                    "root@gpu01:~# sleep 5\n[1]+  Exit 1                  nohup python3 srv.py > srv.log 2>&1\n"
                    "root@gpu01:~# cat old.log\nTraceback (most recent call last):\n"
                    '  File "old.py", line 1, in <module>\nRuntimeError: CUDA error: out of memory\n'
                    "root@gpu01:~# cat notes.txt\nError: remember to pull the new image\n")
    doc = analyze_path(path).to_json()
    ran = {c["seq"]: c["command"] for c in doc["commands"]}
    assert [(e["kind"], ran[e["command_seq"]]) for e in doc["errors"]] == [
        ("exit_code", "nohup python3 srv.py > srv.log 2>&1 &"), ("cuda_oom", "cat old.log")]


def test_a_running_jobs_log_line_is_no_failure_of_its_own(tmp_path: Path) -> None:
    # the job has not ended: an "Error: ..." last line of its log is what it says, not how it ended
    path = tmp_path / "session.log"
    path.write_text("root@gpu01:~# nohup python3 srv.py > srv.log 2>&1 &\n[1] 4242\n"
                    "root@gpu01:~# tail -n 1 srv.log\nError: retrying in 5 s\n")
    assert analyze_path(path).to_json()["errors"] == []


def test_the_files_a_jobs_output_goes_to() -> None:
    from spec_debug.session import shell
    from spec_debug.session.job_ends import written_files
    assert {command: written_files(shell.split_words(command)) for command in [
        "nohup python3 srv.py > srv.log 2>&1", "python3 srv.py &> /tmp/logs/srv.log", "python3 srv.py >> a.log 2> err.log",
        "python3 srv.py 2>&1 | tee -a srv.log | grep -v DEBUG", "python3 srv.py > /dev/null 2>&1", "python3 srv.py"]} == {
        "nohup python3 srv.py > srv.log 2>&1": {"srv.log"}, "python3 srv.py &> /tmp/logs/srv.log": {"srv.log"},
        "python3 srv.py >> a.log 2> err.log": {"a.log", "err.log"},
        "python3 srv.py 2>&1 | tee -a srv.log | grep -v DEBUG": {"srv.log"},
        "python3 srv.py > /dev/null 2>&1": set(), "python3 srv.py": set()}

"""A background job's log file was matched by its name only: two jobs writing ``srv.log`` in two
folders were one file, and the newer job's took the other's. ``cd rec/a; nohup python3 srv.py >
srv.log 2>&1 &`` failed (``[1]+ Exit 1 ... (wd: .../rec/a)``), then a server started in rec/b
wrote its own srv.log, and ``cat ../a/srv.log`` read there was that running server's log: the
failed job got no reason. Now the file is the path the shell saw (the prompt's folder and the
path typed) where the log shows the folders, else the name.

Recorded with util-linux script 2.38.1 in tmux 3.3a, bash 5.2 with PS1 ``root@gpu01:\\w# ``:
a/srv.py prints a ServerArgs line then exits with ``sys.exit("Error: ...")``; b/srv.py prints
its ServerArgs line and sleeps."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

TWO_FOLDERS = b"".join([
    b'Script started on 2026-12-07 05:28:46+00:00 [COMMAND="bash --rcfile /tmp/textlogs10-scratch/bashrc -i"'
    b' TERM="tmux-256color" TTY="/dev/pts/2" COLUMNS="120" LINES="40"]\n',
    b'\x1b[?2004hroot@gpu01:/tmp/textlogs10-scratch# cd /tmp/textlogs10-scratch/rec/a\r\n',
    b'\x1b[?2004l\r',
    b'\x1b[?2004hroot@gpu01:/tmp/textlogs10-scratch/rec/a# nohup python3 srv.py > srv.log 2>&1 &\r\n',
    b'\x1b[?2004l\r',
    b'[1] 24172\r\n',
    b'\x1b[?2004hroot@gpu01:/tmp/textlogs10-scratch/rec/a# cd ../b\r\n',
    b'\x1b[?2004l\r',
    b'[1]+  Exit 1                  nohup python3 srv.py > srv.log 2>&1  (wd: /tmp/textlogs10-scratch/rec/a)\r\n',
    b'(wd now: /tmp/textlogs10-scratch/rec/b)\r\n',
    b'\x1b[?2004hroot@gpu01:/tmp/textlogs10-scratch/rec/b# nohup python3 srv.py > srv.log 2>&1 &\r\n',
    b'\x1b[?2004l\r',
    b'[1] 24281\r\n',
    b'\x1b[?2004hroot@gpu01:/tmp/textlogs10-scratch/rec/b# sleep 1\r\n',
    b'\x1b[?2004l\r',
    b'\x1b[?2004hroot@gpu01:/tmp/textlogs10-scratch/rec/b# cat ../a/srv.log\r\n',
    b'\x1b[?2004l\r',
    b'nohup: ignoring input\r\n',
    b"server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B-Instruct', speculative_algorithm='EAGLE3')\r\n",
    b'Error: draft model /models/EAGLE3-LLaMA3.1-Instruct-8B not found\r\n',
    b'\x1b[?2004hroot@gpu01:/tmp/textlogs10-scratch/rec/b# exit\r\n',
    b'\x1b[?2004l\r',
    b'exit\r\n',
    b'\n',
    b'Script done on 2026-12-07 05:28:53+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def _errors(path: Path) -> list[tuple[str, str, str]]:
    doc = analyze_path(path).to_json()
    ran = {c["seq"]: (c["command"], c["cwd"]) for c in doc["commands"]}
    return [(e["kind"], *ran[e["command_seq"]], e["message"]) for e in doc["errors"]]


def test_the_log_read_is_the_one_in_the_folder_read(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(TWO_FOLDERS)
    job = ("nohup python3 srv.py > srv.log 2>&1 &", "/tmp/textlogs10-scratch/rec/a")
    assert _errors(path) == [
        ("exit_code", *job,
         "[1]+  Exit 1                  nohup python3 srv.py > srv.log 2>&1  (wd: /tmp/textlogs10-scratch/rec/a)"),
        ("tool_error", *job, "Error: draft model /models/EAGLE3-LLaMA3.1-Instruct-8B not found")]


def test_another_folders_file_of_that_name_is_not_the_jobs(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text("root@gpu01:~/a# nohup python3 srv.py > srv.log 2>&1 &\n[1] 4242\n"
                    "root@gpu01:~/a# sleep 5\n[1]+  Exit 1                  nohup python3 srv.py > srv.log 2>&1\n"
                    "root@gpu01:~/a# cat ~/b/srv.log\nError: retrying in 5 s\n"
                    "root@gpu01:~/a# cat ../a/srv.log\nError: draft model /models/x not found\n")
    assert _errors(path) == [
        ("exit_code", "nohup python3 srv.py > srv.log 2>&1 &", "~/a",
         "[1]+  Exit 1                  nohup python3 srv.py > srv.log 2>&1"),
        ("tool_error", "nohup python3 srv.py > srv.log 2>&1 &", "~/a", "Error: draft model /models/x not found")]


def test_by_name_where_a_folder_is_not_known(tmp_path: Path) -> None:
    # a prompt with no folder: the reading's folder is unknown, so the file of that name is the job's
    path = tmp_path / "session.log"
    path.write_text("root@gpu01:~/a# nohup python3 srv.py > logs/srv.log 2>&1 &\n[1] 4242\n"
                    "$ sleep 5\n[1]+  Exit 1                  nohup python3 srv.py > logs/srv.log 2>&1\n"
                    "$ tail -n 1 srv.log\nError: draft model /models/x not found\n")
    job = ("nohup python3 srv.py > logs/srv.log 2>&1 &", "~/a")
    assert _errors(path) == [
        ("exit_code", *job, "[1]+  Exit 1                  nohup python3 srv.py > logs/srv.log 2>&1"),
        ("tool_error", *job, "Error: draft model /models/x not found")]


def test_by_name_where_the_homes_path_is_not_known(tmp_path: Path) -> None:
    # ~/srv.log typed at the prompt, /root/srv.log read: the home folder's path is not shown
    path = tmp_path / "session.log"
    path.write_text("root@gpu01:~# nohup python3 srv.py > srv.log 2>&1 &\n[1] 4242\n"
                    "root@gpu01:~# sleep 5\n[1]+  Exit 1                  nohup python3 srv.py > srv.log 2>&1\n"
                    "root@gpu01:~# tail -n 1 /root/srv.log\nError: draft model /models/x not found\n")
    job = ("nohup python3 srv.py > srv.log 2>&1 &", "~")
    assert _errors(path) == [
        ("exit_code", *job, "[1]+  Exit 1                  nohup python3 srv.py > srv.log 2>&1"),
        ("tool_error", *job, "Error: draft model /models/x not found")]


def test_by_name_where_the_homes_path_is_not_known(tmp_path: Path) -> None:
    # ~/srv.log typed at the prompt, /root/srv.log read: the home folder's path is not shown
    path = tmp_path / "session.log"
    path.write_text("root@gpu01:~# nohup python3 srv.py > srv.log 2>&1 &\n[1] 4242\n"
                    "root@gpu01:~# sleep 5\n[1]+  Exit 1                  nohup python3 srv.py > srv.log 2>&1\n"
                    "root@gpu01:~# tail -n 1 /root/srv.log\nError: draft model /models/x not found\n")
    job = ("nohup python3 srv.py > srv.log 2>&1 &", "~")
    assert _errors(path) == [
        ("exit_code", *job, "[1]+  Exit 1                  nohup python3 srv.py > srv.log 2>&1"),
        ("tool_error", *job, "Error: draft model /models/x not found")]


def test_the_key_of_a_file() -> None:
    from spec_debug.session.job_ends import log_key
    assert [log_key(p, cwd) for p, cwd in [
        ("srv.log", "/root/a"), ("../a/srv.log", "/root/b"), ("./logs//srv.log", "~/x"), ("/var/log/srv.log", "/root"),
        ("~/b/srv.log", None), ("logs/srv.log", None), ("srv.log", "C:\\x")]] == [
        "/root/a/srv.log", "/root/a/srv.log", "~/x/logs/srv.log", "/var/log/srv.log", "~/b/srv.log", "srv.log",
        "srv.log"]

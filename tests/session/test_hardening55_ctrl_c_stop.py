"""A command stopped with Ctrl-C in a terminal log is the person's stop, not a failure: the tty
echoes the key as ``^C`` at the start of an output line (stty(1) ``echoctl``). Before: a ``tail
-f`` so stopped counted nothing, and a Python program so stopped was a failed call with a
``KeyboardInterrupt`` traceback error and, after ``echo $?``, exit 130 as its failure (Claude
Code's "[Request interrupted by user]" is counted in ``stats.interrupts``, no error). The
typescripts are bash 5.2.15 sessions recorded with util-linux script 2.38.1 (``script -q -c "bash
-i"``), the keys typed through a pty."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

_HEAD = b'Script started on 2026-12-05 22:39:35+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm" TTY="/dev/pts/0"]\n'
_DONE = b'\x1b[?2004hroot@gpu01:~# exit\r\n\x1b[?2004l\rexit\r\n\nScript done on 2026-12-05 22:39:43+00:00 [COMMAND_EXIT_CODE="2"]\n'

STOPPED = _HEAD + (
    b"\x1b[?2004hroot@gpu01:~# tail -f server.log\r\n\x1b[?2004l\rINFO server started\r\n^C\r\n"
    b"\x1b[?2004hroot@gpu01:~# python3 -c 'import time; time.sleep(30)'\r\n"
    b'\x1b[?2004l\r^CTraceback (most recent call last):\r\n  File "<string>", line 1, in <module>\r\n'
    b"KeyboardInterrupt\r\n\r\n"
    b"\x1b[?2004hroot@gpu01:~# echo $?\r\n\x1b[?2004l\r130\r\n"
    b"\x1b[?2004hroot@gpu01:~# ls /nonexistent\r\n"
    b"\x1b[?2004l\rls: cannot access '/nonexistent': No such file or directory\r\n") + _DONE

FAILED_THEN_STOPPED = _HEAD + (
    b"\x1b[?2004hroot@gpu01:~# python3 serve.py\r\n"
    b"\x1b[?2004l\rRuntimeError: CUDA error: out of memory\r\n"
    b'^CTraceback (most recent call last):\r\n  File "<string>", line 1, in <module>\r\nKeyboardInterrupt\r\n\r\n'
    b"\x1b[?2004hroot@gpu01:~# echo $?\r\n\x1b[?2004l\r130\r\n"
    b"\x1b[?2004hroot@gpu01:~# cat old-typescript.log\r\n\x1b[?2004l\rx\r\n^C\r\ny\r\n") + _DONE


def _analyzed(tmp_path: Path, data: bytes) -> dict:
    path = tmp_path / "typescript"
    path.write_bytes(data)
    return analyze_path(path).to_json()


def test_commands_stopped_with_ctrl_c_are_interrupts(tmp_path: Path) -> None:
    doc = _analyzed(tmp_path, STOPPED)
    got = {c["command"]: (c["exit_code"], c["is_error"]) for c in doc["commands"] if c["host"] == "gpu01"}
    assert got["tail -f server.log"] == (None, False)
    # bash's 130 (128 + SIGINT) is the key's, the call no failure
    assert got["python3 -c 'import time; time.sleep(30)'"] == (130, False)
    assert got["ls /nonexistent"] == (None, True)
    assert doc["stats"]["interrupts"] == 2
    assert [e["kind"] for e in doc["errors"]] == ["tool_error"]  # ls's; no KeyboardInterrupt


def test_an_error_before_the_key_stands_and_a_file_read_back_is_no_stop(tmp_path: Path) -> None:
    doc = _analyzed(tmp_path, FAILED_THEN_STOPPED)
    got = {c["command"]: (c["exit_code"], c["is_error"]) for c in doc["commands"] if c["host"] == "gpu01"}
    assert got["python3 serve.py"] == (130, True)
    assert got["cat old-typescript.log"] == (None, False)
    assert doc["stats"]["interrupts"] == 0
    assert [(e["kind"], e["exception"]) for e in doc["errors"]] == [("cuda_oom", "RuntimeError")]


def test_a_server_stopped_in_a_tmux_pane_is_no_failure(tmp_path: Path) -> None:
    # SGLang's parent on Ctrl-C: its children died of the same SIGINT, it says "sigquit"
    # (tmux capture-pane of a real session, tests/session/data_h8/formats/tmux_capture_pane.txt)
    path = tmp_path / "pane.log"
    path.write_text("root@gpu-3:~/sglang# python3 -m sglang.launch_server --model meta-llama/Llama-3.1-8B-Instruct\n"
                    "[2025-08-18 10:03:02] Decode batch, #running-req: 1, gen throughput (token/s): 95.31\n"
                    "^C[2025-08-18 10:03:05] Received sigquit from a child process. It usually means the child failed.\n"
                    "root@gpu-3:~/sglang# nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n")
    doc = analyze_path(path).to_json()
    assert [c["is_error"] for c in doc["commands"]] == [False, False]
    assert doc["errors"] == [] and doc["stats"]["interrupts"] == 1


REPL = _HEAD + (
    b"\x1b[?2004hroot@gpu01:~# python3 -q\r\n\x1b[?2004l\r>>> import time\r\n>>> \r\nKeyboardInterrupt\r\n"
    b'>>> time.sleep(20)\r\n^CTraceback (most recent call last):\r\n  File "<stdin>", line 1, in <module>\r\n'
    b"KeyboardInterrupt\r\n>>> y = undefined_name\r\n"
    b'Traceback (most recent call last):\r\n  File "<stdin>", line 1, in <module>\r\n'
    b"NameError: name 'undefined_name' is not defined\r\n>>> exit()\r\n") + _DONE


def test_ctrl_c_at_a_python_prompt_stops_a_statement_not_the_interpreter(tmp_path: Path) -> None:
    # the statement typed after the key still raised: its error stands
    doc = _analyzed(tmp_path, REPL)
    assert "NameError" in [e["exception"] for e in doc["errors"]]
    assert "interrupted" not in [e["kind"] for e in doc["errors"]]
